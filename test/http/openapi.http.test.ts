import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import { codesOfFailures } from '../../adapters/http/failure-codes.js';
import { ERROR_CODES, FAILURES } from '../../bootstrap/failures.js';
import { writeJson } from '../../adapters/http/json-values.js';
import type { RouteDef } from '../../adapters/http/route.js';
import { ROLES } from '../../domain/roles.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// ---- the parts of an OpenAPI 3.1 document these tests read ----

type Schema = Record<string, any>;
interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
}
interface Doc {
  openapi: string;
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, Schema> };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** Every operation of the document as `METHOD /api/v1/koa/:path`, with the operation. */
const documentedOperations = (doc: Doc): Map<string, Operation> => {
  const base = doc.servers[0]!.url;
  const ops = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) ops.set(`${method.toUpperCase()} ${base}${path.replace(/\{(\w+)\}/g, ':$1')}`, op);
    }
  }
  return ops;
};

/** Every route of the router as `METHOD /api/v1/path` with the layer's name; HEAD (added to GET) left out. */
const routerOperations = (stack: readonly { methods: string[]; path: string | RegExp; name?: string | undefined }[]) => {
  const ops = new Map<string, string | undefined>();
  for (const layer of stack) for (const m of layer.methods) if (m !== 'HEAD') ops.set(`${m} ${String(layer.path)}`, layer.name);
  return ops;
};

/** What the router serves and the document does not name, and the reverse. */
const disagreements = (stack: Parameters<typeof routerOperations>[0], doc: Doc) => {
  const routed = routerOperations(stack);
  const documented = documentedOperations(doc);
  return {
    undocumented: [...routed.keys()].filter((k) => !documented.has(k)).sort(),
    unrouted: [...documented.keys()].filter((k) => !routed.has(k)).sort(),
  };
};

/** The statuses a route's kind and its own errors (those it names and those of its failures) imply, besides its success status. */
const impliedStatuses = (r: RouteDef<any, any>): number[] => {
  const s = new Set<number>([500, 503, ...[...r.errors, ...codesOfFailures(FAILURES, r.failures ?? [])].map((c) => ERROR_CODES[c]!)]);
  if (r.access !== 'public') s.add(401);
  if (r.access !== 'public' && 'roles' in r.access && !ROLES.every((role) => (r.access as { roles: readonly string[] }).roles.includes(role))) s.add(403);
  if (r.access !== 'public' && 'partnerScope' in r.access) s.add(403); // INSUFFICIENT_SCOPE
  if (r.body || r.rawBody) [400, 413, 415].forEach((x) => s.add(x)); // a raw body (an upload) too
  if (r.query) s.add(400); // bad query parameters
  if (r.path.includes(':')) s.add(404); // a malformed or foreign id
  if (r.rateLimit !== 'none') s.add(429);
  if (r.idempotent) [409, 422].forEach((x) => s.add(x)); // IDEMPOTENCY_IN_PROGRESS, IDEMPOTENCY_KEY_REUSED
  return [...s].sort((a, b) => a - b);
};

/** Each sub-schema of a schema (properties, items, oneOf/anyOf/allOf), with where it sits. */
const subSchemas = (schema: Schema, at: string): [string, Schema][] => [
  ...Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([k, v]): [string, Schema] => [`${at}.${k}`, v]),
  ...(schema.items ? [[`${at}[]`, schema.items] as [string, Schema]] : []),
  ...(['oneOf', 'anyOf', 'allOf'] as const).flatMap((k) => ((schema[k] ?? []) as Schema[]).map((v, i): [string, Schema] => [`${at}.${k}[${i}]`, v])),
];

