import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { PDFParse } from 'pdf-parse';
import { reportFiles } from '../support/report-files.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Split payments (issue 34, docs/adr/0055) over HTTP on both adapters, on 2026-11-20 (Lagos). A product of 2,000.00 with
// 50 in stock. The sales the day keeps (by hand):
//   A 3 x 2,000.00 = 6,000.00: CASH 3,000.00 (5,000.00 handed over, change 2,000.00) + TRANSFER 2,000.00 + POS 1,000.00
//   B 1 x 2,000.00 the old way, CREDIT with a deposit of 500.00: tenders CASH 500.00 + CREDIT 1,500.00 (Chika owes 1,500.00)
//   C 2 x 2,000.00 = 4,000.00: CARD 1,000.00 + CREDIT 3,000.00 to Chika (she owes 4,500.00)
//   D 1 x 2,000.00 by POS the old way
//   E 1 x 2,000.00, CASH 2,000.00 through POST /sync/batch (a till offline)
// Refused attempts write nothing. Day by tender: CASH 3 sales 5,500.00; CARD 1 1,000.00; CREDIT 2 4,500.00; POS 2 3,000.00;
// TRANSFER 1 2,000.00; 5 sales 16,000.00; credit given 4,500.00; cash expected 5,500.00.

const DAY = '2026-11-20';

