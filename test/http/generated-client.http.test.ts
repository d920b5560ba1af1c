import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLIENT_FIXTURE,
  clientProject,
  escapeHatches,
  generateTypes,
  loadClient,
  typeCheck,
  typescriptVersion,
  type ClientProject,
} from '../support/generated-client/toolchain.js';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

type Schema = Record<string, any>;
interface Doc {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
}

/** Where a JSON value has a key its (named) schema does not document, or lacks one it requires. */
const undocumented = (value: unknown, schema: Schema, doc: Doc, at = 'data'): string[] => {
  const resolved: Schema = schema.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!]! : schema;
  if (Array.isArray(value)) return value.flatMap((v, i) => undocumented(v, resolved.items ?? {}, doc, `${at}[${i}]`));
  if (value === null || typeof value !== 'object' || !resolved.properties) return [];
  const obj = value as Record<string, unknown>;
  return [
    ...((resolved.required ?? []) as string[]).filter((k) => !(k in obj)).map((k) => `${at}.${k}: required, missing`),
    ...Object.keys(obj).filter((k) => !(k in resolved.properties)).map((k) => `${at}.${k}: not documented`),
    ...Object.entries(obj).filter(([k]) => k in resolved.properties).flatMap(([k, v]) => undocumented(v, resolved.properties[k], doc, `${at}.${k}`)),
  ];
};

/** What the test reads of the client's run (the client itself is typed by the generated schema). */
type RunShop = (options: { baseUrl: string; phone: string; readCode: (phone: string) => string }) => Promise<Record<string, any>>;
type RunBackOffice = (options: { baseUrl: string; accessToken: string; textTo: string; foreignCursor: string }) => Promise<Record<string, any>>;

/**
 * Issue 32: what a client must not be able to write. Each line is a mistake the document now rules out, so each
 * must be a compile error: a notification to both a customer and a number, or to neither; a period on the
 * inventory export (a snapshot); a sync payload that is not its endpoint's body.
 */
