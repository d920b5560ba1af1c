import { expect } from 'chai';
import { readFileSync } from 'node:fs';
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
import { aPhone, createTestApp, type TestApp } from '../support/test-app.js';

type Schema = Record<string, any>;
interface Doc {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
}

/** What the test reads of the client's run (the client itself is typed by the generated schema). */
type RunShop = (options: { baseUrl: string; phone: string; readCode: (phone: string) => string }) => Promise<Record<string, any>>;

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
    for (const name of ['Product', 'ProductPage', 'Sale', 'SaleRequest', 'Receipt', 'Customer', 'ErrorEnvelope']) expect(schema, name).to.match(new RegExp(`^ {8}${name}: \\{`, 'm'));
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
      expect(diagnostics).to.have.length(3);
      expect(diagnostics[0]).to.match(/^client\.ts:\d+:\d+ Property 'ProductPage' does not exist on type/);
      expect(diagnostics[1]).to.match(/^client\.ts:\d+:\d+ Type '\{ 'Idempotency-Key': .* is not assignable to type 'undefined'/);
      expect(diagnostics[2]).to.match(/^client\.ts:\d+:\d+ Argument of type 'string' is not assignable to parameter of type 'number'/);
    } finally {
      doctored.dispose();
    }
  });
});
