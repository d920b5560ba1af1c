import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 35, customer invoices (docs/adr/0072), over HTTP on the real app.

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Json = Record<string, any>;

describe('HTTP invoices', function () {
  this.timeout(180_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const product = async (owner: Owner, body: Json) => {
    const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk 400g', price: 1500, quantity: 100, ...body } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };
  const customer = async (owner: Owner, name = 'Zenith Catering Ltd') => {
    const res = await app.request('POST', '/customers', { token: owner.accessToken, body: { name, phone: aPhone() } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };
  const quantityOf = async (owner: Owner, id: string) => (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data.quantity as number;
  const create = (owner: Owner, body: Json, headers: Record<string, string> = {}) => app.request('POST', '/invoices', { token: owner.accessToken, body: { type: 'INVOICE', ...body }, headers });
  const draft = async (owner: Owner, body: Json) => {
    const res = await create(owner, body);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as Json;
  };
  const post = (owner: Owner, path: string, body?: Json, headers: Record<string, string> = {}) => app.request('POST', path, { token: owner.accessToken, body, headers });
  const send = async (owner: Owner, id: string) => {
    const res = await post(owner, `/invoices/${id}/send`);
    expect(res.status, res.text).to.equal(200);
    return res.body.data as Json;
  };
  const pay = (owner: Owner, id: string, body: Json) => post(owner, `/invoices/${id}/payments`, { method: 'TRANSFER', ...body });

  it('draft -> send -> two part-payments -> PAID: numbers, stock and money to the kobo', async () => {
    const owner = await registerOwner(app);
    const rice = await product(owner, { name: 'Rice 50kg', price: 52_000.5, cost_price: 45_000, quantity: 40 });
    const chika = await customer(owner);
    const d = await draft(owner, {
      customer_id: chika,
      issue_date: '2026-11-20',
      payment_terms_days: 14,
      lines: [
        { product_id: rice, quantity: 3, discount: 0.5 },
        { description: 'Delivery fee', quantity: 1, unit_price: 2500 },
      ],
      notes: 'Pay into GTB',
    });
    // 3 x 52,000.50 - 0.50 = 156,001.00; + 2,500.00 = 158,501.00; no VAT (not registered)
    expect(d).to.include({ status: 'DRAFT', number: null, issue_date: '2026-11-20', due_date: '2026-12-04', subtotal: 158_501, total: 158_501, vat_total: 0, discount_total: 0.5, amount_paid: 0, balance_due: 158_501 });
    expect(d.lines.map((l: Json) => [l.position, l.product_id, l.description, l.quantity, l.unit_price, l.discount, l.line_total])).to.deep.equal([
      [0, rice, 'Rice 50kg', 3, 52_000.5, 0.5, 156_001],
      [1, null, 'Delivery fee', 1, 2500, 0, 2500],
    ]);
    expect(d.customer).to.include({ id: chika, name: 'Zenith Catering Ltd' });
    expect(d.share_url).to.match(/\/api\/v1\/public\/invoices\/[A-Za-z0-9]{32}$/);
    expect(await quantityOf(owner, rice)).to.equal(40); // a draft takes nothing

    const sent = await send(owner, d.id);
    expect(sent).to.include({ status: 'SENT', number: 'INV-000001' });
    expect(await quantityOf(owner, rice)).to.equal(37);
    const again = await post(owner, `/invoices/${d.id}/send`);
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('INVOICE_NOT_DRAFT');

    const first = await pay(owner, d.id, { amount: 100_000.01, reference: 'GTB-1' });
    expect(first.status, first.text).to.equal(201);
    expect(first.body.data).to.include({ status: 'PARTIALLY_PAID', amount_paid: 100_000.01, balance_due: 58_500.99 });
    const over = await pay(owner, d.id, { amount: 58_501 });
    expect(over.status).to.equal(422);
    expect(over.body.error.code).to.equal('AMOUNT_EXCEEDS_BALANCE');
    const second = await pay(owner, d.id, { amount: 58_500.99, method: 'CASH' });
    expect(second.status, second.text).to.equal(201);
    expect(second.body.data).to.include({ status: 'PAID', amount_paid: 158_501, balance_due: 0, is_overdue: false });
    expect(second.body.data.payments.map((p: Json) => [p.amount, p.method, p.reference])).to.deep.equal([
      [100_000.01, 'TRANSFER', 'GTB-1'],
      [58_500.99, 'CASH', null],
    ]);
    const paid = await pay(owner, d.id, { amount: 1 });
    expect(paid.status).to.equal(409);
    expect(paid.body.error.code).to.equal('INVOICE_NOT_PAYABLE');
    // a second invoice takes the next number; cancelling a paid-into one is refused
    const d2 = await draft(owner, { customer_id: chika, lines: [{ description: 'Consulting', quantity: 2, unit_price: 10_000 }] });
    expect((await send(owner, d2.id)).number).to.equal('INV-000002');
    const cancel = await post(owner, `/invoices/${d.id}/cancel`);
    expect(cancel.status).to.equal(409);
    expect(cancel.body.error.code).to.equal('INVOICE_HAS_PAYMENTS');
    // edits and deletes of sent invoices are refused
    const put = await app.request('PUT', `/invoices/${d.id}`, { token: owner.accessToken, body: { customer_id: chika, lines: [{ description: 'x', quantity: 1, unit_price: 1 }] } });
    expect(put.status).to.equal(409);
    expect(put.body.error.code).to.equal('INVOICE_NOT_DRAFT');
    const del = await app.request('DELETE', `/invoices/${d.id}`, { token: owner.accessToken });
    expect(del.status).to.equal(409);
  });

  it('a tax invoice needs VAT registration and a TIN; VAT per line with exclusive prices; an exempt product and ad-hoc line carry 0', async () => {
    const owner = await registerOwner(app);
    const c = await customer(owner);
    const refused = await create(owner, { type: 'TAX_INVOICE', customer_id: c, lines: [{ description: 'Printing', quantity: 1, unit_price: 1000 }] });
    expect(refused.status).to.equal(422);
    expect(refused.body.error.code).to.equal('VAT_NOT_REGISTERED');
    const settings = await app.request('PUT', '/businesses/me', {
      token: owner.accessToken,
      body: { vat_registered: true, tin: '12345678-0001', prices_include_vat: false, payment_terms_days: 7, bank_name: 'GTBank', account_number: '0123456789', account_name: 'Ada Stores' },
    });
    expect(settings.status, settings.text).to.equal(200);
    expect(settings.body.data).to.include({ payment_terms_days: 7, bank_name: 'GTBank', account_number: '0123456789', account_name: 'Ada Stores', invoice_footer: null });
    for (const bad of [{ account_number: '12345' }, { payment_terms_days: 366 }, { payment_terms_days: -1 }, { payment_terms_days: 1.5 }]) {
      const res = await app.request('PUT', '/businesses/me', { token: owner.accessToken, body: bad });
      expect(res.status, JSON.stringify(bad)).to.equal(400);
    }
    const beans = await product(owner, { name: 'Beans', price: 1000, vat_exempt: true });
    const paper = await product(owner, { name: 'A4 paper', price: 3333.33 });
    const d = await draft(owner, {
      type: 'TAX_INVOICE',
      customer_id: c,
      issue_date: '2026-11-20',
      lines: [
        { product_id: paper, quantity: 3 },
        { product_id: beans, quantity: 2 },
        { description: 'Binding', quantity: 1, unit_price: 333.33 },
        { description: 'Delivery', quantity: 1, unit_price: 500, vat_exempt: true },
      ],
    });
    // paper 9,999.99 x 7.5% = 749.99925 -> 750.00; beans 0; binding 333.33 x 7.5% = 24.99975 -> 25.00; delivery 0
    expect(d.lines.map((l: Json) => [l.line_total, l.vat_rate, l.vat_amount])).to.deep.equal([
      [9999.99, 7.5, 750],
      [2000, 0, 0],
      [333.33, 7.5, 25],
      [500, 0, 0],
    ]);
    // lines 12,833.32 + VAT 775.00 = 13,608.32
    expect(d).to.include({ vat_total: 775, subtotal: 12_833.32, total: 13_608.32, due_date: '2026-11-27', payment_terms_days: 7 });
    expect((await send(owner, d.id)).number).to.equal('INV-000001');
  });

  it('a proforma takes no stock and no payment, and converts to an invoice draft; a cancel returns the stock and kills nothing else', async () => {
    const owner = await registerOwner(app);
    const c = await customer(owner);
    const oil = await product(owner, { name: 'Palm oil', price: 2000, quantity: 10 });
    const p = await draft(owner, { type: 'PROFORMA', customer_id: c, lines: [{ product_id: oil, quantity: 4 }] });
    const sentP = await send(owner, p.id);
    expect(sentP.number).to.equal('PRF-000001');
    expect(await quantityOf(owner, oil)).to.equal(10);
    const payP = await pay(owner, p.id, { amount: 1 });
    expect(payP.status).to.equal(409);
    expect(payP.body.error.code).to.equal('INVOICE_NOT_PAYABLE');
    const payDraft = await pay(owner, (await draft(owner, { customer_id: c, lines: [{ product_id: oil, quantity: 1 }] })).id, { amount: 1 });
    expect(payDraft.body.error.code).to.equal('INVOICE_NOT_PAYABLE');
    const converted = await post(owner, `/invoices/${p.id}/convert`);
    expect(converted.status, converted.text).to.equal(201);
    expect(converted.body.data).to.include({ type: 'INVOICE', status: 'DRAFT', number: null, total: 8000, converted_from: p.id });
    const inv = await send(owner, converted.body.data.id);
    expect(inv.number).to.equal('INV-000001');
    expect(await quantityOf(owner, oil)).to.equal(6);
    const cancelled = await post(owner, `/invoices/${inv.id}/cancel`);
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.data).to.include({ status: 'CANCELLED', share_url: null });
    expect(await quantityOf(owner, oil)).to.equal(10);
    const twice = await post(owner, `/invoices/${inv.id}/cancel`);
    expect(twice.body.error.code).to.equal('INVOICE_WRONG_STATE');
    const movements = (await app.request('GET', `/products/stock-adjustments?product_id=${oil}`, { token: owner.accessToken })).body.data;
    expect(movements.content.map((m: Json) => m.reason).sort()).to.include.members(['INVOICE', 'INVOICE_CANCEL']);
  });

  it('not enough stock: 409 INSUFFICIENT_STOCK naming the product and branch, nothing written (no number taken)', async () => {
    const owner = await registerOwner(app);
    const c = await customer(owner);
    const a = await product(owner, { name: 'Cement', price: 5000, quantity: 5 });
    const b = await product(owner, { name: 'Sand', price: 100, quantity: 100 });
    const d = await draft(owner, { customer_id: c, lines: [{ product_id: b, quantity: 10 }, { product_id: a, quantity: 6 }] });
    const res = await post(owner, `/invoices/${d.id}/send`);
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('INSUFFICIENT_STOCK');
    expect(res.body.error.detail).to.contain('Cement').and.to.contain('Main');
    expect(res.body.error.errors).to.deep.equal([{ field: 'lines.1.quantity', message: res.body.error.errors[0].message }]);
    expect(await quantityOf(owner, b)).to.equal(100);
    expect((await app.request('GET', `/invoices/${d.id}`, { token: owner.accessToken })).body.data.status).to.equal('DRAFT');
    const ok = await draft(owner, { customer_id: c, lines: [{ product_id: a, quantity: 5 }] });
    expect((await send(owner, ok.id)).number).to.equal('INV-000001');
  });

  it('two concurrent sends: one wins, stock taken once; two concurrent payments that would overpay: one wins', async () => {
    const owner = await registerOwner(app);
    const c = await customer(owner);
    const a = await product(owner, { name: 'Tiles', price: 1000, quantity: 50 });
    const d = await draft(owner, { customer_id: c, lines: [{ product_id: a, quantity: 10 }] });
    const sends = await Promise.all([post(owner, `/invoices/${d.id}/send`), post(owner, `/invoices/${d.id}/send`)]);
    expect(sends.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    expect(await quantityOf(owner, a)).to.equal(40);
    const pays = await Promise.all([pay(owner, d.id, { amount: 6000 }), pay(owner, d.id, { amount: 6000 })]);
    expect(pays.map((r) => r.status).sort()).to.deep.equal([201, 422]);
    expect(pays.find((r) => r.status === 422)!.body.error.code).to.equal('AMOUNT_EXCEEDS_BALANCE');
    const after = (await app.request('GET', `/invoices/${d.id}`, { token: owner.accessToken })).body.data;
    expect(after).to.include({ amount_paid: 6000, balance_due: 4000, status: 'PARTIALLY_PAID' });
  });

  it('bounds: 0, -1, a fraction and a huge value on every number; Idempotency-Key replays a create', async () => {
    const owner = await registerOwner(app);
    const c = await customer(owner);
    const line = { description: 'Item', quantity: 1, unit_price: 100 };
    const cases: [Json, number][] = [
      [{ lines: [{ ...line, quantity: 0 }] }, 400],
      [{ lines: [{ ...line, quantity: -1 }] }, 400],
      [{ lines: [{ ...line, quantity: 1.5 }] }, 400],
      [{ lines: [{ ...line, quantity: 1e12 }] }, 400],
      [{ lines: [{ ...line, unit_price: -1 }] }, 422],
      [{ lines: [{ ...line, unit_price: 0.001 }] }, 400],
      [{ lines: [{ ...line, unit_price: 1e13 }] }, 400],
      [{ lines: [{ ...line, discount: -1 }] }, 422],
      [{ lines: [{ ...line, discount: 100.01 }] }, 422],
      [{ lines: [{ ...line, quantity: 1_000_000, unit_price: 999_999_999 }] }, 422],
      [{ payment_terms_days: -1, lines: [line] }, 400],
      [{ payment_terms_days: 366, lines: [line] }, 400],
      [{ payment_terms_days: 0.5, lines: [line] }, 400],
      [{ lines: [] }, 400],
      [{ lines: [{ quantity: 1 }] }, 422],
    ];
    for (const [body, status] of cases) {
      const res = await create(owner, { customer_id: c, ...body });
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).to.equal(status);
    }
    const zeroTerms = await draft(owner, { customer_id: c, issue_date: '2026-11-20', payment_terms_days: 0, lines: [line] });
    expect(zeroTerms.due_date).to.equal('2026-11-20');
    const sent = await send(owner, zeroTerms.id);
    for (const [amount, status] of [[0, 422], [-1, 422], [0.001, 400], [1e13, 400], [100.01, 422]] as const) {
      const res = await pay(owner, sent.id, { amount });
      expect(res.status, `amount ${amount}: ${res.text}`).to.equal(status);
    }
    expect((await pay(owner, sent.id, { amount: 1, method: 'ONLINE' })).status).to.equal(400);
    const key = { 'Idempotency-Key': `inv-${Date.now()}` };
    const one = await create(owner, { customer_id: c, lines: [line] }, key);
    const two = await create(owner, { customer_id: c, lines: [line] }, key);
    expect(one.status).to.equal(201);
    expect(two.body.data.id).to.equal(one.body.data.id);
    const unknown = await create(owner, { customer_id: c, lines: [{ product_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', quantity: 1 }] });
    expect(unknown.body.error.code).to.equal('UNKNOWN_PRODUCT');
    const noCustomer = await create(owner, { customer_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', lines: [line] });
    expect(noCustomer.body.error.code).to.equal('UNKNOWN_CUSTOMER');
  });

  it("another business's invoice is 404 everywhere; lists filter and search", async () => {
    const owner = await registerOwner(app);
    const other = await registerOwner(app);
    const c = await customer(owner, 'Kano Printers');
    const d = await draft(owner, { customer_id: c, issue_date: '2026-01-05', payment_terms_days: 1, lines: [{ description: 'Flyers', quantity: 100, unit_price: 50 }] });
    await send(owner, d.id);
    const d2 = await draft(owner, { customer_id: c, lines: [{ description: 'Cards', quantity: 1, unit_price: 50 }] });
    for (const [method, path, body] of [
      ['GET', `/invoices/${d.id}`, undefined],
      ['PUT', `/invoices/${d2.id}`, { customer_id: c, lines: [{ description: 'x', quantity: 1, unit_price: 1 }] }],
      ['DELETE', `/invoices/${d2.id}`, undefined],
      ['POST', `/invoices/${d2.id}/send`, undefined],
      ['POST', `/invoices/${d.id}/cancel`, undefined],
      ['POST', `/invoices/${d.id}/convert`, undefined],
      ['POST', `/invoices/${d.id}/payments`, { amount: 1, method: 'CASH' }],
    ] as const) {
      const res = await app.request(method, path, { token: other.accessToken, body });
      expect(res.status, `${method} ${path}`).to.equal(404);
    }
    expect((await app.request('GET', '/invoices', { token: other.accessToken })).body.data.content).to.deep.equal([]);
    const list = async (q: string) => (await app.request('GET', `/invoices?${q}`, { token: owner.accessToken })).body.data.content.map((x: Json) => x.id);
    expect(await list('status=DRAFT')).to.deep.equal([d2.id]);
    expect(await list('overdue=true')).to.deep.equal([d.id]);
    expect(await list('search=INV-000001')).to.deep.equal([d.id]);
    expect(await list('search=kano')).to.have.members([d.id, d2.id]);
    expect(await list('start_date=2026-01-05&end_date=2026-01-05')).to.deep.equal([d.id]);
    expect((await app.request('GET', `/invoices/${d.id}`, { token: owner.accessToken })).body.data.is_overdue).to.equal(true);
    const del = await app.request('DELETE', `/invoices/${d2.id}`, { token: owner.accessToken });
    expect(del.status).to.equal(200);
    expect((await app.request('GET', `/invoices/${d2.id}`, { token: owner.accessToken })).status).to.equal(404);
  });
});
