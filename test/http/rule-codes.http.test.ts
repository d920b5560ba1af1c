import { expect } from 'chai';
import { errorCodesOf } from '../../adapters/http/openapi.js';
import { FAILURES } from '../../bootstrap/failures.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

/** Issue 11: one error code per rule, named for the rule, and listed for each operation that answers it. */
describe('HTTP one error code per business rule', () => {
  let app: TestApp;
  let token: string;
  let productId: string;
  let customerId: string;
  before(async () => {
    app = await createTestApp();
    token = (await registerOwner(app)).accessToken;
    productId = (await app.request('POST', '/products', { token, body: { name: 'Rice', price: 100, quantity: 10 } })).body.data.id;
    customerId = (await app.request('POST', '/customers', { token, body: { name: 'Ngozi', phone: aPhone() } })).body.data.id;
  });
  after(async () => app.close());

  const cases: [string, string, () => [string, string, unknown], string][] = [
    ['a payment of 0', 'AMOUNT_MUST_BE_POSITIVE', () => ['POST', `/customers/${customerId}/credit/payment`, { amount: 0, payment_method: 'CASH' }], 'amount'],
    ['a negative credit limit', 'AMOUNT_MUST_NOT_BE_NEGATIVE', () => ['POST', '/customers', { name: 'X', credit_limit: -1 }], 'credit_limit'],
    ['a negative sale discount', 'AMOUNT_MUST_NOT_BE_NEGATIVE', () => ['POST', '/sales', { payment_method: 'CASH', discount: -1, items: [{ product_id: productId, quantity: 1 }] }], 'discount'],
    ['a negative unit price', 'NEGATIVE_PRICE', () => ['POST', '/sales', { payment_method: 'CASH', items: [{ product_id: productId, quantity: 1, unit_price: -1 }] }], 'items.0.unit_price'],
    ['a negative product price', 'NEGATIVE_PRICE', () => ['POST', '/products', { name: 'X', price: -1 }], 'price'],
    ['a product quantity of -3', 'QUANTITY_MUST_NOT_BE_NEGATIVE', () => ['POST', '/products', { name: 'X', price: 1, quantity: -3 }], 'quantity'],
    ['a service with stock', 'SERVICE_HAS_NO_STOCK', () => ['POST', '/products', { name: 'X', price: 1, type: 'SERVICE', quantity: 2 }], 'quantity'],
  ];
  for (const [what, code, request, field] of cases) {
    it(`${what} is 422 ${code}, and the operation lists the code`, async () => {
      const [method, path, body] = request();
      const res = await app.request(method, path, { token, body });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.error.code).to.equal(code);
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).to.include(field);
      const route = app.routes.find((r) => r.method.toUpperCase() === method && app.router.match(`/api/v1${path}`, method).pathAndMethod.some((l) => l.path === `/api/v1${r.path}`))!;
      expect(errorCodesOf(route, FAILURES), `${method} ${route.path} lists ${code}`).to.include(code);
    });
  }

  it('VALIDATION_RULE_BROKEN, a code that named no rule, is gone', () => {
    for (const r of app.routes) expect(errorCodesOf(r, FAILURES)).to.not.include('VALIDATION_RULE_BROKEN' as never);
  });
});
