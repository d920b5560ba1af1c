import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { MAX_STOCK, type StockMovement } from '../../domain/product.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBranch, aBusiness, aProduct, NOW } from '../support/builders.js';

// changeQuantities and addMany (docs/adr/0036): a sale's lines in one statement each keep every promise
// of changeQuantity and add, product by product, on every adapter.

const contract = (name: string, open: () => Promise<Persistence>, concurrent: boolean) =>
  describe(`stock in one statement contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const seed = async () => {
      const business = aBusiness();
      const main = aBranch(business.id, { isDefault: true, name: 'main', createdAt: NOW });
      const lekki = aBranch(business.id, { name: 'lekki', createdAt: new Date(NOW.getTime() + 1) });
      const products = [aProduct(business.id), aProduct(business.id), aProduct(business.id)];
      const service = aProduct(business.id, { type: 'SERVICE' });
      await p.uow.run(async (r) => {
        await r.businesses.add(business);
        for (const b of [main, lekki]) await r.branches.add(b);
        for (const x of [...products, service]) await r.products.add(x);
      });
      const [a, b, c] = products.map((x) => x.id).sort() as [string, string, string];
      return { businessId: business.id, main: main.id, lekki: lekki.id, a, b, c, service: service.id };
    };

    it('moves each product at the branch and its total, answering in the order asked', async () => {
      const s = await seed();
      const first = await p.uow.run((r) =>
        r.products.changeQuantities(s.businessId, s.main, [{ productId: s.c, change: 5 }, { productId: s.a, change: 7 }, { productId: s.b, change: 1 }], NOW),
      );
      expect(first).to.deep.equal([
        { ok: true, before: 0, after: 5, total: 5 },
        { ok: true, before: 0, after: 7, total: 7 },
        { ok: true, before: 0, after: 1, total: 1 },
      ]);
      await p.uow.run((r) => r.products.changeQuantity(s.businessId, s.a, s.lekki, 3, NOW));
      const second = await p.uow.run((r) =>
        r.products.changeQuantities(s.businessId, s.main, [{ productId: s.a, change: -2 }, { productId: s.b, change: -1 }, { productId: s.c, change: 0 }], NOW),
      );
      expect(second).to.deep.equal([
        { ok: true, before: 7, after: 5, total: 8 },
        { ok: true, before: 1, after: 0, total: 0 },
        { ok: true, before: 5, after: 5, total: 5 },
      ]);
      const stock = await p.uow.read((r) => r.products.stockOf(s.businessId, [s.a]));
      expect(stock.get(s.a)!.map((x) => x.quantity)).to.deep.equal([5, 3]);
    });

    it('answers each refusal as changeQuantity would: short, over the maximum, a service, a branch without the product, an unknown or foreign product', async () => {
      const s = await seed();
      const other = await seed();
      await p.uow.run((r) => r.products.changeQuantities(s.businessId, s.main, [{ productId: s.a, change: 2 }, { productId: s.b, change: MAX_STOCK - 1 }], NOW));
      const unknown = randomUUID();
      const answers = await p.uow.run((r) =>
        r.products.changeQuantities(
          s.businessId,
          s.main,
          [
            { productId: s.a, change: -3 },
            { productId: s.b, change: 2 },
            { productId: s.service, change: 1 },
            { productId: unknown, change: -1 },
            { productId: other.a, change: 1 },
          ],
          NOW,
        ),
      );
      expect(answers).to.deep.equal([
        { ok: false, available: 2, reason: 'INSUFFICIENT' },
        { ok: false, available: MAX_STOCK - 1, reason: 'LIMIT' },
        { ok: false, available: 0, reason: 'LIMIT' },
        undefined,
        undefined,
      ]);
      // a branch that never held the product: a take is refused, a give makes its row
      const atLekki = await p.uow.run((r) =>
        r.products.changeQuantities(s.businessId, s.lekki, [{ productId: s.a, change: -1 }, { productId: s.c, change: 4 }], NOW),
      );
      expect(atLekki).to.deep.equal([{ ok: false, available: 0, reason: 'INSUFFICIENT' }, { ok: true, before: 0, after: 4, total: 4 }]);
      // below zero only when asked (a synced offline sale)
      const below = await p.uow.run((r) =>
        r.products.changeQuantities(s.businessId, s.main, [{ productId: s.a, change: -5 }, { productId: s.c, change: -1 }], NOW, { belowZero: true }),
      );
      expect(below).to.deep.equal([{ ok: true, before: 2, after: -3, total: -3 }, { ok: true, before: 0, after: -1, total: 3 }]);
      expect((await p.uow.read((r) => r.products.findById(other.businessId, other.a)))?.quantity).to.equal(0);
    });

    it('refuses a product named twice, and takes an empty list', async () => {
      const s = await seed();
      let thrown: unknown;
      await p.uow.run((r) => r.products.changeQuantities(s.businessId, s.main, [{ productId: s.a, change: 1 }, { productId: s.a, change: 1 }], NOW)).catch((e) => (thrown = e));
      expect(String(thrown)).to.match(/each product once/);
      expect(await p.uow.run((r) => r.products.changeQuantities(s.businessId, s.main, [], NOW))).to.deep.equal([]);
      expect(await p.uow.run((r) => r.stockLedger.addMany([]))).to.deep.equal([]);
    });

    it('addMany writes every row and times each after its product’s last movement', async () => {
      const s = await seed();
      const row = (productId: string, change: number, at: Date): StockMovement => ({
        id: randomUUID(),
        businessId: s.businessId,
        productId,
        branchId: s.main,
        quantityChange: change,
        quantityBefore: 0,
        quantityAfter: change,
        reason: 'RESTOCK',
        note: "a 'note', with {braces} and \"quotes\"",
        unitCost: null,
        createdBy: randomUUID(),
        createdAt: at,
        saleId: null,
        transferId: null,
      });
      const later = new Date(NOW.getTime() + 60_000);
      await p.uow.run((r) => r.stockLedger.add(row(s.a, 1, later)));
      const rows = [row(s.b, 2, NOW), row(s.a, 3, NOW), { ...row(s.c, 4, NOW), unitCost: 12_345 as never, saleId: randomUUID() }];
      const times = await p.uow.run((r) => r.stockLedger.addMany(rows));
      expect(times.map((t) => t.getTime())).to.deep.equal([NOW.getTime(), later.getTime() + 1, NOW.getTime()]);
      for (const [i, m] of rows.entries()) {
        expect(await p.uow.read((r) => r.stockLedger.findById(s.businessId, m.id))).to.deep.equal({ ...m, createdAt: times[i] });
      }
    });

    if (concurrent) {
      it('carts over the same products in opposite orders, at once: no deadlock, no lost unit', async () => {
        const s = await seed();
        await p.uow.run((r) => r.products.changeQuantities(s.businessId, s.main, [s.a, s.b, s.c].map((productId) => ({ productId, change: 100 })), NOW));
        const orders = [[s.a, s.b, s.c], [s.c, s.b, s.a], [s.b, s.c, s.a]];
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            p.uow.run((r) => r.products.changeQuantities(s.businessId, s.main, orders[i % 3]!.map((productId) => ({ productId, change: -1 })), NOW)),
          ),
        );
        expect(results.flat().every((x) => x?.ok)).to.equal(true);
        const left = await p.uow.read((r) => r.products.findMany(s.businessId, [s.a, s.b, s.c]));
        expect(left.map((x) => x.quantity)).to.deep.equal([70, 70, 70]);
      });
    }
  });

contract('in-memory', async () => inMemory(), false);
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 8, log: () => undefined }), true);
