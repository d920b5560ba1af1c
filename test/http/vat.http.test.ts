import { expect } from 'chai';
import { PDFParse } from 'pdf-parse';
import { setPlan } from '../../application/operator/plans.js';
import { aPartner, asPartner } from '../support/partners.js';
import { reportFiles } from '../support/report-files.js';
import { aPhone, createTestApp, type TestApp } from '../support/test-app.js';

// VAT (issue 34, docs/adr/0054) against a hand-worked fixture, for a VAT-registered business (R) and one
// that is not (U), both in partner P's network, selling the same carts on 2026-11-20 (Lagos):
//
//   products: Rice 1,500.00 (cost 1,000.00, Food), Oil 2,150.00 (cost 1,500.00, Food),
//             Paracetamol 800.00 (cost 500.00, Pharmacy, vat_exempt)
//   cart: 3 Rice less 100.00 = 4,400.00; 2 Oil = 4,300.00; 1 Paracetamol = 800.00; subtotal 9,500.00;
//         sale discount 950.00 (10 %): the lines were sold for 3,960.00, 3,870.00 and 720.00 (ADR 0053)
//
// S1 10:00Z, R at 7.5 % with prices including VAT, paid CASH 5,000.00 (6,000.00 handed over) + TRANSFER 3,550.00:
//   VAT 3,960.00 x 7.5 / 107.5 = 276.279 -> 276.28; 3,870.00 -> 270.00; exempt 0.00: 546.28; total 8,550.00,
//   net 8,003.72 (3,683.72 + 3,600.00 + 720.00); change 1,000.00
// S2 11:00Z, R now with prices excluding VAT, paid CASH the old way:
//   VAT 3,960.00 x 7.5 % = 297.00; 3,870.00 -> 290.25: 587.25; total 8,550.00 + 587.25 = 9,137.25, net 8,550.00
// U makes the same two sales: no VAT, totals 8,550.00 each.
// Expenses of both: rent 10,000.00 by TRANSFER; supplies 2,150.00 in CASH holding 150.00 of input VAT.
//
// R: revenue 16,553.72; VAT 1,133.53; charged 17,687.25; cost of goods 2 x 6,500.00 = 13,000.00; gross 3,553.72;
//    expenses net of input VAT 12,000.00; net profit -8,446.28; cash expected 5,000.00 + 9,137.25 - 2,150.00 = 11,987.25
// U: revenue 17,100.00; gross 4,100.00; expenses 12,150.00 (not registered: its input VAT is not netted); net -8,050.00;
//    cash expected 5,000.00 + 8,550.00 - 2,150.00 = 11,400.00
// R's VAT return for 2026-11: at 7.5 % net 3,683.72 + 3,600.00 + 3,960.00 + 3,870.00 = 15,113.72, VAT 1,133.53;
//    at 0 % net 1,440.00; input VAT 150.00 on 2,150.00; payable 983.53 by 2026-12-21.

const DAY = '2026-11-20';
type Shop = { token: string; businessId: string; rice: string; oil: string; pills: string };

const pdfText = async (bytes: ArrayBuffer) => {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text.replace(/\s+/g, ' ');
  } finally {
    await parser.destroy();
  }
};