/** What the validator does not check in a 3.1 document: JSON Schema keywords with impossible values. */
const schemaFaults = (schema: Schema | boolean, at: string): string[] => {
  if (typeof schema === 'boolean') return []; // JSON Schema 2020-12 (OpenAPI 3.1): `false` refuses any value, e.g. a field that must be absent
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [`${at}: a schema must be an object`];
  const faults: string[] = [];
  if ('type' in schema) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    for (const t of types) if (!JSON_TYPES.includes(t)) faults.push(`${at}: unknown type ${JSON.stringify(t)}`);
  }
  if ('enum' in schema && (!Array.isArray(schema.enum) || schema.enum.length === 0)) faults.push(`${at}: enum must be a non-empty array`);
  if (schema.properties && Array.isArray(schema.required)) {
    for (const k of schema.required) if (!(k in schema.properties)) faults.push(`${at}: required ${k} is not among the properties`);
  }
  return [...faults, ...subSchemas(schema, at).flatMap(([p, s]) => schemaFaults(s, p))];
};

/** Where a JSON value disagrees with a documented schema (the keywords this API's document uses). */
const mismatches = (value: unknown, schema: Schema, at = 'data'): string[] => {
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  if (schema.oneOf) {
    const matching = (schema.oneOf as Schema[]).filter((s) => mismatches(value, s, at).length === 0).length;
    return matching === 1 ? [] : [`${at}: matches ${matching} of the oneOf alternatives, not exactly 1`];
  }
  if ('const' in schema && value !== schema.const) return [`${at}: ${JSON.stringify(value)} is not the constant ${JSON.stringify(schema.const)}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`];
  if (schema.type) {
    const allowed: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!allowed.includes(actual) && !(actual === 'integer' && allowed.includes('number'))) return [`${at}: is ${actual}, documented ${allowed.join(' or ')}`];
  }
  if (typeof value === 'string' && schema.format === 'date-time' && Number.isNaN(Date.parse(value))) return [`${at}: is not a date-time`];
  if (typeof value === 'string' && schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return [`${at}: is not a uuid`];
  if (Array.isArray(value) && schema.items) return value.flatMap((v, i) => mismatches(v, schema.items, `${at}[${i}]`));
  if (typeOf(value) === 'object' && schema.properties) {
    const obj = value as Record<string, unknown>;
    return [
      ...((schema.required ?? []) as string[]).filter((k) => !(k in obj)).map((k) => `${at}.${k}: documented as required, missing`),
      ...Object.keys(obj).filter((k) => !(k in schema.properties)).map((k) => `${at}.${k}: answered, not documented`),
      ...Object.entries(obj)
        .filter(([k]) => k in schema.properties)
        .flatMap(([k, v]) => mismatches(v, schema.properties[k], `${at}.${k}`)),
    ];
  }
  return [];
};

