import { expect } from 'chai';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

type Owner = Awaited<ReturnType<typeof registerOwner>>;
/** An entry's effect on the balance: amount is never negative, type says which way (ADR 0046). */
const effect = (t: { type: string; amount: number }) => (t.type === 'SALE' ? t.amount : -t.amount);

describe('HTTP customers and credit', () => {
  let app: TestApp;
  let owner: Owner;
  let product: string;
  const DAY = 86_400_000;

  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    await putOnPlan(app, owner, 'PRO'); // past the Free plan's 50 sales
    product = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Cement 50kg', price: 100, quantity: 100000 } })).body.data.id;
  });
  after(async () => app.close());

  const customer = async (body: Record<string, unknown> = {}) => {
    const res = await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Chinedu Eze', phone: aPhone(), ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };
  const creditSale = async (customerId: string, quantity: number, extra: Record<string, unknown> = {}) => {
    const res = await app.request('POST', '/sales', {
      token: owner.accessToken,
      body: { items: [{ product_id: product, quantity }], payment_method: 'CREDIT', customer_id: customerId, ...extra },
    });
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; balance_due: number; receipt_number: string };
  };
  const pay = (customerId: string, amount: number, headers: Record<string, string> = {}) =>
    app.request('POST', `/customers/${customerId}/credit/payment`, { token: owner.accessToken, body: { amount, payment_method: 'CASH' }, headers });
  const credit = async (customerId: string) => (await app.request('GET', `/customers/${customerId}/credit`, { token: owner.accessToken })).body.data;
  const transactions = async (customerId: string) =>
    (await app.request('GET', `/customers/${customerId}/transactions?limit=100`, { token: owner.accessToken })).body.data.content as {
      type: string;
      amount: number;
      balance_after: number;
      allocations: { sale_id: string; amount: number }[];
    }[];

  it('customers: create, read, update, duplicate phone 409, balance read-only, has_balance filter', async () => {
    const phone = aPhone();
    const id = await customer({ phone, email: 'chi@example.com', credit_limit: 5000 });
    const got = await app.request('GET', `/customers/${id}`, { token: owner.accessToken });
    expect(got.body.data).to.include({ phone, credit_limit: 5000, credit_balance: 0 });
    const dup = await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Other', phone } });
    expect(dup.status).to.equal(409);
    expect(dup.body.error.code).to.equal('DUPLICATE_PHONE');
    const other = await customer();
    const dupByPut = await app.request('PUT', `/customers/${other}`, { token: owner.accessToken, body: { phone } });
    expect(dupByPut.body.error.code).to.equal('DUPLICATE_PHONE');
    const readOnly = await app.request('PUT', `/customers/${id}`, { token: owner.accessToken, body: { credit_balance: 0 } });
    expect(readOnly.status).to.equal(400);
    const renamed = await app.request('PUT', `/customers/${id}`, { token: owner.accessToken, body: { name: 'Chinedu E.', email: null } });
    expect(renamed.body.data).to.include({ name: 'Chinedu E.', email: null });
    await creditSale(id, 3);
    const owing = await app.request('GET', '/customers?has_balance=true&limit=100', { token: owner.accessToken });
    const ids = owing.body.data.content.map((c: { id: string }) => c.id);
    expect(ids).to.include(id);
    expect(ids).to.not.include(other);
  });

  it('payments go to the oldest debt first; partial payments; the balance is the ledger', async () => {
    const c = await customer();
    const s1 = await creditSale(c, 3); // 300
    app.clock.advance(1000);
    const s2 = await creditSale(c, 5); // 500
    expect((await credit(c)).balance).to.equal(800);

    app.clock.advance(1000);
    const p1 = await pay(c, 350);
    expect(p1.status, p1.text).to.equal(201);
    expect(p1.body.data).to.include({ type: 'PAYMENT', amount: 350, balance_after: 450 });
    expect(p1.body.data.allocations).to.deep.equal([
      { sale_id: s1.id, amount: 300 },
      { sale_id: s2.id, amount: 50 },
    ]);
    expect((await app.request('GET', `/sales/${s1.id}`, { token: owner.accessToken })).body.data.credit_outstanding).to.equal(0);
    expect((await app.request('GET', `/sales/${s2.id}`, { token: owner.accessToken })).body.data.credit_outstanding).to.equal(450);

    const summary = await credit(c);
    expect(summary).to.include({ balance: 450, credit_limit: null, available_credit: null });
    expect(summary.last_payment_at).to.be.a('string');
    const txs = await transactions(c);
    expect(txs.map((t) => t.type)).to.deep.equal(['PAYMENT', 'SALE', 'SALE']);
    expect(txs.map((t) => t.balance_after)).to.deep.equal([450, 800, 300]);
    expect(txs.reduce((n, t) => n + effect(t), 0)).to.equal(summary.balance);

    const over = await pay(c, 450.01);
    expect(over.status).to.equal(422);
    expect(over.body.error.code).to.equal('OVERPAYMENT');
    expect((await pay(c, 0)).status).to.equal(422);
    expect((await pay(c, 450)).body.data.balance_after).to.equal(0);
  });

  it('a part-paid sale counts only its unpaid part; a cash sale to a customer shows with effect 0', async () => {
    const c = await customer();
    const s = await creditSale(c, 10, { payment_method: 'CASH', amount_paid: 400 });
    expect(s.balance_due).to.equal(600);
    app.clock.advance(1000);
    await app.request('POST', '/sales', { token: owner.accessToken, body: { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH', customer_id: c } });
    expect((await credit(c)).balance).to.equal(600);
    expect((await transactions(c)).map((t) => t.amount)).to.deep.equal([0, 600]);
  });

  it('a credit sale over the limit is 422 CREDIT_LIMIT_EXCEEDED and takes no stock', async () => {
    const c = await customer({ credit_limit: 1000 });
    await creditSale(c, 8);
    const before = (await app.request('GET', `/products/${product}`, { token: owner.accessToken })).body.data.quantity;
    const res = await app.request('POST', '/sales', { token: owner.accessToken, body: { items: [{ product_id: product, quantity: 3 }], payment_method: 'CREDIT', customer_id: c } });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('CREDIT_LIMIT_EXCEEDED');
    expect((await app.request('GET', `/products/${product}`, { token: owner.accessToken })).body.data.quantity).to.equal(before);
    expect(await credit(c)).to.include({ balance: 800, available_credit: 200 });
  });

  it('a void after a part payment reverses what is still owed and records the rest as a refund', async () => {
    const c = await customer();
    const s = await creditSale(c, 10, { amount_paid: 200 }); // total 1000, 800 on credit
    app.clock.advance(1000);
    await pay(c, 300);
    app.clock.advance(1000);
    const voided = await app.request('POST', `/sales/${s.id}/void`, { token: owner.accessToken, body: { reason: 'returned' } });
    expect(voided.status).to.equal(200);
    expect(voided.body.data).to.include({ credit_outstanding: 0, refund_amount: 500 });
    expect((await credit(c)).balance).to.equal(0);
    const txs = await transactions(c);
    expect(txs[0]).to.include({ type: 'VOID', amount: 500, balance_after: 0 });
    expect(txs.reduce((n, t) => n + effect(t), 0)).to.equal(0);
  });

  it('two payments at once that together overpay: exactly one succeeds', async () => {
    const c = await customer();
    await creditSale(c, 10); // 1000
    const results = await Promise.all([pay(c, 700), pay(c, 700), pay(c, 700)]);
    expect(results.map((r) => r.status).sort()).to.deep.equal([201, 422, 422]);
    expect((await credit(c)).balance).to.equal(300);
  });

  it('payments and sales racing on one customer keep the balance equal to the ledger', async () => {
    const c = await customer();
    await creditSale(c, 50); // 5000
    await Promise.all([
      ...Array.from({ length: 10 }, () => pay(c, 100)),
      ...Array.from({ length: 10 }, () =>
        app.request('POST', '/sales', { token: owner.accessToken, body: { items: [{ product_id: product, quantity: 1 }], payment_method: 'CREDIT', customer_id: c } }),
      ),
    ]);
    const txs = await transactions(c);
    expect((await credit(c)).balance).to.equal(5000 - 1000 + 1000);
    expect(txs.reduce((n, t) => n + effect(t), 0)).to.equal(5000);
  });

  it('a payment is idempotent', async () => {
    const c = await customer();
    await creditSale(c, 10);
    const first = await pay(c, 100, { 'Idempotency-Key': `pay-${c}` });
    const again = await pay(c, 100, { 'Idempotency-Key': `pay-${c}` });
    expect(again.body).to.deep.equal(first.body);
    expect((await credit(c)).balance).to.equal(900);
  });

  it('aging report: Lagos-day buckets at the 30/31, 60/61, 90/91 boundaries, per customer and in total', async () => {
    const fresh = app; // a new business on the same app: the report is per business
    const started = fresh.clock.now();
    try {
      const o = await registerOwner(fresh);
      const p = (await fresh.request('POST', '/products', { token: o.accessToken, body: { name: 'Zobo', price: 1, quantity: 100000 } })).body.data.id;
      const now = new Date('2026-11-22T10:00:00.000Z'); // 11:00 in Lagos on 22 November
      const c = (await fresh.request('POST', '/customers', { token: o.accessToken, body: { name: 'Aging Customer' } })).body.data.id;
      const d = (await fresh.request('POST', '/customers', { token: o.accessToken, body: { name: 'Second' } })).body.data.id;
      // ages in Lagos days at `now`, and the naira amount of each debt
      const debts: [number, number][] = [[0, 1], [30, 2], [31, 4], [60, 8], [61, 16], [90, 32], [91, 64]];
      for (const [age, amount] of debts) {
        fresh.clock.set(new Date(now.getTime() - age * DAY));
        await fresh.request('POST', '/sales', { token: o.accessToken, body: { items: [{ product_id: p, quantity: amount }], payment_method: 'CREDIT', customer_id: c } });
      }
      // 23:30 Lagos time 31 days before is still day 31; 00:30 Lagos time 30 days before is day 30
      fresh.clock.set(new Date('2026-10-22T22:30:00.000Z')); // 23:30 on 22 October in Lagos: 31 days
      await fresh.request('POST', '/sales', { token: o.accessToken, body: { items: [{ product_id: p, quantity: 100 }], payment_method: 'CREDIT', customer_id: d } });
      fresh.clock.set(new Date('2026-10-22T23:30:00.000Z')); // 00:30 on 23 October in Lagos: 30 days
      await fresh.request('POST', '/sales', { token: o.accessToken, body: { items: [{ product_id: p, quantity: 200 }], payment_method: 'CREDIT', customer_id: d } });
      fresh.clock.set(now);
      const report = await fresh.request('GET', '/credit/aging-report', { token: o.accessToken });
      expect(report.status, report.text).to.equal(200);
      expect(report.body.data.as_of).to.equal('2026-11-22');
      const rowC = report.body.data.content.find((r: { customer_id: string }) => r.customer_id === c);
      expect(rowC).to.include({ days_0_30: 3, days_31_60: 12, days_61_90: 48, days_over_90: 64, total: 127 });
      const rowD = report.body.data.content.find((r: { customer_id: string }) => r.customer_id === d);
      expect(rowD).to.include({ days_0_30: 200, days_31_60: 100, total: 300 });
      expect(report.body.data.totals).to.include({ days_0_30: 203, days_31_60: 112, days_61_90: 48, days_over_90: 64, total: 427, customers: 2 });
      expect(report.body.data.content.map((r: { total: number }) => r.total)).to.deep.equal([300, 127]);
      const page1 = await fresh.request('GET', '/credit/aging-report?limit=1', { token: o.accessToken });
      expect(page1.body.data.has_next).to.equal(true);
      const page2 = await fresh.request('GET', `/credit/aging-report?limit=1&cursor=${page1.body.data.cursor}`, { token: o.accessToken });
      expect(page2.body.data.content[0].customer_id).to.equal(c);
      expect(page2.body.data.has_next).to.equal(false);
    } finally {
      fresh.clock.set(started);
    }
  });

  it('another business\'s customer is 404 everywhere, and cannot be sold to', async () => {
    const c = await customer();
    const other = await registerOwner(app);
    for (const [method, path, body] of [
      ['GET', `/customers/${c}`],
      ['PUT', `/customers/${c}`, { name: 'x' }],
      ['GET', `/customers/${c}/credit`],
      ['GET', `/customers/${c}/transactions`],
      ['POST', `/customers/${c}/credit/payment`, { amount: 1, payment_method: 'CASH' }],
    ] as [string, string, unknown?][]) {
      const res = await app.request(method, path, { token: other.accessToken, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).to.equal(404);
    }
    const p = (await app.request('POST', '/products', { token: other.accessToken, body: { name: 'X', price: 1, quantity: 5 } })).body.data.id;
    const sale = await app.request('POST', '/sales', { token: other.accessToken, body: { items: [{ product_id: p, quantity: 1 }], payment_method: 'CREDIT', customer_id: c } });
    expect(sale.status).to.equal(422);
    expect(sale.body.error.code).to.equal('UNKNOWN_CUSTOMER');
  });
});
