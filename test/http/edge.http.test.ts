import { expect } from 'chai';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { writeJson } from '../../adapters/http/json-values.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import { openPostgres, type AppRepositories } from '../../bootstrap/persistence.js';
import { upstreamOf } from '../support/blackhole-proxy.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aPhone, createTestApp, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

// The HTTP edge (API-DECISIONS "Wire format", "Errors", "Rate limits"), through the real Koa app.

/** Slug and title per status: written out here, not imported, so a drift in problem.ts fails. */
const STATUS_INFO: Record<number, { slug: string; title: string }> = {
  400: { slug: 'validation', title: 'Bad Request' },
  401: { slug: 'authentication', title: 'Unauthorized' },
  404: { slug: 'resource-not-found', title: 'Resource Not Found' },
  405: { slug: 'method-not-allowed', title: 'Method Not Allowed' },
  413: { slug: 'payload-too-large', title: 'Payload Too Large' },
  415: { slug: 'unsupported-media-type', title: 'Unsupported Media Type' },
  429: { slug: 'rate-limit', title: 'Too Many Requests' },
  500: { slug: 'internal', title: 'Internal Server Error' },
  503: { slug: 'unavailable', title: 'Service Unavailable' },
};
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Asserts the status, the code and the whole error envelope; returns the `error` object. */
const expectProblem = (app: TestApp, res: TestResponse, status: number, code: string, instance?: string) => {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  expect(res.body, res.text).to.be.an('object');
  expect(Object.keys(res.body).sort()).to.deep.equal(['error', 'message', 'success', 'timestamp']);
  expect(res.body.success).to.equal(false);
  expect(res.body.message).to.be.a('string').with.length.greaterThan(0);
  expect(res.body.timestamp).to.match(ISO_UTC_MS);
  expect(new Date(res.body.timestamp).toISOString()).to.equal(res.body.timestamp);
  const error = res.body.error;
  const keys = Object.keys(error).filter((k) => k !== 'errors').sort();
  expect(keys).to.deep.equal(['code', 'detail', 'instance', 'status', 'title', 'type']);
  const info = STATUS_INFO[status]!;
  expect(error.type).to.equal(`${app.config.ERROR_TYPE_BASE}/${info.slug}`);
  expect(error.title).to.equal(info.title);
  expect(error.status).to.equal(status);
  expect(error.code).to.equal(code);
  expect(error.detail).to.be.a('string').with.length.greaterThan(0);
  if (instance !== undefined) expect(error.instance).to.equal(instance);
  else expect(error.instance).to.be.a('string').and.match(/^\/api\/v1\//);
  if (status === 400 || status === 422) {
    expect(error.errors ?? [], 'a 400 lists {field, message}').to.satisfy((list: unknown[]) =>
      list.every((e) => typeof e === 'object' && e !== null && Object.keys(e).sort().join() === 'field,message'),
    );
  }
  return error;
};

const fieldsOf = (error: { errors?: { field: string; message: string }[] }) => (error.errors ?? []).map((e) => e.field);

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}
const parseLog = (app: TestApp): LogLine[] => app.logLines.map((l) => JSON.parse(l) as LogLine);
const requestLines = (app: TestApp, requestId: string) => parseLog(app).filter((l) => l.msg === 'request' && l.req_id === requestId);

