import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEmbeddedSale } from '../../../examples/embed.js';

describe('embedding: examples/embed.ts runs a sale through the public surface', () => {
  it('registers, signs in, stocks and sells on the in-memory adapters, and reads the receipt', async () => {
    const receipt = await runEmbeddedSale();
    expect(receipt.sale).to.include({ status: 'COMPLETED', total: 300_000, amountPaid: 300_000, amountTendered: 500_000, changeDue: 200_000 });
    expect(receipt.sale.lines).to.have.length(1);
    expect(receipt.sale.lines[0]).to.include({ name: 'Peak Milk 400g', quantity: 2, lineTotal: 300_000 });
  });

  it('imports nothing but application/index.ts, bootstrap/embed.ts and fp-ts', () => {
    const source = readFileSync(new URL('../../../examples/embed.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.sort()).to.deep.equal(['../application/index.js', '../bootstrap/embed.js', 'fp-ts/lib/Either.js']);
  });

  it('loads no SQL, ORM or queue module: not MikroORM, knex, pg, pg-boss nor PGlite (docs/adr/0050)', function () {
    this.timeout(60_000);
    // A fresh process imports the embedding surface alone; every module it loads is recorded, the
    // ES modules by a resolve hook and the CommonJS ones from require.cache (pg and knex are CommonJS).
    const dir = mkdtempSync(join(tmpdir(), 'embed-loads-'));
    try {
      const record = join(dir, 'loads.txt');
      const cjs = execFileSync(
        process.execPath,
        ['--import', 'tsx', '--import', './test/support/record-loads.mjs', 'test/support/print-loaded.ts', 'bootstrap/embed.ts', 'application/index.ts', 'examples/embed.ts'],
        { env: { ...process.env, RECORD_LOADS: record }, encoding: 'utf8' },
      );
      const loaded = [...(JSON.parse(cjs) as string[]), ...readFileSync(record, 'utf8').split('\n')];
      const packages = new Set(loaded.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter((p) => p !== undefined));
      expect(packages.has('fp-ts'), 'the recording works').to.equal(true);
      const sql = [...packages].filter((p) => /^(@mikro-orm\/.*|knex|pg|pg-.*|@electric-sql\/.*)$/.test(p));
      expect(sql).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('application/index.ts re-exports every file of application/ but the internal helpers it names', () => {
    const root = new URL('../../../application/', import.meta.url);
    const index = readFileSync(new URL('index.ts', root), 'utf8');
    // helpers other use cases call inside their transactions: not a use case of their own
    const internal = ['auth/otp-delivery.ts', 'auth/sessions.ts', 'business/identity-claim.ts', 'customers/credit-entry.ts', 'invoices/invoice-credit.ts', 'products/move-stock.ts'];
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('index.ts'));
    // Each module's folder exports its files in its own index.ts, and application/index.ts each module's index (docs/adr/0052).
    const exported = (f: string) => {
      const [folder, file] = f.split('/');
      return index.includes(`from './${folder}/index.js'`) && readFileSync(new URL(`${folder}/index.ts`, root), 'utf8').includes(`from './${file!.replace(/\.ts$/, '.js')}'`);
    };
    const missing = files.filter((f) => !internal.includes(f) && !exported(f));
    expect(missing).to.deep.equal([]);
  });
});