const MISUSE = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';
const api = createClient<paths, 'application/json'>({ baseUrl: 'http://127.0.0.1/api/v1' });
export const both = () => api.POST('/notifications/sms', { body: { template: 'CUSTOM', customer_id: crypto.randomUUID(), to: '+2348031234567', message: 'Hi' } });
export const neither = () => api.POST('/notifications/sms', { body: { template: 'CUSTOM', message: 'Hi' } });
export const dated = () => api.GET('/reports/inventory/export', { params: { query: { start_date: '2026-11-01' } } });
export const wrongPayload = () => api.POST('/sync/batch', { body: { device_id: 'till-1', operations: [{ op_id: crypto.randomUUID(), type: 'customer.create', payload: { amount: 5 } }] } });
`;

/**
 * Issue 11: a client generated from the served document must compile and work without casts. The served
 * document goes through openapi-typescript, the committed client (test/support/generated-client/client.ts)
 * is type-checked against the result with TypeScript 5 (strict), and then it runs against the app.
 */
describe('HTTP a client generated from the served OpenAPI document', function () {
  this.timeout(60_000);
  let app: TestApp;
  let served: Doc;
  let project: ClientProject;
  let program: Parameters<typeof typeCheck>[1];
  before(async () => {
    app = await createTestApp();
    const res = await fetch(`${app.baseUrl}/api/v1/api-docs`);
    expect(res.status).to.equal(200);
    served = (await res.json()) as Doc;
    project = clientProject(await generateTypes(served));
  });
  after(async () => {
    project?.dispose();
    await app?.close();
  });

  it('the client has no casts, non-null assertions, any or ts-ignore', () => {
    expect(escapeHatches(readFileSync(CLIENT_FIXTURE, 'utf8'))).to.deep.equal([]);
    // and it sees them when they are there
    const probe = 'const a: any = 1;\nconst b = a as number;\nconst c = <number>b;\nconst d = [c][0]!;\n// @ts-expect-error\nexport { d };\n';
    expect(escapeHatches(probe).map((f) => f.replace(/:.*/, ''))).to.deep.equal(['line 1', 'line 2', 'line 3', 'line 4', 'line 1', 'line 2', 'line 5']);
  });

  it('the generated types name the resources the client imports', () => {
    const schema = readFileSync(project.schema, 'utf8');
    for (const name of ['Product', 'ProductPage', 'Sale', 'SaleRequest', 'Receipt', 'Customer', 'ErrorEnvelope', 'Problem', 'LoanPackDocument', 'SaleCreateOperation', 'SyncCreditPaymentRequest']) {
      expect(schema, name).to.match(new RegExp(`^ {8}${name}: \\{`, 'm'));
    }
    expect(schema).to.match(/^ {8}SyncOperation: components\["schemas"\]\["SaleCreateOperation"\] \| /m);
    expect(schema).to.include('"Idempotency-Key"?: string;');
  });

  it(`type-checks with TypeScript ${typescriptVersion} (strict) against the generated types`, () => {
    expect(typescriptVersion).to.match(/^5\./);
    const checked = typeCheck(project);
    program = checked.program;
    expect(checked.diagnostics, `the client does not compile against the served document:\n${checked.diagnostics.join('\n')}`).to.deep.equal([]);
  });

  it('runs: registers, signs in with the code, stocks a product, sells it once (the replay is stored), prints the receipt', async () => {
    const { runShop } = (await loadClient(project)) as { runShop: RunShop };
    const phone = aPhone();
    const run = await runShop({ baseUrl: `${app.baseUrl}/api/v1`, phone, readCode: (to) => app.outbox.lastCode(to) });
    expect(run.product).to.include({ name: 'Peak Milk 400g', price: 1500, quantity: 10 });
    expect(run.page.content.map((p: { id: string }) => p.id)).to.deep.equal([run.product.id]);
    expect(run.sale).to.include({ total: 3000, amount_paid: 3000, change_due: 2000, status: 'COMPLETED' });
    expect(run.replay).to.deep.equal({ sale: run.sale, replayed: true });
    expect(run.receipt).to.include({ sale_id: run.sale.id, receipt_number: run.sale.receipt_number, total: 3000 });
    expect(run.receipt.lines).to.have.length(1);
    expect(run.customer).to.include({ name: 'Chidi Okeke', credit_balance: 0 });
    expect(run.refused).to.deep.include({ status: 409, code: 'INSUFFICIENT_STOCK' });
    expect(run.refused.envelope).to.include({ success: false });
    expect(run.till).to.equal(`${run.sale.receipt_number} 2 x Peak Milk 400g total NGN 3000.00, change NGN 2000.00`);
  });

  it('issue 32: runs the back office: the loan pack as JSON, a till queue of typed operations, a text, a CSV upload as a form, the inventory export, a foreign cursor', async () => {
    const { runBackOffice } = (await loadClient(project)) as { runBackOffice: RunBackOffice };
    const owner = await registerOwner(app);
    await putOnPlan(app, owner, 'BUSINESS'); // a pack is ready when made
    const far = Buffer.from('1|900000000000:900000000000:||||').toString('base64url');
    const run = await runBackOffice({ baseUrl: `${app.baseUrl}/api/v1`, accessToken: owner.accessToken, textTo: '+2348059990000', foreignCursor: far });

    // the canonical JSON, typed as the document's LoanPackDocument, which has exactly its keys
    const document = run.loanPack.document;
    expect(document).to.include({ format: 'bizops-loan-pack/2', reference: run.loanPack.reference, currency: 'NGN', months: 6 });
    expect(run.loanPack.headline).to.match(/^LP-\d{8}-[A-Z2-9]{6} \d{4}-\d{2}-01\.\.\d{4}-\d{2}-\d{2}: revenue 0 naira over 6 months$/);
    expect(undocumented(document, served.components.schemas.LoanPackDocument!, served)).to.deep.equal([]);

    expect(run.sync.results.map((r: { type: string; status: string; http_status: number }) => [r.type, r.status, r.http_status])).to.deep.equal([
      ['customer.create', 'applied', 201],
      ['sale.create', 'applied', 201],
      ['credit_payment.create', 'applied', 201],
      ['sale.create', 'rejected', 422],
    ]);
    expect(run.sync.rejectedStatus).to.equal(422);
    expect(run.sync.rejectedCode).to.equal('UNKNOWN_PRODUCT');
    expect(run.notification).to.deep.equal({ status: 'QUEUED', to: '+2348059990000' });
    expect(run.imported).to.deep.equal({ created: 1, updated: 0 });
    expect(run.inventoryCsv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).to.equal('category,products,units,stock_value_at_cost,stock_value_at_price');
    expect(run.foreignPull).to.deep.equal({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('issue 32: the mistakes the document rules out do not compile: both or neither recipient, a period on the inventory export, a payload of another type', () => {
    writeFileSync(join(project.dir, 'misuse.ts'), MISUSE);
    const misuse = { ...project, client: join(project.dir, 'misuse.ts') };
    const lines = typeCheck(misuse).diagnostics.map((d) => Number(/^misuse\.ts:(\d+):/.exec(d)?.[1]));
    expect([...new Set(lines)].sort((a, b) => a - b), 'each mistake is a compile error, in its own line').to.deep.equal([4, 5, 6, 7]);
  });

  it('fails, naming each place, on a degraded document: a total turned text, a renamed schema, a dropped header', async () => {
    const doc = JSON.parse(JSON.stringify(served).replaceAll('#/components/schemas/ProductPage"', '#/components/schemas/ProductList"')) as Doc;
    doc.components.schemas.ProductList = doc.components.schemas.ProductPage!;
    delete doc.components.schemas.ProductPage;
    doc.components.schemas.Sale!.properties.total = { type: 'string' };
    const sale = doc.paths['/sales']!.post!;
    sale.parameters = (sale.parameters as { name: string }[]).filter((p) => p.name !== 'Idempotency-Key');
    const doctored = clientProject(await generateTypes(doc));
    try {
      const { diagnostics } = typeCheck(doctored, program);
      expect(diagnostics, diagnostics.join('\n')).to.have.length(3);
      expect(diagnostics[0]).to.match(/^client\.ts:\d+:\d+ Property 'ProductPage' does not exist on type/);
      expect(diagnostics[1]).to.match(/^client\.ts:\d+:\d+ Type '\{ 'Idempotency-Key': .* is not assignable to type 'undefined'/);
      expect(diagnostics[2]).to.match(/^client\.ts:\d+:\d+ Argument of type 'string' is not assignable to parameter of type 'number'/);
    } finally {
      doctored.dispose();
    }
  });
});
