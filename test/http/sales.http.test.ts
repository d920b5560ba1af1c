import { expect } from 'chai';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

type Owner = Awaited<ReturnType<typeof registerOwner>>;

const aProduct = async (app: TestApp, owner: Owner, body: Record<string, unknown>) => {
  const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk 400g', price: 1500, ...body } });
  expect(res.status, res.text).to.equal(201);
  return res.body.data as { id: string; quantity: number; price: number };
};
const quantityOf = async (app: TestApp, owner: Owner, id: string) => (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data.quantity as number;
const sell = (app: TestApp, owner: Owner, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', ...body }, headers });

describe('HTTP sales', () => {
  let app: TestApp;
  let owner: Owner;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    await putOnPlan(app, owner, 'PRO'); // the Free plan's 50-sales month would stop these tests
  });
  after(async () => app.close());

  it('records a sale: prices, totals, stock taken with ledger rows, receipt number, defaults', async () => {
    const milk = await aProduct(app, owner, { quantity: 20, cost_price: 1100 });
    const haircut = await aProduct(app, owner, { name: 'Haircut', price: 2000, type: 'SERVICE' });
    const res = await sell(app, owner, { items: [{ product_id: milk.id, quantity: 3 }, { product_id: haircut.id, quantity: 1, discount: 500 }], discount: 100 });
    expect(res.status, res.text).to.equal(201);
    const sale = res.body.data;
    expect(sale).to.include({ subtotal: 6000, discount: 100, total: 5900, amount_paid: 5900, balance_due: 0, status: 'COMPLETED', payment_method: 'CASH' });
    expect(sale.receipt_number).to.match(/^RCP-\d{6}$/);
    expect(sale.items[0]).to.include({ name: 'Peak Milk 400g', quantity: 3, unit_price: 1500, line_total: 4500, cost_price: 1100 });
    expect(sale.items[1]).to.include({ line_total: 1500, discount: 500 });
    expect(sale.branch_id).to.be.a('string');
    expect(await quantityOf(app, owner, milk.id)).to.equal(17);
    const ledger = await app.request('GET', `/products/stock-adjustments?product_id=${milk.id}&reason=SALE`, { token: owner.accessToken });
    expect(ledger.body.data.content).to.have.length(1);
    expect(ledger.body.data.content[0]).to.include({ quantity_change: -3, quantity_before: 20, quantity_after: 17 });
  });

  it('rounds in kobo: 3 x 33.33 is 99.99; a discount larger than its line or the sale is 422', async () => {
    const p = await aProduct(app, owner, { price: 33.33, quantity: 100 });
    const res = await sell(app, owner, { items: [{ product_id: p.id, quantity: 3 }] });
    expect(res.body.data.total).to.equal(99.99);
    const disc = await sell(app, owner, { items: [{ product_id: p.id, quantity: 3, discount: 0.01 }], discount: 0.98 });
    expect(disc.body.data).to.include({ subtotal: 99.98, total: 99 });
    const lineTooBig = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1, discount: 33.34 }] });
    expect(lineTooBig.status).to.equal(422);
    expect(lineTooBig.body.error.code).to.equal('DISCOUNT_TOO_LARGE');
    expect(lineTooBig.body.error.errors[0].field).to.equal('items.0.discount');
    const saleTooBig = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }], discount: 33.34 });
    expect(saleTooBig.body.error.code).to.equal('DISCOUNT_TOO_LARGE');
    expect(await quantityOf(app, owner, p.id)).to.equal(94);
  });

  it('fails the whole sale with 409 INSUFFICIENT_STOCK naming the product and what is available; nothing written', async () => {
    const a = await aProduct(app, owner, { name: 'Garri 1kg', quantity: 5 });
    const b = await aProduct(app, owner, { name: 'Rice 5kg', quantity: 2 });
    const before = (await app.request('GET', '/sales?limit=100', { token: owner.accessToken })).body.data.content.length;
    const res = await sell(app, owner, { items: [{ product_id: a.id, quantity: 2 }, { product_id: b.id, quantity: 3 }] });
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('INSUFFICIENT_STOCK');
    expect(res.body.message).to.contain('Rice 5kg').and.contain('2 available');
    expect(res.body.error.errors[0].field).to.equal('items.1.quantity');
    expect(await quantityOf(app, owner, a.id)).to.equal(5);
    expect(await quantityOf(app, owner, b.id)).to.equal(2);
    expect((await app.request('GET', '/sales?limit=100', { token: owner.accessToken })).body.data.content.length).to.equal(before);
    // the same product twice in a cart counts together
    const twice = await sell(app, owner, { items: [{ product_id: b.id, quantity: 1 }, { product_id: b.id, quantity: 2 }] });
    expect(twice.status).to.equal(409);
  });

  it('needs a customer for a credit sale; refuses unknown and foreign ids without leaking', async () => {
    const p = await aProduct(app, owner, { quantity: 10 });
    const credit = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }], payment_method: 'CREDIT' });
    expect(credit.status).to.equal(422);
    expect(credit.body.error.code).to.equal('CUSTOMER_REQUIRED');
    const partial = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }], amount_paid: 100 });
    expect(partial.body.error.code).to.equal('CUSTOMER_REQUIRED');
    const over = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }], amount_paid: 1500.01 });
    expect(over.body.error.code).to.equal('AMOUNT_PAID_EXCEEDS_TOTAL');

    const other = await registerOwner(app);
    const theirs = await aProduct(app, other, { name: 'Secret Product', quantity: 10 });
    const foreign = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }, { product_id: theirs.id, quantity: 1 }] });
    expect(foreign.status).to.equal(422);
    expect(foreign.body.error.code).to.equal('UNKNOWN_PRODUCT');
    expect(foreign.body.error.errors).to.deep.equal([{ field: 'items.1.product_id', message: 'is not a product of this business' }]);
    expect(foreign.text).to.not.contain('Secret Product');
    const missing = await sell(app, owner, { items: [{ product_id: '00000000-0000-4000-8000-000000000000', quantity: 1 }] });
    expect(missing.body.error).to.deep.include({ code: 'UNKNOWN_PRODUCT' });
    expect(await quantityOf(app, other, theirs.id)).to.equal(10);
    expect(await quantityOf(app, owner, p.id)).to.equal(10);
  });

  it('voids: stock comes back exactly with SALE_VOID rows; a second void is 409; staff may not void', async () => {
    const p = await aProduct(app, owner, { quantity: 10 });
    const s = await aProduct(app, owner, { name: 'Delivery', price: 500, type: 'SERVICE' });
    const sale = (await sell(app, owner, { items: [{ product_id: p.id, quantity: 4 }, { product_id: s.id, quantity: 1 }, { product_id: p.id, quantity: 1 }] })).body.data;
    expect(await quantityOf(app, owner, p.id)).to.equal(5);

    const phone = aPhone();
    await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'S', last_name: 'T' } });
    await app.request('POST', '/auth/login', { body: { phone } });
    const staff = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
    const byStaff = await app.request('POST', `/sales/${sale.id}/void`, { token: staff, body: { reason: 'mistake' } });
    expect(byStaff.status).to.equal(403);

    const voided = await app.request('POST', `/sales/${sale.id}/void`, { token: owner.accessToken, body: { reason: 'customer returned it' } });
    expect(voided.status).to.equal(200);
    expect(voided.body.data).to.include({ status: 'VOIDED', void_reason: 'customer returned it' });
    expect(voided.body.data.voided_at).to.be.a('string');
    expect(await quantityOf(app, owner, p.id)).to.equal(10);
    const rows = (await app.request('GET', `/products/stock-adjustments?product_id=${p.id}&reason=SALE_VOID`, { token: owner.accessToken })).body.data.content;
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ quantity_change: 5, quantity_before: 5, quantity_after: 10 });

    const again = await app.request('POST', `/sales/${sale.id}/void`, { token: owner.accessToken, body: { reason: 'twice' } });
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('SALE_ALREADY_VOIDED');
    expect(await quantityOf(app, owner, p.id)).to.equal(10);
  });

  it('receipts: JSON by sale id and by number, Lagos local time, cashier, business; lists and filters', async () => {
    await app.request('PUT', '/businesses/me', { token: owner.accessToken, body: { address: '5 Market Rd, Aba', phone: '08031112222' } });
    const p = await aProduct(app, owner, { name: 'Sugar 500g', price: 800, quantity: 5 });
    app.clock.set(new Date('2026-11-22T23:30:00.000Z'));
    const sale = (await sell(app, owner, { items: [{ product_id: p.id, quantity: 2 }], payment_method: 'TRANSFER' })).body.data;
    const receipt = await app.request('GET', `/sales/${sale.id}/receipt`, { token: owner.accessToken });
    expect(receipt.status).to.equal(200);
    expect(receipt.body.data).to.include({ receipt_number: sale.receipt_number, date_time: '2026-11-22T23:30:00.000Z', local_date_time: '2026-11-23T00:30:00+01:00', total: 1600, payment_method: 'TRANSFER', cashier: 'Ada Obi' });
    expect(receipt.body.data.business).to.deep.equal({ name: 'Ada Stores', address: '5 Market Rd, Aba', phone: '+2348031112222' });
    expect(receipt.body.data.lines[0]).to.include({ name: 'Sugar 500g', quantity: 2, line_total: 1600 });
    const byNumber = await app.request('GET', `/sales/receipts/${sale.receipt_number}`, { token: owner.accessToken });
    expect(byNumber.body.data.sale_id).to.equal(sale.id);
    expect((await app.request('GET', '/sales/receipts/RCP-999999', { token: owner.accessToken })).status).to.equal(404);
    expect((await app.request('GET', '/sales/receipts/nonsense', { token: owner.accessToken })).status).to.equal(404);
    const list = await app.request('GET', `/sales/receipts?search=${sale.receipt_number}`, { token: owner.accessToken });
    expect(list.body.data.content.map((r: { sale_id: string }) => r.sale_id)).to.deep.equal([sale.id]);
    const transfers = await app.request('GET', '/sales?payment_method=TRANSFER', { token: owner.accessToken });
    expect(transfers.body.data.content.every((s: { payment_method: string }) => s.payment_method === 'TRANSFER')).to.equal(true);
    expect(transfers.body.data.content[0]).to.not.have.property('items');
  });

  it('idempotent: a replay returns the first sale and takes stock once', async () => {
    const p = await aProduct(app, owner, { quantity: 10 });
    const body = { items: [{ product_id: p.id, quantity: 2 }] };
    const first = await sell(app, owner, body, { 'Idempotency-Key': 'sale-abc-1' });
    const replay = await sell(app, owner, body, { 'Idempotency-Key': 'sale-abc-1' });
    expect(replay.status).to.equal(201);
    expect(replay.body).to.deep.equal(first.body);
    expect(await quantityOf(app, owner, p.id)).to.equal(8);
    const reused = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }] }, { 'Idempotency-Key': 'sale-abc-1' });
    expect(reused.status).to.equal(422);
    expect(reused.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('HTTP sales under concurrency', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const onPro = (owner: Owner) => putOnPlan(app, owner, 'PRO');

  it('25 cashiers selling the last 10 units at once sell exactly 10, with gap-free receipt numbers', async () => {
    const owner = await registerOwner(app);
    await onPro(owner);
    const p = await aProduct(app, owner, { quantity: 10 });
    const results = await Promise.all(Array.from({ length: 25 }, () => sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }] })));
    const sold = results.filter((r) => r.status === 201);
    expect(sold).to.have.length(10);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'INSUFFICIENT_STOCK')).to.equal(true);
    expect(results.filter((r) => r.status !== 201 && r.status !== 409)).to.have.length(0);
    expect(await quantityOf(app, owner, p.id)).to.equal(0);
    const numbers = sold.map((r) => Number(r.body.data.receipt_number.slice(4))).sort((a, b) => a - b);
    expect(numbers).to.deep.equal(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('two carts sharing products in opposite orders do not deadlock', async () => {
    const owner = await registerOwner(app);
    await onPro(owner);
    const a = await aProduct(app, owner, { quantity: 1000 });
    const b = await aProduct(app, owner, { quantity: 1000 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sell(app, owner, { items: i % 2 ? [{ product_id: a.id, quantity: 1 }, { product_id: b.id, quantity: 1 }] : [{ product_id: b.id, quantity: 1 }, { product_id: a.id, quantity: 1 }] }),
      ),
    );
    expect(results.map((r) => r.status)).to.deep.equal(Array(30).fill(201));
    expect(await quantityOf(app, owner, a.id)).to.equal(970);
    expect(await quantityOf(app, owner, b.id)).to.equal(970);
    const numbers = results.map((r) => Number(r.body.data.receipt_number.slice(4))).sort((x, y) => x - y);
    expect(numbers).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('Free plan: 60 sales at once in one Lagos month record exactly 50; the rest are 402 PLAN_LIMIT_EXCEEDED, voided sales count', async () => {
    const owner = await registerOwner(app);
    const p = await aProduct(app, owner, { quantity: 1000 });
    app.clock.set(new Date('2026-11-30T22:00:00.000Z')); // 23:00 on 30 November in Lagos
    const first = await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }] });
    await app.request('POST', `/sales/${first.body.data.id}/void`, { token: owner.accessToken, body: { reason: 'test' } });
    const results = await Promise.all(Array.from({ length: 60 }, () => sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }] })));
    expect(results.filter((r) => r.status === 201)).to.have.length(49);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).to.have.length(11);
    expect(refused[0]!.body.error.code).to.equal('PLAN_LIMIT_EXCEEDED');
    expect(refused[0]!.body.error.type).to.match(/payment-required$/);
    expect(await quantityOf(app, owner, p.id)).to.equal(1000 - 49);
    // one hour later it is 1 December in Lagos: a new month
    app.clock.set(new Date('2026-11-30T23:00:00.000Z'));
    expect((await sell(app, owner, { items: [{ product_id: p.id, quantity: 1 }] })).status).to.equal(201);
  });
});