for (const persistence of ['postgres', 'memory'] as const)
describe(`HTTP split payments (${persistence === 'postgres' ? 'database' : 'in-memory'}): tenders, change, credit, receipts and money by tender`, function () {
  this.timeout(180_000);
  let app: TestApp;
  let token: string;
  let product: string;
  let chika: string;
  const made: Record<string, Record<string, any>> = {};

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => app.request('POST', path, { token, body, headers });
  const get = async (path: string) => {
    const res = await app.request('GET', path, { token });
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.body.data;
  };
  const items = (quantity: number) => [{ product_id: product, quantity }];
  const sell = async (body: Record<string, unknown>) => {
    const res = await post('/sales', body);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as Record<string, any>;
  };
  const stock = async () => (await get(`/products/${product}`)).quantity as number;
  const refused = async (body: Record<string, unknown>, status: number, code: string, field?: string) => {
    const before = await stock();
    const res = await post('/sales', body);
    expect([res.status, res.body.error?.code], `${JSON.stringify(body)}: ${res.text}`).to.deep.equal([status, code]);
    if (field) expect(res.body.error.errors.map((e: { field: string }) => e.field)).to.include(field);
    expect(await stock()).to.equal(before); // nothing written
    return res.body.error;
  };

  before(async () => {
    app = await createTestApp({ persistence });
    app.clock.set(new Date(`${DAY}T09:00:00.000Z`));
    token = (await registerOwner(app)).accessToken;
    product = (await post('/products', { name: 'Garri 5kg', price: 2000, quantity: 50 })).body.data.id;
    chika = (await post('/customers', { name: 'Chika', credit_limit: 5000 })).body.data.id;
  });
  after(async () => app.close());

  it('split tenders with change: CASH takes the cash handed over, the change comes back, every tender is kept in order', async () => {
    app.clock.set(new Date(`${DAY}T10:00:00.000Z`));
    const a = await sell({ items: items(3), payments: [{ method: 'CASH', amount: 3000 }, { method: 'TRANSFER', amount: 2000 }, { method: 'POS', amount: 1000 }], amount_tendered: 5000 });
    made.a = a;
    expect(a).to.include({ total: 6000, payment_method: 'CASH', amount_paid: 6000, amount_tendered: 5000, change_due: 2000, balance_due: 0, customer_id: null });
    expect(a.payments).to.deep.equal([{ method: 'CASH', amount: 3000 }, { method: 'TRANSFER', amount: 2000 }, { method: 'POS', amount: 1000 }]);
    expect(await get(`/sales/${a.id}`)).to.deep.equal(a);
    const listed = (await get('/sales')).content.find((s: { id: string }) => s.id === a.id);
    expect(listed.payments).to.deep.equal(a.payments);
  });

  it('tenders must add up to the total exactly: 422 PAYMENTS_DO_NOT_MATCH_TOTAL, nothing written', async () => {
    const short = await refused({ items: items(1), payments: [{ method: 'CASH', amount: 1000 }, { method: 'CARD', amount: 999.99 }] }, 422, 'PAYMENTS_DO_NOT_MATCH_TOTAL', 'payments');
    expect(short.detail).to.include('1999.99').and.include('2000.00');
    await refused({ items: items(1), payments: [{ method: 'CASH', amount: 2000 }, { method: 'CARD', amount: 0.01 }] }, 422, 'PAYMENTS_DO_NOT_MATCH_TOTAL');
    await refused({ items: items(1), payments: [{ method: 'CASH', amount: 0 }] }, 422, 'PAYMENTS_DO_NOT_MATCH_TOTAL');
    await refused({ items: items(1), payments: [{ method: 'CASH', amount: 2000 }], amount_tendered: 1999 }, 422, 'AMOUNT_TENDERED_TOO_SMALL', 'amount_tendered');
    await refused({ items: items(1), payments: [{ method: 'CASH', amount: -1 }, { method: 'CARD', amount: 2001 }] }, 422, 'AMOUNT_MUST_NOT_BE_NEGATIVE', 'payments.0.amount');
  });

  it('a malformed settlement is 400: both shapes or neither, 0 or 5 tenders, a method twice, amount_paid beside payments, a tender without a CASH one, an unknown method', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ items: items(1), payment_method: 'CASH', payments: [{ method: 'CASH', amount: 2000 }] }, 'payments'],
      [{ items: items(1) }, 'payment_method'],
      [{ items: items(1), payments: [] }, 'payments'],
      [{ items: items(1), payments: ['CASH', 'TRANSFER', 'CARD', 'POS', 'CREDIT'].map((method) => ({ method, amount: 400 })) }, 'payments'],
      [{ items: items(1), payments: [{ method: 'CASH', amount: 1000 }, { method: 'CASH', amount: 1000 }] }, 'payments.1.method'],
      [{ items: items(1), payments: [{ method: 'CASH', amount: 2000 }], amount_paid: 2000 }, 'amount_paid'],
      [{ items: items(1), payments: [{ method: 'TRANSFER', amount: 2000 }], amount_tendered: 2000 }, 'amount_tendered'],
      [{ items: items(1), payments: [{ method: 'CHEQUE', amount: 2000 }] }, 'payments.0.method'],
      [{ items: items(1), payments: [{ method: 'CASH', amount: 2000, note: 'x' }] }, 'payments.0.note'],
    ];
    for (const [body, field] of cases) await refused(body, 400, 'VALIDATION_FAILED', field);
  });

  it('the old shape shows its tenders: a CREDIT sale with a deposit is CASH then CREDIT; POS is a payment method', async () => {
    app.clock.set(new Date(`${DAY}T11:00:00.000Z`));
    const b = await sell({ items: items(1), payment_method: 'CREDIT', customer_id: chika, amount_paid: 500 });
    made.b = b;
    expect(b).to.include({ payment_method: 'CREDIT', amount_paid: 500, balance_due: 1500, credit_outstanding: 1500 });
    expect(b.payments).to.deep.equal([{ method: 'CASH', amount: 500 }, { method: 'CREDIT', amount: 1500 }]);
    app.clock.set(new Date(`${DAY}T13:00:00.000Z`));
    const d = await sell({ items: items(1), payment_method: 'POS' });
    made.d = d;
    expect([d.payment_method, d.payments]).to.deep.equal(['POS', [{ method: 'POS', amount: 2000 }]]);
    expect((await get('/sales?payment_method=POS')).content.map((s: { id: string }) => s.id)).to.deep.equal([d.id]);
  });

  it('a CREDIT tender needs a customer and is what they owe, within their credit limit', async () => {
    await refused({ items: items(2), payments: [{ method: 'CARD', amount: 1000 }, { method: 'CREDIT', amount: 3000 }] }, 422, 'CUSTOMER_REQUIRED', 'customer_id');
    // Chika owes 1,500.00 of a 5,000.00 limit: 3,600.00 more is over it
    await refused({ items: items(2), customer_id: chika, payments: [{ method: 'CARD', amount: 400 }, { method: 'CREDIT', amount: 3600 }] }, 422, 'CREDIT_LIMIT_EXCEEDED', 'customer_id');
    app.clock.set(new Date(`${DAY}T12:00:00.000Z`));
    const c = await sell({ items: items(2), customer_id: chika, payments: [{ method: 'CARD', amount: 1000 }, { method: 'CREDIT', amount: 3000 }] });
    made.c = c;
    expect(c).to.include({ payment_method: 'CARD', total: 4000, amount_paid: 1000, balance_due: 3000, credit_outstanding: 3000, amount_tendered: null, change_due: null });
    expect(await get(`/customers/${chika}`)).to.include({ credit_balance: 4500 });
    const ledger = (await get(`/customers/${chika}/transactions`)).content;
    expect(ledger.find((e: { sale_id: string }) => e.sale_id === c.id)).to.include({ type: 'SALE', amount: 3000 });
  });

  it('Idempotency-Key: a retried split sale answers the first answer, and sells once', async () => {
    const body = { items: items(1), payments: [{ method: 'TRANSFER', amount: 1500 }, { method: 'CASH', amount: 500 }], note: 'retried' };
    const before = await stock();
    const first = await post('/sales', body, { 'Idempotency-Key': 'split-1' });
    const again = await post('/sales', body, { 'Idempotency-Key': 'split-1' });
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).to.deep.equal([201, 201, 'true']);
    expect(again.body.data).to.deep.equal(first.body.data);
    expect(await stock()).to.equal(before - 1);
    // void it: the day below counts only the sales it keeps
    expect((await post(`/sales/${first.body.data.id}/void`, { reason: 'test' })).status).to.equal(200);
    const voided = await get(`/sales/${first.body.data.id}`);
    expect([voided.status, voided.refund_amount, voided.payments]).to.deep.equal(['VOIDED', 2000, first.body.data.payments]);
  });

  it('offline: sale.create in POST /sync/batch takes payments like POST /sales', async () => {
    app.clock.set(new Date(`${DAY}T14:00:00.000Z`));
    const id = randomUUID();
    const ops = [
      { op_id: randomUUID(), type: 'sale.create', payload: { id, items: items(1), payments: [{ method: 'CASH', amount: 2000 }], amount_tendered: 2500 } },
      { op_id: randomUUID(), type: 'sale.create', payload: { items: items(1), payments: [{ method: 'CASH', amount: 1000 }] } },
    ];
    const res = await post('/sync/batch', { device_id: 'till-1', operations: ops });
    expect(res.status, res.text).to.equal(200);
    const [ok, bad] = res.body.data.results;
    expect([ok.status, ok.http_status, ok.data.change_due, ok.data.payments]).to.deep.equal(['applied', 201, 500, [{ method: 'CASH', amount: 2000 }]]);
    expect([bad.status, bad.http_status, bad.error.code]).to.deep.equal(['rejected', 422, 'PAYMENTS_DO_NOT_MATCH_TOTAL']);
    made.e = ok.data;
  });

  it('the receipt lists each tender (JSON and PDF)', async () => {
    const receipt = await get(`/sales/${made.a!.id}/receipt`);
    expect(receipt).to.include({ payment_method: 'CASH', amount_tendered: 5000, change_due: 2000, tin: null });
    expect(receipt.payments).to.deep.equal(made.a!.payments);
    const res = await fetch(`${app.baseUrl}/api/v1/sales/${made.a!.id}/receipt`, { headers: { authorization: `Bearer ${token}`, accept: 'application/pdf' } });
    const parser = new PDFParse({ data: new Uint8Array(await res.arrayBuffer()) });
    const text = (await parser.getText()).text.replace(/\s+/g, ' ');
    await parser.destroy();
    for (const s of ['Cash ₦3,000.00', 'Bank transfer ₦2,000.00', 'POS ₦1,000.00', 'Tendered ₦5,000.00', 'Change ₦2,000.00']) expect(text, s).to.include(s);
    expect(text).not.to.include('Payment ');
  });

  it('the daily summary and the cash flow count money by tender, not by the sale\'s first method', async () => {
    app.clock.set(new Date(`${DAY}T18:00:00.000Z`));
    const d = await get(`/reports/daily-summary?date=${DAY}`);
    expect(d.sales).to.deep.equal({
      count: 5,
      total: 16000,
      by_payment_method: [
        { method: 'CARD', count: 1, total: 1000 },
        { method: 'CASH', count: 3, total: 5500 },
        { method: 'CREDIT', count: 2, total: 4500 },
        { method: 'POS', count: 2, total: 3000 },
        { method: 'TRANSFER', count: 1, total: 2000 },
      ],
    });
    expect(d).to.include({ credit_given: 4500, cash_expected: 5500, revenue: 16000, vat_total: 0 });
    expect(d.voids).to.deep.equal({ count: 1, total: 2000 });
    const flow = await reportFiles(app, () => token).csv(`/reports/cash-flow/export?start_date=${DAY}&end_date=${DAY}`, `cash-flow-${DAY}_${DAY}.csv`);
    const row = Object.fromEntries(flow[0]!.map((k, i) => [k, flow[1]![i]]));
    expect(row).to.include({ sales_paid: '11500.00', in_cash: '5500.00', in_transfer: '2000.00', in_card: '1000.00', in_pos: '3000.00', in_other: '0.00', money_in: '11500.00' });
    const sales = await reportFiles(app, () => token).csv(`/reports/sales/export?start_date=${DAY}&end_date=${DAY}`, `sales-${DAY}_${DAY}.csv`);
    expect(sales.find((r) => r[0] === made.a!.receipt_number)!.at(-1)).to.equal('CASH 3000.00 TRANSFER 2000.00 POS 1000.00');
  });
});
