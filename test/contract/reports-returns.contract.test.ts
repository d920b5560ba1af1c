import { expect } from 'chai';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { seedTenant } from '../support/builders.js';
import { buildReturnsFixture, type ReturnsFixture } from '../support/returns-fixture.js';

// Every figure net of returns (docs/adr/0058), on both adapters, over the hand-worked fixture of
// test/support/returns-fixture.ts: the reports, the report exports and the partner's analytics.

/** A sum: exact bigint kobo (docs/adr/0038). */
const S = (naira: number) => BigInt(Math.round(naira * 100));
const day = (d: string) => ({ from: d, to: d });
const both = { from: '2026-11-20', to: '2026-11-21' };

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`reports net of returns: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    let f: ReturnsFixture;
    let shop: string;
    before(async () => {
      p = await open();
      const tenant = await seedTenant(p.uow);
      shop = tenant.business.id;
      f = await buildReturnsFixture(p, tenant.actor);
    });
    after(async () => p.close());
    type Repos = Parameters<Parameters<Persistence['uow']['read']>[0]>[0];
    const q = <A>(work: (r: Repos) => Promise<A>) => p.uow.read(work);

    it('periodSums: revenue less what the returns were sold for, on the day they came back; restocked returns give their cost back', async () => {
      // day 20: sales 27,500, returns R1 + R2 5,823.53; cost 16,200 - 3,000 (R2's damaged soap keeps its cost)
      // day 21: sales 500, returns R3 + R4 + R5 15,205.88; cost 300 - 9,300
      expect(await q((r) => r.reports.periodSums(shop, day('2026-11-21'), day('2026-11-20')))).to.deep.equal({
        current: { revenue: S(500 - 15205.88), returns: S(15205.88), returnsCount: 3, salesCount: 1, invoiceCount: 0, invoiceRevenue: 0n, discounts: S(0), costOfGoods: S(-9000), creditGiven: S(0), creditCollected: S(0), expenses: S(0) },
        previous: { revenue: S(21676.47), returns: S(5823.53), returnsCount: 2, salesCount: 3, invoiceCount: 0, invoiceRevenue: 0n, discounts: S(500), costOfGoods: S(13200), creditGiven: S(8000), creditCollected: S(0), expenses: S(0) },
      });
      const whole = (await q((r) => r.reports.periodSums(shop, both, day('2026-11-19')))).current;
      // 28,000 sold, 21,029.41 back: 6,970.59; cost 16,500 - 12,300 = 4,200 (2 damaged soap 600, 2 kept soap 600, 1 rice 3,000)
      expect(whole).to.deep.include({ revenue: S(6970.59), returns: S(21029.41), returnsCount: 5, costOfGoods: S(4200) });
    });

    it('topProducts and salesByCategory: units and line totals less the returned ones, cost less what restocked units gave back', async () => {
      expect(await q((r) => r.reports.topProducts(shop, both, undefined, 5))).to.deep.equal([
        { productId: f.products.rice, name: 'Rice', units: 1, revenue: S(5000) },
        { productId: f.products.delivery, name: 'Delivery', units: 1, revenue: S(1000) },
        { productId: f.products.soap, name: 'Soap', units: 2, revenue: S(1000) },
      ]);
      expect(await q((r) => r.reports.salesByCategory(shop, both))).to.deep.equal([
        { category: 'Food', revenue: S(5000), units: 1, costOfGoods: S(3000), grossProfit: S(2000), sharePct: 71.43 },
        { category: 'Services', revenue: S(1000), units: 1, costOfGoods: S(0), grossProfit: S(1000), sharePct: 14.29 },
        { category: 'Toiletries', revenue: S(1000), units: 2, costOfGoods: S(1200), grossProfit: S(-200), sharePct: 14.29 },
      ]);
    });

    it('profitLoss and monthActivity: the month net of its returns', async () => {
      const [month, whole] = await q((r) => r.reports.profitLoss(shop, { from: '2026-11-01', to: '2026-11-21' }));
      expect(month).to.deep.equal({ month: '2026-11', revenue: S(6970.59), returns: S(21029.41), discounts: S(500), costOfGoods: S(4200), expenses: [], totalExpenses: S(0) });
      expect(whole).to.deep.equal({ ...month, month: null });
      expect(await q((r) => r.reports.monthActivity(shop, { from: '2026-11-01', to: '2026-11-21' }))).to.deep.equal([
        { month: '2026-11', salesCount: 4, salesTotal: S(6970.59), tenderedTotal: S(6970.59), voidedCount: 0, transferCount: 1, transferTotal: S(1000), cardCount: 0, cardTotal: S(0), daysWithSales: 2 },
      ]);
    });

    it('daySums: the day\'s returns and what they handed back by refund method; a credit note and a refund of nothing are listed too', async () => {
      expect(await q((r) => r.reports.daySums(shop, '2026-11-20'))).to.deep.include({
        returns: { count: 2, total: S(5823.53) },
        refunds: [{ method: 'CASH', count: 1, total: S(4852.94) }, { method: 'TRANSFER', count: 1, total: S(970.59) }],
        // S2's deposit of 2,000 is a CASH tender (docs/adr/0055)
        cashSalesReceived: S(18500),
      });
      expect(await q((r) => r.reports.daySums(shop, '2026-11-21'))).to.deep.include({
        returns: { count: 3, total: S(15205.88) },
        refunds: [{ method: 'CASH', count: 1, total: S(0) }, { method: 'CREDIT_NOTE', count: 1, total: S(500) }, { method: 'POS', count: 1, total: S(9705.88) }],
      });
      // Chika owed 8,000, 5,000 was returned against it and a 500 credit note paid it down
      expect(await q((r) => r.reports.creditOutstanding(shop))).to.equal(kobo(250_000));
    });

    it('report exports: refunds are money out by their method (a credit note moves none); each sale with what came back of it', async () => {
      const days = await q((r) => r.reportExports.cashFlow(shop, '2026-11-20', '2026-11-21'));
      const pick = (keys: string[]) => days.map((d) => keys.map((k) => Number((d as unknown as Record<string, bigint>)[k]) / 100));
      expect(pick(['salesPaid', 'inCash', 'inTransfer', 'inOther', 'moneyIn', 'refunds', 'outCash', 'outTransfer', 'outPos', 'moneyOut', 'net', 'runningBalance'])).to.deep.equal([
        // S2's deposit of 2,000 is a CASH tender (docs/adr/0055), no longer "other"
        [19500, 18500, 1000, 0, 19500, 5823.53, 4852.94, 970.59, 0, 5823.53, 13676.47, 13676.47],
        [500, 500, 0, 0, 500, 9705.88, 0, 0, 9705.88, 9705.88, -9205.88, 4470.59],
      ]);
      const sales = await q((r) => r.reportExports.salesBatch(shop, { from: new Date('2026-11-19T23:00:00Z'), to: new Date('2026-11-21T23:00:00Z') }, undefined, 10));
      expect(sales.map((s) => [s.id, s.total, s.returned, s.outstanding])).to.deep.equal([
        [f.sales.s1, 1_650_000, 1_552_941, 0],
        [f.sales.s2, 1_000_000, 500_000, 250_000],
        [f.sales.s3, 100_000, 0, 0],
        [f.sales.s4, 50_000, 50_000, 0],
      ]);
    });

    it('partner analytics: GMV net of the returns made in the same window; transactions count the sales', async () => {
      const merchants = await q((r) => r.partnerInsights.merchants(f.partner.id, { sortBy: 'joined_at', sortDir: 'desc', limit: 10 }, {}, f.now));
      expect(merchants.items.map((m) => [m.businessId, m.salesCount30d, m.gmv30d])).to.deep.equal([[shop, 4, S(6970.59)]]);
      const detail = await q((r) => r.partnerInsights.merchant(f.partner.id, shop, f.now, { from: '2026-10', to: '2026-11' }));
      expect(detail!.months).to.deep.equal([{ month: '2026-10', gmv: 0n, salesCount: 0 }, { month: '2026-11', gmv: S(6970.59), salesCount: 4 }]);
      expect(detail!.creditOutstanding).to.equal(250_000);
      const a = await q((r) => r.partnerInsights.analytics(f.partner.id, both, { from: '2026-11-18', to: '2026-11-19' }, new Date('2026-11-01T00:00:00Z'), 10));
      expect(a.current).to.deep.equal({ merchants: 1, activeMerchants: 1, gmv: S(6970.59), transactions: 4 });
      expect(a.previous).to.deep.equal({ merchants: 1, activeMerchants: 0, gmv: 0n, transactions: 0 });
      expect(a.daily).to.deep.equal([{ day: '2026-11-20', gmv: S(21676.47), transactions: 3 }, { day: '2026-11-21', gmv: S(-14705.88), transactions: 1 }]);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
