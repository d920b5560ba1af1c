import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { jsonSchemaOf } from '../../adapters/http/codecs.js';
import { aPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; oneOf?: Schema[]; minimum?: number; maximum?: number };

/** Every numeric leaf of a JSON Schema, as a path (`items.0.quantity`), with its schema. */
const numericLeaves = (schema: Schema, path: string[] = []): { path: string[]; schema: Schema }[] => {
  const types = [schema.type ?? []].flat();
  if (types.includes('number') || types.includes('integer')) return [{ path, schema }];
  return [
    ...Object.entries(schema.properties ?? {}).flatMap(([k, s]) => numericLeaves(s, [...path, k])),
    ...(schema.items ? numericLeaves(schema.items, [...path, '0']) : []),
    ...(schema.oneOf ?? []).flatMap((s) => numericLeaves(s, path)),
  ];
};

const setAt = (body: unknown, path: string[], value: unknown): unknown => {
  const copy = structuredClone(body) as Record<string, unknown>;
  let at = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path[path.length - 1]!] = value;
  return copy;
};

/**
 * Issue 11: every number of every request body is bounded in its codec and its schema. Each numeric
 * field of each operation gets -1, a fraction, huge values (and 0 where 0 breaks its rule) over HTTP,
 * and must be answered 4xx, never 500 and never accepted. The operations are found from the route
 * table, so a new numeric field fails this test until it is listed here with a valid body.
 */
