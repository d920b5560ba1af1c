import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { openPool, redactDatabaseFault } from '../../adapters/persistence/sql/pool.js';
import { database } from '../../adapters/persistence/sql/sql-session.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import { openPostgres, type AppRepositories } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const expectProblem = (res: { status: number; body: { error?: { code: string } }; text: string }, status: number, code: string) => {
  expect(res.status, res.text).to.equal(status);
  expect(res.body.error?.code, res.text).to.equal(code);
};

/** Issue 21 (low): inputs that answered 500, or slipped through, and now get a clear 4xx. */
describe('HTTP input faults', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof registerOwner>>;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
  });
  after(async () => app.close());

  it('a date outside the years 0001-9999 is 400 on every list; the first and last years answer 200', async () => {
    // reports are not lists: their dates are Lagos days of a range of at most 366 (test/http/reports.http.test.ts)
    const lists = app.routes.filter(
      (r) => r.method === 'get' && r.query && 'start_date' in ((r.query as unknown as { optional?: object }).optional ?? {}) && !r.path.startsWith('/reports/'),
    );
    expect(lists.length).to.be.greaterThan(5);
    const businessId = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
    const customerId = (await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Dated', phone: aPhone() } })).body.data.id as string;
    // partner lists take the partner's key (X-API-Key), not a user token
    const partnerKey = (await aPartner(app)).key;
    const hookId = (await asPartner(app, partnerKey, 'POST', '/partner/webhooks', { url: 'https://hooks.example.com/x', events: ['sale.created'] })).body.data.id as string;
    for (const r of lists) {
      const path = r.path.replace('/businesses/:id', `/businesses/${businessId}`).replace('/customers/:id', `/customers/${customerId}`).replace('/partner/webhooks/:id', `/partner/webhooks/${hookId}`);
      expect(path, 'every list path is filled in').to.not.contain(':');
      const auth = r.access !== 'public' && 'partnerScope' in r.access ? { headers: { 'x-api-key': partnerKey } } : { token: owner.accessToken };
      for (const param of ['start_date', 'end_date']) {
        expectProblem(await app.request('GET', `${path}?${param}=0000-01-01`, auth), 400, 'VALIDATION_FAILED');
        expectProblem(await app.request('GET', `${path}?${param}=0000-06-01T00:00:00Z`, auth), 400, 'VALIDATION_FAILED');
      }
      const edges = await app.request('GET', `${path}?start_date=0001-01-01&end_date=9999-12-31`, auth);
      expect(edges.status, `${r.path}: ${edges.text}`).to.equal(200);
    }
  });

  it('body keys named like Object.prototype members (constructor, toString, hasOwnProperty) are unknown fields (400)', async () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      const res = await app.request('POST', '/customers', { token: owner.accessToken, rawBody: `{"name":"Bisi","${key}":{"a":1}}`, headers: { 'content-type': 'application/json' } });
      expect(res.status, `${key}: ${res.text}`).to.equal(400);
      if (key !== '__proto__') expect(res.body.error.errors.map((e: { field: string }) => e.field)).to.include(key);
    }
    expectProblem(await app.request('GET', '/products?constructor=1', { token: owner.accessToken }), 400, 'VALIDATION_FAILED');
  });

  it('a body nested deeper than 32 levels is 400, even on an idempotent route (no stack overflow hashing it)', async () => {
    const deep = `{"items":[],"payment_method":"CASH","constructor":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const res = await app.request('POST', '/sales', { token: owner.accessToken, rawBody: deep, headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-1' } });
    expectProblem(res, 400, 'MALFORMED_JSON');
    const shallow = `{"note":${'['.repeat(33)}${']'.repeat(33)}}`;
    expectProblem(await app.request('POST', '/customers', { token: owner.accessToken, rawBody: shallow, headers: { 'content-type': 'application/json' } }), 400, 'MALFORMED_JSON');
  });

  it('a body that does not decompress as its Content-Encoding says is 400', async () => {
    for (const encoding of ['br', 'gzip', 'deflate']) {
      const res = await app.request('POST', '/customers', {
        token: owner.accessToken,
        rawBody: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      });
      expectProblem(res, 400, 'MALFORMED_JSON');
    }
  });

  it('headers over the limit answer 431 with the Problem Details envelope', async () => {
    const { port } = new URL(app.baseUrl);
    const answer = await new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: Number(port), path: '/api/v1/products', headers: { 'x-big': 'x'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body, type: String(res.headers['content-type']) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).to.equal(431);
    expect(answer.type).to.contain('application/json');
    const body = JSON.parse(answer.body) as { success: boolean; error: { code: string; status: number } };
    expect(body.success).to.equal(false);
    expect(body.error).to.include({ code: 'HEADERS_TOO_LARGE', status: 431 });
  });

  it('a multipart upload with a second file is 400 and imports nothing', async () => {
    const form = new FormData();
    form.append('file', new Blob(['sku,name,price\nTWO-1,First,100\n'], { type: 'text/csv' }), 'a.csv');
    form.append('file', new Blob(['sku,name,price\nTWO-2,Second,100\n'], { type: 'text/csv' }), 'b.csv');
    const res = await fetch(`${app.baseUrl}/api/v1/products/import`, { method: 'POST', headers: { authorization: `Bearer ${owner.accessToken}` }, body: form });
    const body = (await res.json()) as { error: { code: string } };
    expect(res.status).to.equal(400);
    expect(body.error.code).to.equal('VALIDATION_FAILED');
    const products = (await app.request('GET', '/products?search=TWO-', { token: owner.accessToken })).body.data.content;
    expect(products).to.deep.equal([]);
  });

  it('a cursor of one list is refused by another (400), even with the same sort', async () => {
    for (let i = 0; i < 3; i++) {
      await app.request('POST', '/products', { token: owner.accessToken, body: { name: `Cursor ${i}`, price: 10 } });
      await app.request('POST', '/customers', { token: owner.accessToken, body: { name: `Cursor ${i}`, phone: aPhone() } });
    }
    const page = await app.request('GET', '/products?limit=1', { token: owner.accessToken });
    const cursor = page.body.data.cursor as string;
    expect((await app.request('GET', `/products?limit=1&cursor=${cursor}`, { token: owner.accessToken })).status).to.equal(200);
    const res = await app.request('GET', `/customers?limit=1&cursor=${cursor}`, { token: owner.accessToken });
    expectProblem(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.errors[0].field).to.equal('cursor');
  });

  it('an e-mail with a trailing dot is the same address: a second registration is 409 DUPLICATE_EMAIL', async () => {
    const email = `dot-${Date.now()}@example.com`;
    await registerOwner(app, { email });
    for (const variant of [`${email}.`, `${email.toUpperCase()}.`, ` ${email}.. `]) {
      const res = await app.request('POST', '/auth/register', { body: { email: variant, first_name: 'A', last_name: 'B', business_name: 'Twice' } });
      expectProblem(res, 409, 'DUPLICATE_EMAIL');
    }
    expect((await app.request('POST', '/auth/login', { body: { email: `${email}.` } })).status).to.equal(200);
  });
});

describe('a database fault in the log', () => {
  it('carries the statement without its values, and none of the row data PostgreSQL puts in its detail', async () => {
    const url = await freshDatabaseUrl();
    const pool = openPool({ databaseUrl: url, poolMax: 1 });
    let fault: unknown;
    try {
      // values written into the text, as a migration's statement (MikroORM) or a literal carries them
      await database(pool, { prepare: false }).pooled.execute("select * from no_such_table where phone = '+2348031234567' and name = 'Adaeze Okafor'");
    } catch (e) {
      fault = e;
    } finally {
      await pool.close();
    }
    expect(String((fault as Error).message)).to.contain('+2348031234567'); // what the driver gives us
    const real = await openPostgres({ databaseUrl: url, dataDir: '/tmp', poolMax: 2, log: () => undefined });
    const boom = async (): Promise<never> => {
      throw fault;
    };
    const app = await createTestApp({ persistence: { ...real, uow: { run: boom, read: boom, readInTurn: boom, atomically: boom, giveWay: boom } satisfies UnitOfWork<AppRepositories> } });
    try {
      const res = await app.request('POST', '/auth/login', { body: { phone: aPhone() }, headers: { 'x-request-id': 'redact-1' } });
      expect(res.status).to.equal(500);
      const line = app.logLines.find((l) => l.includes('redact-1') && l.includes('unexpected fault'))!;
      expect(line).to.contain('select * from no_such_table where phone = ? and name = ?');
      expect(line).to.not.contain('2348031234567');
      expect(line).to.not.contain('Adaeze');
    } finally {
      await app.close();
    }
    const unique = redactDatabaseFault(Object.assign(new Error("insert into users (phone) values ('+2348031234567') - duplicate key\n - detail: Key (phone)=(+2348031234567) already exists."), { severity: 'ERROR', code: '23505' }));
    expect(JSON.stringify(unique)).to.not.contain('2348031234567');
  });
});
