import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { FIRST_ATTEMPT_GRACE_MS } from '../../application/ports/outbox.js';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

// Issue 34, returns (docs/adr/0058, 0059): a customer brings back part of a sale, over HTTP on the real app.

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Json = Record<string, any>;

describe('HTTP returns of sales', function () {
  this.timeout(180_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  /** A business on PRO (the Free plan's 50 sales would stop these tests). */
  const shop = async () => {
    const owner = await registerOwner(app);
    await putOnPlan(app, owner, 'PRO');
    return owner;
  };
  const product = async (owner: Owner, body: Json) => {
    const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk 400g', price: 1500, quantity: 100, ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };
  const sell = async (token: string, body: Json) => {
    const res = await app.request('POST', '/sales', { token, body: { payment_method: 'CASH', ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data as Json;
  };
  const giveBack = (token: string, saleId: string, body: Json, headers: Record<string, string> = {}) =>
    app.request('POST', `/sales/${saleId}/returns`, { token, body: { refund_method: 'CASH', reason: 'Customer changed her mind', ...body }, headers });
  const returned = async (token: string, saleId: string, body: Json) => {
    const res = await giveBack(token, saleId, body);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as Json;
  };
  const quantityOf = async (owner: Owner, id: string) => (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data.quantity as number;
  const aCustomer = async (owner: Owner, body: Json = {}) => (await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Ngozi Eze', phone: aPhone(), ...body } })).body.data.id as string;
  const customer = async (owner: Owner, id: string) => (await app.request('GET', `/customers/${id}`, { token: owner.accessToken })).body.data as Json;
  const saleOf = async (owner: Owner, id: string) => (await app.request('GET', `/sales/${id}`, { token: owner.accessToken })).body.data as Json;

  it('a three-line sale with a discount, returned in two parts: each line\'s refunds add up to what it was sold for, to the kobo', async () => {
    const owner = await shop();
    const a = await product(owner, { name: 'Ankara fabric', price: 1000 });
    const b = await product(owner, { name: 'Thread', price: 333.33 });
    const c = await product(owner, { name: 'Tailoring', price: 500, type: 'SERVICE', quantity: 0 });
    // lines 3000.00, 999.99 - 0.01 = 999.98, 500.00: subtotal 4499.98; less 100.00 the total is 4399.98
    const sale = await sell(owner.accessToken, {
      items: [{ product_id: a, quantity: 3 }, { product_id: b, quantity: 3, discount: 0.01 }, { product_id: c, quantity: 1 }],
      discount: 100,
    });
    expect(sale).to.include({ subtotal: 4499.98, total: 4399.98, net_total: 4399.98, returned_amount: 0 });
    expect(sale.returns).to.deep.equal([]);
    // The 100.00 discount on the lines (ADR 0053): 10000 x 300000/449998 = 6666.70 (6667 with the leftover kobo, the largest
    // remainder), 10000 x 99998/449998 = 2222.18, 10000 x 50000/449998 = 1111.11: sold for 2933.33, 977.76 and 488.89.
    const first = await returned(owner.accessToken, sale.id, { items: [{ product_id: a, quantity: 1 }, { product_id: b, quantity: 1 }] });
    // floor(293333 / 3) = 97777 and floor(97776 / 3) = 32592
    expect(first).to.include({ return_number: 'RTN-000001', amount: 1303.69, debt_reduced: 0, refund_amount: 1303.69, refund_method: 'CASH', restock: true, receipt_number: sale.receipt_number });
    expect(first.items.map((i: Json) => [i.product_id, i.sale_item_index, i.quantity, i.amount, i.line_amount])).to.deep.equal([
      [a, 0, 1, 977.77, 1000],
      [b, 1, 1, 325.92, 333.32],
    ]);
    const second = await returned(owner.accessToken, sale.id, { items: [{ product_id: a, quantity: 2 }] });
    // the last return of the line takes the remainder: 293333 - 97777 = 195556
    expect(second).to.include({ return_number: 'RTN-000002', amount: 1955.56, refund_amount: 1955.56 });
    expect(second.items[0]).to.include({ quantity: 2, amount: 1955.56, line_amount: 2000 });
    // 97777 + 195556 = 293333: the line, exactly
    const third = await returned(owner.accessToken, sale.id, { items: [{ product_id: b, quantity: 2 }, { product_id: c, quantity: 1 }] });
    // thread: 97776 - 32592 = 65184; tailoring: all of 48889
    expect(third.items.map((i: Json) => i.amount)).to.deep.equal([651.84, 488.89]);
    expect(third.amount).to.equal(1140.73);
    const after = await saleOf(owner, sale.id);
    expect(after.returned_amount).to.equal(4399.98);
    expect(after.net_total).to.equal(0);
    expect(after.returns.map((r: Json) => [r.return_number, r.amount, r.refund_method])).to.deep.equal([
      ['RTN-000001', 1303.69, 'CASH'],
      ['RTN-000002', 1955.56, 'CASH'],
      ['RTN-000003', 1140.73, 'CASH'],
    ]);
    const more = await giveBack(owner.accessToken, sale.id, { items: [{ product_id: a, quantity: 1 }] });
    expect(more.status).to.equal(422);
    expect(more.body.error.code).to.equal('RETURN_EXCEEDS_SOLD');
  });

  it('restock puts goods back at the sale\'s branch with RETURN ledger rows; damaged goods (restock false) move none', async () => {
    const owner = await shop();
    const milk = await product(owner, { quantity: 10, cost_price: 1100 });
    const sale = await sell(owner.accessToken, { items: [{ product_id: milk, quantity: 4 }] });
    expect(await quantityOf(owner, milk)).to.equal(6);
    const back = await returned(owner.accessToken, sale.id, { items: [{ product_id: milk, quantity: 1 }] });
    expect(back.cost_returned).to.equal(1100);
    expect(await quantityOf(owner, milk)).to.equal(7);
    const ledger = await app.request('GET', `/products/stock-adjustments?product_id=${milk}&reason=RETURN`, { token: owner.accessToken });
    expect(ledger.body.data.content).to.have.length(1);
    expect(ledger.body.data.content[0]).to.include({ quantity_change: 1, quantity_before: 6, quantity_after: 7, branch_id: sale.branch_id });
    const damaged = await returned(owner.accessToken, sale.id, { items: [{ product_id: milk, quantity: 2 }], restock: false });
    expect(damaged).to.include({ restock: false, cost_returned: 0, amount: 3000 });
    expect(await quantityOf(owner, milk)).to.equal(7);
    expect((await app.request('GET', `/products/stock-adjustments?product_id=${milk}&reason=RETURN`, { token: owner.accessToken })).body.data.content).to.have.length(1);
  });

  it('refuses more than the sale has left to return, a product it did not sell, a voided or unknown sale; nothing is written', async () => {
    const owner = await shop();
    const rice = await product(owner, { name: 'Rice 5kg', price: 9000 });
    const beans = await product(owner, { name: 'Beans 1kg' });
    const sale = await sell(owner.accessToken, { items: [{ product_id: rice, quantity: 2 }, { product_id: rice, quantity: 1 }] });
    const tooMany = await giveBack(owner.accessToken, sale.id, { items: [{ product_id: beans, quantity: 1 }] });
    expect(tooMany.status).to.equal(422);
    expect(tooMany.body.error).to.include({ code: 'PRODUCT_NOT_IN_SALE' });
    expect(tooMany.body.error.errors).to.deep.equal([{ field: 'items.0.product_id', message: 'was not sold in this sale' }]);
    // a product on two lines: 3 in all; items naming it add up
    const over = await giveBack(owner.accessToken, sale.id, { items: [{ product_id: rice, quantity: 2 }, { product_id: rice, quantity: 2 }] });
    expect(over.status).to.equal(422);
    expect(over.body.error.code).to.equal('RETURN_EXCEEDS_SOLD');
    expect(over.body.error.errors[0].field).to.equal('items.0.quantity');
    expect(over.body.message).to.contain('at most 3');
    expect(await quantityOf(owner, rice)).to.equal(97);
    expect((await saleOf(owner, sale.id)).returns).to.deep.equal([]);
    // across the two lines: 3 units go back, the first line first
    const all = await returned(owner.accessToken, sale.id, { items: [{ product_id: rice, quantity: 3 }] });
    expect(all.items.map((i: Json) => [i.sale_item_index, i.quantity, i.amount])).to.deep.equal([[0, 2, 18000], [1, 1, 9000]]);
    expect(all.return_number, 'a refused return takes no number').to.equal('RTN-000001');
    const none = await giveBack(owner.accessToken, sale.id, { items: [{ product_id: rice, quantity: 1 }] });
    expect(none.body.error.code).to.equal('RETURN_EXCEEDS_SOLD');
    expect(none.body.message).to.contain('3 came back already');

    const voided = await sell(owner.accessToken, { items: [{ product_id: rice, quantity: 1 }] });
    expect((await app.request('POST', `/sales/${voided.id}/void`, { token: owner.accessToken, body: { reason: 'typo' } })).status).to.equal(200);
    const late = await giveBack(owner.accessToken, voided.id, { items: [{ product_id: rice, quantity: 1 }] });
    expect(late.status).to.equal(409);
    expect(late.body.error.code).to.equal('SALE_ALREADY_VOIDED');
    expect((await giveBack(owner.accessToken, randomUUID(), { items: [{ product_id: rice, quantity: 1 }] })).status).to.equal(404);
    expect((await giveBack(owner.accessToken, 'not-a-uuid', { items: [{ product_id: rice, quantity: 1 }] })).status).to.equal(404);
    const other = await shop();
    const foreign = await giveBack(other.accessToken, sale.id, { items: [{ product_id: rice, quantity: 1 }] });
    expect(foreign.status, 'another business\'s sale is not found').to.equal(404);
  });

  it('voiding a sale with returns is 409 SALE_HAS_RETURNS (return the rest instead); a sale without is voided as before', async () => {
    const owner = await shop();
    const p = await product(owner, {});
    const sale = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 2 }] });
    await returned(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 1 }] });
    const v = await app.request('POST', `/sales/${sale.id}/void`, { token: owner.accessToken, body: { reason: 'mistake' } });
    expect(v.status).to.equal(409);
    expect(v.body.error.code).to.equal('SALE_HAS_RETURNS');
    expect((await saleOf(owner, sale.id)).status).to.equal('COMPLETED');
    expect(await quantityOf(owner, p)).to.equal(99);
    const doc = app.openApi as Json;
    expect(doc.paths['/sales/{id}/void'].post['x-error-codes']).to.include('SALE_HAS_RETURNS');
  });

  it('a credit sale: the return first clears what the customer still owes on it; only what was paid beyond that is refunded', async () => {
    const owner = await shop();
    const p = await product(owner, { price: 2500 });
    const c = await aCustomer(owner);
    // 4 x 2500 = 10000, 3000 paid: 7000 owed
    const sale = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 4 }], payment_method: 'CREDIT', amount_paid: 3000, customer_id: c });
    expect(sale.credit_outstanding).to.equal(7000);
    const half = await returned(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 2 }] });
    expect(half).to.include({ amount: 5000, debt_reduced: 5000, refund_amount: 0, customer_id: c });
    expect((await customer(owner, c)).credit_balance).to.equal(2000);
    expect((await saleOf(owner, sale.id)).credit_outstanding).to.equal(2000);
    const rest = await returned(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 2 }], refund_method: 'TRANSFER' });
    expect(rest).to.include({ amount: 5000, debt_reduced: 2000, refund_amount: 3000, refund_method: 'TRANSFER' });
    expect((await customer(owner, c)).credit_balance).to.equal(0);
    const after = await saleOf(owner, sale.id);
    expect(after).to.include({ credit_outstanding: 0, net_total: 0, returned_amount: 10000 });
    const ledger = (await app.request('GET', `/customers/${c}/transactions`, { token: owner.accessToken })).body.data.content as Json[];
    expect(ledger.map((e) => [e.type, e.amount, e.balance_after])).to.deep.equal([
      ['RETURN', 2000, 0],
      ['RETURN', 5000, 2000],
      ['SALE', 7000, 7000],
    ]);
    expect(ledger[0]!.allocations).to.deep.equal([{ sale_id: sale.id, amount: 2000 }]);
    // nothing is owed any more: the aging report no longer lists the customer
    const aging = (await app.request('GET', '/credit/aging-report', { token: owner.accessToken })).body.data;
    expect(aging.content.map((r: Json) => r.customer_id)).to.not.include(c);
  });

  it('CREDIT_NOTE keeps the refund on the customer\'s account: their other debts first, then below zero, used first by their next credit sales', async () => {
    const owner = await shop();
    const p = await product(owner, { price: 1000 });
    const c = await aCustomer(owner);
    const owing = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 1 }], payment_method: 'CREDIT', customer_id: c });
    const paid = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 4 }], customer_id: c });
    expect((await customer(owner, c)).credit_balance).to.equal(1000);
    const note = await returned(owner.accessToken, paid.id, { items: [{ product_id: p, quantity: 3 }], refund_method: 'CREDIT_NOTE' });
    expect(note).to.include({ amount: 3000, debt_reduced: 0, refund_amount: 3000, refund_method: 'CREDIT_NOTE' });
    // 1000 of it paid the debt of the other sale; 2000 is the customer's to spend
    expect((await customer(owner, c)).credit_balance).to.equal(-2000);
    expect((await saleOf(owner, owing.id)).credit_outstanding).to.equal(0);
    const [entry] = (await app.request('GET', `/customers/${c}/transactions`, { token: owner.accessToken })).body.data.content as Json[];
    expect(entry).to.deep.include({ type: 'RETURN', amount: 3000, balance_after: -2000, sale_id: paid.id });
    expect(entry!.allocations).to.deep.equal([{ sale_id: owing.id, amount: 1000 }]);
    // a payment cannot go toward a credit the customer holds
    const pay = await app.request('POST', `/customers/${c}/credit/payment`, { token: owner.accessToken, body: { amount: 100, payment_method: 'CASH' } });
    expect(pay.body.error.code).to.equal('OVERPAYMENT');
    // the next credit sale uses the note first: 1500 on credit, 1500 of the note, nothing owed; the limit of 500 applies to what is owed
    const next = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 1 }, { product_id: p, quantity: 1 }], payment_method: 'CREDIT', customer_id: c, discount: 500 });
    expect(next).to.include({ balance_due: 1500, credit_outstanding: 0 });
    expect((await customer(owner, c)).credit_balance).to.equal(-500);
    expect((await app.request('PUT', `/customers/${c}`, { token: owner.accessToken, body: { credit_limit: 500 } })).status).to.equal(200);
    const then = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 1 }], payment_method: 'CREDIT', customer_id: c });
    expect(then).to.include({ balance_due: 1000, credit_outstanding: 500 });
    expect((await customer(owner, c)).credit_balance).to.equal(500);
    const over = await app.request('POST', '/sales', { token: owner.accessToken, body: { items: [{ product_id: p, quantity: 1 }], payment_method: 'CREDIT', customer_id: c } });
    expect(over.body.error.code).to.equal('CREDIT_LIMIT_EXCEEDED');

    const walkIn = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 1 }] });
    const nobody = await giveBack(owner.accessToken, walkIn.id, { items: [{ product_id: p, quantity: 1 }], refund_method: 'CREDIT_NOTE' });
    expect(nobody.status).to.equal(422);
    expect(nobody.body.error).to.deep.include({ code: 'CREDIT_NOTE_NEEDS_CUSTOMER', errors: [{ field: 'refund_method', message: 'CREDIT_NOTE needs a sale with a customer' }] });
  });

  it('GET /returns pages and filters by date range, branch, staff and refund method; GET /returns/{id}; the refund receipt as JSON and PDF', async () => {
    const owner = await shop();
    const p = await product(owner, { name: 'Indomie carton', price: 7000 });
    const sale = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 5 }] });
    app.clock.set(new Date('2026-11-20T10:00:00.000Z'));
    const early = await returned(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 1 }] });
    app.clock.set(new Date('2026-11-22T10:00:00.000Z'));
    const late = await returned(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 2 }], refund_method: 'POS' });
    app.clock.set(new Date());
    const list = async (q: string) => {
      const res = await app.request('GET', `/returns${q}`, { token: owner.accessToken });
      expect(res.status, res.text).to.equal(200);
      return (res.body.data.content as Json[]).map((r) => r.id);
    };
    expect(await list('')).to.deep.equal([late.id, early.id]);
    expect(await list('?start_date=2026-11-21')).to.deep.equal([late.id]);
    expect(await list('?end_date=2026-11-20')).to.deep.equal([early.id]);
    expect(await list(`?branch_id=${sale.branch_id}`)).to.have.length(2);
    expect(await list(`?branch_id=${randomUUID()}`)).to.deep.equal([]);
    expect(await list(`?created_by=${owner.userId}`)).to.have.length(2);
    expect(await list(`?created_by=${randomUUID()}`)).to.deep.equal([]);
    expect(await list('?refund_method=POS')).to.deep.equal([late.id]);
    expect(await list(`?sale_id=${sale.id}&sort_by=amount&sort_dir=asc`)).to.deep.equal([early.id, late.id]);
    expect(await list('?search=RTN-000002')).to.deep.equal([late.id]);
    const page = await app.request('GET', '/returns?limit=1', { token: owner.accessToken });
    expect(page.body.data).to.include({ has_next: true, limit: 1 });
    expect(page.body.data.content[0]).to.not.have.property('items');
    const next = await app.request('GET', `/returns?limit=1&cursor=${page.body.data.cursor}`, { token: owner.accessToken });
    expect(next.body.data.content.map((r: Json) => r.id)).to.deep.equal([early.id]);
    expect((await app.request('GET', '/returns?refund_method=CHEQUE', { token: owner.accessToken })).status).to.equal(400);

    const one = await app.request('GET', `/returns/${late.id}`, { token: owner.accessToken });
    expect(one.body.data).to.deep.equal(late);
    expect((await app.request('GET', `/returns/${randomUUID()}`, { token: owner.accessToken })).status).to.equal(404);
    const receipt = await app.request('GET', `/returns/${late.id}/receipt`, { token: owner.accessToken });
    expect(receipt.status).to.equal(200);
    expect(receipt.body.data).to.include({ return_number: 'RTN-000002', receipt_number: sale.receipt_number, amount: 14000, refund_amount: 14000, refund_method: 'POS', currency: 'NGN' });
    expect(receipt.body.data.local_date_time).to.equal('2026-11-22T11:00:00+01:00');
    expect(receipt.body.data.lines).to.deep.equal([{ name: 'Indomie carton', sku: receipt.body.data.lines[0].sku, quantity: 2, amount: 14000 }]);
    expect(receipt.text).to.contain('"amount":14000.00');
    const pdf = await fetch(`${app.baseUrl}/api/v1/returns/${late.id}/receipt`, { headers: { authorization: `Bearer ${owner.accessToken}`, accept: 'application/pdf' } });
    expect(pdf.status).to.equal(200);
    expect(pdf.headers.get('content-type')).to.contain('application/pdf');
    expect(pdf.headers.get('content-disposition')).to.equal('inline; filename="RTN-000002.pdf"');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).to.equal('%PDF-');
  });

  it('staff take returns of their branch\'s sales only (403 WRONG_BRANCH elsewhere)', async () => {
    const owner = await shop();
    const p = await product(owner, {});
    const lekki = (await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Lekki' } })).body.data.id as string;
    const staffAt = async (branchId: string | null) => {
      const phone = aPhone();
      const invited = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade', ...(branchId ? { branch_id: branchId } : {}) } });
      expect(invited.status, invited.text).to.equal(201);
      await app.request('POST', '/auth/login', { body: { phone } });
      const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
      return signIn.body.data.access_token as string;
    };
    const sale = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 3 }] });
    const atLekki = await staffAt(lekki);
    const refused = await giveBack(atLekki, sale.id, { items: [{ product_id: p, quantity: 1 }] });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('WRONG_BRANCH');
    const anywhere = await staffAt(null);
    const taken = await returned(anywhere, sale.id, { items: [{ product_id: p, quantity: 1 }] });
    const staffId = taken.created_by as string;
    expect(staffId).to.not.equal(owner.userId);
    expect((await app.request('GET', `/returns?created_by=${staffId}`, { token: atLekki })).body.data.content.map((r: Json) => r.id)).to.deep.equal([taken.id]);
  });

  it('honours Idempotency-Key: the same key and body answer the first return again; another body is 422', async () => {
    const owner = await shop();
    const p = await product(owner, {});
    const sale = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 3 }] });
    const key = { 'Idempotency-Key': randomUUID() };
    const body = { items: [{ product_id: p, quantity: 1 }] };
    const first = await giveBack(owner.accessToken, sale.id, body, key);
    const again = await giveBack(owner.accessToken, sale.id, body, key);
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.data).to.deep.equal(first.body.data);
    expect(await quantityOf(owner, p)).to.equal(98);
    expect((await saleOf(owner, sale.id)).returns).to.have.length(1);
    expect((await giveBack(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 2 }] }, key)).body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
  });

  it('bounds every number: quantity 0, -1, a fraction or past 1,000,000 is 400, as the document says; items 1 to 200', async () => {
    const owner = await shop();
    const p = await product(owner, {});
    const sale = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 3 }] });
    for (const quantity of [0, -1, 1.5, 1_000_001, 1e21, '1', null]) {
      const res = await giveBack(owner.accessToken, sale.id, { items: [{ product_id: p, quantity }] });
      expect(res.status, String(quantity)).to.equal(400);
      expect(res.body.error.errors[0].field).to.equal('items.0.quantity');
    }
    expect((await giveBack(owner.accessToken, sale.id, { items: [] })).status).to.equal(400);
    expect((await giveBack(owner.accessToken, sale.id, { items: Array.from({ length: 201 }, () => ({ product_id: p, quantity: 1 })) })).status).to.equal(400);
    expect((await giveBack(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 1 }], refund_method: 'CHEQUE' })).status).to.equal(400);
    expect((await giveBack(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 1 }], restock: 'yes' })).status).to.equal(400);
    expect((await giveBack(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 1 }], reason: '' })).status).to.equal(400);
    expect((await giveBack(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 1 }], amount: 5 })).body.error.code).to.equal('VALIDATION_FAILED');
    expect(await quantityOf(owner, p)).to.equal(97);
    const doc = app.openApi as Json;
    const op = doc.paths['/sales/{id}/returns'].post;
    expect(doc.components.schemas.ReturnRequest.properties.items).to.include({ minItems: 1, maxItems: 200 });
    expect(doc.components.schemas.ReturnItemRequest.properties.quantity).to.include({ type: 'integer', minimum: 1, maximum: 1_000_000 });
    expect(op.parameters.map((x: Json) => x.name)).to.include('Idempotency-Key');
    expect(op['x-error-codes']).to.include.members(['RETURN_EXCEEDS_SOLD', 'PRODUCT_NOT_IN_SALE', 'SALE_ALREADY_VOIDED', 'CREDIT_NOTE_NEEDS_CUSTOMER', 'WRONG_BRANCH', 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('offline: return.create in POST /sync/batch with a client id; the same op is a duplicate, the same id with the same content the same return', async () => {
    const owner = await shop();
    const p = await product(owner, { price: 800 });
    const saleId = randomUUID();
    const id = randomUUID();
    const ops = [
      { op_id: randomUUID(), type: 'sale.create', payload: { id: saleId, client_created_at: new Date().toISOString(), payment_method: 'CASH', items: [{ product_id: p, quantity: 2 }] } },
      { op_id: randomUUID(), type: 'return.create', payload: { sale_id: saleId, id, client_created_at: new Date().toISOString(), items: [{ product_id: p, quantity: 1 }], refund_method: 'CASH', reason: 'Broken seal' } },
    ];
    const batch = async (operations: Json[]) => {
      const res = await app.request('POST', '/sync/batch', { token: owner.accessToken, body: { device_id: 'till-7', operations } });
      expect(res.status, res.text).to.equal(200);
      return res.body.data.results as Json[];
    };
    const [made, back] = await batch(ops);
    expect(made!.status, JSON.stringify(made)).to.equal('applied');
    expect(back).to.deep.include({ status: 'applied', http_status: 201 });
    expect(back!.data).to.include({ id, sale_id: saleId, amount: 800, device_id: 'till-7', return_number: 'RTN-000001' });
    expect((await batch([ops[1]!]))[0]).to.include({ status: 'duplicate' });
    // queued twice under two op ids: the client id makes it the same return
    expect((await batch([{ ...ops[1]!, op_id: randomUUID() }]))[0]).to.deep.include({ status: 'duplicate', http_status: 201 });
    const other = await batch([{ op_id: randomUUID(), type: 'return.create', payload: { ...ops[1]!.payload, items: [{ product_id: p, quantity: 2 }] } }]);
    expect(other[0]).to.deep.include({ status: 'rejected', http_status: 409 });
    expect(other[0]!.error.code).to.equal('CLIENT_ID_CONFLICT');
    const tooMany = await batch([{ op_id: randomUUID(), type: 'return.create', payload: { sale_id: saleId, items: [{ product_id: p, quantity: 2 }], refund_method: 'CASH', reason: 'x' } }]);
    expect(tooMany[0]).to.deep.include({ status: 'rejected', http_status: 422 });
    expect(tooMany[0]!.error).to.include({ code: 'RETURN_EXCEEDS_SOLD', instance: `/api/v1/sales/${saleId}/returns` });
    expect((await saleOf(owner, saleId)).returns).to.have.length(1);
    expect(await quantityOf(owner, p)).to.equal(99);
    const doc = app.openApi as Json;
    expect(doc.components.schemas.SyncReturnRequest.required).to.include.members(['sale_id', 'items', 'refund_method', 'reason']);
  });

  it('two returns racing for the last returnable unit: one wins, the others are 422 RETURN_EXCEEDS_SOLD', async () => {
    const owner = await shop();
    const p = await product(owner, { quantity: 10 });
    const sale = await sell(owner.accessToken, { items: [{ product_id: p, quantity: 3 }] });
    await returned(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 2 }] });
    const racing = await Promise.all(Array.from({ length: 8 }, () => giveBack(owner.accessToken, sale.id, { items: [{ product_id: p, quantity: 1 }] })));
    expect(racing.filter((r) => r.status === 201)).to.have.length(1);
    expect(racing.filter((r) => r.status === 422).map((r) => r.body.error.code)).to.deep.equal(Array(7).fill('RETURN_EXCEEDS_SOLD'));
    expect(await quantityOf(owner, p)).to.equal(10);
    expect((await saleOf(owner, sale.id)).returned_amount).to.equal(4500);
    // numbers stay gap-free though seven were refused
    expect(racing.find((r) => r.status === 201)!.body.data.return_number).to.equal('RTN-000002');
  });

  it('records ReturnRecorded through the outbox, and the partner hears sale.returned', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const hooked = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
      try {
        const partner = await aPartner(hooked);
        const hook = await asPartner(hooked, partner.key, 'POST', '/partner/webhooks', { url: receiver.url, events: ['sale.returned'] });
        expect(hook.status, hook.text).to.equal(201);
        receiver.secrets.push(hook.body.data.secret);
        const phone = aPhone();
        await hooked.request('POST', '/auth/register', { body: { phone, first_name: 'Ify', last_name: 'Okoro', business_name: 'Ify Stores', partner_code: partner.code } });
        const token = (await hooked.request('POST', '/auth/verify-otp', { body: { phone, otp: hooked.outbox.lastCode(phone) } })).body.data.access_token as string;
        const p = (await hooked.request('POST', '/products', { token, body: { name: 'Garri', price: 100, quantity: 10 } })).body.data.id as string;
        const sale = (await hooked.request('POST', '/sales', { token, body: { items: [{ product_id: p, quantity: 2 }], payment_method: 'CASH' } })).body.data;
        const back = (await hooked.request('POST', `/sales/${sale.id}/returns`, { token, body: { items: [{ product_id: p, quantity: 1 }], refund_method: 'CASH', reason: 'x' } })).body.data;
        // the outbox's due work once a request's grace is over, then the deliveries due (receivers accept 5 minutes of skew)
        hooked.clock.set(new Date());
        for (let i = 0; i < 2; i++) {
          hooked.clock.advance(FIRST_ATTEMPT_GRACE_MS + 1_000);
          await hooked.dispatcher.runDue();
          await hooked.runWebhookDeliveries();
        }
        const got = receiver.of('sale.returned');
        expect(got, 'one delivery').to.have.length(1);
        expect(got[0]!.json.data).to.deep.include({ return_id: back.id, return_number: 'RTN-000001', sale_id: sale.id, receipt_number: sale.receipt_number, amount: 100, refund_amount: 100, debt_reduced: 0, refund_method: 'CASH', restocked: true });
        expect(got[0]!.body).to.contain('"amount":100.00,');
        expect(got[0]!.verifiedWith).to.have.length(1);
      } finally {
        await hooked.close();
      }
    } finally {
      await receiver.close();
    }
  });
});
