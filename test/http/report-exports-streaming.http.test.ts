import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import { sql } from '../support/report-fixture.js';
import { createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

// A few thousand sales export streamed (no Content-Length), in keyset batches that tie on created_at.

const SALES = 2500;

describe('HTTP report exports: a large export streams', function () {
  this.timeout(180_000);
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await createTestApp();
    app.clock.set(new Date('2026-11-20T12:00:00.000Z'));
    const owner = await registerOwner(app);
    token = owner.accessToken;
    await putOnPlan(app, owner, 'PRO');
    const [{ id: businessId }] = await sql(app, 'select business_id as id from memberships where user_id = $1', [owner.userId]);
    // three sales a second: batches of 1000 end inside a run of equal created_at, ordered by id
    await sql(
      app,
      `insert into sales (id, business_id, branch_id, receipt_number, payment_method, subtotal, discount, total, amount_paid, balance_due, status, created_by, created_at)
       select gen_random_uuid(), $1, (select id from branches where business_id = $1 limit 1), 'RCP-' || lpad(i::text, 6, '0'), 'CASH', 100000 + i, 0, 100000 + i, 100000 + i, 0,
         'COMPLETED', $2, timestamptz '2026-11-10 08:00:00Z' + (i / 3) * interval '1 second'
       from generate_series(1, $3::int) as i`,
      [businessId, owner.userId, SALES],
    );
  });
  after(async () => app.close());

  const download = async (format: string) => {
    const res = await fetch(`${app.baseUrl}/api/v1/reports/sales/export?start_date=2026-11-01&end_date=2026-11-30&format=${format}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-length')).to.equal(null);
    expect(res.headers.get('transfer-encoding')).to.equal('chunked');
    return Buffer.from(await res.arrayBuffer());
  };

  it('CSV: every sale once, in order', async () => {
    const records = parse(await download('csv'), { bom: true }) as string[][];
    expect(records).to.have.length(SALES + 1);
    expect(new Set(records.slice(1).map((r) => r[0])).size).to.equal(SALES);
    const totals = records.slice(1).map((r) => Math.round(Number(r[8]) * 100) - 100000);
    expect([...totals].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: SALES }, (_, i) => i + 1));
    const times = records.slice(1).map((r) => r[1]!);
    expect(times).to.deep.equal([...times].sort());
  });

  it('XLSX: every sale as a row', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download('xlsx')) as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.rowCount).to.equal(6 + SALES);
  });

  it('PDF: many pages, the header repeated and each page numbered', async () => {
    const parser = new PDFParse({ data: new Uint8Array(await download('pdf')) });
    try {
      const result = await parser.getText();
      expect(result.total).to.be.greaterThan(40);
      expect(result.pages.every((p) => p.text.includes('Receipt') && p.text.includes(`Page ${p.num}`))).to.equal(true);
      expect(result.text).to.include('RCP-002500');
    } finally {
      await parser.destroy();
    }
  });
});
