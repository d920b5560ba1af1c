import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 18, the pull side: GET /sync/changes gives a till what changed since its cursor (docs/offline-sync.md).

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Change = { type: string; id: string; deleted: boolean; data?: any };

describe('HTTP offline sync: GET /sync/changes', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const call = async (owner: Owner, method: string, path: string, body?: object) => {
    const res = await app.request(method, path, { token: owner.accessToken, ...(body ? { body } : {}) });
    expect(res.status, `${method} ${path}: ${res.text}`).to.be.within(200, 299);
    return res.body.data;
  };
  /** One whole pull, page by page. */
  const pull = async (owner: Owner, since?: string, limit = 2) => {
    const changes: Change[] = [];
    let cursor = since;
    let pages = 0;
    for (;;) {
      const page = await call(owner, 'GET', `/sync/changes?limit=${limit}${cursor ? `&since=${cursor}` : ''}`);
      changes.push(...page.changes);
      cursor = page.cursor;
      pages++;
      if (!page.has_more) return { changes, cursor: cursor!, pages };
    }
  };
  const find = (changes: Change[], type: string, id: string) => changes.filter((c) => c.type === type && c.id === id);

  it('a till pulls everything, then nothing, then exactly an online price change, a stock move, a payment and a void', async () => {
    const owner = await registerOwner(app);
    const product = await call(owner, 'POST', '/products', { name: 'Peak Milk 400g', price: 1500, quantity: 10 });
    const customer = await call(owner, 'POST', '/customers', { name: 'Mama Chioma', credit_limit: 50_000 });
    const credit = await call(owner, 'POST', '/sales', { payment_method: 'CREDIT', customer_id: customer.id, items: [{ product_id: product.id, quantity: 2 }] });
    const cash = await call(owner, 'POST', '/sales', { payment_method: 'CASH', items: [{ product_id: product.id, quantity: 1 }] });

    const first = await pull(owner);
    expect(first.pages).to.be.greaterThan(1);
    expect(find(first.changes, 'product', product.id).at(-1)!.data).to.deep.include({ name: 'Peak Milk 400g', price: 1500, vat_exempt: false });
    const stock = first.changes.filter((c) => c.type === 'stock');
    expect(stock.at(-1)!.data).to.deep.include({ product_id: product.id, quantity: 7 });
    expect(find(first.changes, 'customer', customer.id).at(-1)!.data).to.deep.include({ credit_balance: 3000, credit_limit: 50_000 });
    expect(first.changes.filter((c) => c.type === 'sale')).to.deep.equal([]);

    const quiet = await call(owner, 'GET', `/sync/changes?since=${first.cursor}`);
    expect(quiet).to.deep.equal({ changes: [], cursor: first.cursor, has_more: false });

    await call(owner, 'PUT', `/products/${product.id}`, { price: 1600, vat_exempt: true }); // a till prices VAT offline: it hears of the exemption
    await call(owner, 'POST', '/products/stock-adjustment', { product_id: product.id, quantity_change: 5, reason: 'RESTOCK' });
    await call(owner, 'POST', `/customers/${customer.id}/credit/payment`, { amount: 1000, payment_method: 'CASH' });
    await call(owner, 'POST', `/sales/${cash.id}/void`, { reason: 'rang up twice' });
    const next = await pull(owner, first.cursor);
    expect(find(next.changes, 'product', product.id).at(-1)!.data).to.deep.include({ price: 1600, vat_exempt: true });
    // the void put its unit back: 7 + 5 + 1
    expect(next.changes.filter((c) => c.type === 'stock').at(-1)!.data.quantity).to.equal(13);
    expect(find(next.changes, 'customer', customer.id).at(-1)!.data.credit_balance).to.equal(2000);
    expect(find(next.changes, 'sale', cash.id)).to.deep.equal([
      { type: 'sale', id: cash.id, deleted: false, data: { id: cash.id, receipt_number: cash.receipt_number, status: 'VOIDED', voided_at: find(next.changes, 'sale', cash.id)[0]!.data.voided_at } },
    ]);
    expect(find(next.changes, 'sale', credit.id)).to.deep.equal([]);

    await call(owner, 'DELETE', `/products/${product.id}`);
    const archived = await pull(owner, next.cursor);
    expect(find(archived.changes, 'product', product.id)).to.deep.equal([{ type: 'product', id: product.id, deleted: true }]);
  });

  it("a staff member with a branch pulls that branch's stock; the owner every branch's", async () => {
    const owner = await registerOwner(app);
    const branches = (await call(owner, 'GET', '/businesses/me/branches')).content as { id: string; is_default: boolean }[];
    const main = branches.find((b) => b.is_default)!.id;
    const lekki = (await call(owner, 'POST', '/businesses/branches', { name: 'Lekki' })).id as string;
    const product = await call(owner, 'POST', '/products', { name: 'Peak Milk 400g', price: 1500, quantity: 10 });
    await call(owner, 'POST', '/products/stock-transfers', { from_branch_id: main, to_branch_id: lekki, items: [{ product_id: product.id, quantity: 4 }] });
    const phone = aPhone();
    expect((await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade', branch_id: lekki } })).status).to.equal(201);
    await app.request('POST', '/auth/login', { body: { phone } });
    const staff = { accessToken: (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token } as Owner;
    const stock = async (who: Owner) => Object.fromEntries((await pull(who, undefined, 500)).changes.filter((c) => c.type === 'stock').map((c) => [c.data.branch_id, c.data.quantity]));
    expect(await stock(owner)).to.deep.equal({ [main]: 6, [lekki]: 4 });
    expect(await stock(staff)).to.deep.equal({ [lekki]: 4 });
  });

  it('refuses a cursor it did not make and a limit out of 1..500 (400)', async () => {
    const owner = await registerOwner(app);
    const made = (await call(owner, 'GET', '/sync/changes')).cursor as string;
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    // not base64url, not ours, a version that is no number, a snapshot PostgreSQL would refuse (xmin after xmax, an id outside), a position without its pull
    for (const since of ['not a cursor!', 'AAAA', forged('1|12:12:|x|||'), forged('1|5:3:||||'), forged('1|3:5:7||||'), forged(`1|3:9:4||9|product|${'0'.repeat(36)}`), made.slice(0, -2), 'x'.repeat(2001)]) {
      const res = await app.request('GET', `/sync/changes?since=${encodeURIComponent(since)}`, { token: owner.accessToken });
      expect(res.status, since).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_FAILED');
    }
    for (const limit of ['0', '-1', '1.5', '501', '1e3']) {
      expect((await app.request('GET', `/sync/changes?limit=${limit}`, { token: owner.accessToken })).status, limit).to.equal(400);
    }
    expect((await app.request('GET', '/sync/changes?limit=500', { token: owner.accessToken })).status).to.equal(200);
  });

  it('refuses a well-formed cursor ahead of the server (400 VALIDATION_FAILED), where it answered "nothing new" for ever (issue 32)', async () => {
    const owner = await registerOwner(app);
    const made = Buffer.from((await call(owner, 'GET', '/sync/changes')).cursor as string, 'base64url').toString('utf8');
    expect(made).to.match(/^1\|\d+:\d+:[\d,]*\|\|\|\|$/);
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    const far = '900000000000';
    // a snapshot past every transaction given out, a pull's horizon past it, a position (row) past it; each a snapshot PostgreSQL accepts
    for (const cursor of [`1|${far}:${far}:||||`, `1|1:1:|${far}:${far}:|1|product|${'0'.repeat(36)}`, `1|1:1:|2:2:|${far}|product|${'0'.repeat(36)}`]) {
      const res = await app.request('GET', `/sync/changes?since=${forged(cursor)}`, { token: owner.accessToken });
      expect(res.status, `${cursor}: ${res.text}`).to.equal(400);
      expect(res.body.error).to.include({ code: 'VALIDATION_FAILED', status: 400 });
      expect(res.body.error.errors).to.deep.equal([{ field: 'since', message: 'is not a cursor of GET /sync/changes' }]);
      expect(res.body.error.detail).to.include('pull again without it');
    }
    // the server's own cursor, and one a little behind it, still pull
    expect((await app.request('GET', `/sync/changes?since=${forged(made)}`, { token: owner.accessToken })).status).to.equal(200);
    expect((await app.request('GET', `/sync/changes?since=${forged('1|1:1:||||')}`, { token: owner.accessToken })).status).to.equal(200);
  });
});
