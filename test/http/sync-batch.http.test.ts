import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 18, slice 2: POST /sync/batch applies a till's queued operations one by one (docs/adr/0034).

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Op = { op_id: string; type: string; payload: Record<string, unknown> };
type Result = { op_id: string; type: string; status: string; http_status: number; data?: any; error?: any };

describe('HTTP offline sync: POST /sync/batch', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const post = (owner: Owner, path: string, body: object) => app.request('POST', path, { token: owner.accessToken, body });
  const get = async (owner: Owner, path: string) => (await app.request('GET', path, { token: owner.accessToken })).body.data;
  const batch = async (owner: Owner, operations: Op[], device_id = 'till-1') => {
    const res = await post(owner, '/sync/batch', { device_id, operations });
    expect(res.status, res.text).to.equal(200);
    return res.body.data as { applied: number; duplicates: number; rejected: number; results: Result[] };
  };
  const op = (type: string, payload: Record<string, unknown>): Op => ({ op_id: randomUUID(), type, payload });
  const product = async (owner: Owner, quantity: number, price = 1500) => (await post(owner, '/products', { name: `Item ${randomUUID().slice(0, 6)}`, price, quantity })).body.data.id as string;

  it('applies each operation as its endpoint would; a bad one is rejected with that endpoint\'s Problem and blocks nothing', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 5);
    const customer = randomUUID();
    const ops = [
      op('customer.create', { id: customer, client_created_at: '2026-11-20T09:00:00Z', name: 'Mama Chioma' }),
      op('sale.create', { id: randomUUID(), payment_method: 'CASH', amount_paid: 100, items: [{ product_id: pid, quantity: 1 }] }),
      op('sale.create', { id: randomUUID(), payment_method: 'CREDIT', customer_id: customer, items: [{ product_id: pid, quantity: 2 }] }),
      op('credit_payment.create', { customer_id: customer, id: randomUUID(), amount: 1000, payment_method: 'CASH' }),
      op('sale.create', { payment_method: 'CASH', items: [], colour: 'red' }),
      op('credit_payment.create', { customer_id: randomUUID(), amount: 1000, payment_method: 'CASH' }),
    ];
    const single = await post(owner, '/sales', ops[1]!.payload); // refused: writes nothing
    const out = await batch(owner, ops);
    expect(out.results.map((r) => [r.type, r.status, r.http_status])).to.deep.equal([
      ['customer.create', 'applied', 201],
      ['sale.create', 'rejected', 422],
      ['sale.create', 'applied', 201],
      ['credit_payment.create', 'applied', 201],
      ['sale.create', 'rejected', 400],
      ['credit_payment.create', 'rejected', 404],
    ]);
    expect([out.applied, out.duplicates, out.rejected]).to.deep.equal([3, 0, 3]);
    expect(out.results[0]!.data.id).to.equal(customer);
    // the Problem is the single endpoint's, word for word
    expect(out.results[1]!.error).to.deep.equal(single.body.error);
    expect(out.results[4]!.error.code).to.equal('VALIDATION_FAILED');
    expect(out.results[4]!.error.errors.map((e: { field: string }) => e.field)).to.include('colour');
    expect(await get(owner, `/customers/${customer}`)).to.deep.include({ credit_balance: 2000 });
  });

  it('an op_id applied once answers its first answer again; another payload under it is 422; a rejected op may be retried', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 1);
    const sale = op('sale.create', { id: randomUUID(), payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] });
    // sent before the customer it names (a till that queued them out of order): refused, then retried
    const customer = randomUUID();
    const short = op('sale.create', { id: randomUUID(), payment_method: 'CREDIT', customer_id: customer, items: [{ product_id: pid, quantity: 1 }] });
    const first = await batch(owner, [sale, short]);
    expect(first.results.map((r) => r.status)).to.deep.equal(['applied', 'rejected']);
    const again = await batch(owner, [sale, { ...sale, payload: { ...sale.payload, note: 'changed' } }]);
    expect(again.results.map((r) => [r.status, r.http_status])).to.deep.equal([['duplicate', 201], ['rejected', 422]]);
    expect(again.results[0]!.data).to.deep.equal(first.results[0]!.data);
    expect(again.results[1]!.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    // another device's op_id space is its own, but the sale's client id still finds the sale
    const other = await batch(owner, [sale], 'till-2');
    expect(other.results[0]!.status).to.equal('duplicate');
    expect(other.results[0]!.data.receipt_number).to.equal(first.results[0]!.data.receipt_number);
    // the refused one goes through once its customer has synced
    expect((await batch(owner, [op('customer.create', { id: customer, name: 'Ade' }), short])).results.map((r) => r.status)).to.deep.equal(['applied', 'applied']);
    expect((await get(owner, '/sales')).content).to.have.length(2);
  });

  it('the same batch sent twice at once: each operation is applied once, and the other answers it as duplicate (ADR 0083)', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 50);
    // no client ids: only the op_id keeps these apart from new sales
    const ops = Array.from({ length: 6 }, () => op('sale.create', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] }));
    const [a, b] = await Promise.all([batch(owner, ops), batch(owner, ops)]);
    for (let i = 0; i < ops.length; i++) {
      expect([a.results[i]!.status, b.results[i]!.status].sort(), `operation ${i}`).to.deep.equal(['applied', 'duplicate']);
      expect(a.results[i]!.data.receipt_number).to.equal(b.results[i]!.data.receipt_number);
    }
    expect((await get(owner, '/sales')).content).to.have.length(6);
    expect((await get(owner, `/products/${pid}`)).quantity).to.equal(44);
  });

  it('a synced sale and a keyed POST /sales answer their real receipt numbers, and replay them (docs/adr/0084)', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 10);
    const sale = op('sale.create', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] });
    const first = await batch(owner, [sale]);
    const keyed = await app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CARD', items: [{ product_id: pid, quantity: 1 }] }, headers: { 'Idempotency-Key': randomUUID() } });
    expect(keyed.status, keyed.text).to.equal(201);
    const numbers = [first.results[0]!.data.receipt_number, keyed.body.data.receipt_number];
    expect(numbers).to.deep.equal(['RCP-000001', 'RCP-000002']);
    expect((await batch(owner, [sale])).results[0]!.data.receipt_number).to.equal('RCP-000001');
    expect((await get(owner, `/sales/${keyed.body.data.id}`)).receipt_number).to.equal('RCP-000002');
  });

  it('checks the batch itself: 1 to 100 operations of known types (400), staff may sync, no token is 401', async () => {
    const owner = await registerOwner(app);
    const tooMany = Array.from({ length: 101 }, () => op('customer.create', { name: 'x' }));
    expect((await post(owner, '/sync/batch', { device_id: 'till-1', operations: tooMany })).status).to.equal(400);
    expect((await post(owner, '/sync/batch', { device_id: 'till-1', operations: [{ op_id: randomUUID(), type: 'product.delete', payload: {} }] })).status).to.equal(400);
    expect((await app.request('POST', '/sync/batch', { body: { device_id: 'till-1', operations: [] } })).status).to.equal(401);
  });

  it('staff sync as they sell: a staff member tied to a branch sells only there (403 WRONG_BRANCH per operation)', async () => {
    const owner = await registerOwner(app);
    const branches = (await get(owner, '/businesses/me/branches')).content as { id: string; is_default: boolean }[];
    const main = branches.find((b) => b.is_default)!.id;
    const lekki = (await post(owner, '/businesses/branches', { name: 'Lekki' })).body.data.id as string;
    const pid = await product(owner, 5);
    const phone = aPhone();
    expect((await post(owner, '/staff/invite', { phone, first_name: 'Bola', last_name: 'Ade', branch_id: lekki })).status).to.equal(201);
    await app.request('POST', '/auth/login', { body: { phone } });
    const staff = { accessToken: (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token } as Owner;
    await post(owner, '/products/stock-transfers', { from_branch_id: main, to_branch_id: lekki, items: [{ product_id: pid, quantity: 2 }] });
    const out = await batch(staff, [
      op('sale.create', { id: randomUUID(), payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] }),
      op('sale.create', { id: randomUUID(), payment_method: 'CASH', branch_id: main, items: [{ product_id: pid, quantity: 1 }] }),
    ]);
    expect(out.results.map((r) => [r.status, r.http_status, r.error?.code])).to.deep.equal([['applied', 201, undefined], ['rejected', 403, 'WRONG_BRANCH']]);
    expect(out.results[0]!.data.branch_id).to.equal(lekki);
  });
});
