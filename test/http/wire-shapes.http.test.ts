import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 32 (docs/adr/0046): one shape per idea, the right error for a cashier's typo, money written
// with exactly 2 decimals in every body.

type Owner = Awaited<ReturnType<typeof registerOwner>>;

/** Every money field in a raw JSON text: `"total":1550.00`, never `"total":1550`. */
const MONEY_FIELD = /"(price|cost_price|unit_price|unit_cost|discount|line_total|subtotal|line_discount_total|total|amount|amount_paid|amount_tendered|change_due|balance_due|credit_outstanding|refund_amount|credit_limit|credit_balance|balance_after|balance|available_credit|gmv|gmv_30d|revenue|gross_profit|net_profit|expenses|average_sale)":(-?[0-9][0-9.eE+-]*)/g;
/** A compared amount of a report: `"revenue":{"value":1550.00,"previous":0.00,...}`. */
const COMPARED_MONEY = /"(revenue|average_sale|gross_profit|expenses|net_profit|credit_given|credit_collected|gmv|average_ticket)":\{"value":([^,]*),"previous":([^,]*),/g;
const moneyOf = (text: string) => [
  ...[...text.matchAll(MONEY_FIELD)].map((m) => `${m[1]}:${m[2]}`),
  ...[...text.matchAll(COMPARED_MONEY)].flatMap((m) => [`${m[1]}.value:${m[2]}`, `${m[1]}.previous:${m[3]}`]),
];
const expectTwoDecimals = (text: string, what: string) => {
  const found = moneyOf(text);
  expect(found, `${what}: no money found in ${text}`).to.not.be.empty;
  for (const f of found) expect(f, `${what}: ${f}`).to.match(/:-?\d+\.\d{2}$/);
};

describe('HTTP wire shapes (issue 32): the right error, one shape per idea, money with 2 decimals', function () {
  this.timeout(120_000);
  let app: TestApp;
  let owner: Owner;
  let product: string;
  const post = (path: string, body: unknown, token = owner.accessToken, headers: Record<string, string> = {}) => app.request('POST', path, { token, body, headers });
  const get = (path: string, token = owner.accessToken) => app.request('GET', path, { token });
  const aCustomer = async () => (await post('/customers', { name: `Mama ${randomUUID().slice(0, 6)}`, credit_limit: 1_000_000 })).body.data.id as string;

  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    const res = await post('/products', { name: 'Rice 1kg', price: 1550, cost_price: 1200.5, quantity: 1000 });
    expect(res.status, res.text).to.equal(201);
    product = res.body.data.id;
  });
  after(async () => app.close());

  describe("a cashier's typo", () => {
    it('a CASH sale tendering 100 against a total of 1,550 (no customer) is 422 AMOUNT_TENDERED_TOO_SMALL, not CUSTOMER_REQUIRED', async () => {
      const res = await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH', amount_tendered: 100 });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.error.code).to.equal('AMOUNT_TENDERED_TOO_SMALL');
      expect(res.body.error.detail).to.contain('1550.00');
      expect(res.body.error.errors).to.deep.equal([{ field: 'amount_tendered', message: 'is less than the total' }]);
      for (const payment_method of ['TRANSFER', 'CARD']) {
        expect((await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method, amount_tendered: 1549.99 })).body.error.code).to.equal('AMOUNT_TENDERED_TOO_SMALL');
      }
    });

    it('the sync batch answers sale.create with the same Problem', async () => {
      const payload = { id: randomUUID(), items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH', amount_tendered: 100 };
      const single = await post('/sales', payload);
      const res = await post('/sync/batch', { device_id: 'till-1', operations: [{ op_id: randomUUID(), type: 'sale.create', payload }] });
      expect(res.status, res.text).to.equal(200);
      const [result] = res.body.data.results;
      expect([result.status, result.http_status, result.error.code]).to.deep.equal(['rejected', 422, 'AMOUNT_TENDERED_TOO_SMALL']);
      expect(result.error).to.deep.equal(single.body.error);
    });

    it('still: with a customer the tender pays that much and the rest is owed; a CREDIT sale needs a customer', async () => {
      const customer = await aCustomer();
      const part = await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH', amount_tendered: 100, customer_id: customer });
      expect(part.status, part.text).to.equal(201);
      expect(part.body.data).to.include({ amount_paid: 100, balance_due: 1450 });
      expect((await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CREDIT' })).body.error.code).to.equal('CUSTOMER_REQUIRED');
      expect((await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH', amount_paid: 100 })).body.error.code).to.equal('CUSTOMER_REQUIRED');
    });
  });

  describe('one shape for the same idea', () => {
    it('a credit payment of 30,000 answers amount 30000 (positive), type PAYMENT, payment_method; the ledger the same', async () => {
      const customer = await aCustomer();
      const sale = await post('/sales', { items: [{ product_id: product, quantity: 40 }], payment_method: 'CREDIT', customer_id: customer });
      expect(sale.status, sale.text).to.equal(201);
      const paid = await post(`/customers/${customer}/credit/payment`, { amount: 30_000, payment_method: 'TRANSFER' });
      expect(paid.status, paid.text).to.equal(201);
      expect(paid.body.data).to.include({ type: 'PAYMENT', amount: 30_000, balance_after: 32_000, payment_method: 'TRANSFER' });
      expect(paid.body.data).to.not.have.property('method');
      expect(paid.text).to.contain('"amount":30000.00');
      const ledger = (await get(`/customers/${customer}/transactions`)).body.data.content as Record<string, unknown>[];
      expect(ledger.map((e) => [e.type, e.amount, e.balance_after, e.payment_method])).to.have.deep.members([
        ['SALE', 62_000, 62_000, null],
        ['PAYMENT', 30_000, 32_000, 'TRANSFER'],
      ]);
      const voided = await post(`/sales/${sale.body.data.id}/void`, { reason: 'returned' });
      expect(voided.status, voided.text).to.equal(200);
      const after = (await get(`/customers/${customer}/transactions`)).body.data.content as Record<string, unknown>[];
      expect(after.find((e) => e.type === 'VOID')).to.include({ amount: 32_000, balance_after: 0 });
    });

    it('`method` is gone from the request (400 naming it); payment_method takes the sale methods but CREDIT', async () => {
      const customer = await aCustomer();
      await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CREDIT', customer_id: customer });
      const old = await post(`/customers/${customer}/credit/payment`, { amount: 100, method: 'CASH' });
      expect(old.status, old.text).to.equal(400);
      expect(old.body.error.errors.map((e: { field: string }) => e.field)).to.include('method');
      expect((await post(`/customers/${customer}/credit/payment`, { amount: 100, payment_method: 'CREDIT' })).status).to.equal(400);
      for (const payment_method of ['CASH', 'TRANSFER', 'CARD']) {
        expect((await post(`/customers/${customer}/credit/payment`, { amount: 1, payment_method })).status, payment_method).to.equal(201);
      }
      const methods = (doc: any, schema: string, field: string) => doc.components.schemas[schema].properties[field].enum.filter((m: unknown) => m !== null);
      const docs = (await app.request('GET', '/api/v1/api-docs')).body;
      expect(methods(docs, 'CreditPaymentRequest', 'payment_method')).to.deep.equal(methods(docs, 'SaleRequest', 'payment_method').filter((m: string) => m !== 'CREDIT'));
      // the ledger also holds invoice payments, which may be ONLINE (paid on the customer's page; docs/adr/0073, 0075)
      expect(methods(docs, 'CreditTransaction', 'payment_method')).to.deep.equal([...methods(docs, 'CreditPaymentRequest', 'payment_method'), 'ONLINE']);
    });

    it("the receipt's date_time is ISO 8601 UTC like every other time; local_date_time is Lagos with +01:00", async () => {
      app.clock.set(new Date('2026-11-28T03:32:00.000Z'));
      const sale = (await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH' })).body.data;
      const receipt = (await get(`/sales/${sale.id}/receipt`)).body.data;
      expect(receipt).to.include({ date_time: '2026-11-28T03:32:00.000Z', local_date_time: '2026-11-28T04:32:00+01:00', timezone: 'Africa/Lagos', created_at: sale.created_at });
      expect(Date.parse(receipt.local_date_time)).to.equal(Date.parse(receipt.date_time));
    });
  });

  describe('money in JSON: a number with exactly 2 decimals, in every body', () => {
    it('a sale, its receipt and the sales list', async () => {
      const res = await post('/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH', amount_tendered: 2000 });
      expect(res.status, res.text).to.equal(201);
      expect(res.text).to.contain('"total":1550.00');
      expect(res.text).to.contain('"change_due":450.00');
      expect(res.text).to.contain('"cost_price":1200.50');
      expectTwoDecimals(res.text, 'POST /sales');
      expectTwoDecimals((await get(`/sales/${res.body.data.id}`)).text, 'GET /sales/{id}');
      expectTwoDecimals((await get(`/sales/${res.body.data.id}/receipt`)).text, 'receipt');
      expectTwoDecimals((await get('/sales?limit=5')).text, 'GET /sales');
    });

    it('an idempotent replay answers the same bytes', async () => {
      const headers = { 'idempotency-key': randomUUID() };
      const body = { items: [{ product_id: product, quantity: 2 }], payment_method: 'CASH' };
      const first = await post('/sales', body, owner.accessToken, headers);
      const again = await post('/sales', body, owner.accessToken, headers);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.text).to.contain('"total":3100.00');
      expect(again.text.replace(/"timestamp":"[^"]*"/, '')).to.equal(first.text.replace(/"timestamp":"[^"]*"/, ''));
    });

    it('a product and the products list', async () => {
      const res = await post('/products', { name: 'Beans', price: 8000, cost_price: 7500.5, quantity: 3 });
      expect(res.text).to.contain('"price":8000.00');
      expect(res.text).to.contain('"cost_price":7500.50');
      expectTwoDecimals((await get('/products?limit=5')).text, 'GET /products');
    });

    it('a credit payment, a customer, the aging report', async () => {
      const customer = await aCustomer();
      await post('/sales', { items: [{ product_id: product, quantity: 2 }], payment_method: 'CREDIT', customer_id: customer });
      const paid = await post(`/customers/${customer}/credit/payment`, { amount: 300, payment_method: 'CASH' });
      expect(paid.text).to.contain('"amount":300.00');
      expect(paid.text).to.contain('"balance_after":2800.00');
      expectTwoDecimals(paid.text, 'credit payment');
      const shown = await get(`/customers/${customer}`);
      expect(shown.text).to.contain('"credit_balance":2800.00');
      expect(shown.text).to.contain('"credit_limit":1000000.00');
      expectTwoDecimals((await get('/credit/aging-report')).text, 'aging report');
    });

    it('an expense and the expenses summary', async () => {
      const categories = (await get('/expenses/categories')).body.data.content as { id: string }[];
      const res = await post('/expenses', { category_id: categories[0]!.id, amount: 7500.5, description: 'Diesel', payment_method: 'CASH' });
      expect(res.status, res.text).to.equal(201);
      expect(res.text).to.contain('"amount":7500.50');
      expectTwoDecimals((await get('/expenses/summary?group_by=category')).text, 'expenses summary');
    });

    it('the reports', async () => {
      const dashboard = await get('/reports/dashboard');
      expect(dashboard.status, dashboard.text).to.equal(200);
      expect(dashboard.text).to.match(/"revenue":\{"value":\d+\.\d{2},"previous":0\.00,/);
      expectTwoDecimals(dashboard.text, 'dashboard');
      expectTwoDecimals((await get('/reports/profit-loss?start_date=2026-11-01&end_date=2026-11-30')).text, 'profit and loss');
    });

    it("a partner's analytics", async () => {
      const partner = await aPartner(app, 'Kudi Partners');
      const phone = aPhone();
      await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ngozi', last_name: 'Eze', business_name: 'Ngozi Mart', partner_code: partner.code } });
      const token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
      const rice = (await post('/products', { name: 'Rice', price: 1234.5, quantity: 10 }, token)).body.data.id;
      expect((await post('/sales', { items: [{ product_id: rice, quantity: 1 }], payment_method: 'CASH' }, token)).status).to.equal(201);
      const analytics = await asPartner(app, partner.key, 'GET', '/partner/analytics?period=30d');
      expect(analytics.status, analytics.text).to.equal(200);
      expect(analytics.text).to.contain('"gmv":1234.50');
      expectTwoDecimals(analytics.text, 'partner analytics');
      const merchants = await asPartner(app, partner.key, 'GET', '/partner/merchants');
      expect(merchants.text).to.contain('"gmv_30d":1234.50');
    });
  });
});