describe('HTTP every numeric field is bounded', function () {
  this.timeout(120_000);
  let app: TestApp;
  let token: string;
  let ids: { product: string; customer: string; category: string; expense: string; main: string; lekki: string; conflict: string; sale: string; draftInvoice: string; sentInvoice: string };
  let partnerKey: string;
  before(async () => {
    app = await createTestApp();
    token = (await registerOwner(app)).accessToken;
    const product = await app.request('POST', '/products', { token, body: { name: 'Bounds', price: 100, quantity: 1000 } });
    const customer = await app.request('POST', '/customers', { token, body: { name: 'Bounds', phone: aPhone() } });
    const category = (await app.request('GET', '/expenses/categories', { token })).body.data.content[0].id as string;
    const expense = await app.request('POST', '/expenses', { token, body: { category_id: category, amount: 10, description: 'Bounds', payment_method: 'CASH' } });
    const main = ((await app.request('GET', '/businesses/me/branches', { token })).body.data.content as { id: string; is_default: boolean }[]).find((b) => b.is_default)!.id;
    const lekki = (await app.request('POST', '/businesses/branches', { token, body: { name: 'Lekki' } })).body.data.id as string;
    ids = { product: product.body.data.id, customer: customer.body.data.id, category, expense: expense.body.data.id, main, lekki, conflict: '', sale: '', draftInvoice: '', sentInvoice: '' };
    // an offline sale of a product with no stock: an oversell conflict to resolve (docs/adr/0034)
    const empty = (await app.request('POST', '/products', { token, body: { name: 'Bounds empty', price: 100 } })).body.data.id as string;
    const operations = [{ op_id: randomUUID(), type: 'sale.create', payload: { payment_method: 'CASH', items: [{ product_id: empty, quantity: 1 }] } }];
    await app.request('POST', '/sync/batch', { token, body: { device_id: 'bounds', operations } });
    ids.conflict = (await app.request('GET', '/sync/conflicts?status=OPEN', { token })).body.data.content[0].id as string;
    await app.request('POST', '/sales', { token, body: { payment_method: 'CREDIT', customer_id: ids.customer, items: [{ product_id: ids.product, quantity: 5 }] } });
    ids.sale = (await app.request('POST', '/sales', { token, body: { payment_method: 'CASH', items: [{ product_id: ids.product, quantity: 5 }] } })).body.data.id as string;
    // invoices (docs/adr/0072): a draft to edit, and a sent one with room for many payments
    const invoice = (body: unknown) => app.request('POST', '/invoices', { token, body });
    ids.draftInvoice = (await invoice({ type: 'INVOICE', customer_id: ids.customer, lines: [{ description: 'Bounds', quantity: 1, unit_price: 100 }] })).body.data.id as string;
    const toSend = (await invoice({ type: 'INVOICE', customer_id: ids.customer, lines: [{ description: 'Bounds', quantity: 1, unit_price: 1_000_000 }] })).body.data.id as string;
    ids.sentInvoice = (await app.request('POST', `/invoices/${toSend}/send`, { token })).body.data.id as string;
    partnerKey = (await aPartner(app)).key;
  });
  after(async () => app.close());

  /** A valid request of each operation with numeric body fields, and the fields where 0 breaks the rule. */
  /**
   * A valid request of each operation with numeric body fields, and the fields where 0 breaks the rule. `others`: more valid
   * bodies, for fields a body cannot hold beside the first's (a sale's payments instead of its payment_method and amount_paid).
   */
  const valid: Record<string, { path: () => string; body: () => unknown; others?: () => unknown[]; zeroInvalid: string[]; negativeValid?: string[]; partner?: true }> = {
    'POST /products': { path: () => '/products', body: () => ({ name: 'N', price: 10, cost_price: 5, quantity: 1, low_stock_threshold: 1 }), zeroInvalid: [] },
    'PUT /products/:id': { path: () => `/products/${ids.product}`, body: () => ({ price: 10, cost_price: 5, quantity: 900, low_stock_threshold: 1 }), zeroInvalid: [] },
    'POST /products/stock-adjustment': { path: () => '/products/stock-adjustment', body: () => ({ product_id: ids.product, quantity_change: 1, reason: 'RESTOCK', unit_cost: 5 }), zeroInvalid: ['quantity_change'], negativeValid: ['quantity_change'] },
    'POST /products/stock-transfers': {
      path: () => '/products/stock-transfers',
      body: () => ({ from_branch_id: ids.main, to_branch_id: ids.lekki, items: [{ product_id: ids.product, quantity: 1 }] }),
      zeroInvalid: ['items.0.quantity'],
    },
    'POST /sales': {
      path: () => '/sales',
      body: () => ({ payment_method: 'CASH', items: [{ product_id: ids.product, quantity: 1, unit_price: 100, discount: 0 }], discount: 0, amount_paid: 100 }),
      // split payments (docs/adr/0055): a tender of 0 leaves the total unpaid (422 PAYMENTS_DO_NOT_MATCH_TOTAL)
      others: () => [{ payments: [{ method: 'CASH', amount: 100 }], items: [{ product_id: ids.product, quantity: 1, unit_price: 100 }], amount_tendered: 100 }],
      zeroInvalid: ['items.0.quantity', 'payments.0.amount'],
    },
    'PUT /businesses/me': { path: () => '/businesses/me', body: () => ({ vat_rate: 7.5 }), zeroInvalid: [] },
    'POST /sales/:id/returns': {
      path: () => `/sales/${ids.sale}/returns`,
      body: () => ({ items: [{ product_id: ids.product, quantity: 1 }], refund_method: 'CASH', reason: 'Bounds' }),
      zeroInvalid: ['items.0.quantity'],
    },
    'POST /invoices': {
      path: () => '/invoices',
      body: () => ({ type: 'INVOICE', customer_id: ids.customer, lines: [{ description: 'B', quantity: 1, unit_price: 100, discount: 0 }], payment_terms_days: 14 }),
      zeroInvalid: ['lines.0.quantity'],
    },
    'PUT /invoices/:id': {
      path: () => `/invoices/${ids.draftInvoice}`,
      body: () => ({ customer_id: ids.customer, lines: [{ description: 'B', quantity: 2, unit_price: 100, discount: 0 }], payment_terms_days: 30 }),
      zeroInvalid: ['lines.0.quantity'],
    },
    'POST /invoices/:id/payments': { path: () => `/invoices/${ids.sentInvoice}/payments`, body: () => ({ amount: 1, method: 'CASH' }), zeroInvalid: ['amount'] },
    'POST /customers': { path: () => '/customers', body: () => ({ name: 'C', credit_limit: 1000 }), zeroInvalid: [] },
    'PUT /customers/:id': { path: () => `/customers/${ids.customer}`, body: () => ({ credit_limit: 1000 }), zeroInvalid: [] },
    'POST /customers/:id/credit/payment': { path: () => `/customers/${ids.customer}/credit/payment`, body: () => ({ amount: 1, payment_method: 'CASH' }), zeroInvalid: ['amount'] },
    'POST /expenses': { path: () => '/expenses', body: () => ({ category_id: ids.category, amount: 10, vat_amount: 1, description: 'E', payment_method: 'CASH' }), zeroInvalid: ['amount'] },
    'PUT /expenses/:id': { path: () => `/expenses/${ids.expense}`, body: () => ({ amount: 10, vat_amount: 1 }), zeroInvalid: ['amount'] },
    'PUT /notifications/preferences': {
      path: () => '/notifications/preferences',
      body: () => ({ credit_reminders: { days_overdue: 7, repeat_every_days: 7 }, audit_alerts: { sale_voided_over: 100, sale_discounted_over: 10, stock_adjusted_over: 5 } }),
      zeroInvalid: ['credit_reminders.days_overdue', 'credit_reminders.repeat_every_days'],
    },
    'POST /reports/loan-pack': { path: () => '/reports/loan-pack', body: () => ({ months: 6 }), zeroInvalid: ['months'] },
    'POST /sync/conflicts/:id/resolve': {
      path: () => `/sync/conflicts/${ids.conflict}/resolve`,
      body: () => ({ resolution: 'STOCK_CORRECTION', quantity_change: 1 }),
      zeroInvalid: ['quantity_change'],
      negativeValid: ['quantity_change'],
    },
    'POST /partner/api-keys': { path: () => '/partner/api-keys', body: () => ({ name: 'Bounds', scopes: ['merchants:read'], expires_in_days: 30 }), zeroInvalid: ['expires_in_days'], partner: true },
  };

  it('the table names exactly the operations whose bodies hold numbers', () => {
    // POST /sync/batch documents its operations' payloads as their endpoints' bodies (each in the table); a bad number
    // there is one rejected operation, with the 4xx its endpoint answers (test/http/sync-batch.http.test.ts), not a 4xx batch
    const withNumbers = app.routes
      .filter((r) => r.body && r.operationId !== 'syncBatch' && numericLeaves(jsonSchemaOf(r.body) as Schema).length > 0)
      .map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(withNumbers.sort()).to.deep.equal(Object.keys(valid).sort());
  });

  it('every numeric field is bounded in the document (minimum and maximum)', () => {
    for (const r of app.routes.filter((x) => x.body)) {
      for (const leaf of numericLeaves(jsonSchemaOf(r.body!) as Schema)) {
        expect(leaf.schema.maximum, `${r.path} ${leaf.path.join('.')}: maximum`).to.be.a('number');
      }
    }
  });

  for (const [operation, request] of Object.entries(valid)) {
    it(`${operation}: -1, fractions, huge values (and 0 where it breaks the rule; a huge negative where negatives are allowed) are 4xx in every numeric field`, async () => {
      const route = app.routes.find((r) => `${r.method.toUpperCase()} ${r.path}` === operation)!;
      const method = route.method.toUpperCase();
      const auth = request.partner ? { headers: { 'x-api-key': partnerKey } } : { token };
      const bodies = [request.body(), ...(request.others?.() ?? [])];
      for (const body of bodies) {
        const ok = await app.request(method, request.path(), { ...auth, body });
        expect(ok.status, `a valid body: ${ok.text}`).to.be.within(200, 299);
      }
      for (const leaf of numericLeaves(jsonSchemaOf(route.body!) as Schema)) {
        const field = leaf.path.join('.');
        // the first valid body holding the field's parent (payments.0.amount: the split-payments body)
        const holds = (b: unknown) => leaf.path.slice(0, -1).reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], b) !== undefined;
        const base = [request.body, ...(request.others ? request.others().map((b) => () => b) : [])].find((b) => holds(b()))!;
        const bad = [...(request.negativeValid?.includes(field) ? [-(2 ** 53)] : [-1]), 1.5, 0.001, 1e300, 2 ** 53, ...(request.zeroInvalid.includes(field) ? [0] : [])];
        for (const value of bad) {
          if (value === 1.5 && leaf.schema.type !== 'integer' && ![leaf.schema.type].flat().includes('integer')) continue; // 1.50 naira is money
          const res = await app.request(method, request.path(), { ...auth, body: setAt(base(), leaf.path, value) });
          expect(res.status, `${operation} ${field}=${value}: ${res.text}`).to.be.within(400, 499);
        }
      }
    });
  }

  it('query numbers (limit) are bounded too', async () => {
    for (const value of ['0', '-1', '1.5', '101', '1e300', String(2 ** 53)]) {
      const res = await app.request('GET', `/products?limit=${value}`, { token });
      expect(res.status, `limit=${value}`).to.equal(400);
    }
    // the change feed pages by up to 500
    for (const value of ['0', '-1', '1.5', '501', '1e300', String(2 ** 53)]) {
      const res = await app.request('GET', `/sync/changes?limit=${value}`, { token });
      expect(res.status, `sync limit=${value}`).to.equal(400);
    }
    expect((await app.request('GET', '/sync/changes?limit=500', { token })).status).to.equal(200);
  });
});
