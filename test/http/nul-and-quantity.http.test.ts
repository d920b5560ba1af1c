import { expect } from 'chai';
import { aPartner } from '../support/partners.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

/**
 * Issue 11 defects that answered 500: a NUL character in text (PostgreSQL text cannot hold it) and a
 * sale line of quantity 0 (a database check). Both are refused at the edge as 400.
 */
describe('HTTP NUL characters and sale quantities are refused at the edge', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof registerOwner>>;
  let productId: string;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    productId = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Garri', price: 900, quantity: 50 } })).body.data.id;
  });
  after(async () => app.close());

  const expect400 = (res: { status: number; text: string; body: { error?: { code: string } } }, what: string) => {
    expect(res.status, `${what}: ${res.text}`).to.equal(400);
    expect(res.body.error?.code, what).to.equal('VALIDATION_FAILED');
  };

  it('in a JSON body: product and customer names, register, login', async () => {
    expect400(await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Ga\u0000rri', price: 1 } }), 'product name');
    expect400(await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Bi\u0000si' } }), 'customer name');
    expect400(await app.request('POST', '/auth/register', { body: { email: 'nul@example.com', first_name: 'A\u0000', last_name: 'B', business_name: 'C' } }), 'register name');
    expect400(await app.request('POST', '/auth/register', { body: { email: 'n\u0000ul@example.com', first_name: 'A', last_name: 'B', business_name: 'C' } }), 'register e-mail');
    expect400(await app.request('POST', '/auth/login', { body: { email: 'n\u0000ul@example.com' } }), 'login e-mail');
  });

  it('in ?search= of every list', async () => {
    const lists = app.routes.filter((r) => r.method === 'get' && r.query && 'search' in ((r.query as unknown as { optional?: object }).optional ?? {}) && !r.path.includes(':'));
    expect(lists.length).to.be.greaterThan(4);
    const partnerKey = (await aPartner(app)).key; // partner lists take the partner's key
    for (const r of lists) {
      const auth = r.access !== 'public' && 'partnerScope' in r.access ? { headers: { 'x-api-key': partnerKey } } : { token: owner.accessToken };
      expect400(await app.request('GET', `${r.path}?search=a%00b`, auth), r.path);
    }
  });

  it('in a CSV cell: the file is refused, nothing imported', async () => {
    const res = await app.request('POST', '/products/import', { token: owner.accessToken, rawBody: 'sku,name,price\nNUL-1,Bad\u0000Name,100\n', headers: { 'content-type': 'text/csv' } });
    expect(res.status, res.text).to.equal(400);
    expect((await app.request('GET', '/products?search=NUL-1', { token: owner.accessToken })).body.data.content).to.deep.equal([]);
  });

  it('a sale line quantity must be a whole number from 1 to 1,000,000: 0, -1, 1.5 and 2^53 are 400, never 500', async () => {
    for (const quantity of [0, -1, 1.5, 2 ** 53, 1e300, 1_000_001]) {
      const res = await app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', items: [{ product_id: productId, quantity }] } });
      expect400(res, `quantity ${quantity}`);
      expect(res.body.error.errors[0].field).to.equal('items.0.quantity');
    }
    const ok = await app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', items: [{ product_id: productId, quantity: 1 }] } });
    expect(ok.status, ok.text).to.equal(201);
  });
});

describe('HTTP 401 answers carry WWW-Authenticate', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('Bearer with no error when the token is missing, invalid_token when it is refused', async () => {
    const missing = await app.request('GET', '/products');
    expect(missing.status).to.equal(401);
    expect(missing.headers.get('www-authenticate')).to.equal('Bearer realm="bizops"');
    const bad = await app.request('GET', '/products', { token: 'not-a-token' });
    expect(bad.status).to.equal(401);
    expect(bad.headers.get('www-authenticate')).to.equal('Bearer realm="bizops", error="invalid_token", error_description="TOKEN_INVALID"');
    const refresh = await app.request('POST', '/auth/refresh', { body: { refresh_token: 'nope' } });
    expect(refresh.status).to.equal(401);
    expect(refresh.headers.get('www-authenticate')).to.contain('error="invalid_token"');
  });
});
