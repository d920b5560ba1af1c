import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { NewSaleConflict } from '../../application/sync/ports.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCreditEntry, aCustomer, aSale, NOW, seedShop } from '../support/builders.js';

// Offline sales on every adapter (docs/adr/0034): a stock move may go below zero only when asked
// (belowZero); an offline sale keeps its device, provisional number and review flag, and is found by
// either number; oversell conflicts are listed, resolved once per conflict or per sale, counted open.

const later = (ms: number) => new Date(NOW.getTime() + ms);

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`offline sales and conflicts contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    it('a stock move stops at zero unless belowZero; then the branch and the total go below it', async () => {
      const shop = await seedShop(p.uow);
      const refused = await p.uow.run((r) => r.products.changeQuantity(shop.business.id, shop.product.id, shop.branch.id, -1, later(1)));
      expect(refused).to.deep.include({ ok: false, reason: 'INSUFFICIENT' });
      const taken = await p.uow.run((r) => r.products.changeQuantity(shop.business.id, shop.product.id, shop.branch.id, -2, later(2), { belowZero: true }));
      expect(taken).to.deep.equal({ ok: true, before: 0, after: -2, total: -2 });
      const again = await p.uow.run((r) => r.products.changeQuantity(shop.business.id, shop.product.id, shop.branch.id, -1, later(3)));
      expect(again).to.deep.include({ ok: false, available: -2 });
      const back = await p.uow.run((r) => r.products.changeQuantity(shop.business.id, shop.product.id, shop.branch.id, 5, later(4)));
      expect(back).to.deep.equal({ ok: true, before: -2, after: 3, total: 3 });
    });

    it('an offline sale keeps its device, provisional number and review flag; either number finds it; clearNeedsReview clears it', async () => {
      const shop = await seedShop(p.uow);
      const offline = { deviceId: 'till-1', provisionalReceiptNumber: 'TILL1-000001', clientCreatedAt: new Date('2026-11-20T09:00:00.000Z'), needsReview: true };
      const sale = aSale(shop, shop.product.id, { offline });
      const online = aSale(shop, shop.product.id);
      const [number] = await p.uow.run(async (r) => [await r.sales.add(sale), await r.sales.add(online)]);
      const found = await p.uow.read((r) => r.sales.findByReceiptNumber(shop.business.id, 'TILL1-000001'));
      expect(found?.id).to.equal(sale.id);
      expect(found?.offline).to.deep.equal(offline);
      expect((await p.uow.read((r) => r.sales.findByReceiptNumber(shop.business.id, number!)))?.id).to.equal(sale.id);
      expect((await p.uow.read((r) => r.sales.findById(shop.business.id, online.id)))?.offline ?? null).to.equal(null);
      await p.uow.run((r) => r.sales.clearNeedsReview(shop.business.id, sale.id));
      expect((await p.uow.read((r) => r.sales.findById(shop.business.id, sale.id)))?.offline?.needsReview).to.equal(false);
      const page = await p.uow.read((r) => r.sales.list(shop.business.id, { sortBy: 'created_at', sortDir: 'desc', limit: 10, search: 'till1-0000' }, {}));
      expect(page.items.map((s) => s.id)).to.deep.equal([sale.id]);
    });

    it('conflicts: added, found with their names, listed by status, resolved once (one, or all of a sale), counted open', async () => {
      const shop = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const sale = aSale(shop, shop.product.id, { offline: { deviceId: 'till-1', provisionalReceiptNumber: 'TILL1-000009', clientCreatedAt: null, needsReview: true } });
      const conflict = (o: Partial<NewSaleConflict> = {}): NewSaleConflict => ({
        id: randomUUID(), businessId: shop.business.id, saleId: sale.id, productId: shop.product.id, branchId: shop.branch.id, requested: 2, available: 0, shortfall: 2,
        status: 'OPEN', resolution: null, quantityChange: null, note: null, resolvedBy: null, resolvedAt: null, createdAt: NOW, ...o,
      });
      const [a, b] = [conflict(), conflict({ createdAt: later(1), requested: 3, available: 1, shortfall: 2 })];
      const receipt = await p.uow.run(async (r) => {
        const n = await r.sales.add(sale);
        await r.saleConflicts.add(a);
        await r.saleConflicts.add(b);
        return n;
      });
      expect(await p.uow.read((r) => r.saleConflicts.findById(shop.business.id, a.id))).to.deep.equal({ ...a, productName: shop.product.name, receiptNumber: receipt, provisionalReceiptNumber: 'TILL1-000009' });
      expect(await p.uow.read((r) => r.saleConflicts.findById(other.business.id, a.id))).to.equal(undefined);
      const listed = await p.uow.read((r) => r.saleConflicts.list(shop.business.id, { sortBy: 'created_at', sortDir: 'desc', limit: 10 }, { status: 'OPEN' }));
      expect(listed.items.map((c) => c.id)).to.deep.equal([b.id, a.id]);
      expect(await p.uow.read((r) => r.saleConflicts.openOfSale(shop.business.id, sale.id))).to.equal(2);

      const decided = { resolution: 'STOCK_CORRECTION' as const, quantityChange: 2, note: 'found', resolvedBy: shop.user.id, resolvedAt: later(5) };
      await p.uow.run((r) => r.saleConflicts.resolve(shop.business.id, { conflictId: a.id }, decided));
      expect(await p.uow.read((r) => r.saleConflicts.findById(shop.business.id, a.id))).to.deep.include({ ...decided, status: 'RESOLVED' });
      expect(await p.uow.read((r) => r.saleConflicts.openOfSale(shop.business.id, sale.id))).to.equal(1);
      // another business resolves nothing; a decided conflict is not decided again
      await p.uow.run((r) => r.saleConflicts.resolve(other.business.id, { saleId: sale.id }, { ...decided, resolution: 'VOID' }));
      expect(await p.uow.read((r) => r.saleConflicts.openOfSale(shop.business.id, sale.id))).to.equal(1);
      await p.uow.run((r) => r.saleConflicts.resolve(shop.business.id, { saleId: sale.id }, { ...decided, resolution: 'VOID', quantityChange: null }));
      expect(await p.uow.read((r) => r.saleConflicts.openOfSale(shop.business.id, sale.id))).to.equal(0);
      expect((await p.uow.read((r) => r.saleConflicts.findById(shop.business.id, a.id)))?.resolution).to.equal('STOCK_CORRECTION');
      expect((await p.uow.read((r) => r.saleConflicts.findById(shop.business.id, b.id)))?.resolution).to.equal('VOID');
      expect((await p.uow.read((r) => r.saleConflicts.list(shop.business.id, { sortBy: 'created_at', sortDir: 'asc', limit: 10 }, { status: 'OPEN' }))).items).to.have.length(0);
    });

    it('a credit entry is found by id in its own business only', async () => {
      const shop = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const customer = aCustomer(shop.business.id);
      const entry = aCreditEntry(customer, { createdBy: shop.user.id });
      await p.uow.run(async (r) => {
        await r.customers.add(customer);
        await r.credit.add(entry);
      });
      expect((await p.uow.read((r) => r.credit.entryById(shop.business.id, entry.id)))?.id).to.equal(entry.id);
      expect(await p.uow.read((r) => r.credit.entryById(other.business.id, entry.id))).to.equal(undefined);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