describe('HTTP OpenAPI: the document, the router and the docs pages', () => {
  let app: TestApp;
  /** The document with every `$ref` to a named schema resolved, for reading schemas. */
  let doc: Doc;
  /** The document as it is served. */
  let served: Doc;
  before(async () => {
    app = await createTestApp();
    served = app.openApi as Doc;
    doc = (await SwaggerParser.dereference(structuredClone(served) as never)) as unknown as Doc;
  });
  after(async () => app.close());

  const routeOf = (operationId: string) => app.routes.find((r) => r.operationId === operationId)!;
  /** The `data` schema of an operation's success response, and that status. */
  const successOf = (method: string, path: string) => {
    const op = doc.paths[path]![method]!;
    const [status, response] = Object.entries(op.responses).find(([s]) => s.startsWith('2'))!;
    const envelope = response.content!['application/json']!.schema;
    return { status: Number(status), envelope, data: envelope.properties!.data as Schema };
  };

  describe('route and document agreement', () => {
    it('the router and the document name the same operations, under the same operationIds', () => {
      expect(doc.servers).to.deep.equal([{ url: '/api/v1' }]);
      expect(app.router.stack.length).to.be.greaterThan(0);
      for (const layer of app.router.stack) expect(layer.methods, `layer ${String(layer.path)} is a route`).to.not.be.empty;

      const { undocumented, unrouted } = disagreements(app.router.stack, doc);
      expect(undocumented, 'routes the router serves that the document does not name').to.deep.equal([]);
      expect(unrouted, 'operations the document names that the router does not serve').to.deep.equal([]);

      const routed = routerOperations(app.router.stack);
      for (const [key, op] of documentedOperations(doc)) expect(op.operationId, key).to.equal(routed.get(key));
      expect(documentedOperations(doc).size).to.equal(app.routes.length);
    });

    it('the comparison notices a route missing from the document and an operation the router lacks', () => {
      const doctored = structuredClone(doc);
      delete doctored.paths['/auth/register']!.post;
      doctored.paths['/auth/ghost/{id}'] = { delete: { responses: {} } };
      doctored.paths['/auth/me']!.put = { responses: {} };
      expect(disagreements(app.router.stack, doctored)).to.deep.equal({
        undocumented: ['POST /api/v1/auth/register'],
        unrouted: ['DELETE /api/v1/auth/ghost/:id', 'PUT /api/v1/auth/me'],
      });
      // HEAD, which @koa/router adds to every GET, is not an operation of its own.
      expect(app.router.stack.some((l) => l.methods.includes('HEAD'))).to.equal(true);
      expect([...routerOperations(app.router.stack).keys()].some((k) => k.startsWith('HEAD '))).to.equal(false);
    });

    it('each operation has a unique operationId, declared tags, a security entry and its path parameters', () => {
      const ids = [...documentedOperations(doc).values()].map((op) => op.operationId);
      expect(ids.every((id) => typeof id === 'string' && id.length > 0), 'every operation has an operationId').to.equal(true);
      expect(new Set(ids).size, `duplicate operationIds in ${ids.join(', ')}`).to.equal(ids.length);

      const declaredTags = doc.tags.map((t) => t.name);
      const schemes = Object.keys(doc.components.securitySchemes);
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          const r = routeOf(op.operationId!);
          expect(op.tags, where).to.be.an('array').that.is.not.empty;
          for (const tag of op.tags!) expect(declaredTags, `${where} tag ${tag}`).to.include(tag);
          expect(op.security, `${where} has a security entry`).to.be.an('array');
          expect(op.security, where).to.deep.equal(r.access === 'public' ? [] : 'roles' in r.access ? [{ bearerAuth: [] }] : [{ partnerApiKey: [] }]);
          for (const requirement of op.security!) for (const name of Object.keys(requirement)) expect(schemes, `${where} scheme ${name}`).to.include(name);

          const named = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
          expect(declared.map((p) => p.name).sort(), `${where} path parameters`).to.deep.equal(named.sort());
          for (const p of declared) expect(p.required, `${where} ${p.name} is required`).to.equal(true);
        }
      }
      expect(doc.components.securitySchemes.bearerAuth).to.deep.include({ type: 'http', scheme: 'bearer' });
      expect(doc.components.securitySchemes.partnerApiKey).to.deep.include({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    });

    it('each operation documents its success and every status its errors imply, and no other', () => {
      for (const r of app.routes) {
        const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]![r.method]!;
        const where = `${r.method.toUpperCase()} ${r.path}`;
        const documented = Object.keys(op.responses).map(Number).sort((a, b) => a - b);
        expect(documented, where).to.deep.equal([r.success.status, ...impliedStatuses(r)].sort((a, b) => a - b));
        expect(documented, `${where}: every operation can answer 500 and 503`).to.include.members([500, 503]);
        if (r.access !== 'public') expect(documented, `${where}: a bearer route answers 401`).to.include(401);
        if (r.body) expect(documented, `${where}: a route with a body answers 400, 413, 415`).to.include.members([400, 413, 415]);

        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.description, `${where} ${status}`).to.be.a('string').that.is.not.empty;
          if (Number(status) >= 400) {
            const servedResponse = served.paths[r.path.replace(/:(\w+)/g, '{$1}')]![r.method]!.responses[status]!;
            expect(servedResponse.content!['application/json']!.schema, `${where} ${status}`).to.deep.equal({ $ref: '#/components/schemas/ErrorEnvelope' });
          }
        }
        // The descriptions name the codes a client can switch on.
        if (r.access !== 'public' && 'roles' in r.access) expect(op.responses['401']!.description).to.include('TOKEN_MISSING').and.include('TOKEN_EXPIRED');
        if (r.access !== 'public' && 'partnerScope' in r.access) {
          expect(op.responses['401']!.description).to.include('API_KEY_MISSING').and.include('API_KEY_EXPIRED').and.not.include('TOKEN_');
          expect(op.responses['403']!.description).to.include('INSUFFICIENT_SCOPE');
        }
        if (r.body) expect(op.responses['400']!.description).to.include('VALIDATION_FAILED').and.include('MALFORMED_JSON');
        for (const code of [...r.errors, ...codesOfFailures(FAILURES, r.failures ?? [])]) expect(op.responses[String(ERROR_CODES[code])]!.description, `${where} names ${code}`).to.include(code);
        if (r.rateLimit !== 'none') expect(op.responses['429']!.headers, `${where} 429`).to.have.property('Retry-After');
        if (r.body) expect(op.requestBody!.content['application/json']!.schema, where).to.include({ type: 'object' });
        if (r.rawBody) expect(Object.keys(op.requestBody!.content), where).to.deep.equal(Object.keys(r.rawBody.content));
        // A download (success.contentType) is documented as that media type, anything else as the JSON envelope,
        // followed by the media types Accept can choose instead (success.alternatives).
        const content = op.responses[String(r.success.status)]!.content!;
        expect(Object.keys(content), where).to.deep.equal([r.success.contentType ?? 'application/json', ...Object.keys(r.success.alternatives ?? {})]);
        // a file is a binary string; an alternative with its own schema (the loan pack's JSON) is that named schema
        for (const [type, alt] of Object.entries(r.success.alternatives ?? {})) {
          if (typeof alt === 'string') expect(content[type]!.schema, `${where} ${type}`).to.include({ type: 'string', contentMediaType: type });
          else expect(served.paths[r.path.replace(/:(\w+)/g, '{$1}')]![r.method]!.responses[String(r.success.status)]!.content![type]!.schema, `${where} ${type}`).to.deep.equal({ $ref: `#/components/schemas/${alt.data.name}` });
        }
      }
    });
  });

  describe('validation', () => {
    it('each list documents the sort it really defaults to (the aging report: total), and 503 says Retry-After', () => {
      const param = (path: string, name: string) =>
        (doc.paths[path]!.get as unknown as { parameters: { name: string; description?: string; schema: { enum?: string[] } }[] }).parameters.find((p) => p.name === name)! as { description?: string; schema: { enum?: string[] } };
      expect(param('/credit/aging-report', 'sort_by').description).to.equal('default total');
      expect(param('/credit/aging-report', 'sort_by').schema.enum).to.deep.equal(['total', 'name']);
      expect(param('/products', 'sort_by').description).to.equal('default created_at');
      const unavailable = doc.paths['/products']!.get!.responses['503'] as unknown as { headers: Record<string, unknown> };
      expect(unavailable.headers).to.have.property('Retry-After');
    });

    it('the document passes swagger-parser as OpenAPI 3.1', async () => {
      const api = (await SwaggerParser.validate(structuredClone(served) as never)) as unknown as Doc;
      expect(api.openapi).to.equal('3.1.0');
    });

    it('swagger-parser is really checking: a broken copy is refused', async () => {
      const broken = structuredClone(served);
      broken.paths['/auth/register']!.post!.responses['409']!.content!['application/json']!.schema = { $ref: '#/components/schemas/Nope' };
      let refused: unknown;
      await SwaggerParser.validate(broken as never).catch((e: unknown) => (refused = e));
      expect(String(refused)).to.include('Nope');
    });

    it('every schema in the document uses only possible JSON Schema values (the validator does not look)', () => {
      const faults: string[] = [];
      for (const [name, schema] of Object.entries(doc.components.schemas)) faults.push(...schemaFaults(schema, `#/components/schemas/${name}`));
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) faults.push(...schemaFaults(media.schema, `${method} ${path} body ${type}`));
          for (const [status, response] of Object.entries(op.responses)) {
            for (const [type, media] of Object.entries(response.content ?? {})) faults.push(...schemaFaults(media.schema, `${method} ${path} ${status} ${type}`));
          }
        }
      }
      expect(faults).to.deep.equal([]);
      expect(schemaFaults({ type: 'objekt', properties: { a: { type: 'string' } }, required: ['b'] }, 'probe')).to.have.length(2);
    });
  });

  describe('the docs pages', () => {
    const raw = (path: string, init?: RequestInit) => fetch(`${app.baseUrl}${path}`, init);

    it('GET /api/v1/api-docs answers the raw OpenAPI JSON, not enveloped', async () => {
      const res = await app.request('GET', '/api/v1/api-docs');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(res.body).to.not.have.property('success');
      expect(res.body).to.deep.equal(JSON.parse(writeJson(served)));
    });

    it('money schemas say money is written with exactly 2 decimals, and their example is written 8000.00 (ADR 0046)', async () => {
      const res = await app.request('GET', '/api/v1/api-docs');
      expect(res.text).to.contain('"examples":[8000.00]');
      const schemas = res.body.components.schemas;
      for (const [shape, field] of [['Sale', 'total'], ['Product', 'price'], ['CreditTransaction', 'amount'], ['Expense', 'amount'], ['Dashboard', 'credit_outstanding'], ['Receipt', 'change_due']] as const) {
        expect(schemas[shape].properties[field].description, `${shape}.${field}`).to.contain('written with exactly 2 decimals (8000.00');
        expect(schemas[shape].properties[field].examples, `${shape}.${field}`).to.deep.equal([8000]);
      }
    });

    it('GET /api/v1/swagger-ui/ answers the UTF-8 page that loads the bundle, with no inline script', async () => {
      const res = await app.request('GET', '/swagger-ui/');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.text).to.include('<meta charset="utf-8">');
      expect(res.text).to.match(/<script src="\.\/swagger-ui-bundle\.js"/);
      // helmet's CSP allows scripts from 'self' only, so every script must come from a file.
      const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts).to.have.length.greaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs).to.match(/\bsrc="\.\//);
        expect(body!.trim()).to.equal('');
      }
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).to.include("script-src 'self'");
      // With upgrade-insecure-requests a browser on plain http (any host but localhost) asks for the assets over https and gets nothing.
      expect(csp).to.not.include('upgrade-insecure-requests');
    });

    it('serves every asset the page refers to, the bundle as UTF-8 JavaScript', async () => {
      const page = (await app.request('GET', '/swagger-ui/')).text;
      const assets = [...page.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1]!);
      expect(assets).to.include.members(['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-initializer.js', 'swagger-ui.css']);
      for (const asset of assets) {
        const res = await raw(`/api/v1/swagger-ui/${asset}`);
        expect(res.status, asset).to.equal(200);
        await res.arrayBuffer();
      }
      const bundle = await raw('/api/v1/swagger-ui/swagger-ui-bundle.js');
      expect(bundle.headers.get('content-type')).to.equal('application/javascript; charset=utf-8');
      expect(await bundle.text()).to.include('SwaggerUIBundle');
      const css = await raw('/api/v1/swagger-ui/swagger-ui.css');
      expect(css.headers.get('content-type')).to.equal('text/css; charset=utf-8');
      await css.arrayBuffer();
    });

    it('the initializer points at ../api-docs, which from the page is /api/v1/api-docs', async () => {
      const res = await raw('/api/v1/swagger-ui/swagger-initializer.js');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/javascript; charset=utf-8');
      const js = await res.text();
      const url = /url:\s*'([^']+)'/.exec(js)?.[1];
      expect(url).to.equal('../api-docs');
      expect(new URL(url!, `${app.baseUrl}/api/v1/swagger-ui/`).pathname).to.equal('/api/v1/api-docs');
      // No badge from validator.swagger.io: it would send the document's address away and the CSP refuses it anyway.
      expect(js).to.match(/validatorUrl:\s*null/);
    });

    it('GET /api/v1/swagger-ui redirects to /api/v1/swagger-ui/', async () => {
      const res = await raw('/api/v1/swagger-ui', { redirect: 'manual' });
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal('/api/v1/swagger-ui/');
      await res.arrayBuffer();
    });
  });

  describe('documented success responses match what the API answers', () => {
    const expectDocumented = (res: { status: number; body: any }, method: string, path: string) => {
      const { status, envelope, data } = successOf(method, path);
      expect(res.status, `${method.toUpperCase()} ${path}`).to.equal(status);
      expect(Object.keys(res.body).sort()).to.deep.equal([...envelope.required].sort());
      expect(mismatches(res.body.data, data), `${method.toUpperCase()} ${path}`).to.deep.equal([]);
      return data;
    };

    it('register answers 201 with exactly the documented required data keys', async () => {
      const res = await app.request('POST', '/auth/register', {
        body: { phone: aPhone(), first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' },
      });
      const data = expectDocumented(res, 'post', '/auth/register');
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body.data).sort()).to.deep.equal([...data.required].sort());
    });

    it('health answers 200 with exactly the documented required data keys', async () => {
      const res = await app.request('GET', '/actuator/health');
      const data = expectDocumented(res, 'get', '/actuator/health');
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body.data).sort()).to.deep.equal([...data.required].sort());
    });

    it('the other auth operations answer what their documents say', async () => {
      const phone = aPhone();
      await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' } });
      const first = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
      expect(first.body.data.verified).to.equal(true);
      expectDocumented(first, 'post', '/auth/verify-otp');

      const owner = await registerOwner(app, { email: `docs.${Date.now()}@example.com` });
      expectDocumented(await app.request('GET', '/auth/me', { token: owner.accessToken }), 'get', '/auth/me');
      const refreshed = await app.request('POST', '/auth/refresh', { body: { refresh_token: owner.refreshToken } });
      expectDocumented(refreshed, 'post', '/auth/refresh');
      const sessions = await app.request('GET', '/auth/sessions', { token: refreshed.body.data.access_token });
      expectDocumented(sessions, 'get', '/auth/sessions');
      expect(sessions.body.data.content).to.have.length(1);
      const second = await registerOwner(app);
      const secondSession = (await app.request('GET', '/auth/sessions', { token: second.accessToken })).body.data.content[0].id as string;
      expectDocumented(await app.request('DELETE', `/auth/sessions/${secondSession}`, { token: second.accessToken }), 'delete', '/auth/sessions/{id}');
      expectDocumented(await app.request('POST', '/auth/logout', { body: { refresh_token: refreshed.body.data.refresh_token } }), 'post', '/auth/logout');

      expectDocumented(await app.request('POST', '/auth/login', { body: { phone } }), 'post', '/auth/login');
      const again = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
      expect(again.body.data).to.not.have.property('verified');
      expectDocumented(again, 'post', '/auth/verify-otp');

      const other = aPhone();
      expectDocumented(await app.request('POST', '/auth/otp/send', { body: { phone: other } }), 'post', '/auth/otp/send');
      expectDocumented(await app.request('POST', '/auth/otp/verify', { body: { phone: other, otp: app.outbox.lastCode(other) } }), 'post', '/auth/otp/verify');
    });

    it('the response check notices an undocumented, a missing and a mistyped key', () => {
      const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a', 'b'] };
      expect(mismatches({ a: 'x', b: 1 }, schema)).to.deep.equal([]);
      expect(mismatches({ a: 1, c: true }, schema)).to.have.members([
        'data.b: documented as required, missing',
        'data.c: answered, not documented',
        'data.a: is integer, documented string',
      ]);
    });
  });
});
