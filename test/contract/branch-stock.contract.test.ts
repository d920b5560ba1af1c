import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { StockMovement, StockTransfer } from '../../domain/product.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBranch, aBusiness, aProduct, NOW } from '../support/builders.js';

// Stock per branch (docs/adr/0032): changeQuantity per branch with the total, stockOf, holdsStock,
// the ledger's branch filter and the transfer headers keep the same promises on every adapter.

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`branch stock contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    /** A business with its default branch (created first), a second and an archived third, and one product and one service. */
    const seed = async () => {
      const business = aBusiness();
      const main = aBranch(business.id, { isDefault: true, name: 'main', createdAt: NOW });
      const lekki = aBranch(business.id, { name: 'lekki', createdAt: new Date(NOW.getTime() + 1) });
      const closed = aBranch(business.id, { name: 'closed', archivedAt: NOW, createdAt: new Date(NOW.getTime() + 2) });
      const product = aProduct(business.id);
      const service = aProduct(business.id, { type: 'SERVICE' });
      await p.uow.run(async (r) => {
        await r.businesses.add(business);
        for (const b of [main, lekki, closed]) await r.branches.add(b);
        await r.products.add(product);
        await r.products.add(service);
      });
      return { businessId: business.id, main: main.id, lekki: lekki.id, closed: closed.id, product: product.id, service: service.id };
    };

    it('changeQuantity moves one branch and the total; a branch never lends another its stock', async () => {
      const s = await seed();
      const change = (branch: string, n: number) => p.uow.run((r) => r.products.changeQuantity(s.businessId, s.product, branch, n, NOW));
      expect(await change(s.main, 10)).to.deep.equal({ ok: true, before: 0, after: 10, total: 10 });
      expect(await change(s.lekki, 3)).to.deep.equal({ ok: true, before: 0, after: 3, total: 13 });
      expect(await change(s.lekki, -4)).to.deep.equal({ ok: false, available: 3, reason: 'INSUFFICIENT' });
      expect(await change(s.lekki, -3)).to.deep.equal({ ok: true, before: 3, after: 0, total: 10 });
      // a branch that never held the product
      const other = randomUUID();
      await p.uow.run((r) => r.branches.add(aBranch(s.businessId, { id: other, name: 'new', createdAt: new Date(NOW.getTime() + 3) })));
      expect(await change(other, -1)).to.deep.equal({ ok: false, available: 0, reason: 'INSUFFICIENT' });
      expect(await change(other, 0)).to.deep.include({ ok: true, before: 0, after: 0, total: 10 });
      // a service keeps no stock: a change of nothing is answered, any other refused
      expect(await p.uow.run((r) => r.products.changeQuantity(s.businessId, s.service, s.main, 0, NOW))).to.deep.equal({ ok: true, before: 0, after: 0, total: 0 });
      expect((await p.uow.run((r) => r.products.changeQuantity(s.businessId, s.service, s.main, 1, NOW)))?.ok).to.equal(false);
      expect((await p.uow.read((r) => r.products.findById(s.businessId, s.product)))?.quantity).to.equal(10);
    });

    it('stockOf: every active branch, default first, 0 where none is held; nothing of another business', async () => {
      const s = await seed();
      await p.uow.run((r) => r.products.changeQuantity(s.businessId, s.product, s.lekki, 4, NOW));
      const stock = await p.uow.read((r) => r.products.stockOf(s.businessId, [s.product]));
      expect([...stock.keys()]).to.deep.equal([s.product]);
      expect(stock.get(s.product)).to.deep.equal([
        { branchId: s.main, branchName: 'main', quantity: 0 },
        { branchId: s.lekki, branchName: 'lekki', quantity: 4 },
      ]);
      // another business reads none of this stock (it has no branches here either)
      const other = await p.uow.read((r) => r.products.stockOf(randomUUID(), [s.product]));
      expect(other.get(s.product)).to.deep.equal([]);
      expect(await p.uow.read((r) => r.branches.holdsStock(s.businessId, s.lekki))).to.equal(true);
      expect(await p.uow.read((r) => r.branches.holdsStock(s.businessId, s.main))).to.equal(false);
      expect(await p.uow.read((r) => r.branches.isReferenced(s.businessId, s.lekki))).to.equal(true);
    });

    it('the ledger filters by branch; transfer headers list by either branch, with their lines from the TRANSFER_OUT rows', async () => {
      const s = await seed();
      const transferId = randomUUID();
      const row = (branchId: string, change: number, reason: StockMovement['reason'], ms: number): StockMovement => ({
        id: randomUUID(),
        businessId: s.businessId,
        productId: s.product,
        branchId,
        quantityChange: change,
        quantityBefore: change < 0 ? -change : 0,
        quantityAfter: change < 0 ? 0 : change,
        reason,
        note: null,
        unitCost: null,
        createdBy: null,
        createdAt: new Date(NOW.getTime() + ms),
        transferId,
      });
      const transfer: StockTransfer = {
        id: transferId,
        businessId: s.businessId,
        fromBranchId: s.main,
        toBranchId: s.lekki,
        note: 'to lekki',
        createdBy: randomUUID(),
        createdAt: NOW,
        items: [{ productId: s.product, quantity: 2 }],
      };
      await p.uow.run(async (r) => {
        await r.stockLedger.add(row(s.main, -2, 'TRANSFER_OUT', 1));
        await r.stockLedger.add(row(s.lekki, 2, 'TRANSFER_IN', 2));
        await r.stockTransfers.add(transfer);
      });
      const page = { sortBy: 'created_at' as const, sortDir: 'asc' as const, limit: 10 };
      const atLekki = await p.uow.read((r) => r.stockLedger.list(s.businessId, page, { branchId: s.lekki }));
      expect(atLekki.items.map((m) => [m.reason, m.branchId, m.transferId])).to.deep.equal([['TRANSFER_IN', s.lekki, transferId]]);
      expect(await p.uow.read((r) => r.stockTransfers.findById(s.businessId, transferId))).to.deep.equal(transfer);
      expect(await p.uow.read((r) => r.stockTransfers.findById(randomUUID(), transferId))).to.equal(undefined);
      expect((await p.uow.read((r) => r.stockTransfers.list(s.businessId, page, { branchId: s.main }))).items).to.deep.equal([transfer]);
      expect((await p.uow.read((r) => r.stockTransfers.list(s.businessId, page, { branchId: s.closed }))).items).to.deep.equal([]);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
