import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Invoices in the customer's credit account and the aging report (docs/adr/0073), over HTTP on the real app:
// a hand-worked fixture checked to the kobo.

type Json = Record<string, any>;

describe('HTTP invoices in the credit account', function () {
  this.timeout(180_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('draft -> send -> two part-payments -> paid: ledger, balance, summary and aging to the kobo; a cancel takes the debt off; a proforma owes nothing', async () => {
    app.clock.set(new Date('2026-11-22T10:00:00.000Z')); // 11:00 on 22 November in Lagos
    const owner = await registerOwner(app);
    const req = (method: 'GET' | 'POST', path: string, body?: Json) => app.request(method, path, { token: owner.accessToken, ...(body ? { body } : {}) });
    const ok = async (method: 'GET' | 'POST', path: string, body: Json | undefined, status: number) => {
      const res = await req(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).to.equal(status);
      return res.body.data as Json;
    };
    const rice = (await ok('POST', '/products', { name: 'Rice 50kg', price: 52_000.5, cost_price: 45_000, quantity: 40 }, 201)).id;
    const zobo = (await ok('POST', '/products', { name: 'Zobo', price: 1000, quantity: 10 }, 201)).id;
    const chika = (await ok('POST', '/customers', { name: 'Zenith Catering Ltd', phone: aPhone() }, 201)).id;
    const balance = async () => (await ok('GET', `/customers/${chika}`, undefined, 200)).credit_balance;
    const entries = async () => ((await ok('GET', `/customers/${chika}/transactions?limit=100`, undefined, 200)).content as Json[]).reverse().map((e) => [e.type, e.amount, e.balance_after, e.invoice_id, e.payment_method, e.note]);
    const aging = async () => ok('GET', '/credit/aging-report', undefined, 200);

    // a credit sale of 1,000.00 today, then an invoice issued 1 October, due in 14 days (15 October: 38 days late)
    await ok('POST', '/sales', { items: [{ product_id: zobo, quantity: 1 }], payment_method: 'CREDIT', customer_id: chika }, 201);
    const d = await ok('POST', '/invoices', {
      type: 'INVOICE', customer_id: chika, issue_date: '2026-10-01', payment_terms_days: 14,
      lines: [{ product_id: rice, quantity: 3, discount: 0.5 }, { description: 'Delivery fee', quantity: 1, unit_price: 2500 }],
    }, 201);
    expect(await balance()).to.equal(1000); // a draft is owed by nobody
    const sent = await ok('POST', `/invoices/${d.id}/send`, undefined, 200);
    expect(sent).to.include({ number: 'INV-000001', total: 158_501, due_date: '2026-10-15', is_overdue: true });
    expect(await balance()).to.equal(159_501); // 1,000.00 + 3 x 52,000.50 - 0.50 + 2,500.00
    const credit = await ok('GET', `/customers/${chika}/credit`, undefined, 200);
    expect(credit).to.include({ balance: 159_501, oldest_unpaid_at: '2026-10-14T23:00:00.000Z' }); // the due date's Lagos midnight, before the sale
    let report = await aging();
    expect(report.content).to.have.length(1);
    expect(report.content[0]).to.include({ customer_id: chika, days_0_30: 1000, days_31_60: 158_501, days_61_90: 0, days_over_90: 0, total: 159_501 });
    expect(report.totals).to.include({ days_0_30: 1000, days_31_60: 158_501, total: 159_501, customers: 1 });

    // a payment on the customer settles credit sales only: the invoice is paid on the invoice
    const over = await req('POST', `/customers/${chika}/credit/payment`, { amount: 1000.01, payment_method: 'CASH' });
    expect(over.status, over.text).to.equal(422);
    expect(over.body.error.code).to.equal('OVERPAYMENT');
    const onSale = await ok('POST', `/customers/${chika}/credit/payment`, { amount: 1000, payment_method: 'CASH' }, 201);
    expect(onSale.allocations).to.have.length(1);
    expect(await balance()).to.equal(158_501);

    await ok('POST', `/invoices/${d.id}/payments`, { amount: 100_000.01, method: 'TRANSFER', reference: 'GTB-1' }, 201);
    expect(await balance()).to.equal(58_500.99);
    report = await aging();
    expect(report.content[0]).to.include({ days_0_30: 0, days_31_60: 58_500.99, total: 58_500.99 });
    const paid = await ok('POST', `/invoices/${d.id}/payments`, { amount: 58_500.99, method: 'CASH' }, 201);
    expect(paid.status).to.equal('PAID');
    expect(await balance()).to.equal(0);
    report = await aging();
    expect([report.content, report.totals.total, report.totals.customers]).to.deep.equal([[], 0, 0]);
    expect((await ok('GET', `/customers/${chika}/credit`, undefined, 200)).oldest_unpaid_at).to.equal(null);

    // a second invoice sent then cancelled; a sent proforma: no entry
    const d2 = await ok('POST', '/invoices', { type: 'INVOICE', customer_id: chika, lines: [{ description: 'Consulting', quantity: 2, unit_price: 10_000 }] }, 201);
    await ok('POST', `/invoices/${d2.id}/send`, undefined, 200);
    expect(await balance()).to.equal(20_000);
    expect((await aging()).content[0]).to.include({ days_0_30: 20_000, total: 20_000 }); // due in 30 days: not late
    await ok('POST', `/invoices/${d2.id}/cancel`, undefined, 200);
    expect(await balance()).to.equal(0);
    const pf = await ok('POST', '/invoices', { type: 'PROFORMA', customer_id: chika, lines: [{ description: 'Quote', quantity: 1, unit_price: 5000 }] }, 201);
    await ok('POST', `/invoices/${pf.id}/send`, undefined, 200);
    expect(await balance()).to.equal(0);

    expect(await entries()).to.deep.equal([
      ['SALE', 1000, 1000, null, null, null],
      ['INVOICE', 158_501, 159_501, d.id, null, 'INV-000001'],
      ['PAYMENT', 1000, 158_501, null, 'CASH', null],
      ['INVOICE_PAYMENT', 100_000.01, 58_500.99, d.id, 'TRANSFER', 'INV-000001'],
      ['INVOICE_PAYMENT', 58_500.99, 0, d.id, 'CASH', 'INV-000001'],
      ['INVOICE', 20_000, 20_000, d2.id, null, 'INV-000002'],
      ['INVOICE_CANCEL', 20_000, 0, d2.id, null, 'INV-000002'],
    ]);
  });
});
