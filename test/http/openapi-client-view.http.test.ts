import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'chai';
import * as t from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import { shape, str, int } from '../../adapters/http/codecs.js';
import { buildOpenApi, errorCodesOf, openApiPath } from '../../adapters/http/openapi.js';
import { FAILURES } from '../../bootstrap/failures.js';
import { ok, route, type RouteDef } from '../../adapters/http/route.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

type Schema = Record<string, any>;
interface Operation {
  operationId: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }>;
  'x-error-codes'?: string[];
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Where a request schema leaves a number or a text unbounded (the issue: every number of every body is bounded). */
const unbounded = (schema: Schema, at: string): string[] => {
  const own: string[] = [];
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes('number') || types.includes('integer')) {
    if (!('minimum' in schema || 'exclusiveMinimum' in schema)) own.push(`${at}: a number without a lower bound`);
    if (!('maximum' in schema || 'exclusiveMaximum' in schema)) own.push(`${at}: a number without an upper bound`);
  }
  if (types.includes('string') && !('maxLength' in schema || 'enum' in schema || 'pattern' in schema || 'format' in schema)) own.push(`${at}: a text without a bound`);
  const nested = [
    ...Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([k, v]) => unbounded(v, `${at}.${k}`)),
    ...(schema.items ? [unbounded(schema.items, `${at}[]`)] : []),
    ...((schema.oneOf ?? []) as Schema[]).map((v, i) => unbounded(v, `${at}|${i}`)),
  ];
  return [...own, ...nested.flat()];
};

const COMPONENTS_A_CLIENT_IMPORTS = [
  'Product', 'ProductPage', 'Sale', 'SaleSummary', 'SaleItem', 'SalePage', 'Receipt', 'ReceiptPage', 'Customer', 'CustomerPage',
  'CreditAccount', 'CreditTransaction', 'CreditTransactionPage', 'StockAdjustment', 'StockAdjustmentPage', 'Branch', 'BranchPage',
  'StaffMember', 'StaffPage', 'Business', 'AgingReport', 'ErrorEnvelope',
];

