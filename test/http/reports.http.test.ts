import { expect } from 'chai';
import { setPlan } from '../../application/operator/plans.js';
import type { JobDeps } from '../../bootstrap/jobs.js';
import { reportsModule } from '../../bootstrap/modules/reports.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import type { Plan } from '../../domain/plan.js';
import { freshDatabaseUrl } from '../support/database.js';
import { ownerWithReportsFixture, type ReportsFixture } from '../support/reports-fixture.js';
import { aPhone, createTestApp, testClock, type TestApp } from '../support/test-app.js';

// The six reports over HTTP on the hand-worked fixture (test/support/reports-fixture.ts, naira here):
// on the test database (PostgreSQL or PGlite) and on the in-memory adapters.

const REPORTS = ['/reports/dashboard', '/reports/dashboard/top-services', '/reports/profit-loss?start_date=2026-11-01&end_date=2026-11-30', '/reports/inventory', '/reports/daily-summary', '/reports/sales-by-category?start_date=2026-11-01&end_date=2026-11-30'];
const cmp = (value: number, previous: number, change_pct: number | null) => ({ value, previous, change_pct });

const suite = (name: string, open: () => Promise<Persistence>) =>
  describe(`HTTP reports: ${name}`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let p: Persistence;
    let token: string;
    let businessId: string;
    let f: ReportsFixture;
    before(async () => {
      p = await open();
      app = await createTestApp({ persistence: p });
      ({ token, businessId, f } = await ownerWithReportsFixture(app, p));
    });
    after(async () => app.close());
    const get = (path: string, as = token) => app.request('GET', path, { token: as });
    const plan = async (to: Plan) => void (await setPlan({ uow: p.uow, clock: testClock() })(businessId, to));
    const expect400 = async (path: string, field?: string) => {
      const res = await get(path);
      expect(res.status, `${path}: ${res.text}`).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_FAILED');
      if (field) expect(res.body.error.errors.map((e: { field: string }) => e.field), path).to.include(field);
    };

    it('dashboard today: each figure against yesterday, credit owed now, stock alerts, best sellers', async () => {
      const res = await get('/reports/dashboard');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({
        period: 'today', start_date: '2026-11-21', end_date: '2026-11-21', previous_start_date: '2026-11-20', previous_end_date: '2026-11-20',
        revenue: cmp(5000, 22000, -77.27),
        returns: cmp(0, 0, null),
        sales_count: cmp(1, 3, -66.67),
        average_sale: cmp(5000, 7333.33, -31.82),
        gross_profit: cmp(1500, 9100, -83.52), // 5,000 - 3,500 (the new cost) against 22,000 - 12,900
        expenses: cmp(1200, 3700, -67.57), // the deleted 9,999 is left out
        net_profit: cmp(300, 5400, -94.44),
        credit_given: cmp(0, 6000, -100),
        credit_collected: cmp(3000, 2500, 20),
        credit_outstanding: 500,
        receivables: { invoiced: 0, collected: 0, outstanding: 0, overdue: 0 },
        low_stock_count: 2,
        out_of_stock_count: 1,
        top_products: [{ id: f.products.rice, name: 'Rice 5kg', units: 1, revenue: 5000 }],
      });
    });

    it('dashboard periods: month to date against the same number of days before, 7d, 30d, yesterday, custom', async () => {
      const month = (await get('/reports/dashboard?period=month')).body.data;
      expect(month).to.deep.include({ start_date: '2026-11-01', end_date: '2026-11-21', previous_start_date: '2026-10-11', previous_end_date: '2026-10-31' });
      expect(month).to.deep.include({
        revenue: cmp(27000, 5000, 440), sales_count: cmp(4, 1, 300), average_sale: cmp(6750, 5000, 35), gross_profit: cmp(10600, 2000, 430),
        expenses: cmp(4900, 0, null), net_profit: cmp(5700, 2000, 185), credit_given: cmp(6000, 0, null), credit_collected: cmp(5500, 0, null),
      });
      expect(month.top_products).to.deep.equal([
        { id: f.products.rice, name: 'Rice 5kg', units: 5, revenue: 24800 },
        { id: f.products.soap, name: 'Soap', units: 3, revenue: 1500 },
        { id: f.products.delivery, name: 'Delivery', units: 1, revenue: 1000 },
      ]);
      expect((await get('/reports/dashboard?period=7d')).body.data).to.deep.include({ start_date: '2026-11-15', previous_start_date: '2026-11-08', revenue: cmp(27000, 0, null) });
      expect((await get('/reports/dashboard?period=30d')).body.data).to.deep.include({ start_date: '2026-10-23', previous_end_date: '2026-10-22', revenue: cmp(27000, 5000, 440) });
      expect((await get('/reports/dashboard?period=yesterday')).body.data).to.deep.include({ start_date: '2026-11-20', revenue: cmp(22000, 0, null), sales_count: cmp(3, 0, null) });
      const custom = (await get('/reports/dashboard?period=custom&start_date=2026-10-15&end_date=2026-10-15')).body.data;
      expect(custom).to.deep.include({ revenue: cmp(5000, 0, null), gross_profit: cmp(2000, 0, null), previous_start_date: '2026-10-14' });
    });

    it('top services: Business and Pro only (402 FEATURE_NOT_AVAILABLE on Free and Starter)', async () => {
      for (const p_ of ['FREE', 'STARTER'] as const) {
        await plan(p_);
        const res = await get('/reports/dashboard/top-services?period=month');
        expect(res.status, p_).to.equal(402);
        expect(res.body.error.code).to.equal('FEATURE_NOT_AVAILABLE');
      }
      for (const p_ of ['BUSINESS', 'PRO'] as const) {
        await plan(p_);
        const res = await get('/reports/dashboard/top-services?period=month');
        expect(res.status, `${p_} ${res.text}`).to.equal(200);
        expect(res.body.data).to.deep.equal({ period: 'month', start_date: '2026-11-01', end_date: '2026-11-21', services: [{ id: f.products.delivery, name: 'Delivery', units: 1, revenue: 1000 }] });
      }
      await plan('FREE');
    });

    it('profit and loss: in total and per Lagos month', async () => {
      const expenses = [
        { category_id: f.categories.rent, category: 'Rent', amount: 3000 },
        { category_id: f.categories.fuel, category: 'Fuel and generator', amount: 1200 },
        { category_id: f.categories.transport, category: 'Transport', amount: 700 },
      ];
      const res = await get('/reports/profit-loss?start_date=2026-10-01&end_date=2026-11-30');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({
        start_date: '2026-10-01', end_date: '2026-11-30',
        revenue: 32000, returns: 0, discounts: 500, cost_of_goods_sold: 19400, gross_profit: 12600, gross_margin_pct: 39.38,
        expenses_by_category: expenses, total_expenses: 4900, net_profit: 7700,
        months: [
          { month: '2026-10', revenue: 5000, returns: 0, discounts: 0, cost_of_goods_sold: 3000, gross_profit: 2000, gross_margin_pct: 40, expenses_by_category: [], total_expenses: 0, net_profit: 2000 },
          { month: '2026-11', revenue: 27000, returns: 0, discounts: 500, cost_of_goods_sold: 16400, gross_profit: 10600, gross_margin_pct: 39.26, expenses_by_category: expenses, total_expenses: 4900, net_profit: 5700 },
        ],
      });
      const quiet = (await get('/reports/profit-loss?start_date=2026-09-01&end_date=2026-09-30')).body.data;
      expect(quiet).to.deep.include({ revenue: 0, gross_margin_pct: null, net_profit: 0 });
    });

    it('inventory: stock value at cost and at price per category and in total; low and out of stock (no services, nothing archived)', async () => {
      const res = await get('/reports/inventory');
      expect(res.status, res.text).to.equal(200);
      const milk = { id: f.products.milk, name: 'Milk', category: null, quantity: 0, low_stock_threshold: 2 };
      const sugar = { id: f.products.sugar, name: 'Sugar', category: 'Food', quantity: 3, low_stock_threshold: 5 };
      const noSku = (items: { sku: string }[]) => items.map(({ sku: _, ...x }) => x);
      const d = res.body.data;
      expect(d.categories).to.deep.equal([
        { category: 'Food', products: 2, units: 97, stock_value_at_cost: 330800, stock_value_at_price: 472400 },
        { category: 'Toiletries', products: 1, units: 17, stock_value_at_cost: 5100, stock_value_at_price: 8500 },
        { category: null, products: 1, units: 0, stock_value_at_cost: 0, stock_value_at_price: 0 },
      ]);
      expect(d.total).to.deep.equal({ products: 4, units: 114, stock_value_at_cost: 335900, stock_value_at_price: 480900 });
      expect({ count: d.low_stock.count, items: noSku(d.low_stock.items) }).to.deep.equal({ count: 2, items: [milk, sugar] });
      expect({ count: d.out_of_stock.count, items: noSku(d.out_of_stock.items) }).to.deep.equal({ count: 1, items: [milk] });
    });

    it('daily summary: a given Lagos day, and today by default (the 23:30Z sale and expense are the next day)', async () => {
      const day = await get('/reports/daily-summary?date=2026-11-20');
      expect(day.status, day.text).to.equal(200);
      expect(day.body.data).to.deep.equal({
        date: '2026-11-20',
        // by tender (docs/adr/0055): the CREDIT sale's deposit of 4,000 is CASH, 6,000 left owed
        sales: { count: 3, total: 22000, by_payment_method: [{ method: 'CASH', count: 2, total: 15000 }, { method: 'CREDIT', count: 1, total: 6000 }, { method: 'TRANSFER', count: 1, total: 1000 }] },
        voids: { count: 1, total: 5000 },
        returns: { count: 0, total: 0, refunded: 0, by_refund_method: [] },
        net_sales: 22000,
        discounts: 500,
        expenses: { total: 3700, by_payment_method: [{ method: 'CASH', count: 1, total: 3000 }, { method: 'TRANSFER', count: 1, total: 700 }] },
        credit_given: 6000,
        credit_collected: { total: 2500, by_payment_method: [{ method: 'CASH', count: 1, total: 2500 }] },
        invoice_payments: { total: 0, by_payment_method: [] },
        cash_expected: 14500, // 15,000 cash tenders + 2,500 cash payment - 3,000 cash rent
        revenue: 22000,
        vat_total: 0,
      });
      expect((await get('/reports/daily-summary')).body.data).to.deep.equal({
        date: '2026-11-21',
        sales: { count: 1, total: 5000, by_payment_method: [{ method: 'CASH', count: 1, total: 5000 }] },
        voids: { count: 0, total: 0 },
        returns: { count: 0, total: 0, refunded: 0, by_refund_method: [] },
        net_sales: 5000,
        discounts: 0,
        expenses: { total: 1200, by_payment_method: [{ method: 'CASH', count: 1, total: 1200 }] },
        credit_given: 0,
        credit_collected: { total: 3000, by_payment_method: [{ method: 'TRANSFER', count: 1, total: 3000 }] },
        invoice_payments: { total: 0, by_payment_method: [] },
        cash_expected: 3800,
        revenue: 5000,
        vat_total: 0,
      });
    });

    it('sales by category: line totals, units, cost, gross profit and share; sale discounts given once', async () => {
      const res = await get('/reports/sales-by-category?start_date=2026-11-01&end_date=2026-11-30');
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({
        start_date: '2026-11-01', end_date: '2026-11-30',
        categories: [
          { category: 'Food', revenue: 24800, units: 5, cost_of_goods_sold: 15500, gross_profit: 9300, share_pct: 90.84 },
          { category: 'Toiletries', revenue: 1500, units: 3, cost_of_goods_sold: 900, gross_profit: 600, share_pct: 5.49 },
          { category: 'Services', revenue: 1000, units: 1, cost_of_goods_sold: 0, gross_profit: 1000, share_pct: 3.66 },
        ],
        line_total: 27300, sale_discounts: 300, revenue: 27000,
      });
    });

    it('bad input is 400 VALIDATION_FAILED, never 500', async () => {
      await expect400('/reports/dashboard?period=week', 'period');
      await expect400('/reports/dashboard?period=custom', 'start_date');
      await expect400('/reports/dashboard?period=custom&start_date=2026-11-10', 'end_date');
      await expect400('/reports/dashboard?period=today&start_date=2026-11-10', 'start_date');
      await expect400('/reports/dashboard?period=custom&start_date=2026-11-10&end_date=2026-11-09', 'end_date');
      await expect400('/reports/dashboard?period=custom&start_date=2025-11-20&end_date=2026-11-21', 'end_date'); // 367 days
      expect((await get('/reports/dashboard?period=custom&start_date=2025-11-21&end_date=2026-11-21')).status).to.equal(200); // 366
      await expect400('/reports/dashboard/top-services?period=fortnight', 'period');
      await expect400('/reports/profit-loss?start_date=2026-11-01', 'end_date');
      await expect400('/reports/profit-loss?start_date=2026-02-30&end_date=2026-03-01', 'start_date');
      await expect400('/reports/profit-loss?start_date=yesterday&end_date=2026-03-01', 'start_date');
      await expect400('/reports/profit-loss?start_date=2026-11-02&end_date=2026-11-01', 'end_date');
      await expect400('/reports/profit-loss?start_date=2020-01-01&end_date=2026-01-01', 'end_date');
      await expect400('/reports/profit-loss?start_date=0000-01-01&end_date=0000-01-02', 'start_date');
      await expect400('/reports/dashboard?period=custom&start_date=0001-01-01&end_date=0001-01-02', 'start_date');
      await expect400('/reports/dashboard?period=custom&start_date=1899-12-31&end_date=1900-01-02', 'start_date');
      expect((await get('/reports/dashboard?period=custom&start_date=1900-01-01&end_date=1900-12-31')).status).to.equal(200); // the day before is 1899
      expect((await get('/reports/profit-loss?start_date=9999-01-01&end_date=9999-12-31')).status).to.equal(200);
      await expect400('/reports/profit-loss?start_date=2026-11-01T00:00:00Z&end_date=2026-11-02', 'start_date');
      await expect400('/reports/daily-summary?date=2026-13-01', 'date');
      await expect400('/reports/daily-summary?date=not-a-date', 'date');
      await expect400('/reports/daily-summary?date=2026-11-20&date=2026-11-21', 'date');
      await expect400('/reports/inventory?foo=1', 'foo');
      await expect400('/reports/sales-by-category?start_date=2026-11-30&end_date=2026-11-01', 'end_date');
      await expect400('/reports/sales-by-category?end_date=2026-11-01', 'start_date');
    });

    it("the reports module's periodic task rolls up the days that are over: every report answers the same after, two workers at once included", async () => {
      const answers = async () => Promise.all([...REPORTS, '/reports/dashboard?period=30d', '/reports/profit-loss?start_date=2026-10-01&end_date=2026-11-30'].map(async (path) => (await get(path)).body));
      const before = await answers();
      const [task] = reportsModule.periodicTasks!({ uow: p.uow } as unknown as JobDeps, { retryLimit: 0, retryDelaySeconds: 1 });
      expect(task!.name).to.equal('report-day-totals');
      // the SQL adapter has the fixture's days (all over) to roll up; the in-memory one keeps nothing by day
      expect(await p.uow.read((r) => r.reportDayTotals.businessesToRollUp(1000))).to.have.length(name === 'in-memory' ? 0 : 1);
      await Promise.all([task!.run(app.clock.now()), task!.run(app.clock.now())]);
      expect(await p.uow.read((r) => r.reportDayTotals.businessesToRollUp(1000))).to.deep.equal([]);
      expect(await answers()).to.deep.equal(before);
    });

    it('owner only: staff 403 INSUFFICIENT_ROLE on every report; no token 401', async () => {
      const phone = aPhone();
      const invite = await app.request('POST', '/staff/invite', { token, body: { phone, first_name: 'Bola', last_name: 'Ade' } });
      expect(invite.status, invite.text).to.equal(201);
      await app.request('POST', '/auth/login', { body: { phone } });
      const staff = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
      for (const path of REPORTS) {
        const res = await get(path, staff);
        expect(res.status, path).to.equal(403);
        expect(res.body.error.code).to.equal('INSUFFICIENT_ROLE');
        expect((await app.request('GET', path)).status, path).to.equal(401);
      }
    });
  });

suite('database', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
suite('in-memory', async () => inMemory());
