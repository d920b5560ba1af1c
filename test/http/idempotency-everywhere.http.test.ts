import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

// Issue 32 (docs/adr/0045): every POST that creates something or moves money honours Idempotency-Key,
// through the route table's one `idempotent` flag. This walks the real app's route table and document:
// a POST is either in IDEMPOTENT (with a request that shows it honours the key) or in NOT_IDEMPOTENT
// (with the reason), so a POST route added later without a decision fails here.

/** The POSTs that do not take the key, and why (docs/adr/0045 has the longer reasons). */
const NOT_IDEMPOTENT: Record<string, string> = {
  'POST /auth/register': 'public, no business to scope a key by yet; the phone or e-mail is the natural key (409 DUPLICATE_PHONE)',
  'POST /auth/verify-otp': 'signs in: a one-time code, used once',
  'POST /auth/login': 'sends a code; creates nothing the client keeps, resends are limited by OTP_RESEND_TOO_SOON',
  'POST /auth/refresh': 'rotates a refresh token, itself single use',
  'POST /auth/otp/send': 'sends a code, as login',
  'POST /auth/otp/verify': 'checks a code',
  'POST /auth/google': 'signs in with an ID token',
  'POST /auth/google/link': 'links the one Google account: a second link of the same account changes nothing',
  'POST /auth/logout': 'ends a session: the same again changes nothing',
  'POST /businesses/me/partner': 'a consent: joining the same partner again answers 200, nothing changes',
  'POST /products/:id/restore': 'a state: restoring an active product answers 200, nothing changes',
  'POST /reports/loan-pack/payment/verify': 'asks the gateway about a payment already made; a paid pack answers READY again',
  'POST /payments/paystack/webhook': "a provider's callback, signed, deduplicated by its reference",
  'POST /public/invoices/:token/pay': "the customer's page's plain HTML form (a browser sends no key); each press starts a checkout that records nothing until paid, and the payment is recorded once per gateway reference (docs/adr/0075)",
  'POST /sandbox/checkout/:code/pay': "the sandbox gateway's page (stands for the provider), public",
  'POST /sandbox/checkout/:code/cancel': "the sandbox gateway's page, public",
  'POST /webhooks/termii': "a provider's delivery report",
  'POST /webhooks/whatsapp': "a provider's webhook",
  'POST /partner/api-keys/:id/revoke': 'a state: revoking a revoked key changes nothing',
  'POST /partner/webhooks/:id/test': 'a ping to the endpoint, created to be sent at once: moves nothing, a second ping harms nothing',
  'POST /partner/webhooks/deliveries/:delivery_id/redeliver': 'a resend with the same webhook-id, which the receiver deduplicates',
  'POST /sync/batch': 'idempotent by its own op ids and client ids (docs/adr/0034), per operation',
};

type Req = { readonly path: string; readonly body?: unknown };

interface Case {
  /** Who calls: the owner (bearer token, default) or the partner (X-API-Key). */
  readonly as?: 'partner';
  /** Makes what the request needs (done without a key). */
  readonly setup?: () => Promise<void>;
  readonly request: () => Req;
  /** The same route with another body (another path, for a route without a body). */
  readonly other: () => Req;
  /** What the work changes (a list, a balance): the same after the replay as after the first request. */
  readonly observe: () => Promise<unknown>;
  /** Sends it itself (an upload). */
  readonly send?: (key: string, which: 'request' | 'other') => Promise<TestResponse>;
}

