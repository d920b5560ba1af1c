import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 18, slice 1: records a till makes offline carry their own UUID v4; a retry is the same record (docs/adr/0034).

type Owner = Awaited<ReturnType<typeof registerOwner>>;

describe('HTTP client ids: idempotent creates of offline records', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const post = (owner: Owner, path: string, body: object) => app.request('POST', path, { token: owner.accessToken, body });
  const product = async (owner: Owner, quantity: number) => (await post(owner, '/products', { name: 'Peak Milk', price: 1500, quantity })).body.data.id as string;
  const at = '2026-11-20T09:15:00.000Z';

  it('a sale sent twice with its client id is one sale, one stock move, one receipt number', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 10);
    const id = randomUUID();
    const body = { id, client_created_at: at, payment_method: 'CASH', items: [{ product_id: pid, quantity: 2 }] };
    const first = await post(owner, '/sales', body);
    expect(first.status, first.text).to.equal(201);
    expect(first.body.data.id).to.equal(id);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    // same content, keys in another order and the time in another zone: the same record
    const again = await post(owner, '/sales', { items: [{ quantity: 2, product_id: pid }], payment_method: 'CASH', client_created_at: '2026-11-20T10:15:00+01:00', id });
    expect(again.status, again.text).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.data).to.deep.equal(first.body.data);
    const stock = (await app.request('GET', `/products/${pid}`, { token: owner.accessToken })).body.data.quantity;
    expect(stock).to.equal(8);
    const sales = (await app.request('GET', '/sales', { token: owner.accessToken })).body.data.content;
    expect(sales).to.have.length(1);

    const other = await post(owner, '/sales', { ...body, items: [{ product_id: pid, quantity: 3 }] });
    expect(other.status, other.text).to.equal(409);
    expect(other.body.error.code).to.equal('CLIENT_ID_CONFLICT');
  });

  it('a refused create keeps nothing: the same id succeeds once the cause is gone', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 1);
    const id = randomUUID();
    const body = { id, payment_method: 'CASH', items: [{ product_id: pid, quantity: 2 }] };
    expect((await post(owner, '/sales', body)).body.error.code).to.equal('INSUFFICIENT_STOCK');
    await post(owner, '/products/stock-adjustment', { product_id: pid, quantity_change: 5, reason: 'RESTOCK' });
    const sold = await post(owner, '/sales', body);
    expect(sold.status, sold.text).to.equal(201);
    expect(sold.body.data.id).to.equal(id);
  });

  it('customers, credit payments, expenses and stock adjustments replay by client id and refuse other content', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 10);
    const customer = { id: randomUUID(), client_created_at: at, name: 'Mama Chioma', phone: '+2348035556666' };
    const c1 = await post(owner, '/customers', customer);
    expect(c1.status, c1.text).to.equal(201);
    expect(c1.body.data.id).to.equal(customer.id);
    const c2 = await post(owner, '/customers', customer);
    expect([c2.status, c2.headers.get('idempotent-replayed')]).to.deep.equal([201, 'true']);
    expect(c2.body.data).to.deep.equal(c1.body.data);
    expect((await post(owner, '/customers', { ...customer, name: 'Mama Ngozi' })).body.error.code).to.equal('CLIENT_ID_CONFLICT');

    const credit = await post(owner, '/sales', { payment_method: 'CREDIT', customer_id: customer.id, items: [{ product_id: pid, quantity: 2 }] });
    expect(credit.status, credit.text).to.equal(201);
    const payment = { id: randomUUID(), amount: 1000, payment_method: 'CASH' };
    const p1 = await post(owner, `/customers/${customer.id}/credit/payment`, payment);
    expect(p1.status, p1.text).to.equal(201);
    const p2 = await post(owner, `/customers/${customer.id}/credit/payment`, payment);
    expect([p2.status, p2.headers.get('idempotent-replayed')]).to.deep.equal([201, 'true']);
    expect(p2.body.data).to.deep.equal(p1.body.data);
    const balance = (await app.request('GET', `/customers/${customer.id}`, { token: owner.accessToken })).body.data.credit_balance;
    expect(balance).to.equal(2000);

    const categories = (await app.request('GET', '/expenses/categories', { token: owner.accessToken })).body.data.content;
    const expense = { id: randomUUID(), category_id: categories[0].id, amount: 15000, description: 'Diesel', payment_method: 'CASH' };
    const e1 = await post(owner, '/expenses', expense);
    expect(e1.status, e1.text).to.equal(201);
    const e2 = await post(owner, '/expenses', expense);
    expect([e2.status, e2.headers.get('idempotent-replayed')]).to.deep.equal([201, 'true']);
    expect((await post(owner, '/expenses', { ...expense, amount: 16000 })).body.error.code).to.equal('CLIENT_ID_CONFLICT');

    const adjustment = { id: randomUUID(), product_id: pid, quantity_change: -1, reason: 'DAMAGE' };
    const a1 = await post(owner, '/products/stock-adjustment', adjustment);
    expect(a1.status, a1.text).to.equal(201);
    const a2 = await post(owner, '/products/stock-adjustment', adjustment);
    expect([a2.status, a2.headers.get('idempotent-replayed')]).to.deep.equal([201, 'true']);
    expect(a2.body.data).to.deep.equal(a1.body.data);
    expect((await app.request('GET', `/products/${pid}`, { token: owner.accessToken })).body.data.quantity).to.equal(7);

    // an id is one record's in its business: the customer's id cannot name an expense; another business
    // has ids of its own, so there the same id is a new record (docs/adr/0039)
    expect((await post(owner, '/expenses', { ...expense, id: customer.id })).body.error.code).to.equal('CLIENT_ID_CONFLICT');
    const rival = await registerOwner(app);
    expect((await post(rival, '/customers', customer)).status).to.equal(201);
    // a server-made id is taken too
    expect((await post(owner, '/customers', { id: credit.body.data.id, name: 'Ade' })).status).to.equal(201);
    expect((await post(owner, '/expenses', { ...expense, id: credit.body.data.id })).body.error.code).to.equal('CLIENT_ID_CONFLICT');
  });

  it('the same sale sent twice at once is made once: the second waits for the first and answers it', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 10);
    const body = { id: randomUUID(), payment_method: 'CASH', items: [{ product_id: pid, quantity: 3 }] };
    const both = await Promise.all([post(owner, '/sales', body), post(owner, '/sales', body)]);
    expect(both.map((r) => r.status)).to.deep.equal([201, 201]);
    expect(both.map((r) => r.headers.get('idempotent-replayed')).sort()).to.deep.equal([null, 'true'].sort());
    expect(both[0]!.body.data).to.deep.equal(both[1]!.body.data);
    expect((await app.request('GET', `/products/${pid}`, { token: owner.accessToken })).body.data.quantity).to.equal(7);
  });

  it("another business's ids are no oracle: a create under another business's customer, sale, payment or expense id answers as under a new id (201), and each business keeps its own record (issue 31)", async () => {
    const a = await registerOwner(app);
    const b = await registerOwner(app);
    const get = async (owner: Owner, path: string) => (await app.request('GET', path, { token: owner.accessToken })).body.data;
    const pa = await product(a, 10);
    const pb = await product(b, 10);
    const category = (await get(a, '/expenses/categories')).content[0].id as string;
    const categoryB = (await get(b, '/expenses/categories')).content[0].id as string;
    // A's records: a customer the server numbered, one the device numbered, a credit sale, a payment, an expense
    const serverCustomer = (await post(a, '/customers', { name: 'Mama Chioma' })).body.data.id as string;
    const clientCustomer = randomUUID();
    expect((await post(a, '/customers', { id: clientCustomer, name: 'Baba Tunde' })).status).to.equal(201);
    const sale = (await post(a, '/sales', { payment_method: 'CREDIT', customer_id: serverCustomer, items: [{ product_id: pa, quantity: 2 }] })).body.data.id as string;
    const cashSale = (await post(a, '/sales', { payment_method: 'CASH', items: [{ product_id: pa, quantity: 1 }] })).body.data.id as string;
    const payment = randomUUID();
    expect((await post(a, `/customers/${serverCustomer}/credit/payment`, { id: payment, amount: 1000, payment_method: 'CASH' })).status).to.equal(201);
    const expense = (await post(a, '/expenses', { category_id: category, amount: 500, description: 'Diesel', payment_method: 'CASH' })).body.data.id as string;

    // B sends A's ids as its own new records: each answers as a random id does
    for (const id of [serverCustomer, clientCustomer, cashSale, randomUUID()]) {
      const res = await post(b, '/customers', { id, name: 'Bola' });
      expect([res.status, res.body.data?.id, res.headers.get('idempotent-replayed')], res.text).to.deep.equal([201, id, null]);
    }
    const synced = await post(b, '/sync/batch', { device_id: 'till-b', operations: [{ op_id: randomUUID(), type: 'sale.create', payload: { id: sale, payment_method: 'CREDIT', customer_id: serverCustomer, items: [{ product_id: pb, quantity: 1 }] } }] });
    expect(synced.body.data.results[0], synced.text).to.deep.include({ status: 'applied', http_status: 201 });
    const paid = await post(b, `/customers/${serverCustomer}/credit/payment`, { id: payment, amount: 1500, payment_method: 'TRANSFER' });
    expect([paid.status, paid.body.data?.id], paid.text).to.deep.equal([201, payment]);
    const spent = await post(b, '/expenses', { id: expense, category_id: categoryB, amount: 700, description: 'Rent', payment_method: 'CASH' });
    expect([spent.status, spent.body.data?.id], spent.text).to.deep.equal([201, expense]);

    // each business reads only its own record under the id
    expect((await get(a, `/customers/${serverCustomer}`)).name).to.equal('Mama Chioma');
    expect((await get(b, `/customers/${serverCustomer}`)).name).to.equal('Bola');
    const saleOfA = await get(a, `/sales/${sale}`);
    const saleOfB = await get(b, `/sales/${sale}`);
    expect(saleOfA.items.map((i: { product_id: string }) => i.product_id)).to.deep.equal([pa]);
    expect(saleOfB.items.map((i: { product_id: string }) => i.product_id)).to.deep.equal([pb]);
    expect((await get(a, `/customers/${serverCustomer}`)).credit_balance).to.equal(2000);
    expect((await get(b, `/customers/${serverCustomer}`)).credit_balance).to.equal(0);
    expect((await get(a, '/customers')).content).to.have.length(2);
    expect((await get(a, '/sales')).content).to.have.length(2);
  });

  it('a client id must be a UUID v4 and client_created_at a date-time with a zone (400)', async () => {
    const owner = await registerOwner(app);
    const bad = await post(owner, '/customers', { id: '3f1c2a4e-8b7d-1c6e-9a1b-2d3e4f5a6b7c', client_created_at: '2026-11-20 09:15', name: 'Ade' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal(['client_created_at', 'id']);
  });
});
