import { expect } from 'chai';
import { setPlan } from '../../application/operator/plans.js';
import { openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { asPartner } from '../support/partners.js';
import { reportFiles } from '../support/report-files.js';
import { buildReturnsFixture, type ReturnsFixture } from '../support/returns-fixture.js';
import { createTestApp, registerOwner, testClock, type TestApp } from '../support/test-app.js';

// Every report over HTTP net of returns (docs/adr/0060), to the kobo, on the hand-worked fixture of
// test/support/returns-fixture.ts: the dashboard, P&L, sales by category, the daily summary and its
// cash, the exports, the loan pack's figures and the partner's analytics.

const cmp = (value: number, previous: number, change_pct: number | null) => ({ value, previous, change_pct });

describe('HTTP reports net of returns', function () {
  this.timeout(180_000);
  let app: TestApp;
  let p: Persistence;
  let token: string;
  let f: ReturnsFixture;
  before(async () => {
    p = await openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 6, log: () => undefined });
    app = await createTestApp({ persistence: p });
    const owner = await registerOwner(app);
    token = owner.accessToken;
    const businessId = (await app.request('GET', '/businesses/me', { token })).body.data.id as string;
    await setPlan({ uow: p.uow, clock: testClock() })(businessId, 'PRO');
    f = await buildReturnsFixture(p, { userId: owner.userId, businessId, roles: ['BUSINESS_OWNER'] });
    app.clock.set(f.now);
  });
  after(async () => app.close());
  const get = async (path: string) => {
    const res = await app.request('GET', path, { token });
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.body.data;
  };

  it('dashboard: revenue less what came back, returns beside it, restocked cost given back, best sellers net', async () => {
    const d = await get('/reports/dashboard?period=custom&start_date=2026-11-20&end_date=2026-11-21');
    expect(d).to.deep.include({
      revenue: cmp(6970.59, 0, null),
      returns: cmp(21029.41, 0, null),
      sales_count: cmp(4, 0, null),
      average_sale: cmp(1742.65, 0, null), // 6,970.59 / 4, half up
      gross_profit: cmp(2770.59, 0, null), // less 4,200: the damaged soap keeps its cost
      credit_outstanding: 2500,
    });
    expect(d.top_products).to.deep.equal([
      { id: f.products.rice, name: 'Rice', units: 1, revenue: 5000 },
      { id: f.products.delivery, name: 'Delivery', units: 1, revenue: 1000 },
      { id: f.products.soap, name: 'Soap', units: 2, revenue: 1000 },
    ]);
    // the day more came back than was sold
    expect(await get('/reports/dashboard?period=today')).to.deep.include({ revenue: cmp(-14705.88, 21676.47, -167.84), returns: cmp(15205.88, 5823.53, 161.11) });
  });

  it('profit and loss and sales by category: net of the month\'s returns; the sale discount left is what the returns did not take back', async () => {
    const pl = await get('/reports/profit-loss?start_date=2026-11-01&end_date=2026-11-30');
    expect(pl).to.deep.include({ revenue: 6970.59, returns: 21029.41, discounts: 500, cost_of_goods_sold: 4200, gross_profit: 2770.59, gross_margin_pct: 39.75, net_profit: 2770.59 });
    expect(await get('/reports/sales-by-category?start_date=2026-11-01&end_date=2026-11-30')).to.deep.include({
      categories: [
        { category: 'Food', revenue: 5000, units: 1, cost_of_goods_sold: 3000, gross_profit: 2000, share_pct: 71.43 },
        { category: 'Services', revenue: 1000, units: 1, cost_of_goods_sold: 0, gross_profit: 1000, share_pct: 14.29 },
        { category: 'Toiletries', revenue: 1000, units: 2, cost_of_goods_sold: 1200, gross_profit: -200, share_pct: 14.29 },
      ],
      // 500 given, 147.06 + 29.41 + 294.12 of it taken back by the returns
      line_total: 7000, sale_discounts: 29.41, revenue: 6970.59,
    });
  });

  it('daily summary: the day\'s returns and refunds by method; a CASH refund leaves the till, a credit note does not', async () => {
    const day = await get('/reports/daily-summary?date=2026-11-20');
    expect(day).to.deep.include({
      returns: { count: 2, total: 5823.53, refunded: 5823.53, by_refund_method: [{ method: 'CASH', count: 1, total: 4852.94 }, { method: 'TRANSFER', count: 1, total: 970.59 }] },
      net_sales: 21676.47,
      cash_expected: 13647.06, // 18,500 cash tenders (the credit sale's 2,000 deposit is CASH, docs/adr/0055) - 4,852.94 cash refund
    });
    expect(await get('/reports/daily-summary')).to.deep.include({
      date: '2026-11-21',
      returns: {
        count: 3, total: 15205.88, refunded: 10205.88,
        by_refund_method: [{ method: 'CASH', count: 1, total: 0 }, { method: 'CREDIT_NOTE', count: 1, total: 500 }, { method: 'POS', count: 1, total: 9705.88 }],
      },
      net_sales: -14705.88,
      cash_expected: 500, // the CASH return cleared a debt (0 refunded); POS and the credit note leave the drawer alone
    });
  });

  it('exports: refunds are money out by their method; each sale shows what came back of it and its net total', async () => {
    const files = reportFiles(app, () => token);
    const flow = await files.csv('/reports/cash-flow/export?start_date=2026-11-20&end_date=2026-11-21', 'cash-flow-2026-11-20_2026-11-21.csv');
    const [header, ...days] = flow as [string[], ...string[][]];
    const cells = (row: string[], keys: string[]) => keys.map((k) => row[header.indexOf(k)]);
    const keys = ['date', 'sales_paid', 'money_in', 'refunds', 'out_cash', 'out_transfer', 'out_pos', 'money_out', 'net', 'running_balance'];
    expect(days.map((d) => cells(d, keys))).to.deep.equal([
      ['2026-11-20', '19500.00', '19500.00', '5823.53', '4852.94', '970.59', '0.00', '5823.53', '13676.47', '13676.47'],
      ['2026-11-21', '500.00', '500.00', '9705.88', '0.00', '0.00', '9705.88', '9705.88', '-9205.88', '4470.59'],
    ]);
    const sales = await files.csv('/reports/sales/export?start_date=2026-11-20&end_date=2026-11-21', 'sales-2026-11-20_2026-11-21.csv');
    const [sh, ...rows] = sales as [string[], ...string[][]];
    expect(rows.map((r) => [r[sh.indexOf('total')], r[sh.indexOf('returned')], r[sh.indexOf('net_total')], r[sh.indexOf('outstanding')]])).to.deep.equal([
      ['16500.00', '15529.41', '970.59', '0.00'],
      ['10000.00', '5000.00', '5000.00', '2500.00'],
      ['1000.00', '0.00', '1000.00', '0.00'],
      ['500.00', '500.00', '0.00', '0.00'],
    ]);
    const pl = await files.csv('/reports/profit-loss/export?start_date=2026-11-01&end_date=2026-11-21', 'profit-loss-2026-11-01_2026-11-21.csv');
    const [ph, ...pr] = pl as [string[], ...string[][]];
    expect(pr.at(-1)!.slice(0, 5)).to.deep.equal(['Total', '6970.59', '21029.41', '500.00', '4200.00']);
    expect(ph.slice(0, 3)).to.deep.equal(['month', 'revenue', 'returns']);
  });

  it('the loan pack\'s month: revenue, profit, cash and the average sale net of returns', async () => {
    const made = await app.request('POST', '/reports/loan-pack', { token, body: { months: 6 } });
    expect(made.status, made.text).to.equal(201);
    const res = await fetch(`${app.baseUrl}/api/v1/reports/loan-pack/${made.body.data.reference}/download`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    expect(res.status).to.equal(200);
    const d = JSON.parse(await res.text());
    expect(d.monthly[5]).to.deep.include({
      month: '2026-11', revenue: 6970.59, cost_of_goods: 4200, gross_profit: 2770.59, net_profit: 2770.59, sales_count: 4, average_sale: 1742.65,
      cash_in: 20000, cash_out: 15529.41, net_cash_flow: 4470.59, transfer_share_pct: '14.35', card_share_pct: '0.00',
    });
    expect(d.credit).to.deep.include({ outstanding: 2500 });
  });

  it('the partner\'s analytics: GMV net of the returns of the same days', async () => {
    const a = await asPartner(app, f.partnerKey, 'GET', '/partner/analytics?period=7d');
    expect(a.status, a.text).to.equal(200);
    expect(a.body.data.gmv).to.deep.equal(cmp(6970.59, 0, null));
    expect(a.body.data.transactions).to.deep.equal(cmp(4, 0, null));
    expect(a.body.data.daily_gmv.filter((x: { transactions: number }) => x.transactions > 0)).to.deep.equal([
      { date: '2026-11-20', gmv: 21676.47, transactions: 3 },
      { date: '2026-11-21', gmv: -14705.88, transactions: 1 },
    ]);
    const merchants = await asPartner(app, f.partnerKey, 'GET', '/partner/merchants');
    expect(merchants.body.data.content[0]).to.deep.include({ sales_count_30d: 4, gmv_30d: 6970.59 });
  });
});