describe('HTTP OpenAPI as a generated client sees it', () => {
  let app: TestApp;
  let served: Doc;
  let doc: Doc;
  before(async () => {
    app = await createTestApp();
    served = app.openApi as Doc;
    doc = (await SwaggerParser.dereference(structuredClone(served) as never)) as unknown as Doc;
  });
  after(async () => app.close());

  const servedOp = (r: RouteDef<any, any>) => served.paths[openApiPath(r.path)]![r.method]!;
  const derefOp = (r: RouteDef<any, any>) => doc.paths[openApiPath(r.path)]![r.method]!;

  it('names every resource, page and request body under components.schemas and refers to them by $ref', () => {
    expect(Object.keys(served.components.schemas)).to.include.members(COMPONENTS_A_CLIENT_IMPORTS);
    for (const r of app.routes) {
      const op = servedOp(r);
      const where = `${r.method.toUpperCase()} ${r.path}`;
      if (r.body) expect(op.requestBody!.content['application/json']!.schema, `${where} body`).to.have.property('$ref');
      const success = op.responses[String(r.success.status)]!.content!;
      const json = success['application/json'];
      // the envelope is per operation; its data is a named schema
      if (json && !r.success.contentType) expect(json.schema.properties.data, `${where} data`).to.have.property('$ref');
    }
    expect(served.paths['/products']!.get!.responses['200']!.content!['application/json']!.schema.properties.data).to.deep.equal({ $ref: '#/components/schemas/ProductPage' });
    expect(served.components.schemas.ProductPage!.properties.content.items).to.deep.equal({ $ref: '#/components/schemas/Product' });
  });

  it('one name is one schema: two different schemas under one name stop the document being built', () => {
    const a = route({ method: 'get', path: '/a', operationId: 'a', summary: 'a', tag: 'T', access: 'public', errors: [], rateLimit: 'none', success: { status: 200, description: 'a', data: shape('Thing', { x: str }) }, handler: async () => ok('a', {}) });
    const b = route({ method: 'get', path: '/b', operationId: 'b', summary: 'b', tag: 'T', access: 'public', errors: [], rateLimit: 'none', success: { status: 200, description: 'b', data: shape('Thing', { x: int }) }, handler: async () => ok('b', {}) });
    expect(() => buildOpenApi([a, b], { version: '1', errorTypeBase: 'https://x', failures: FAILURES })).to.throw('two different schemas are named Thing');
    const c = route({ ...a, path: '/c', operationId: 'c' });
    const built = buildOpenApi([a, c], { version: '1', errorTypeBase: 'https://x', failures: FAILURES }) as unknown as Doc;
    expect(Object.keys(built.components.schemas)).to.deep.equal(['ErrorEnvelope', 'Problem', 'Thing']);
  });

  it('every operation says who may call it and lists its error codes, in x-error-codes and in its description', () => {
    for (const r of app.routes) {
      const op = servedOp(r);
      const where = `${r.method.toUpperCase()} ${r.path}`;
      expect(op['x-error-codes'], where).to.deep.equal(errorCodesOf(r, FAILURES));
      expect(op.description, where).to.include('**Who may call it:**');
      expect(op.description!.split('**Who may call it:**')[0]!.trim(), `${where} has a text of its own`).to.not.equal('');
      for (const code of errorCodesOf(r, FAILURES)) expect(op.description, `${where} names ${code}`).to.include(code);
      if (r.access === 'public') expect(op.description, where).to.include('Public');
      else if ('partnerScope' in r.access) expect(op.description, where).to.include('X-API-Key').and.include(r.access.partnerScope);
      else if (!r.access.roles.includes('STAFF')) expect(op.description, where).to.include('Owners only');
      else expect(op.description, where).to.include('Owners and staff');
    }
  });

  it('idempotent operations take the Idempotency-Key header and answer Idempotent-Replayed; others do not take it', () => {
    const idempotent = app.routes.filter((r) => r.idempotent);
    expect(idempotent.map((r) => r.operationId)).to.include.members(['recordSale', 'recordCreditPayment', 'adjustStock']);
    for (const r of app.routes) {
      const op = servedOp(r);
      const header = (op.parameters ?? []).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (!r.idempotent) {
        expect(header, r.operationId).to.equal(undefined);
        continue;
      }
      expect(header, r.operationId).to.deep.include({ required: false });
      expect(header!.schema).to.deep.equal({ type: 'string', minLength: 1, maxLength: 255 });
      expect(op.responses[String(r.success.status)]!.headers, r.operationId).to.have.property('Idempotent-Replayed');
      if (r.rateLimit !== 'none') expect(op.responses[String(r.success.status)]!.headers, r.operationId).to.include.keys('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
    }
  });

  it('every JSON request body has an example its own codec accepts', () => {
    for (const r of app.routes.filter((x) => x.body)) {
      const media = servedOp(r).requestBody!.content['application/json']!;
      expect(media.example, `${r.operationId} has an example`).to.not.equal(undefined);
      const decoded = (r.body as t.Mixed).decode(media.example);
      expect(isRight(decoded), `${r.operationId}: ${JSON.stringify(media.example)}`).to.equal(true);
    }
  });

  it('an example with ids says which list to fetch them from first', () => {
    for (const r of app.routes.filter((x) => x.body)) {
      const example = JSON.stringify(servedOp(r).requestBody!.content['application/json']!.example);
      if (/_id"/.test(example)) expect(servedOp(r).description, `${r.operationId} says where its ids come from`).to.match(/from GET \//);
    }
  });

  it('every number and text of every request body and query is bounded in the document', () => {
    const faults: string[] = [];
    for (const r of app.routes) {
      const op = derefOp(r);
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) if (type === 'application/json') faults.push(...unbounded(media.schema, `${r.operationId} body`));
      for (const p of op.parameters ?? []) if (p.in === 'query') faults.push(...unbounded(p.schema, `${r.operationId} ?${p.name}`));
    }
    expect(faults).to.deep.equal([]);
    expect(unbounded({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'array', items: { type: 'string' } } } }, 'probe')).to.have.length(3);
  });

  it('uploads are binary form files and the receipt is one response in two media types', () => {
    const upload = served.paths['/products/import']!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(upload.properties.file).to.include({ type: 'string', format: 'binary' });
    const receipt = served.paths['/sales/{id}/receipt']!.get!.responses['200']!.content!;
    expect(Object.keys(receipt)).to.deep.equal(['application/json', 'application/pdf']);
    expect(receipt['application/json']!.schema.properties.data).to.deep.equal({ $ref: '#/components/schemas/Receipt' });
    expect(receipt['application/pdf']!.schema).to.include({ type: 'string', format: 'binary' });
  });

  it('the aging report documents its rows and totals, all required, and the sort it defaults to', () => {
    const report = served.components.schemas.AgingReport!;
    expect(report.properties.content.items).to.deep.equal({ $ref: '#/components/schemas/AgingRow' });
    expect(report.properties.totals).to.deep.equal({ $ref: '#/components/schemas/AgingTotals' });
    expect(served.components.schemas.AgingRow!.required).to.include.members(['customer_id', 'name', 'total', 'oldest_unpaid_at']);
    expect(served.components.schemas.AgingTotals!.required).to.have.members(['days_0_30', 'days_31_60', 'days_61_90', 'days_over_90', 'total', 'customers']);
  });

  it('an aging report as answered has exactly the documented row and totals keys', async () => {
    const owner = await registerOwner(app);
    const token = owner.accessToken;
    const product = await app.request('POST', '/products', { token, body: { name: 'Rice 5kg', price: 9000, quantity: 5 } });
    const customer = await app.request('POST', '/customers', { token, body: { name: 'Mama Chioma' } });
    const sale = await app.request('POST', '/sales', { token, body: { items: [{ product_id: product.body.data.id, quantity: 1 }], payment_method: 'CREDIT', customer_id: customer.body.data.id } });
    expect(sale.status).to.equal(201);
    const report = (await app.request('GET', '/credit/aging-report', { token })).body.data;
    expect(Object.keys(report.content[0]).sort()).to.deep.equal([...served.components.schemas.AgingRow!.required].sort());
    expect(Object.keys(report.totals).sort()).to.deep.equal([...served.components.schemas.AgingTotals!.required].sort());
    expect(report.totals).to.include({ total: 9000, customers: 1 });
    expect(report.as_of).to.match(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('a receipt documents its status and payment method as enums', () => {
    const receipt = doc.components.schemas.Receipt!;
    const props = JSON.stringify(receipt);
    expect(props).to.include('"COMPLETED"').and.include('"VOIDED"');
    expect(props).to.include('"CASH"');
  });
});
