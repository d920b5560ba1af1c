import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { getPlanUsage } from '../../application/business/plan-usage.js';
import { createProduct } from '../../application/products/manage-products.js';
import { recordSale } from '../../application/sales/record-sale.js';
import { voidSale } from '../../application/sales/void-sale.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { seedTenant } from '../support/builders.js';
import { testClock } from '../support/test-app.js';

// Plan usage and the sale's own usage report agree on both adapters: the capped plan's counter, the
// uncapped plan's count of the Lagos month's sales (voided ones too), months split at Lagos midnight.
const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`plan usage contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    for (const plan of ['FREE', 'STARTER'] as const) {
      it(`${plan}: each sale reports the month's usage; the Lagos month boundary starts a new count`, async () => {
        const clock = testClock(new Date('2026-11-30T22:30:00.000Z')); // 23:30 on 30 November in Lagos
        const deps = { uow: p.uow, clock, crypto: nodeCrypto(new Uint8Array(32)) };
        const { actor } = await seedTenant(p.uow, { business: { plan }, at: clock.now() });
        const product = await createProduct(deps)(actor, { name: 'Rice', price: kobo(1000), quantity: 100 });
        if (E.isLeft(product)) throw new Error('setup failed');
        const sell = async () => {
          const r = await recordSale(deps)(actor, { items: [{ productId: product.right.id, quantity: 1 }], paymentMethod: 'CASH' });
          if (E.isLeft(r)) throw new Error(r.left._tag);
          return r.right;
        };
        const capped = plan === 'FREE';
        const first = await sell();
        expect(first.monthlySales).to.deep.equal(capped ? { count: 1, limit: 50, remaining: 49 } : null);
        const second = await sell();
        await voidSale(deps)(actor, second.sale.id, 'counted all the same');
        const november = await getPlanUsage(deps)(actor, plan);
        expect(november).to.deep.equal({
          plan,
          periodStart: new Date('2026-10-31T23:00:00.000Z'),
          periodEnd: new Date('2026-11-30T23:00:00.000Z'),
          sales: { count: 2, limit: capped ? 50 : null, remaining: capped ? 48 : null },
        });
        clock.set(new Date('2026-11-30T23:00:00.000Z')); // midnight in Lagos: December
        expect((await getPlanUsage(deps)(actor, plan)).sales.count).to.equal(0);
        expect((await sell()).monthlySales).to.deep.equal(capped ? { count: 1, limit: 50, remaining: 49 } : null);
        expect((await getPlanUsage(deps)(actor, plan)).sales).to.deep.equal({ count: 1, limit: capped ? 50 : null, remaining: capped ? 49 : null });
      });
    }
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