describe('HTTP Idempotency-Key on every POST that creates something or moves money (issue 32)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let token: string;
  let partnerKey: string;
  let productId: string;
  let defaultBranch: string;
  let otherBranch: string;
  let debtorId: string;
  let categoryId: string;
  let saleId: string;
  let shareInvoiceId: string;
  let invoiceCustomer: string;
  let invoiceId: string;
  let packReference: string;
  let partnerKeyIds: string[];
  let webhookIds: string[];
  let conflictId: string;
  let conflictProduct: string;

  before(async () => {
    app = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    token = (await registerOwner(app)).accessToken;
    partnerKey = (await aPartner(app, 'Idem Partners')).key;
  });
  after(async () => app.close());

  const as = (who: 'owner' | 'partner' | undefined, key?: string): Record<string, string> => ({
    ...(who === 'partner' ? { 'x-api-key': partnerKey } : { authorization: `Bearer ${token}` }),
    ...(key ? { 'idempotency-key': key } : {}),
  });
  const post = async (path: string, body?: unknown, who?: 'partner') => {
    const res = await app.request('POST', path, { headers: as(who), ...(body !== undefined ? { body } : {}) });
    expect(res.status, `${path}: ${res.text}`).to.be.oneOf([200, 201, 202]);
    return res.body.data;
  };
  const get = async (path: string, who?: 'partner') => {
    const res = await app.request('GET', path, { headers: as(who) });
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.body.data;
  };
  const product = async (quantity: number) => (await post('/products', { name: 'Garri 5kg', price: 100, quantity })).id as string;
  const csvForm = (csv: string) => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'products.csv');
    return form;
  };
  const upload = async (key: string, body: FormData | string, query = '') => {
    const res = await fetch(`${app.baseUrl}/api/v1/products/import${query}`, {
      method: 'POST',
      headers: { ...as('owner', key), ...(typeof body === 'string' ? { 'content-type': 'text/csv' } : {}) },
      body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) } as TestResponse;
  };

  const IDEMPOTENT: Record<string, Case> = {
    'POST /staff/invite': {
      request: () => ({ path: '/staff/invite', body: { phone: '+2348030000101', first_name: 'Chidi', last_name: 'Eze' } }),
      other: () => ({ path: '/staff/invite', body: { phone: '+2348030000102', first_name: 'Chidi', last_name: 'Eze' } }),
      observe: () => get('/staff'),
    },
    'POST /businesses/branches': {
      request: () => ({ path: '/businesses/branches', body: { name: 'Yaba branch' } }),
      other: () => ({ path: '/businesses/branches', body: { name: 'Lekki branch' } }),
      observe: () => get('/businesses/me/branches?limit=100'),
    },
    'POST /products/import': {
      // multipart: each request draws a new boundary, so the fingerprint is of the file, not of the bytes around it
      request: () => ({ path: '/products/import' }),
      other: () => ({ path: '/products/import' }),
      send: (key, which) => upload(key, csvForm(which === 'request' ? 'sku,name,price\nIDEM-IMP-1,Semovita,1200\n' : 'sku,name,price\nIDEM-IMP-1,Semovita,1300\n')),
      observe: () => get('/products?limit=100'),
    },
    'POST /products/stock-transfers': {
      setup: async () => {
        productId = await product(100);
        defaultBranch = ((await get('/businesses/me/branches?limit=100')).content as { id: string; is_default: boolean }[]).find((b) => b.is_default)!.id;
        otherBranch = (await post('/businesses/branches', { name: 'Ikeja branch' })).id;
      },
      request: () => ({ path: '/products/stock-transfers', body: { from_branch_id: defaultBranch, to_branch_id: otherBranch, items: [{ product_id: productId, quantity: 2 }] } }),
      other: () => ({ path: '/products/stock-transfers', body: { from_branch_id: defaultBranch, to_branch_id: otherBranch, items: [{ product_id: productId, quantity: 3 }] } }),
      observe: () => get(`/products/${productId}`),
    },
    'POST /products/stock-adjustment': {
      setup: async () => void (productId = await product(10)),
      request: () => ({ path: '/products/stock-adjustment', body: { product_id: productId, quantity_change: 5, reason: 'RESTOCK' } }),
      other: () => ({ path: '/products/stock-adjustment', body: { product_id: productId, quantity_change: 6, reason: 'RESTOCK' } }),
      observe: () => get(`/products/${productId}`),
    },
    'POST /products': {
      request: () => ({ path: '/products', body: { name: 'Peak Milk 400g', price: 1500, quantity: 48 } }),
      other: () => ({ path: '/products', body: { name: 'Peak Milk 400g', price: 1600, quantity: 48 } }),
      observe: () => get('/products?limit=100'),
    },
    'POST /sales': {
      setup: async () => void (productId = await product(10)),
      request: () => ({ path: '/sales', body: { items: [{ product_id: productId, quantity: 1 }], payment_method: 'CASH' } }),
      other: () => ({ path: '/sales', body: { items: [{ product_id: productId, quantity: 2 }], payment_method: 'CASH' } }),
      observe: () => get('/sales?limit=100'),
    },
    'POST /sales/:id/void': {
      setup: async () => void (saleId = (await post('/sales', { items: [{ product_id: await product(10), quantity: 1 }], payment_method: 'CASH' })).id),
      request: () => ({ path: `/sales/${saleId}/void`, body: { reason: 'Customer returned the goods' } }),
      other: () => ({ path: `/sales/${saleId}/void`, body: { reason: 'Rung up twice' } }),
      observe: () => get(`/sales/${saleId}`),
    },
    'POST /sales/:id/returns': {
      setup: async () => void (saleId = (await post('/sales', { items: [{ product_id: (productId = await product(10)), quantity: 3 }], payment_method: 'CASH' })).id),
      request: () => ({ path: `/sales/${saleId}/returns`, body: { items: [{ product_id: productId, quantity: 1 }], refund_method: 'CASH', reason: 'Wrong size' } }),
      other: () => ({ path: `/sales/${saleId}/returns`, body: { items: [{ product_id: productId, quantity: 2 }], refund_method: 'CASH', reason: 'Wrong size' } }),
      observe: () => get(`/sales/${saleId}`),
    },
    'POST /customers': {
      request: () => ({ path: '/customers', body: { name: 'Mama Chioma', phone: '+2348035550101' } }),
      other: () => ({ path: '/customers', body: { name: 'Mama Chioma', phone: '+2348035550102' } }),
      observe: () => get('/customers?limit=100'),
    },
    'POST /customers/:id/credit/payment': {
      setup: async () => {
        debtorId = (await post('/customers', { name: 'Baba Tunde', phone: aPhone() })).id;
        await post('/sales', { items: [{ product_id: await product(10), quantity: 5 }], payment_method: 'CREDIT', customer_id: debtorId });
      },
      request: () => ({ path: `/customers/${debtorId}/credit/payment`, body: { amount: 100, payment_method: 'CASH' } }),
      other: () => ({ path: `/customers/${debtorId}/credit/payment`, body: { amount: 150, payment_method: 'CASH' } }),
      observe: () => get(`/customers/${debtorId}`),
    },
    'POST /expenses/categories': {
      request: () => ({ path: '/expenses/categories', body: { name: 'Security' } }),
      other: () => ({ path: '/expenses/categories', body: { name: 'Cleaning' } }),
      observe: () => get('/expenses/categories'),
    },
    'POST /expenses': {
      setup: async () => void (categoryId = (await post('/expenses/categories', { name: 'Diesel' })).id),
      request: () => ({ path: '/expenses', body: { category_id: categoryId, amount: 15000, description: 'Diesel for the generator', payment_method: 'CASH' } }),
      other: () => ({ path: '/expenses', body: { category_id: categoryId, amount: 16000, description: 'Diesel for the generator', payment_method: 'CASH' } }),
      observe: () => get('/expenses?limit=100'),
    },
    'POST /notifications/sms': {
      setup: async () => {
        debtorId = (await post('/customers', { name: 'Iya Bisi', phone: aPhone() })).id;
        await post('/sales', { items: [{ product_id: await product(10), quantity: 1 }], payment_method: 'CREDIT', customer_id: debtorId });
      },
      request: () => ({ path: '/notifications/sms', body: { customer_id: debtorId, template: 'CREDIT_REMINDER' } }),
      other: () => ({ path: '/notifications/sms', body: { customer_id: debtorId, template: 'CUSTOM', message: 'Thank you for your custom' } }),
      observe: () => get('/notifications?limit=100'),
    },
    'POST /notifications/whatsapp': {
      request: () => ({ path: '/notifications/whatsapp', body: { customer_id: debtorId, template: 'CREDIT_REMINDER' } }),
      other: () => ({ path: '/notifications/whatsapp', body: { customer_id: debtorId, template: 'CUSTOM', message: 'Thank you for your custom' } }),
      observe: () => get('/notifications?limit=100'),
    },
    'POST /invoices': {
      setup: async () => void (invoiceCustomer = (await post('/customers', { name: 'Zenith Events', phone: aPhone() })).id),
      request: () => ({ path: '/invoices', body: { type: 'INVOICE', customer_id: invoiceCustomer, lines: [{ description: 'Canopy hire', quantity: 1, unit_price: 25_000 }] } }),
      other: () => ({ path: '/invoices', body: { type: 'INVOICE', customer_id: invoiceCustomer, lines: [{ description: 'Canopy hire', quantity: 2, unit_price: 25_000 }] } }),
      observe: () => get('/invoices?limit=100'),
    },
    'POST /invoices/:id/send': {
      // the other request: the same route on another draft
      setup: async () => void (invoiceId = (await post('/invoices', { type: 'INVOICE', customer_id: invoiceCustomer, lines: [{ description: 'Chairs', quantity: 10, unit_price: 500 }] })).id),
      request: () => ({ path: `/invoices/${invoiceId}/send` }),
      other: () => ({ path: `/invoices/${randomUUID()}/send` }),
      observe: () => get(`/invoices/${invoiceId}`),
    },
    'POST /invoices/:id/payments': {
      request: () => ({ path: `/invoices/${invoiceId}/payments`, body: { amount: 1000, method: 'TRANSFER' } }),
      other: () => ({ path: `/invoices/${invoiceId}/payments`, body: { amount: 1500, method: 'TRANSFER' } }),
      observe: () => get(`/invoices/${invoiceId}`),
    },
    'POST /invoices/:id/cancel': {
      setup: async () => {
        const draft = await post('/invoices', { type: 'INVOICE', customer_id: invoiceCustomer, lines: [{ description: 'Tables', quantity: 2, unit_price: 800 }] });
        invoiceId = (await post(`/invoices/${draft.id}/send`)).id;
      },
      request: () => ({ path: `/invoices/${invoiceId}/cancel` }),
      other: () => ({ path: `/invoices/${randomUUID()}/cancel` }),
      observe: () => get(`/invoices/${invoiceId}`),
    },
    'POST /invoices/:id/convert': {
      setup: async () => {
        const draft = await post('/invoices', { type: 'PROFORMA', customer_id: invoiceCustomer, lines: [{ description: 'Sound system', quantity: 1, unit_price: 40_000 }] });
        invoiceId = (await post(`/invoices/${draft.id}/send`)).id;
      },
      request: () => ({ path: `/invoices/${invoiceId}/convert` }),
      other: () => ({ path: `/invoices/${randomUUID()}/convert` }),
      observe: () => get('/invoices?limit=100'),
    },
    'POST /invoices/:id/share': {
      setup: async () => {
        const customer = (await post('/customers', { name: 'Zenith Catering', phone: aPhone() })).id;
        const draft = await post('/invoices', { type: 'INVOICE', customer_id: customer, lines: [{ description: 'Catering for 40', quantity: 1, unit_price: 90_000 }] });
        shareInvoiceId = (await post(`/invoices/${draft.id}/send`)).id;
      },
      request: () => ({ path: `/invoices/${shareInvoiceId}/share`, body: { channel: 'SMS' } }),
      other: () => ({ path: `/invoices/${shareInvoiceId}/share`, body: { channel: 'WHATSAPP' } }),
      observe: () => get('/notifications?limit=100'),
    },
    'POST /reports/loan-pack': {
      request: () => ({ path: '/reports/loan-pack', body: { months: 6, lender_name: 'LAPO Microfinance Bank' } }),
      other: () => ({ path: '/reports/loan-pack', body: { months: 12, lender_name: 'LAPO Microfinance Bank' } }),
      observe: () => get('/reports/loan-pack?limit=100'),
    },
    'POST /reports/loan-pack/:reference/checkout': {
      setup: async () => void (packReference = (await post('/reports/loan-pack', { months: 6 })).reference),
      request: () => ({ path: `/reports/loan-pack/${packReference}/checkout`, body: { email: 'ada@example.com', callback_url: 'https://app.example.com/paid' } }),
      other: () => ({ path: `/reports/loan-pack/${packReference}/checkout`, body: { email: 'ada@example.com', callback_url: 'https://app.example.com/other' } }),
      observe: () => get('/reports/loan-pack?limit=100'),
    },
    'POST /partner/api-keys': {
      as: 'partner',
      request: () => ({ path: '/partner/api-keys', body: { name: 'Dashboard', scopes: ['merchants:read'] } }),
      other: () => ({ path: '/partner/api-keys', body: { name: 'Dashboard', scopes: ['analytics:read'] } }),
      observe: () => get('/partner/api-keys', 'partner'),
    },
    'POST /partner/api-keys/:id/rotate': {
      as: 'partner',
      setup: async () => {
        partnerKeyIds = [];
        for (const name of ['Till A', 'Till B']) partnerKeyIds.push((await post('/partner/api-keys', { name, scopes: ['merchants:read'] }, 'partner')).id);
      },
      request: () => ({ path: `/partner/api-keys/${partnerKeyIds[0]}/rotate` }),
      other: () => ({ path: `/partner/api-keys/${partnerKeyIds[1]}/rotate` }),
      observe: () => get('/partner/api-keys', 'partner'),
    },
    'POST /partner/webhooks': {
      as: 'partner',
      request: () => ({ path: '/partner/webhooks', body: { url: 'https://127.0.0.1:9/a', events: ['sale.created'] } }),
      other: () => ({ path: '/partner/webhooks', body: { url: 'https://127.0.0.1:9/b', events: ['sale.created'] } }),
      observe: () => get('/partner/webhooks', 'partner'),
    },
    'POST /partner/webhooks/:id/rotate-secret': {
      as: 'partner',
      setup: async () => {
        webhookIds = [];
        for (const path of ['c', 'd']) webhookIds.push((await post('/partner/webhooks', { url: `https://127.0.0.1:9/${path}`, events: ['sale.created'] }, 'partner')).id);
      },
      request: () => ({ path: `/partner/webhooks/${webhookIds[0]}/rotate-secret` }),
      other: () => ({ path: `/partner/webhooks/${webhookIds[1]}/rotate-secret` }),
      observe: () => get('/partner/webhooks', 'partner'),
    },
    'POST /sync/conflicts/:id/resolve': {
      setup: async () => {
        conflictProduct = await product(1);
        await post('/sales', { items: [{ product_id: conflictProduct, quantity: 1 }], payment_method: 'CASH' });
        const payload = { id: randomUUID(), payment_method: 'CASH', items: [{ product_id: conflictProduct, quantity: 1 }] };
        await post('/sync/batch', { device_id: 'till-1', operations: [{ op_id: randomUUID(), type: 'sale.create', payload }] });
        conflictId = ((await get('/sync/conflicts?status=OPEN')) as { content: { id: string }[] }).content[0]!.id;
      },
      request: () => ({ path: `/sync/conflicts/${conflictId}/resolve`, body: { resolution: 'STOCK_CORRECTION', quantity_change: 1 } }),
      other: () => ({ path: `/sync/conflicts/${conflictId}/resolve`, body: { resolution: 'STOCK_CORRECTION', quantity_change: 2 } }),
      observe: async () => [await get(`/products/${conflictProduct}`), await get('/sync/conflicts')],
    },
  };

  const posts = () => app.routes.filter((r) => r.method === 'post').map((r) => ({ name: `POST ${r.path}`, r }));

  it('every POST of the route table is decided: in the set it honours the key (the route flag), out of it with a reason', () => {
    const undecided = posts().filter(({ name }) => !(name in IDEMPOTENT) && !(name in NOT_IDEMPOTENT)).map(({ name }) => name);
    expect(undecided, 'a POST that creates something or moves money gets `idempotent: true` and a case here; any other a reason in NOT_IDEMPOTENT').to.deep.equal([]);
    const stale = [...Object.keys(IDEMPOTENT), ...Object.keys(NOT_IDEMPOTENT)].filter((name) => !posts().some((p) => p.name === name));
    expect(stale, 'decided POSTs the route table no longer has').to.deep.equal([]);
    for (const { name, r } of posts()) expect(Boolean(r.idempotent), name).to.equal(name in IDEMPOTENT);
  });

  it('the document declares, on each of them, the Idempotency-Key header, Idempotent-Replayed and the idempotency error codes; on no other POST', async () => {
    const doc = app.openApi;
    for (const { name, r } of posts()) {
      const op = (doc as any).paths[r.path.replace(/:(\w+)/g, '{$1}')].post;
      const header = (op.parameters ?? []).find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (!(name in IDEMPOTENT)) {
        expect(header, name).to.equal(undefined);
        continue;
      }
      expect(header, name).to.deep.include({ required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
      expect(op['x-error-codes'], name).to.include.members(['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS']);
      expect(op.responses['422'].description, name).to.include('IDEMPOTENCY_KEY_REUSED');
      expect(op.responses['409'].description, name).to.include('IDEMPOTENCY_IN_PROGRESS');
      expect(op.responses[String(r.success.status)].headers, name).to.have.property('Idempotent-Replayed');
    }
  });

  for (const [name, c] of Object.entries(IDEMPOTENT)) {
    it(`${name}: the same key and body twice answers the same status and body and does the work once; the key with another body is 422 IDEMPOTENCY_KEY_REUSED`, async () => {
      await c.setup?.();
      const key = randomUUID();
      const send = (which: 'request' | 'other') => {
        if (c.send) return c.send(key, which);
        const { path, body } = which === 'request' ? c.request() : c.other();
        return app.request('POST', path, { headers: as(c.as, key), ...(body !== undefined ? { body } : {}) });
      };
      const before = await c.observe();
      const first = await send('request');
      expect(first.status, first.text).to.be.oneOf([200, 201, 202]);
      expect(first.headers.get('idempotent-replayed'), name).to.equal(null);
      const done = await c.observe();
      expect(done, `${name} did nothing`).not.to.deep.equal(before);

      const again = await send('request');
      expect(again.status, again.text).to.equal(first.status);
      expect(again.body, name).to.deep.equal(first.body);
      expect(again.headers.get('idempotent-replayed'), name).to.equal('true');
      expect(await c.observe(), `${name} did the work twice`).to.deep.equal(done);

      const other = await send('other');
      expect(other.status, other.text).to.equal(422);
      expect(other.body.error.code, name).to.equal('IDEMPOTENCY_KEY_REUSED');
      expect(await c.observe(), name).to.deep.equal(done);
    });
  }

  it('POST /products/import: the fingerprint covers the file and the query: as text/csv the same file replays; another file or dry_run is 422', async () => {
    const key = randomUUID();
    const csv = 'sku,name,price\nIDEM-TXT-1,Ofada rice,2500\n';
    const first = await upload(key, csv);
    expect(first.status, first.text).to.equal(200);
    expect(first.body.data).to.include({ created: 1, dry_run: false });
    const again = await upload(key, csv);
    expect([again.status, again.headers.get('idempotent-replayed')]).to.deep.equal([200, 'true']);
    expect(again.body).to.deep.equal(first.body);
    expect((await upload(key, 'sku,name,price\nIDEM-TXT-1,Ofada rice,2600\n')).body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    expect((await upload(key, csv, '?dry_run=true')).body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    // the same file as a form is another request (another media type)
    expect((await upload(key, csvForm(csv))).body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    const found = (await get('/products?search=IDEM-TXT-1')).content as { price: number }[];
    expect(found.map((p) => p.price)).to.deep.equal([2500]);
    // read ahead under a key, an upload past the route's limit is still 413, not a fault
    const big = await upload(randomUUID(), `sku,name,price\n${'IDEM-BIG,Rice,1\n'.repeat(400_000)}`);
    expect([big.status, big.body.error.code]).to.deep.equal([413, 'PAYLOAD_TOO_LARGE']);
  });
});
