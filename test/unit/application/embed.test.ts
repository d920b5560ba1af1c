import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
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

  it('application/index.ts re-exports every file of application/ but the internal helpers it names', () => {
    const root = new URL('../../../application/', import.meta.url);
    const index = readFileSync(new URL('index.ts', root), 'utf8');
    // helpers other use cases call inside their transactions: not a use case of their own
    const internal = ['auth/otp-delivery.ts', 'auth/sessions.ts', 'business/identity-claim.ts', 'customers/credit-entry.ts', 'products/move-stock.ts'];
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    const missing = files.filter((f) => !internal.includes(f) && !index.includes(`from './${f.replace(/\.ts$/, '.js')}'`));
    expect(missing).to.deep.equal([]);
  });
});
