import { expect } from 'chai';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aProduct, NOW, seedTenant } from '../support/builders.js';
import { buildReportsFixture, type ReportsFixture } from '../support/reports-fixture.js';

// The ReportQueries contract on both adapters, over the hand-worked fixture of test/support/reports-fixture.ts
// (amounts in kobo): every sum the SQL adapter asks PostgreSQL for, the in-memory adapter computes the same.

const K = (naira: number) => kobo(Math.round(naira * 100));
/** A sum: exact bigint kobo (docs/adr/0038). */
const S = (naira: number) => BigInt(Math.round(naira * 100));
const day = (d: string) => ({ from: d, to: d });

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`reports contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    let f: ReportsFixture;
    let shop: string;
    let other: string;
    before(async () => {
      p = await open();
      const tenant = await seedTenant(p.uow);
      shop = tenant.business.id;
      f = await buildReportsFixture(p, tenant.actor, tenant.branch.id);
      other = (await seedTenant(p.uow)).business.id;
    });
    after(async () => p.close());
    const q = <A>(work: (r: Parameters<Parameters<Persistence['uow']['read']>[0]>[0]['reports']) => Promise<A>) => p.uow.read((r) => work(r.reports));

    it('periodSums: revenue net of voids, discounts, stored line costs, credit given and collected, expenses not deleted; Lagos days', async () => {
      expect(await q((r) => r.periodSums(shop, day('2026-11-21'), day('2026-11-20')))).to.deep.equal({
        current: { revenue: S(5000), returns: 0n, returnsCount: 0, salesCount: 1, invoiceCount: 0, invoiceRevenue: 0n, discounts: S(0), costOfGoods: S(3500), creditGiven: S(0), creditCollected: S(3000), expenses: S(1200) },
        previous: { revenue: S(22000), returns: 0n, returnsCount: 0, salesCount: 3, invoiceCount: 0, invoiceRevenue: 0n, discounts: S(500), costOfGoods: S(12900), creditGiven: S(6000), creditCollected: S(2500), expenses: S(3700) },
      });
      const empty = { revenue: 0n, returns: 0n, returnsCount: 0, salesCount: 0, invoiceCount: 0, invoiceRevenue: 0n, discounts: 0n, costOfGoods: 0n, creditGiven: 0n, creditCollected: 0n, expenses: 0n };
      expect(await q((r) => r.periodSums(other, day('2026-11-21'), day('2026-11-20')))).to.deep.equal({ current: empty, previous: empty });
    });

    it('creditOutstanding: what customers owe now, per business', async () => {
      expect(await q((r) => r.creditOutstanding(shop))).to.equal(K(500));
      expect(await q((r) => r.creditOutstanding(other))).to.equal(0);
    });

    it('topProducts: line totals of completed sales by product, best first; services alone when asked', async () => {
      const month = { from: '2026-11-01', to: '2026-11-21' };
      expect(await q((r) => r.topProducts(shop, month, undefined, 5))).to.deep.equal([
        { productId: f.products.rice, name: 'Rice 5kg', units: 5, revenue: S(24800) },
        { productId: f.products.soap, name: 'Soap', units: 3, revenue: S(1500) },
        { productId: f.products.delivery, name: 'Delivery', units: 1, revenue: S(1000) },
      ]);
      expect(await q((r) => r.topProducts(shop, month, undefined, 1))).to.have.length(1);
      expect(await q((r) => r.topProducts(shop, month, 'SERVICE', 10))).to.deep.equal([{ productId: f.products.delivery, name: 'Delivery', units: 1, revenue: S(1000) }]);
      expect(await q((r) => r.topProducts(other, month, undefined, 5))).to.deep.equal([]);
    });

    it('profitLoss: every Lagos month of the range, then the whole range; expenses by category, largest first', async () => {
      const expenses = [
        { categoryId: f.categories.rent, category: 'Rent', amount: S(3000) },
        { categoryId: f.categories.fuel, category: 'Fuel and generator', amount: S(1200) },
        { categoryId: f.categories.transport, category: 'Transport', amount: S(700) },
      ];
      expect(await q((r) => r.profitLoss(shop, { from: '2026-10-01', to: '2026-11-30' }))).to.deep.equal([
        { month: '2026-10', revenue: S(5000), returns: 0n, discounts: S(0), costOfGoods: S(3000), expenses: [], totalExpenses: S(0) },
        { month: '2026-11', revenue: S(27000), returns: 0n, discounts: S(500), costOfGoods: S(16400), expenses, totalExpenses: S(4900) },
        { month: null, revenue: S(32000), returns: 0n, discounts: S(500), costOfGoods: S(19400), expenses, totalExpenses: S(4900) },
      ]);
      // partial months; the sale at 23:30Z on the 20th is the 21st in Lagos, and so is the fuel
      const nov = { revenue: S(22000), returns: 0n, discounts: S(500), costOfGoods: S(12900), expenses: [expenses[0], expenses[2]], totalExpenses: S(3700) };
      expect(await q((r) => r.profitLoss(shop, { from: '2026-10-20', to: '2026-11-20' }))).to.deep.equal([
        { month: '2026-10', revenue: S(0), returns: 0n, discounts: S(0), costOfGoods: S(0), expenses: [], totalExpenses: S(0) },
        { month: '2026-11', ...nov },
        { month: null, ...nov },
      ]);
    });

    it('stockValue and stockAlerts: goods only (no services, nothing archived), per category, fewest units first', async () => {
      expect(await q((r) => r.stockValue(shop))).to.deep.equal([
        { category: 'Food', products: 2, units: 97, atCost: S(94 * 3500 + 3 * 600), atPrice: S(94 * 5000 + 3 * 800) },
        { category: 'Toiletries', products: 1, units: 17, atCost: S(17 * 300), atPrice: S(17 * 500) },
        { category: null, products: 1, units: 0, atCost: S(0), atPrice: S(0) },
      ]);
      const milk = { productId: f.products.milk, name: 'Milk', category: null, quantity: 0, lowStockThreshold: 2 };
      const sugar = { productId: f.products.sugar, name: 'Sugar', category: 'Food', quantity: 3, lowStockThreshold: 5 };
      const alerts = await q((r) => r.stockAlerts(shop, 50));
      expect({ ...alerts, lowStock: alerts.lowStock.map(({ sku: _, ...x }) => x), outOfStock: alerts.outOfStock.map(({ sku: _, ...x }) => x) }).to.deep.equal({
        lowStockCount: 2, outOfStockCount: 1, lowStock: [milk, sugar], outOfStock: [milk],
      });
      expect(await q((r) => r.stockAlerts(shop, 0))).to.deep.include({ lowStockCount: 2, outOfStockCount: 1, lowStock: [], outOfStock: [] });
      expect(await q((r) => r.stockValue(other))).to.deep.equal([]);
    });

    it('stockAlerts: fewest units first, then by name; out of stock by name; the lists cut at the limit, the counts whole', async () => {
      const t = await seedTenant(p.uow);
      const goods = [
        aProduct(t.business.id, { name: 'zobo', quantity: 0, lowStockThreshold: null }),
        aProduct(t.business.id, { name: 'yam', quantity: 0, lowStockThreshold: 1 }),
        aProduct(t.business.id, { name: 'akara', quantity: 2, lowStockThreshold: 2 }),
        aProduct(t.business.id, { name: 'bread', quantity: 1, lowStockThreshold: 4 }),
        aProduct(t.business.id, { name: 'agege', quantity: 2, lowStockThreshold: 9 }),
        aProduct(t.business.id, { name: 'plenty', quantity: 50, lowStockThreshold: 9 }),
        aProduct(t.business.id, { name: 'gone', quantity: 0, lowStockThreshold: 9, archivedAt: NOW }),
      ];
      await p.uow.run(async (r) => {
        for (const g of goods) {
          await r.products.add({ ...g, quantity: 0 });
          if (g.quantity > 0) await r.products.changeQuantity(t.business.id, g.id, t.branch.id, g.quantity, NOW);
        }
      });
      const names = (xs: readonly { name: string; quantity: number }[]) => xs.map((x) => `${x.name}:${x.quantity}`);
      const all = await q((r) => r.stockAlerts(t.business.id, 50));
      expect({ ...all, lowStock: names(all.lowStock), outOfStock: names(all.outOfStock) }).to.deep.equal({
        lowStockCount: 4, outOfStockCount: 2, lowStock: ['yam:0', 'bread:1', 'agege:2', 'akara:2'], outOfStock: ['yam:0', 'zobo:0'],
      });
      const cut = await q((r) => r.stockAlerts(t.business.id, 1));
      expect({ ...cut, lowStock: names(cut.lowStock), outOfStock: names(cut.outOfStock) }).to.deep.equal({ lowStockCount: 4, outOfStockCount: 2, lowStock: ['yam:0'], outOfStock: ['yam:0'] });
    });

    it('daySums: one Lagos day by tender, voids, discounts, credit, cash received', async () => {
      // the CREDIT sale of 10,000 with a deposit of 4,000 is two tenders: CASH 4,000 and CREDIT 6,000 (docs/adr/0055)
      expect(await q((r) => r.daySums(shop, '2026-11-20'))).to.deep.equal({
        sales: [{ method: 'CASH', count: 2, total: S(15000) }, { method: 'CREDIT', count: 1, total: S(6000) }, { method: 'TRANSFER', count: 1, total: S(1000) }],
        salesCount: 3,
        revenue: S(22000),
        vat: S(0),
        voids: { count: 1, total: S(5000) },
        returns: { count: 0, total: 0n },
        refunds: [],
        discounts: S(500),
        expenses: [{ method: 'CASH', count: 1, total: S(3000) }, { method: 'TRANSFER', count: 1, total: S(700) }],
        creditGiven: S(6000),
        creditCollected: [{ method: 'CASH', count: 1, total: S(2500) }],
        invoicePayments: [],
        cashSalesReceived: S(15000),
      });
      expect(await q((r) => r.daySums(shop, '2026-11-21'))).to.deep.equal({
        sales: [{ method: 'CASH', count: 1, total: S(5000) }],
        salesCount: 1,
        revenue: S(5000),
        vat: S(0),
        voids: { count: 0, total: S(0) },
        returns: { count: 0, total: 0n },
        refunds: [],
        discounts: S(0),
        expenses: [{ method: 'CASH', count: 1, total: S(1200) }],
        creditGiven: S(0),
        creditCollected: [{ method: 'TRANSFER', count: 1, total: S(3000) }],
        invoicePayments: [],
        cashSalesReceived: S(5000),
      });
    });

    it('salesByCategory: line totals, units, stored costs and share per category', async () => {
      expect(await q((r) => r.salesByCategory(shop, { from: '2026-11-01', to: '2026-11-30' }))).to.deep.equal([
        { category: 'Food', revenue: S(24800), units: 5, costOfGoods: S(15500), grossProfit: S(9300), sharePct: 90.84 },
        { category: 'Toiletries', revenue: S(1500), units: 3, costOfGoods: S(900), grossProfit: S(600), sharePct: 5.49 },
        { category: 'Services', revenue: S(1000), units: 1, costOfGoods: S(0), grossProfit: S(1000), sharePct: 3.66 },
      ]);
      expect(await q((r) => r.salesByCategory(other, { from: '2026-11-01', to: '2026-11-30' }))).to.deep.equal([]);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
