import { expect } from 'chai';
import { seedReportFixture, type ReportFixture } from '../support/report-fixture.js';
import { reportFiles } from '../support/report-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The profit-and-loss and inventory exports against the fixture of test/support/report-fixture.ts, worked
// out by hand (its products have no cost price, so the cost of goods is 0), and against the JSON reports.

describe('HTTP report exports: profit and loss, inventory', function () {
  this.timeout(120_000);
  let app: TestApp;
  let shop: ReportFixture;
  before(async () => {
    app = await createTestApp();
    shop = await seedReportFixture(app);
  });
  after(async () => app.close());

  const files = () => reportFiles(app, () => shop.owner.accessToken);
  const csv = (path: string, fileName: string) => files().csv(path, fileName);
  const xlsxBody = async (path: string, fileName: string) => (await files().xlsxRows(path, fileName)).slice(6); // title, business, period, generated, blank, header
  const pdfText = (path: string, fileName: string) => files().pdfText(path, fileName);

  describe('profit and loss, 1-6 Nov 2026', () => {
    const path = '/reports/profit-loss/export?start_date=2026-11-01&end_date=2026-11-06';
    const name = 'profit-loss-2026-11-01_2026-11-06';
    // revenue 1,850.00 + 3,000.00 + 2,500.50 (the voided sale and the one on 31 Oct left out); expenses 300.00 + 500.00 (the deleted one left out)
    const HEADER = ['month', 'revenue', 'returns', 'discounts', 'cost_of_goods_sold', 'gross_profit', 'gross_margin_pct', 'total_expenses', 'net_profit'];
    const NOVEMBER = ['2026-11', '7350.50', '0.00', '150.00', '0.00', '7350.50', '100', '800.00', '6550.50'];
    const TOTAL = ['Total', ...NOVEMBER.slice(1)];

    it('CSV: a row per Lagos month, then the total, as the JSON report says', async () => {
      expect(await csv(path, `${name}.csv`)).to.deep.equal([HEADER, NOVEMBER, TOTAL]);
      const json = (await app.request('GET', '/reports/profit-loss?start_date=2026-11-01&end_date=2026-11-06', { token: shop.owner.accessToken })).body.data;
      expect([json.revenue, json.discounts, json.cost_of_goods_sold, json.gross_profit, json.total_expenses, json.net_profit]).to.deep.equal([7350.5, 150, 0, 7350.5, 800, 6550.5]);
    });
    it('XLSX and PDF carry the same figures', async () => {
      const rows = await xlsxBody(`${path}&format=xlsx`, `${name}.xlsx`);
      expect(rows.map((r) => r[0])).to.deep.equal(['2026-11', 'Total']);
      expect(rows[1]!.slice(1, 6)).to.deep.equal([7350.5, 0, 150, 0, 7350.5]);
      const text = await pdfText(`${path}&format=pdf`, `${name}.pdf`);
      for (const s of ['Ada Stores', 'Profit and loss', 'Period: 2026-11-01 to 2026-11-06', '7,350.50', '6,550.50', 'Total', 'Page 1']) expect(text, s).to.include(s);
    });
    it('a range past 366 days, or ending before it starts, is 400', async () => {
      for (const q of ['start_date=2024-01-01&end_date=2026-11-06', 'start_date=2026-11-06&end_date=2026-11-01']) {
        const res = await app.request('GET', `/reports/profit-loss/export?${q}`, { token: shop.owner.accessToken });
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_FAILED');
      }
    });
  });

  describe('inventory, now (24 Nov 2026)', () => {
    const path = '/reports/inventory/export';
    const name = 'inventory-2026-11-24_2026-11-24';
    // rice 100 - 1 - 2 - 3 = 94 at 1,000.00; oil 100 - 1 = 99 at 2,500.50 (the voided sale's unit came back); no cost prices
    const HEADER = ['category', 'products', 'units', 'stock_value_at_cost', 'stock_value_at_price'];
    const ROWS = [['(no category)', '2', '193', '0.00', '341549.50'], ['Total', '2', '193', '0.00', '341549.50']];

    it('CSV, XLSX and PDF: a row per category, then the total, as GET /reports/inventory says', async () => {
      expect(await csv(path, `${name}.csv`)).to.deep.equal([HEADER, ...ROWS]);
      const json = (await app.request('GET', '/reports/inventory', { token: shop.owner.accessToken })).body.data;
      expect(json.total).to.include({ products: 2, units: 193, stock_value_at_price: 341549.5 });
      const rows = await xlsxBody(`${path}?format=xlsx`, `${name}.xlsx`);
      expect(rows.map((r) => r.slice(0, 5))).to.deep.equal([['(no category)', 2, 193, 0, 341549.5], ['Total', 2, 193, 0, 341549.5]]);
      expect(await pdfText(`${path}?format=pdf`, `${name}.pdf`)).to.include('341,549.50');
    });
    it('is a snapshot: a start_date or end_date is 400, not ignored', async () => {
      const res = await app.request('GET', `${path}?start_date=2026-11-01`, { token: shop.owner.accessToken });
      expect(res.status).to.equal(400);
      expect(res.body.error.errors[0].field).to.equal('start_date');
    });
    it('staff are 403', async () => {
      expect((await app.request('GET', path, { token: shop.staffToken })).status).to.equal(403);
      expect((await app.request('GET', '/reports/profit-loss/export', { token: shop.staffToken })).status).to.equal(403);
    });
  });
});