for (const persistence of ['postgres', 'memory'] as const)
describe(`HTTP VAT (${persistence === 'postgres' ? 'database' : 'in-memory'}): settings, sales, receipts, reports and the VAT return, to the kobo`, function () {
  this.timeout(180_000);
  let app: TestApp;
  let partner: Awaited<ReturnType<typeof aPartner>>;
  let r: Shop;
  let u: Shop;
  const sales: Record<'r1' | 'r2' | 'u1' | 'u2', { id: string; body: Record<string, unknown> }> = {} as never;

  const at = (iso: string) => app.clock.set(new Date(iso));
  const get = async (token: string, path: string) => {
    const res = await app.request('GET', path, { token });
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.body.data;
  };
  const open = async (name: string): Promise<Shop> => {
    const phone = aPhone();
    const reg = await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ada', last_name: 'Obi', business_name: name, partner_code: partner.code } });
    expect(reg.status, reg.text).to.equal(201);
    const token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
    const product = async (body: Record<string, unknown>) => {
      const res = await app.request('POST', '/products', { token, body: { quantity: 100, ...body } });
      expect(res.status, res.text).to.equal(201);
      return res.body.data;
    };
    const rice = await product({ name: 'Rice', price: 1500, cost_price: 1000, category: 'Food' });
    const oil = await product({ name: 'Oil', price: 2150, cost_price: 1500, category: 'Food' });
    const pills = await product({ name: 'Paracetamol', price: 800, cost_price: 500, category: 'Pharmacy', vat_exempt: true });
    expect([rice.vat_exempt, pills.vat_exempt]).to.deep.equal([false, true]);
    return { token, businessId: (await get(token, '/businesses/me')).id, rice: rice.id, oil: oil.id, pills: pills.id };
  };
  const cart = (s: Shop) => [
    { product_id: s.rice, quantity: 3, discount: 100 },
    { product_id: s.oil, quantity: 2 },
    { product_id: s.pills, quantity: 1 },
  ];
  const sell = async (s: Shop, body: Record<string, unknown>) => {
    const res = await app.request('POST', '/sales', { token: s.token, body: { items: cart(s), discount: 950, ...body } });
    expect(res.status, res.text).to.equal(201);
    return { id: res.body.data.id as string, body: res.body.data as Record<string, unknown> };
  };
  const expense = async (s: Shop, body: Record<string, unknown>) => {
    const category = (await get(s.token, '/expenses/categories')).content[0].id as string;
    const res = await app.request('POST', '/expenses', { token: s.token, body: { category_id: category, description: 'x', spent_on: DAY, ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data;
  };

  before(async () => {
    app = await createTestApp({ persistence });
    at(`${DAY}T09:00:00.000Z`);
    partner = await aPartner(app);
    r = await open('Registered Stores');
    u = await open('Unregistered Stores');
    const registered = await app.request('PUT', '/businesses/me', { token: r.token, body: { vat_registered: true, tin: '12345678-0001' } });
    expect(registered.status, registered.text).to.equal(200);
    expect(registered.body.data).to.include({ vat_registered: true, tin: '12345678-0001', vat_rate: 7.5, prices_include_vat: true });

    at(`${DAY}T10:00:00.000Z`);
    const split = { payments: [{ method: 'CASH', amount: 5000 }, { method: 'TRANSFER', amount: 3550 }], amount_tendered: 6000 };
    sales.r1 = await sell(r, split);
    sales.u1 = await sell(u, split);
    expect((await app.request('PUT', '/businesses/me', { token: r.token, body: { prices_include_vat: false } })).status).to.equal(200);
    at(`${DAY}T11:00:00.000Z`);
    sales.r2 = await sell(r, { payment_method: 'CASH' });
    sales.u2 = await sell(u, { payment_method: 'CASH' });
    for (const s of [r, u]) {
      await expense(s, { amount: 10000, payment_method: 'TRANSFER' });
      const supplies = await expense(s, { amount: 2150, vat_amount: 150, payment_method: 'CASH' });
      expect(supplies.vat_amount).to.equal(150);
    }
    at(`${DAY}T15:00:00.000Z`);
  });
  after(async () => app.close());

  it('settings: a TIN is required to register and is checked; the rate is a percentage, bounded; the owner only', async () => {
    const put = (body: unknown) => app.request('PUT', '/businesses/me', { token: u.token, body });
    const noTin = await put({ vat_registered: true });
    expect([noTin.status, noTin.body.error.code, noTin.body.error.errors]).to.deep.equal([422, 'TIN_REQUIRED', [{ field: 'tin', message: 'is required for a VAT-registered business' }]]);
    for (const tin of ['1234', '12345678-01', 'ABCDEFGH-0001', 12345678]) {
      const bad = await put({ tin });
      expect([bad.status, bad.body.error.errors[0].field], String(tin)).to.deep.equal([400, 'tin']);
    }
    for (const vat_rate of [-1, 100.01, 7.555, 1e300, '7.5']) expect((await put({ vat_rate })).status, String(vat_rate)).to.equal(400);
    // U stays unregistered: nothing was written by the refusals
    expect(await get(u.token, '/businesses/me')).to.include({ vat_registered: false, tin: null, vat_rate: 7.5, prices_include_vat: true });
  });

  it('a three-line sale with a discount, prices including VAT: each line and the sale to the kobo, with its tenders and change', () => {
    const s = sales.r1.body;
    expect(s).to.include({ subtotal: 8003.72, discount: 950, line_discount_total: 100, total: 8550, vat_total: 546.28, prices_include_vat: true });
    expect(s).to.include({ payment_method: 'CASH', amount_paid: 8550, amount_tendered: 6000, change_due: 1000, balance_due: 0 });
    expect(s.payments).to.deep.equal([{ method: 'CASH', amount: 5000 }, { method: 'TRANSFER', amount: 3550 }]);
    expect((s.items as Record<string, unknown>[]).map((l) => [l.line_total, l.vat_rate, l.vat_amount])).to.deep.equal([[4400, 7.5, 276.28], [4300, 7.5, 270], [800, 0, 0]]);
  });

  it('the same sale with prices excluding VAT: the VAT is added and the total grows by it', () => {
    const s = sales.r2.body;
    expect(s).to.include({ subtotal: 8550, discount: 950, total: 9137.25, vat_total: 587.25, prices_include_vat: false, amount_paid: 9137.25, balance_due: 0 });
    expect(s.payments).to.deep.equal([{ method: 'CASH', amount: 9137.25 }]);
    expect((s.items as Record<string, unknown>[]).map((l) => [l.line_total, l.vat_rate, l.vat_amount])).to.deep.equal([[4400, 7.5, 297], [4300, 7.5, 290.25], [800, 0, 0]]);
  });

  it('a business that is not registered sees its sale as before: subtotal of the lines, no VAT', async () => {
    const s = await get(u.token, `/sales/${sales.u1.id}`);
    expect(s).to.include({ subtotal: 9500, discount: 950, line_discount_total: 100, total: 8550, vat_total: 0, prices_include_vat: null, amount_paid: 8550, change_due: 1000 });
    expect(s.items.map((l: Record<string, unknown>) => [l.line_total, l.vat_rate, l.vat_amount])).to.deep.equal([[4400, null, 0], [4300, null, 0], [800, null, 0]]);
    const receipt = await get(u.token, `/sales/${sales.u2.id}/receipt`);
    expect(receipt).to.include({ subtotal: 9500, total: 8550, tin: null, vat_total: 0 });
    expect(receipt.vat_breakdown).to.deep.equal([]);
  });

  it('a sale keeps the VAT it was made with: GET /sales/{id} answers what POST answered', async () => {
    expect(await get(r.token, `/sales/${sales.r1.id}`)).to.deep.equal(sales.r1.body);
    expect(await get(r.token, `/sales/${sales.r2.id}`)).to.deep.equal(sales.r2.body);
  });

  it('the receipt (JSON): the TIN, the VAT breakdown by rate and each tender', async () => {
    const receipt = await get(r.token, `/sales/${sales.r1.id}/receipt`);
    expect(receipt).to.include({ tin: '12345678-0001', subtotal: 8003.72, total: 8550, vat_total: 546.28, prices_include_vat: true, change_due: 1000 });
    expect(receipt.vat_breakdown).to.deep.equal([{ rate: 7.5, net: 7283.72, vat: 546.28 }, { rate: 0, net: 720, vat: 0 }]);
    expect(receipt.payments).to.deep.equal([{ method: 'CASH', amount: 5000 }, { method: 'TRANSFER', amount: 3550 }]);
    expect(receipt.lines.map((l: Record<string, unknown>) => l.vat_amount)).to.deep.equal([276.28, 270, 0]);
  });

  it('the receipt (PDF): the TIN, the VAT breakdown and each tender', async () => {
    const res = await fetch(`${app.baseUrl}/api/v1/sales/${sales.r2.id}/receipt`, { headers: { authorization: `Bearer ${r.token}`, accept: 'application/pdf' } });
    expect(res.status).to.equal(200);
    const text = await pdfText(await res.arrayBuffer());
    for (const s of ['TIN: 12345678-0001', 'VAT added to the prices', 'VAT 7.5% on ₦7,830.00', '₦587.25', 'Exempt (0%) on ₦720.00', 'Net of VAT ₦8,550.00', 'TOTAL ₦9,137.25']) expect(text, s).to.include(s);
    const split = await fetch(`${app.baseUrl}/api/v1/sales/${sales.r1.id}/receipt`, { headers: { authorization: `Bearer ${r.token}`, accept: 'application/pdf' } });
    const splitText = await pdfText(await split.arrayBuffer());
    for (const s of ['VAT included in the prices', 'Cash ₦5,000.00', 'Bank transfer ₦3,550.00', 'Tendered ₦6,000.00', 'Change ₦1,000.00']) expect(splitText, s).to.include(s);
    const plain = await fetch(`${app.baseUrl}/api/v1/sales/${sales.u2.id}/receipt`, { headers: { authorization: `Bearer ${u.token}`, accept: 'application/pdf' } });
    const plainText = await pdfText(await plain.arrayBuffer());
    expect(plainText).not.to.include('TIN');
    expect(plainText).not.to.include('VAT');
  });

  it('dashboard: revenue, profit and expenses net of VAT for R; as before for U', async () => {
    const value = (d: Record<string, { value: unknown }>, k: string) => d[k]!.value;
    const dr = await get(r.token, '/reports/dashboard');
    expect(['revenue', 'sales_count', 'average_sale', 'gross_profit', 'expenses', 'net_profit'].map((k) => value(dr, k))).to.deep.equal([16553.72, 2, 8276.86, 3553.72, 12000, -8446.28]);
    const du = await get(u.token, '/reports/dashboard');
    expect(['revenue', 'sales_count', 'average_sale', 'gross_profit', 'expenses', 'net_profit'].map((k) => value(du, k))).to.deep.equal([17100, 2, 8550, 4100, 12150, -8050]);
  });

  it('profit and loss: revenue net of VAT, expenses net of input VAT (R only)', async () => {
    const pr = await get(r.token, `/reports/profit-loss?start_date=${DAY}&end_date=${DAY}`);
    expect(pr).to.include({ revenue: 16553.72, discounts: 2100, cost_of_goods_sold: 13000, gross_profit: 3553.72, total_expenses: 12000, net_profit: -8446.28 });
    const pu = await get(u.token, `/reports/profit-loss?start_date=${DAY}&end_date=${DAY}`);
    expect(pu).to.include({ revenue: 17100, discounts: 2100, cost_of_goods_sold: 13000, gross_profit: 4100, total_expenses: 12150, net_profit: -8050 });
  });

  it('daily summary: money by tender (VAT included), revenue net of VAT, cash expected from the CASH tenders', async () => {
    const dr = await get(r.token, `/reports/daily-summary?date=${DAY}`);
    expect(dr.sales).to.deep.equal({ count: 2, total: 17687.25, by_payment_method: [{ method: 'CASH', count: 2, total: 14137.25 }, { method: 'TRANSFER', count: 1, total: 3550 }] });
    expect(dr).to.include({ revenue: 16553.72, vat_total: 1133.53, cash_expected: 11987.25, credit_given: 0 });
    const du = await get(u.token, `/reports/daily-summary?date=${DAY}`);
    expect(du.sales).to.deep.equal({ count: 2, total: 17100, by_payment_method: [{ method: 'CASH', count: 2, total: 13550 }, { method: 'TRANSFER', count: 1, total: 3550 }] });
    expect(du).to.include({ revenue: 17100, vat_total: 0, cash_expected: 11400 });
  });

  it('sales by category: line totals less the VAT they hold; the sale discounts given once', async () => {
    const sr = await get(r.token, `/reports/sales-by-category?start_date=${DAY}&end_date=${DAY}`);
    expect(sr).to.include({ line_total: 18453.72, sale_discounts: 1900, revenue: 16553.72 });
    expect(sr.categories).to.deep.equal([
      { category: 'Food', revenue: 16853.72, units: 10, cost_of_goods_sold: 12000, gross_profit: 4853.72, share_pct: 91.33 },
      { category: 'Pharmacy', revenue: 1600, units: 2, cost_of_goods_sold: 1000, gross_profit: 600, share_pct: 8.67 },
    ]);
    const su = await get(u.token, `/reports/sales-by-category?start_date=${DAY}&end_date=${DAY}`);
    expect(su).to.include({ line_total: 19000, sale_discounts: 1900, revenue: 17100 });
    expect(su.categories.map((c: Record<string, unknown>) => [c.category, c.revenue, c.share_pct])).to.deep.equal([['Food', 17400, 91.58], ['Pharmacy', 1600, 8.42]]);
  });

  it('the VAT return: output VAT by rate, input VAT, payable and due date; owner only; a month is YYYY-MM', async () => {
    const v = await get(r.token, '/reports/vat?month=2026-11');
    expect(v).to.deep.equal({
      month: '2026-11', start_date: '2026-11-01', end_date: '2026-11-30', due_date: '2026-12-21', vat_registered: true, tin: '12345678-0001',
      sales: { count: 2, net: 16553.72, output_vat: 1133.53, by_rate: [{ rate: 7.5, net: 15113.72, vat: 1133.53 }, { rate: 0, net: 1440, vat: 0 }] },
      returns: { count: 0, net: 0, vat: 0, by_rate: [] },
      invoices: { count: 0, net: 0, output_vat: 0, by_rate: [] },
      output_vat: 1133.53,
      expenses: { count: 1, amount: 2150, input_vat: 150 },
      net_vat_payable: 983.53,
    });
    expect((await get(u.token, '/reports/vat?month=2026-11')).sales).to.deep.equal({ count: 0, net: 0, output_vat: 0, by_rate: [] });
    expect((await get(r.token, '/reports/vat?month=2026-10')).net_vat_payable).to.equal(0);
    for (const month of ['2026-13', '2026-1', '2026-11-01', '']) {
      const bad = await app.request('GET', `/reports/vat?month=${month}`, { token: r.token });
      expect([bad.status, bad.body.error.code], month).to.deep.equal([400, 'VALIDATION_FAILED']);
    }
    expect((await get(r.token, '/reports/vat')).month).to.equal('2026-11'); // the current Lagos month
  });

  it('the VAT return as CSV and PDF', async () => {
    const files = reportFiles(app, () => r.token);
    expect(await files.csv('/reports/vat/export?month=2026-11', 'vat-2026-11-01_2026-11-30.csv')).to.deep.equal([
      ['item', 'rate_pct', 'net', 'vat'],
      ['Sales', '7.5', '15113.72', '1133.53'],
      ['Sales, VAT-exempt', '0', '1440.00', '0.00'],
      ['Output VAT (sales and invoices less returns)', '', '16553.72', '1133.53'],
      ['Input VAT (expenses)', '', '2000.00', '150.00'],
      ['Net VAT payable', '', '', '983.53'],
      ['Due by 2026-12-21, TIN 12345678-0001', '', '', ''],
    ]);
    const pdf = await files.pdfText('/reports/vat/export?month=2026-11&format=pdf', 'vat-2026-11-01_2026-11-30.pdf');
    for (const s of ['VAT return', 'Registered Stores', '1,133.53', '983.53', 'Due by 2026-12-21']) expect(pdf, s).to.include(s);
    expect((await app.request('GET', '/reports/vat/export?start_date=2026-11-01', { token: r.token })).status).to.equal(400);
  });

  it('exports: the sales export carries the VAT and subtotal net of it for R; the cash flow counts money by tender', async () => {
    const files = reportFiles(app, () => r.token);
    const sales = await files.csv(`/reports/sales/export?start_date=${DAY}&end_date=${DAY}`, `sales-${DAY}_${DAY}.csv`);
    expect(sales[0]).to.deep.equal(['receipt_number', 'date_time', 'cashier', 'customer', 'payment_method', 'status', 'subtotal', 'discount', 'total', 'vat_total', 'amount_paid', 'balance_due', 'outstanding', 'returned', 'net_total', 'payments']);
    expect(sales.slice(1).map((row) => [row[6], row[8], row[9], row[15]])).to.deep.equal([['8003.72', '8550.00', '546.28', 'CASH 5000.00 TRANSFER 3550.00'], ['8550.00', '9137.25', '587.25', 'CASH 9137.25']]);
    const plain = await reportFiles(app, () => u.token).csv(`/reports/sales/export?start_date=${DAY}&end_date=${DAY}`, `sales-${DAY}_${DAY}.csv`);
    expect(plain[0]).not.to.include('vat_total');
    expect(plain.slice(1).map((row) => [row[6], row[8]])).to.deep.equal([['9500.00', '8550.00'], ['9500.00', '8550.00']]);
    const flow = await files.csv(`/reports/cash-flow/export?start_date=${DAY}&end_date=${DAY}`, `cash-flow-${DAY}_${DAY}.csv`);
    expect(flow[1]!.slice(0, 10)).to.deep.equal([DAY, '17687.25', '0.00', '0.00', '14137.25', '3550.00', '0.00', '0.00', '0.00', '17687.25']);
    const pl = await files.csv(`/reports/profit-loss/export?start_date=${DAY}&end_date=${DAY}`, `profit-loss-${DAY}_${DAY}.csv`);
    expect(pl[2]!.slice(0, 2)).to.deep.equal(['Total', '16553.72']);
  });

  it('products: vat_exempt on create and update; the CSV export carries it for a registered business only, the import reads it', async () => {
    const file = (s: Shop) => reportFiles(app, () => s.token).csv('/products/export', `products-${DAY}.csv`);
    const rows = await file(r);
    expect(rows[0]).to.deep.equal(['sku', 'name', 'price', 'cost_price', 'quantity', 'category', 'type', 'low_stock_threshold', 'barcode', 'unit', 'vat_exempt']);
    expect(rows.slice(1).map((x) => [x[1], x[10]]).sort()).to.deep.equal([['Oil', 'false'], ['Paracetamol', 'true'], ['Rice', 'false']]);
    expect((await file(u))[0]).not.to.include('vat_exempt');
    const sku = rows.find((x) => x[1] === 'Rice')![0]!;
    const res = await fetch(`${app.baseUrl}/api/v1/products/import`, { method: 'POST', headers: { authorization: `Bearer ${r.token}`, 'content-type': 'text/csv' }, body: `sku,vat_exempt\r\n${sku},TRUE\r\n${sku}X,maybe\r\n` });
    const report = (await res.json()).data;
    expect(report.updated).to.equal(1);
    expect(report.errors).to.deep.include({ row: 3, field: 'vat_exempt', message: 'must be true or false' });
    expect((await get(r.token, `/products/${r.rice}`)).vat_exempt).to.equal(true);
    const back = await app.request('PUT', `/products/${r.rice}`, { token: r.token, body: { vat_exempt: false } });
    expect([back.status, back.body.data.vat_exempt]).to.deep.equal([200, false]);
    expect((await app.request('PUT', `/products/${r.rice}`, { token: r.token, body: { vat_exempt: 'no' } })).status).to.equal(400);
  });

  it('expenses: vat_amount at most the amount, never negative; on update too', async () => {
    const category = (await get(r.token, '/expenses/categories')).content[0].id as string;
    const over = await app.request('POST', '/expenses', { token: r.token, body: { category_id: category, description: 'x', amount: 100, vat_amount: 100.01, payment_method: 'CASH' } });
    expect([over.status, over.body.error.code, over.body.error.errors]).to.deep.equal([422, 'VAT_EXCEEDS_AMOUNT', [{ field: 'vat_amount', message: 'must be at most the amount' }]]);
    const negative = await app.request('POST', '/expenses', { token: r.token, body: { category_id: category, description: 'x', amount: 100, vat_amount: -1, payment_method: 'CASH' } });
    expect([negative.status, negative.body.error.code]).to.deep.equal([422, 'AMOUNT_MUST_NOT_BE_NEGATIVE']);
    const ok = await app.request('POST', '/expenses', { token: r.token, body: { category_id: category, description: 'x', amount: 100, vat_amount: 100, payment_method: 'CASH', spent_on: '2026-10-01' } });
    expect([ok.status, ok.body.data.vat_amount]).to.deep.equal([201, 100]);
    const lower = await app.request('PUT', `/expenses/${ok.body.data.id}`, { token: r.token, body: { amount: 50 } });
    expect([lower.status, lower.body.error?.code]).to.deep.equal([422, 'VAT_EXCEEDS_AMOUNT']);
    const both = await app.request('PUT', `/expenses/${ok.body.data.id}`, { token: r.token, body: { amount: 50, vat_amount: 0 } });
    expect([both.status, both.body.data.vat_amount]).to.deep.equal([200, 0]);
  });

  it('partner analytics: GMV net of VAT', async () => {
    const detail = await asPartner(app, partner.key, 'GET', `/partner/merchants/${r.businessId}`);
    expect(detail.status, detail.text).to.equal(200);
    expect(detail.body.data).to.include({ sales_count_30d: 2, gmv_30d: 16553.72 });
    const plain = await asPartner(app, partner.key, 'GET', `/partner/merchants/${u.businessId}`);
    expect(plain.body.data).to.include({ sales_count_30d: 2, gmv_30d: 17100 });
  });

  it('the loan pack: revenue and average sale net of VAT; transfer share of what was charged, by tender', async () => {
    await setPlan({ uow: app.persistence.uow, clock: app.clock })(r.businessId, 'BUSINESS');
    const made = await app.request('POST', '/reports/loan-pack', { token: r.token, body: { months: 6 } });
    expect(made.status, made.text).to.equal(201);
    const res = await fetch(`${app.baseUrl}/api/v1/reports/loan-pack/${made.body.data.reference}/download`, { headers: { authorization: `Bearer ${r.token}`, accept: 'application/json' } });
    expect(res.status).to.equal(200);
    const doc = JSON.parse(await res.text());
    const nov = doc.monthly.find((m: { month: string }) => m.month === '2026-11');
    // 3,550.00 of 17,687.25 charged came by transfer: 20.07 %
    expect(nov).to.include({ revenue: 16553.72, sales_count: 2, average_sale: 8276.86, gross_profit: 3553.72, expenses: 12000, transfer_share_pct: '20.07', card_share_pct: '0.00' });
  });

  it('returns: a line comes back in parts, the refunds and their VAT add up to the line exactly; the VAT return and the day net them', async () => {
    at('2026-11-21T10:00:00.000Z');
    const back = async (saleId: string, productId: string, quantity: number) => {
      const res = await app.request('POST', `/sales/${saleId}/returns`, { token: r.token, body: { items: [{ product_id: productId, quantity }], refund_method: 'CASH', reason: 'changed mind' } });
      expect(res.status, res.text).to.equal(201);
      return res.body.data;
    };
    // S1 (VAT inside the prices): its rice line was sold for 3,960.00 holding 276.28 of VAT; back in two parts (2, then the last 1)
    const first = await back(sales.r1.id, r.rice, 2);
    const last = await back(sales.r1.id, r.rice, 1);
    expect([first.amount, first.vat_amount, first.refund_amount]).to.deep.equal([2640, 184.18, 2640]);
    expect([last.amount, last.vat_amount]).to.deep.equal([1320, 92.1]);
    expect(Math.round((first.amount + last.amount) * 100)).to.equal(396_000);
    expect(Math.round((first.vat_amount + last.vat_amount) * 100)).to.equal(27_628);
    // S2 (VAT added): its oil line charged 3,870.00 + 290.25 = 4,160.25; one of two units hands back half of both, rounded down
    const oil = await back(sales.r2.id, r.oil, 1);
    expect([oil.amount, oil.vat_amount, oil.items[0].line_amount]).to.deep.equal([2080.12, 145.12, 2150]);
    const rest = await back(sales.r2.id, r.oil, 1);
    expect([rest.amount, rest.vat_amount]).to.deep.equal([2080.13, 145.13]);
    expect((await app.request('POST', `/sales/${sales.r2.id}/returns`, { token: r.token, body: { items: [{ product_id: r.oil, quantity: 1 }], refund_method: 'CASH', reason: 'x' } })).body.error.code).to.equal('RETURN_EXCEEDS_SOLD');

    // the VAT return nets the returns' VAT: 184.18 + 92.10 + 145.12 + 145.13 = 566.53 given back
    const v = await get(r.token, '/reports/vat?month=2026-11');
    expect(v.returns).to.deep.equal({ count: 4, net: 7553.72, vat: 566.53, by_rate: [{ rate: 7.5, net: 7553.72, vat: 566.53 }] });
    expect(v).to.include({ output_vat: 567, net_vat_payable: 417 });
    expect(v.sales).to.include({ output_vat: 1133.53, net: 16553.72 });
    // the day of the returns: revenue and VAT less what came back, cash handed back
    const d = await get(r.token, '/reports/daily-summary?date=2026-11-21');
    expect(d.returns).to.include({ count: 4, total: 8120.25, refunded: 8120.25 });
    expect(d).to.include({ revenue: -7553.72, vat_total: -566.53, cash_expected: -8120.25 });
    expect((await get(r.token, '/reports/profit-loss?start_date=2026-11-01&end_date=2026-11-30')).revenue).to.equal(9000);
  });
});
