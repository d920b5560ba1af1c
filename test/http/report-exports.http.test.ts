import { expect } from 'chai';
import { CASH_FLOW_HEADER, CASH_FLOW_ROWS, SALES_HEADER, SALES_ROWS, seedReportFixture, type ReportFixture } from '../support/report-fixture.js';
import { parse } from 'csv-parse/sync';
import { reportFiles, XLSX } from '../support/report-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The report exports over HTTP against a fixture worked out by hand (test/support/report-fixture.ts), in each format.

const money = (cell: string) => (cell === '' ? null : Number(cell));

describe('HTTP report exports', function () {
  this.timeout(120_000);
  let app: TestApp;
  let shop: ReportFixture;
  before(async () => {
    app = await createTestApp();
    shop = await seedReportFixture(app);
  });
  after(async () => app.close());

  const download = (path: string, token = shop.owner.accessToken) => fetch(`${app.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const files = () => reportFiles(app, () => shop.owner.accessToken);
  const csvOf = (path: string, fileName: string) => files().csv(path, fileName);
  const xlsxOf = (path: string, fileName: string) => files().xlsxRows(path, fileName);
  const pdfTextOf = (path: string, fileName: string) => files().pdfText(path, fileName);

  describe('sales', () => {
    const path = '/reports/sales/export?start_date=2026-11-01&end_date=2026-11-30';
    const name = 'sales-2026-11-01_2026-11-30';
    it('CSV: one row per sale of the Lagos days, voided ones with their status, the 23:30 UTC sale on the next day', async () => {
      const records = await csvOf(path, `${name}.csv`);
      expect(records).to.deep.equal([SALES_HEADER, ...SALES_ROWS]);
      expect(await csvOf(`${path}&format=csv`, `${name}.csv`)).to.deep.equal(records);
    });
    it('XLSX: the title block, then the header and the rows, money as numbers and times as dates', async () => {
      const rows = await xlsxOf(`${path}&format=xlsx`, `${name}.xlsx`);
      expect(rows[0]).to.deep.equal(['Sales']);
      expect(rows[1]).to.deep.equal(['Ada Stores']);
      expect(rows[2]).to.deep.equal(['Period: 2026-11-01 to 2026-11-30']);
      expect(rows[5]).to.deep.equal(['Receipt', 'Date and time', 'Cashier', 'Customer', 'Payment', 'Status', 'Subtotal', 'Discount', 'Total', 'Paid', 'Balance due', 'Outstanding', 'Returned', 'Net total', 'Payments']);
      const body = rows.slice(6);
      expect(body).to.have.length(4);
      body.forEach((row, i) => {
        const want = SALES_ROWS[i]!;
        expect(row[0]).to.equal(want[0]);
        expect((row[1] as Date).toISOString().slice(0, 16).replace('T', ' ')).to.equal(want[1]);
        expect(Array.from(row.slice(2, 6), (v) => v ?? '')).to.deep.equal(want.slice(2, 6));
        expect(row.slice(6, 14)).to.deep.equal(want.slice(6, 14).map(money));
        expect(row[14]).to.equal(want[14]); // the tenders, as text
      });
    });
    it('PDF: business name, period, the rows with the naira sign, page numbers', async () => {
      const text = await pdfTextOf(`${path}&format=pdf`, `${name}.pdf`);
      if (process.env.SHOW_PDF) console.log(text);
      for (const s of ['Ada Stores', 'Sales', 'Period: 2026-11-01 to 2026-11-30', 'Total (₦)', 'RCP-000003', 'VOIDED', 'Chinedu Eze', 'Bola Ade', '2026-11-06 00:30', '1,850.00', '2,500.50', 'Page 1']) {
        expect(text, s).to.include(s);
      }
      expect(text).not.to.include('RCP-000001');
    });
  });

  describe('cash flow', () => {
    const path = '/reports/cash-flow/export?start_date=2026-11-01&end_date=2026-11-06';
    const name = 'cash-flow-2026-11-01_2026-11-06';
    it('CSV: every Lagos day, money in and out by method, net and the running balance', async () => {
      expect(await csvOf(path, `${name}.csv`)).to.deep.equal([CASH_FLOW_HEADER, ...CASH_FLOW_ROWS]);
    });
    it('XLSX: the same figures as numbers', async () => {
      const rows = await xlsxOf(`${path}&format=xlsx`, `${name}.xlsx`);
      expect(rows[0]).to.deep.equal(['Cash flow']);
      const body = rows.slice(6);
      expect(body.map((r) => (r[0] as Date).toISOString().slice(0, 10))).to.deep.equal(CASH_FLOW_ROWS.map((r) => r[0]));
      expect(body.map((r) => r.slice(1))).to.deep.equal(CASH_FLOW_ROWS.map((r) => r.slice(1).map(money)));
    });
    it('PDF: A4 landscape table with the running balance', async () => {
      const text = await pdfTextOf(`${path}&format=pdf`, `${name}.pdf`);
      if (process.env.SHOW_PDF) console.log(text);
      for (const s of ['Ada Stores', 'Cash flow', 'Period: 2026-11-01 to 2026-11-06', 'Running balance (₦)', '2026-11-06', '6,550.50', '4,550.00', 'Page 1']) {
        expect(text, s).to.include(s);
      }
    });
  });

  describe('bad input and roles', () => {
    const problem = async (path: string, status: number, code: string, token = shop.owner.accessToken) => {
      const res = await app.request('GET', path, { token });
      expect(res.status, res.text).to.equal(status);
      expect(res.body.error.code).to.equal(code);
      return res.body.error;
    };
    for (const route of ['/reports/sales/export', '/reports/cash-flow/export']) {
      it(`${route}: 400 on a bad format, date, order or a range over 366 days; STAFF 403; no token 401`, async () => {
        await problem(`${route}?format=docx`, 400, 'VALIDATION_FAILED');
        await problem(`${route}?start_date=2026-02-30`, 400, 'VALIDATION_FAILED');
        await problem(`${route}?start_date=yesterday`, 400, 'VALIDATION_FAILED');
        await problem(`${route}?end_date=2026-11-01T00:00:00Z`, 400, 'VALIDATION_FAILED');
        const order = await problem(`${route}?start_date=2026-11-02&end_date=2026-11-01`, 400, 'VALIDATION_FAILED');
        expect(order.errors[0].field).to.equal('end_date');
        await problem(`${route}?start_date=2025-01-01&end_date=2026-01-02`, 400, 'VALIDATION_FAILED');
        expect((await download(`${route}?start_date=2025-01-01&end_date=2026-01-01`)).status).to.equal(200); // 366 days
        await problem(`${route}?start_date=0000-01-01`, 400, 'VALIDATION_FAILED');
        await problem(`${route}?foo=1`, 400, 'VALIDATION_FAILED');
        for (const edge of ['start_date=0001-01-01&end_date=0001-01-31', 'start_date=9999-12-01&end_date=9999-12-31']) {
          for (const format of ['csv', 'xlsx', 'pdf']) expect((await download(`${route}?${edge}&format=${format}`)).status, `${edge} ${format}`).to.equal(200);
        }
        await problem(route, 403, 'INSUFFICIENT_ROLE', shop.staffToken);
        expect((await app.request('GET', route)).status).to.equal(401);
      });
    }
    it('defaults: csv, the current Lagos month up to today', async () => {
      const res = await download('/reports/cash-flow/export');
      expect(res.headers.get('content-disposition')).to.equal('attachment; filename="cash-flow-2026-11-01_2026-11-24.csv"');
      expect(parse(await res.text(), { bom: true })).to.have.length(25);
    });
  });

  it('the document describes the three media types, the format enum and the errors', () => {
    const doc = app.openApi as any;
    for (const path of ['/reports/sales/export', '/reports/cash-flow/export']) {
      const op = doc.paths[path].get;
      expect(Object.keys(op.responses['200'].content)).to.deep.equal(['text/csv; charset=utf-8', XLSX, 'application/pdf']);
      expect(op.responses['200'].headers['Content-Disposition']).to.exist;
      const format = op.parameters.find((p: any) => p.name === 'format');
      expect(format.schema.enum).to.deep.equal(['csv', 'xlsx', 'pdf']);
      expect(Object.keys(op.responses)).to.include.members(['400', '401', '403']);
    }
  });
});
