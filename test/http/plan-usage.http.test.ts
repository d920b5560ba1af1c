import { expect } from 'chai';
import { createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

/** Issue 11: plan usage where a client can show it, before the 402 comes. */
describe('HTTP plan usage', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const sellOne = async (token: string, productId: string) =>
    app.request('POST', '/sales', { token, body: { payment_method: 'CASH', items: [{ product_id: productId, quantity: 1 }] } });

  it('on FREE: POST /sales answers Plan-Sales-Limit and Plan-Sales-Remaining, and GET /businesses/me the month so far', async () => {
    const owner = await registerOwner(app);
    const product = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Bread', price: 500, quantity: 100 } })).body.data.id as string;
    const before = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data;
    expect(before.plan_usage).to.include({ monthly_sales_limit: 50, sales_this_month: 0, sales_remaining: 50 });
    expect(Date.parse(before.plan_usage.period_start)).to.be.below(Date.parse(before.plan_usage.period_end));
    for (let i = 1; i <= 3; i++) {
      const sale = await sellOne(owner.accessToken, product);
      expect(sale.status, sale.text).to.equal(201);
      expect(sale.headers.get('plan-sales-limit')).to.equal('50');
      expect(sale.headers.get('plan-sales-remaining')).to.equal(String(50 - i));
    }
    const after = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data;
    expect(after.plan_usage).to.include({ monthly_sales_limit: 50, sales_this_month: 3, sales_remaining: 47 });
  });

  it('on a plan without a cap: no headers, and a null limit', async () => {
    const owner = await registerOwner(app);
    await putOnPlan(app, owner, 'PRO');
    const product = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Milk', price: 500, quantity: 100 } })).body.data.id as string;
    const sale = await sellOne(owner.accessToken, product);
    expect(sale.status).to.equal(201);
    expect(sale.headers.get('plan-sales-limit')).to.equal(null);
    const me = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data;
    expect(me.plan_usage).to.include({ monthly_sales_limit: null, sales_remaining: null });
  });
});