/** A raw HTTP GET (no transparent decompression): status, headers and the bytes as sent. */
const rawGet = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('HTTP edge', () => {
  describe('routing, authentication, methods and bodies', () => {
    let app: TestApp;
    before(async () => (app = await createTestApp()));
    after(async () => app.close());

    it('answers an unknown route 404 ROUTE_NOT_FOUND with no token, a valid-looking one and a malformed one', async () => {
      const variants: Record<string, string>[] = [{}, { authorization: 'Bearer garbage' }, { authorization: 'Basic dXNlcjpwYXNz' }];
      for (const headers of variants) {
        const res = await app.request('GET', '/api/v1/no-such-thing', { headers });
        expectProblem(app, res, 404, 'ROUTE_NOT_FOUND', '/api/v1/no-such-thing');
      }
      const outside = await app.request('POST', '/elsewhere', { body: {} });
      expectProblem(app, outside, 404, 'ROUTE_NOT_FOUND', '/api/v1/elsewhere');
    });

    it('answers a bearer route without a token 401 TOKEN_MISSING', async () => {
      const res = await app.request('GET', '/auth/me');
      expectProblem(app, res, 401, 'TOKEN_MISSING', '/api/v1/auth/me');
    });

    it('answers "Bearer garbage" and a non-bearer scheme 401 TOKEN_INVALID', async () => {
      const garbage = await app.request('GET', '/auth/me', { headers: { authorization: 'Bearer garbage' } });
      expectProblem(app, garbage, 401, 'TOKEN_INVALID', '/api/v1/auth/me');
      const basic = await app.request('GET', '/auth/me', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
      expectProblem(app, basic, 401, 'TOKEN_INVALID', '/api/v1/auth/me');
    });

    it('answers a wrong method on a known path 405 METHOD_NOT_ALLOWED with an Allow header', async () => {
      const del = await app.request('DELETE', '/auth/login');
      expectProblem(app, del, 405, 'METHOD_NOT_ALLOWED', '/api/v1/auth/login');
      expect(del.headers.get('allow')).to.equal('POST');
      const post = await app.request('POST', '/auth/me', { body: {} });
      expectProblem(app, post, 405, 'METHOD_NOT_ALLOWED', '/api/v1/auth/me');
      expect(post.headers.get('allow')).to.match(/^(GET, HEAD|HEAD, GET)$/);
      // A method the router does not know: 405 on a known path, 404 on an unknown one.
      const odd = await app.request('PROPFIND', '/auth/login');
      expectProblem(app, odd, 405, 'METHOD_NOT_ALLOWED', '/api/v1/auth/login');
      expect(odd.headers.get('allow')).to.equal('POST');
      const nowhere = await app.request('PROPFIND', '/api/v1/nope');
      expectProblem(app, nowhere, 404, 'ROUTE_NOT_FOUND', '/api/v1/nope');
      expect(nowhere.headers.has('allow')).to.equal(false);
    });

    it('answers malformed JSON 400 MALFORMED_JSON', async () => {
      const res = await app.request('POST', '/auth/login', { rawBody: '{"phone": "+2348031234567",', headers: { 'content-type': 'application/json' } });
      expectProblem(app, res, 400, 'MALFORMED_JSON', '/api/v1/auth/login');
    });

    it('answers an unknown body field 400 VALIDATION_FAILED naming it', async () => {
      const res = await app.request('POST', '/auth/login', { body: { phone: aPhone(), nickname: 'ada' } });
      const error = expectProblem(app, res, 400, 'VALIDATION_FAILED', '/api/v1/auth/login');
      expect(error.errors).to.deep.equal([{ field: 'nickname', message: 'is not a known field' }]);
      expect(res.body.message).to.contain('nickname');
    });

    it('answers a wrong type 400 VALIDATION_FAILED with {field, message}', async () => {
      const res = await app.request('POST', '/auth/login', { body: { phone: 2348031234567 } });
      const error = expectProblem(app, res, 400, 'VALIDATION_FAILED');
      expect(error.errors).to.deep.equal([{ field: 'phone', message: 'must be a string' }]);
      const reg = await app.request('POST', '/auth/register', { body: { phone: aPhone(), first_name: ['Ada'], last_name: 'Obi', business_name: true } });
      const regError = expectProblem(app, reg, 400, 'VALIDATION_FAILED', '/api/v1/auth/register');
      expect(fieldsOf(regError).sort()).to.deep.equal(['business_name', 'first_name']);
    });

    it('answers a JSON array (and a JSON scalar) body 400 VALIDATION_FAILED', async () => {
      const array = await app.request('POST', '/auth/login', { body: [{ phone: aPhone() }] });
      const error = expectProblem(app, array, 400, 'VALIDATION_FAILED', '/api/v1/auth/login');
      expect(error.errors).to.deep.equal([{ field: '(body)', message: 'must be a JSON object' }]);
      const scalar = await app.request('POST', '/auth/login', { rawBody: '"+2348031234567"', headers: { 'content-type': 'application/json' } });
      expect(scalar.status).to.equal(400);
      expect(['VALIDATION_FAILED', 'MALFORMED_JSON']).to.include(scalar.body.error.code);
    });

    it('answers a body over 1 MB 413 PAYLOAD_TOO_LARGE', async () => {
      const rawBody = JSON.stringify({ phone: aPhone(), pad: 'x'.repeat(1024 * 1024 + 10) });
      const res = await app.request('POST', '/auth/login', { rawBody, headers: { 'content-type': 'application/json' } });
      expectProblem(app, res, 413, 'PAYLOAD_TOO_LARGE', '/api/v1/auth/login');
      // Just under the limit is read (and refused for its unknown field, not its size).
      const under = JSON.stringify({ phone: aPhone(), pad: 'x'.repeat(1000 * 1000) });
      const ok = await app.request('POST', '/auth/login', { rawBody: under, headers: { 'content-type': 'application/json' } });
      expect(fieldsOf(expectProblem(app, ok, 400, 'VALIDATION_FAILED'))).to.deep.equal(['pad']);
    });

    it('answers a text/plain body 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const res = await app.request('POST', '/auth/login', { rawBody: JSON.stringify({ phone: aPhone() }), headers: { 'content-type': 'text/plain' } });
      expectProblem(app, res, 415, 'UNSUPPORTED_MEDIA_TYPE', '/api/v1/auth/login');
      const form = await app.request('POST', '/auth/login', { rawBody: 'phone=%2B2348031234567', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expectProblem(app, form, 415, 'UNSUPPORTED_MEDIA_TYPE', '/api/v1/auth/login');
    });
  });

  describe('request ids and the request log', () => {
    let app: TestApp;
    before(async () => (app = await createTestApp()));
    after(async () => app.close());

    it('echoes a sent X-Request-Id and logs one request line with it', async () => {
      const id = `edge-test.${Date.now()}`;
      const res = await app.request('GET', '/actuator/health', { headers: { 'x-request-id': id } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-request-id')).to.equal(id);
      const lines = requestLines(app, id);
      expect(lines).to.have.length(1);
      const line = lines[0]!;
      expect(line).to.include({ req_id: id, method: 'GET', route: '/api/v1/actuator/health', status: 200 });
      expect(line.ms).to.be.a('number').and.at.least(0);
      expect(line).to.not.have.property('business_id');
    });

    it('generates a UUID X-Request-Id when none (or an unusable one) is sent', async () => {
      const first = await app.request('GET', '/actuator/health');
      const second = await app.request('GET', '/actuator/health');
      const a = first.headers.get('x-request-id')!;
      const b = second.headers.get('x-request-id')!;
      expect(a).to.match(UUID_V4);
      expect(b).to.match(UUID_V4);
      expect(a).to.not.equal(b);
      expect(requestLines(app, a)).to.have.length(1);
      const odd = await app.request('GET', '/actuator/health', { headers: { 'x-request-id': 'has spaces {and} "quotes"' } });
      expect(odd.headers.get('x-request-id')).to.match(UUID_V4);
    });

    it('logs the matched route pattern, the status and the business of an authenticated request', async () => {
      const owner = await registerOwner(app);
      const me = await app.request('GET', '/auth/me', { token: owner.accessToken, headers: { 'x-request-id': 'me-1' } });
      expect(me.status).to.equal(200);
      const [line, ...more] = requestLines(app, 'me-1');
      expect(more).to.have.length(0);
      expect(line).to.include({ method: 'GET', route: '/api/v1/auth/me', status: 200, business_id: me.body.data.business.id });
      expect(line!.ms).to.be.a('number');

      const unknown = await app.request('GET', '/api/v1/nope/123', { headers: { 'x-request-id': 'nope-1' } });
      expect(unknown.status).to.equal(404);
      expect(requestLines(app, 'nope-1')).to.have.length(1);
      expect(requestLines(app, 'nope-1')[0]).to.include({ method: 'GET', route: '(unmatched)', status: 404 });

      const denied = await app.request('GET', '/auth/me', { headers: { 'x-request-id': 'me-2' } });
      expect(denied.status).to.equal(401);
      expect(requestLines(app, 'me-2')[0]).to.include({ route: '/api/v1/auth/me', status: 401 });
    });

    it('never writes tokens, codes or full phone numbers to the log (outside "outgoing message")', async () => {
      const phone = aPhone();
      const owner = await registerOwner(app, { phone });
      const code1 = app.outbox.lastCode(phone);
      await app.request('GET', '/auth/me', { token: owner.accessToken });
      app.clock.advance(61_000);
      expect((await app.request('POST', '/auth/login', { body: { phone } })).status).to.equal(200);
      const code2 = app.outbox.lastCode(phone);
      const wrong = code2 === '000000' ? '000001' : '000000';
      expect((await app.request('POST', '/auth/verify-otp', { body: { phone, otp: wrong } })).status).to.equal(400);
      const verified = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: code2 } });
      expect(verified.status).to.equal(200);
      const refreshed = await app.request('POST', '/auth/refresh', { body: { refresh_token: verified.body.data.refresh_token } });
      expect(refreshed.status).to.equal(200);
      // Replaying a spent refresh token (after the grace window) and sending a bad token are logged too: still nothing secret.
      app.clock.advance(31_000);
      expect((await app.request('POST', '/auth/refresh', { body: { refresh_token: verified.body.data.refresh_token } })).status).to.equal(401);
      expect((await app.request('GET', '/auth/me', { headers: { authorization: `Bearer ${owner.accessToken}x` } })).status).to.equal(401);

      const secrets = [
        owner.accessToken,
        owner.refreshToken,
        verified.body.data.access_token,
        verified.body.data.refresh_token,
        refreshed.body.data.access_token,
        refreshed.body.data.refresh_token,
      ] as string[];
      const digitRuns = [code1, code2, wrong, phone.slice(1), phone.slice(4)];
      const lines = app.logLines.filter((l) => (JSON.parse(l) as LogLine).msg !== 'outgoing message');
      expect(lines.length).to.be.greaterThan(8);
      for (const line of lines) {
        for (const s of secrets) expect(line.includes(s), `a token in: ${line}`).to.equal(false);
        for (const d of digitRuns) expect(new RegExp(`(?<![0-9a-f])${d}(?![0-9a-f])`).test(line), `${d} in: ${line}`).to.equal(false);
      }
    });
  });

  describe('security, CORS, compression and caching headers', () => {
    let app: TestApp;
    before(async () => (app = await createTestApp()));
    after(async () => app.close());

    it('sends the helmet headers', async () => {
      for (const res of [await app.request('GET', '/actuator/health'), await app.request('GET', '/api/v1/nope')]) {
        expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
        expect(res.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
        expect(res.headers.get('strict-transport-security')).to.match(/max-age=\d+/);
        expect(res.headers.get('content-security-policy')).to.contain("default-src 'self'");
        expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
        expect(res.headers.get('cross-origin-opener-policy')).to.equal('same-origin');
        expect(res.headers.get('x-dns-prefetch-control')).to.equal('off');
        expect(res.headers.has('x-powered-by')).to.equal(false);
      }
    });

    it('allows any origin by default, on successes and errors', async () => {
      const ok = await app.request('GET', '/actuator/health', { headers: { origin: 'https://shop.example' } });
      expect(ok.headers.get('access-control-allow-origin')).to.equal('*');
      expect(ok.headers.get('access-control-expose-headers')).to.contain('X-Request-Id').and.contain('RateLimit-Remaining').and.contain('Retry-After');
      const denied = await app.request('GET', '/auth/me', { headers: { origin: 'https://shop.example' } });
      expect(denied.status).to.equal(401);
      expect(denied.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it('answers a CORS preflight with the allowed methods and headers', async () => {
      const res = await app.request('OPTIONS', '/auth/login', {
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,idempotency-key,content-type' },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      const allowed = res.headers.get('access-control-allow-headers')!.split(',').map((h) => h.trim().toLowerCase());
      expect(allowed).to.include.members(['authorization', 'idempotency-key', 'content-type', 'x-request-id']);
      expect(res.headers.get('access-control-allow-methods')).to.contain('POST');
      expect(res.headers.get('access-control-max-age')).to.equal('600');
    });

    it('with CORS_ORIGINS set, allows that origin and no other', async () => {
      const strict = await createTestApp({ persistence: 'memory', env: { CORS_ORIGINS: 'https://a.example' } });
      try {
        const a = await strict.request('GET', '/actuator/health', { headers: { origin: 'https://a.example' } });
        expect(a.headers.get('access-control-allow-origin')).to.equal('https://a.example');
        expect(a.headers.get('vary')).to.match(/origin/i);
        const b = await strict.request('GET', '/actuator/health', { headers: { origin: 'https://b.example' } });
        expect(b.status).to.equal(200);
        expect(b.headers.has('access-control-allow-origin')).to.equal(false);
        const preflight = await strict.request('OPTIONS', '/auth/login', { headers: { origin: 'https://b.example', 'access-control-request-method': 'POST' } });
        expect(preflight.headers.has('access-control-allow-origin')).to.equal(false);
        expect(preflight.headers.has('access-control-allow-methods')).to.equal(false);
      } finally {
        await strict.close();
      }
    });

    it('compresses the OpenAPI document with gzip and br', async () => {
      const expected = writeJson(app.openApi); // money examples written 8000.00 (ADR 0046)
      const served = JSON.parse(expected);
      expect(Buffer.byteLength(expected)).to.be.greaterThan(1024);
      const gz = await rawGet(`${app.baseUrl}/api/v1/api-docs`, { 'accept-encoding': 'gzip' });
      expect(gz.status).to.equal(200);
      expect(gz.headers['content-encoding']).to.equal('gzip');
      expect(gz.headers.vary).to.match(/accept-encoding/i);
      expect(gz.bytes.length).to.be.lessThan(Buffer.byteLength(expected));
      expect(JSON.parse(gunzipSync(gz.bytes).toString('utf8'))).to.deep.equal(served);
      const br = await rawGet(`${app.baseUrl}/api/v1/api-docs`, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).to.equal('br');
      expect(JSON.parse(brotliDecompressSync(br.bytes).toString('utf8'))).to.deep.equal(served);
      const plain = await rawGet(`${app.baseUrl}/api/v1/api-docs`, { 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(JSON.parse(plain.bytes.toString('utf8'))).to.deep.equal(served);
    });

    it('does not compress a small JSON response', async () => {
      const res = await rawGet(`${app.baseUrl}/api/v1/actuator/health`, { 'accept-encoding': 'gzip, br' });
      expect(res.status).to.equal(200);
      expect(res.bytes.length).to.be.lessThan(1024);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(JSON.parse(res.bytes.toString('utf8')).data.status).to.equal('UP');
    });

    it('sends Cache-Control: no-store on API responses, successes and errors alike', async () => {
      const responses = [
        await app.request('GET', '/actuator/health'),
        await app.request('GET', '/auth/me'),
        await app.request('POST', '/auth/login', { body: { nope: 1 } }),
        await app.request('GET', '/api/v1/nope'),
        await app.request('DELETE', '/auth/login'),
      ];
      expect(responses.map((r) => r.status)).to.deep.equal([200, 401, 400, 404, 405]);
      for (const res of responses) expect(res.headers.get('cache-control'), `${res.status}`).to.equal('no-store');
    });
  });

  describe('rate limits', () => {
    let app: TestApp;
    before(async () => (app = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_IDENTIFIER: '3', RATE_LIMIT_USER: '2' } })));
    after(async () => app.close());

    it('limits auth requests per identifier (4th login of one phone in a minute -> 429), not others', async () => {
      const phone = aPhone();
      for (let i = 0; i < 3; i++) {
        app.clock.advance(61_000); // past the OTP resend cooldown (a domain clock); the limiter's minute is real time
        const res = await app.request('POST', '/auth/login', { body: { phone } });
        expect(res.status, res.text).to.equal(200);
        expect(res.headers.get('ratelimit-limit')).to.equal('3');
        expect(res.headers.get('ratelimit-remaining')).to.equal(String(2 - i));
        expect(Number(res.headers.get('ratelimit-reset'))).to.be.within(1, 60);
      }
      app.clock.advance(61_000);
      const limited = await app.request('POST', '/auth/login', { body: { phone } });
      expectProblem(app, limited, 429, 'RATE_LIMITED', '/api/v1/auth/login');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 60);
      expect(limited.headers.get('ratelimit-limit')).to.equal('3');
      expect(limited.headers.get('ratelimit-remaining')).to.equal('0');
      expect(Number(limited.headers.get('ratelimit-reset'))).to.equal(retryAfter);
      // The same phone written locally is the same identifier.
      const local = await app.request('POST', '/auth/login', { body: { phone: `0${phone.slice(4)}` } });
      expect(local.status).to.equal(429);

      const other = await app.request('POST', '/auth/login', { body: { phone: aPhone() } });
      expect(other.status, other.text).to.equal(200);
      expect(other.headers.get('ratelimit-remaining')).to.equal('2');
    });

    it('limits authenticated calls per user', async () => {
      const a = await registerOwner(app);
      const b = await registerOwner(app);
      for (let i = 0; i < 2; i++) {
        const res = await app.request('GET', '/auth/me', { token: a.accessToken });
        expect(res.status).to.equal(200);
        expect(res.headers.get('ratelimit-limit')).to.equal('2');
        expect(res.headers.get('ratelimit-remaining')).to.equal(String(1 - i));
      }
      const limited = await app.request('GET', '/auth/me', { token: a.accessToken });
      expectProblem(app, limited, 429, 'RATE_LIMITED', '/api/v1/auth/me');
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
      expect(limited.headers.get('ratelimit-remaining')).to.equal('0');
      const other = await app.request('GET', '/auth/me', { token: b.accessToken });
      expect(other.status).to.equal(200);
    });
  });

  describe('an unexpected fault', () => {
    let app: TestApp;
    before(async () => {
      // The real PostgreSQL persistence (and its fault classifier), with a unit of work that fails like a bad query.
      const real = await openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: mkdtempSync(join(tmpdir(), 'bizops-test-')), poolMax: 2, log: () => undefined });
      const boom = async (): Promise<never> => {
        throw new Error('select * from secret_table');
      };
      app = await createTestApp({ persistence: { ...real, uow: { run: boom, read: boom, readInTurn: boom, atomically: boom, giveWay: boom } satisfies UnitOfWork<AppRepositories> } });
    });
    after(async () => app.close());

    it('answers 500 INTERNAL without stack or SQL, and logs the error with the request id', async () => {
      const res = await app.request('POST', '/auth/login', { body: { phone: aPhone() }, headers: { 'x-request-id': 'fault-1' } });
      expectProblem(app, res, 500, 'INTERNAL', '/api/v1/auth/login');
      expect(res.text).to.not.match(/secret_table|select \*/i);
      expect(res.text).to.not.match(/\bat .+:\d+:\d+|\.ts\b|stack/);
      expect(res.body.message).to.contain('fault-1');
      const faults = parseLog(app).filter((l) => l.req_id === 'fault-1' && l.level >= 50);
      expect(faults).to.have.length(1);
      const err = faults[0]!.err as { message: string; stack: string };
      expect(err.message).to.equal('select * from secret_table');
      expect(err.stack).to.contain('secret_table');
      expect(requestLines(app, 'fault-1')).to.have.length(1);
      expect(requestLines(app, 'fault-1')[0]).to.include({ status: 500, route: '/api/v1/auth/login' });
    });
  });

  describe('the database going away and coming back', () => {
    /**
     * A TCP proxy between the app and the database. `stop` cuts it (every socket destroyed, port
     * closed); `stall` destroys every socket but keeps accepting connections that never get an
     * answer (a database host that stopped responding); `start` restores it on the same port.
     */
    const tcpProxy = (target: ReturnType<typeof upstreamOf>) => {
      let server: TcpServer | undefined;
      let stalled = false;
      const sockets = new Set<Socket>();
      let port = 0;
      const destroyAll = () => {
        for (const s of sockets) s.destroy();
        sockets.clear();
      };
      return {
        get port() {
          return port;
        },
        async start() {
          stalled = false;
          if (server) return;
          server = createTcpServer((client) => {
            sockets.add(client);
            client.on('error', () => undefined).on('close', () => sockets.delete(client));
            if (stalled) return; // accepted, never answered
            const upstream = connect(target as never);
            sockets.add(upstream);
            const drop = () => {
              client.destroy();
              upstream.destroy();
              sockets.delete(client);
              sockets.delete(upstream);
            };
            client.on('close', drop);
            upstream.on('error', drop).on('close', drop);
            client.pipe(upstream);
            upstream.pipe(client);
          });
          await new Promise<void>((resolve, reject) => {
            server!.once('error', reject);
            server!.listen(port, '127.0.0.1', () => resolve());
          });
          port = (server.address() as AddressInfo).port;
        },
        stall() {
          stalled = true;
          destroyAll();
        },
        async stop() {
          const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
          destroyAll();
          await closed;
          server = undefined;
        },
      };
    };

    let app: TestApp;
    let proxy: ReturnType<typeof tcpProxy>;
    before(async () => {
      const url = new URL(await freshDatabaseUrl());
      proxy = tcpProxy(upstreamOf(url.toString()));
      await proxy.start();
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      app = await createTestApp({ databaseUrl: url.toString() });
    });
    after(async () => {
      await app?.close();
      await proxy?.stop();
    });

    const timed = async <A>(f: () => Promise<A>) => {
      const started = performance.now();
      const value = await f();
      return { value, ms: performance.now() - started };
    };

    /** Within a few seconds of the database coming back: health UP, login and a full sign-up work. */
    const expectRecovery = async (phone: string) => {
      const took = await until(5000, async () => (await app.request('GET', '/actuator/health')).status === 200);
      const health = await app.request('GET', '/actuator/health');
      expect(health.body.data.status).to.equal('UP');
      app.clock.advance(61_000);
      const back = await app.request('POST', '/auth/login', { body: { phone } });
      expect(back.status, back.text).to.equal(200);
      const owner = await registerOwner(app);
      expect((await app.request('GET', '/auth/me', { token: owner.accessToken })).status).to.equal(200);
      return took;
    };

    /** Polls `f` until it returns true or `ms` pass; returns how long it took. */
    const until = async (ms: number, f: () => Promise<boolean>) => {
      const started = performance.now();
      while (performance.now() - started < ms) {
        if (await f()) return performance.now() - started;
        await sleep(200);
      }
      throw new Error(`not within ${ms} ms`);
    };

    it('is UP through the proxy, 503 DATABASE_UNAVAILABLE when it is cut, and UP again when it is back', async function () {
      this.timeout(30_000);
      const phone = aPhone();
      const up = await app.request('GET', '/actuator/health');
      expect(up.status).to.equal(200);
      expect(up.body.data.status).to.equal('UP');
      expect(up.body.data.components.db.status).to.equal('UP');
      expect((await app.request('POST', '/auth/login', { body: { phone } })).status).to.equal(200);

      await proxy.stop();

      const down = await timed(() => app.request('GET', '/actuator/health'));
      expect(down.ms, 'health must not hang').to.be.lessThan(2500);
      expect(down.value.status).to.equal(503);
      expect(down.value.body.success).to.equal(false);
      expect(down.value.body.data.status).to.equal('DOWN');
      expect(down.value.body.data.components.db.status).to.equal('DOWN');
      expect(down.value.body.error.code).to.equal('DATABASE_UNAVAILABLE');
      expect(down.value.body.error.type).to.equal(`${app.config.ERROR_TYPE_BASE}/unavailable`);

      app.clock.advance(61_000);
      const login = await timed(() => app.request('POST', '/auth/login', { body: { phone } }));
      expect(login.ms, 'login must not hang').to.be.lessThan(6000);
      expectProblem(app, login.value, 503, 'DATABASE_UNAVAILABLE', '/api/v1/auth/login');
      expect(login.value.headers.get('retry-after'), 'a 503 says when to retry').to.equal('5');
      const again = await timed(() => app.request('GET', '/actuator/health'));
      expect(again.value.status).to.equal(503);
      expect(again.ms).to.be.lessThan(2500);

      await proxy.start();
      const recovered = await expectRecovery(phone);
      // eslint-disable-next-line no-console
      console.log(`        (cut: health 503 in ${Math.round(down.ms)} ms, login 503 in ${Math.round(login.ms)} ms; UP again ${Math.round(recovered)} ms after the proxy came back)`);
    });

    it('answers 503 (not 500, never hanging) while the database accepts connections but never answers, then recovers', async function () {
      this.timeout(30_000);
      const phone = aPhone();
      expect((await app.request('GET', '/actuator/health')).status).to.equal(200);

      proxy.stall();

      const down = await timed(() => app.request('GET', '/actuator/health'));
      expect(down.ms, 'health must not hang').to.be.lessThan(2500);
      expect(down.value.status).to.equal(503);
      expect(down.value.body.data.status).to.equal('DOWN');
      expect(down.value.body.error.code).to.equal('DATABASE_UNAVAILABLE');
      const login = await timed(() => app.request('POST', '/auth/login', { body: { phone } }));
      expect(login.ms, 'login must not hang').to.be.lessThan(6000);
      expectProblem(app, login.value, 503, 'DATABASE_UNAVAILABLE', '/api/v1/auth/login');
      // Now every connection attempt hangs at the proxy: the ping's own deadline answers.
      const still = await timed(() => app.request('GET', '/actuator/health'));
      expect(still.ms, 'health must not hang').to.be.lessThan(2500);
      expect(still.value.status).to.equal(503);
      expect(still.value.body.error.code).to.equal('DATABASE_UNAVAILABLE');

      await proxy.start();
      const recovered = await expectRecovery(phone);
      // eslint-disable-next-line no-console
      console.log(`        (stalled: health 503 in ${Math.round(down.ms)} / ${Math.round(still.ms)} ms, login 503 in ${Math.round(login.ms)} ms; UP again ${Math.round(recovered)} ms after)`);
    });
  });
});
