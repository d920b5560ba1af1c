import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';
import { startGoogleIdp, type GoogleIdp } from '../support/google-idp.js';
import { aPartner } from '../support/partners.js';

type Owner = Awaited<ReturnType<typeof registerOwner>>;

/** Invites a member and signs them in; returns their member id and tokens. */
const inviteAndSignIn = async (app: TestApp, owner: Owner, role: 'STAFF' | 'BUSINESS_OWNER' = 'STAFF') => {
  const phone = aPhone();
  const invite = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade', role } });
  expect(invite.status, invite.text).to.equal(201);
  await app.request('POST', '/auth/login', { body: { phone } });
  const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
  expect(signIn.status, signIn.text).to.equal(200);
  return { phone, memberId: invite.body.data.id as string, accessToken: signIn.body.data.access_token as string, refreshToken: signIn.body.data.refresh_token as string, signIn };
};

const businessIdOf = async (app: TestApp, token: string) => (await app.request('GET', '/businesses/me', { token })).body.data.id as string;

describe('HTTP business, branches and staff', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('invite -> sign in -> act -> deactivate -> refused', async () => {
    const owner = await registerOwner(app);
    const staff = await inviteAndSignIn(app, owner);
    expect(app.outbox.sent.some((m) => m.to === staff.phone && /invited you/.test(m.text))).to.equal(true);
    expect(staff.signIn.body.data.verified).to.equal(true);

    const me = await app.request('GET', '/auth/me', { token: staff.accessToken });
    expect(me.body.data.roles).to.deep.equal(['STAFF']);
    expect(me.body.data.business.id).to.equal(await businessIdOf(app, owner.accessToken));
    expect(me.body.data.branch.name).to.be.a('string');
    expect(me.body.data.status).to.equal('ACTIVE');
    expect((await app.request('GET', '/businesses/me', { token: staff.accessToken })).status).to.equal(200);

    const listed = await app.request('GET', '/businesses/staff?status=ACTIVE', { token: owner.accessToken });
    expect(listed.body.data.content.map((m: { id: string }) => m.id)).to.include(staff.memberId);

    const off = await app.request('DELETE', `/staff/${staff.memberId}`, { token: owner.accessToken });
    expect(off.status).to.equal(200);
    expect(off.body.data.status).to.equal('DEACTIVATED');

    const refused = await app.request('GET', '/businesses/me', { token: staff.accessToken });
    expect(refused.status).to.equal(401);
    expect(refused.body.error.code).to.equal('ACCOUNT_DEACTIVATED');
    const refresh = await app.request('POST', '/auth/refresh', { body: { refresh_token: staff.refreshToken } });
    expect(refresh.status).to.equal(401);
    app.clock.advance(61_000);
    await app.request('POST', '/auth/login', { body: { phone: staff.phone } });
    const again = await app.request('POST', '/auth/verify-otp', { body: { phone: staff.phone, otp: app.outbox.lastCode(staff.phone) } });
    expect(again.status).to.equal(401);
    expect(again.body.error.code).to.equal('ACCOUNT_DEACTIVATED');
  });

  it('a role change applies from the next request, without a new token', async () => {
    const owner = await registerOwner(app);
    const staff = await inviteAndSignIn(app, owner);
    expect((await app.request('GET', '/businesses/staff', { token: staff.accessToken })).status).to.equal(403);
    await app.request('PUT', `/staff/${staff.memberId}`, { token: owner.accessToken, body: { role: 'BUSINESS_OWNER' } });
    expect((await app.request('GET', '/businesses/staff', { token: staff.accessToken })).status).to.equal(200);
  });

  it('refuses to invite someone who already belongs to a business (409)', async () => {
    const a = await registerOwner(app);
    const b = await registerOwner(app);
    const res = await app.request('POST', '/staff/invite', { token: b.accessToken, body: { phone: a.to, first_name: 'X', last_name: 'Y' } });
    expect(res.status).to.equal(409);
    expect(res.body.error.code).to.equal('ALREADY_A_MEMBER');
  });

  it('keeps an owner: no self-deactivation, no demoting the last owner (409)', async () => {
    const owner = await registerOwner(app);
    const mine = (await app.request('GET', '/businesses/staff', { token: owner.accessToken })).body.data.content[0].id as string;
    const self = await app.request('DELETE', `/staff/${mine}`, { token: owner.accessToken });
    expect(self.status).to.equal(409);
    expect(self.body.error.code).to.equal('CANNOT_DEACTIVATE_SELF');
    const demote = await app.request('PUT', `/staff/${mine}`, { token: owner.accessToken, body: { role: 'STAFF' } });
    expect(demote.status).to.equal(409);
    expect(demote.body.error.code).to.equal('LAST_OWNER');
  });

  it('updates the business profile; plan, currency and timezone are not settable (400)', async () => {
    const owner = await registerOwner(app);
    const res = await app.request('PUT', '/businesses/me', {
      token: owner.accessToken,
      body: { name: 'Ada Mega Stores', address: '12 Broad St, Lagos', phone: '08051234567', logo_url: 'https://cdn.example/logo.png', category: 'Pharmacy' },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.include({ name: 'Ada Mega Stores', phone: '+2348051234567', category: 'Pharmacy', plan: 'FREE' });
    const cleared = await app.request('PUT', '/businesses/me', { token: owner.accessToken, body: { address: null } });
    expect(cleared.body.data.address).to.equal(null);
    for (const field of ['plan', 'currency', 'timezone', 'id', 'business_id', 'created_at']) {
      const bad = await app.request('PUT', '/businesses/me', { token: owner.accessToken, body: { [field]: 'PRO' } });
      expect(bad.status, field).to.equal(400);
      expect(bad.body.error.errors[0].field).to.equal(field);
    }
  });

  it('branches: create, read, update; the default cannot be deleted; one with staff is archived and its staff moved', async () => {
    const owner = await registerOwner(app);
    const businessId = await businessIdOf(app, owner.accessToken);
    const created = await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Ikeja', address: 'Allen Ave' } });
    expect(created.status).to.equal(201);
    expect(created.body.data).to.include({ name: 'Ikeja', is_default: false });
    const id = created.body.data.id as string;
    const updated = await app.request('PUT', `/businesses/${businessId}/branches/${id}`, { token: owner.accessToken, body: { name: 'Ikeja GRA' } });
    expect(updated.body.data.name).to.equal('Ikeja GRA');

    const list = await app.request('GET', `/businesses/${businessId}/branches?sort_by=name&sort_dir=asc`, { token: owner.accessToken });
    const main = list.body.data.content.find((b: { is_default: boolean }) => b.is_default);
    const refused = await app.request('DELETE', `/businesses/${businessId}/branches/${main.id}`, { token: owner.accessToken });
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('DEFAULT_BRANCH_PROTECTED');

    const empty = await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Empty' } });
    const erased = await app.request('DELETE', `/businesses/${businessId}/branches/${empty.body.data.id}`, { token: owner.accessToken });
    expect(erased.body.data.archived).to.equal(false);

    const staff = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone: aPhone(), first_name: 'C', last_name: 'D', branch_id: id } });
    expect(staff.body.data.branch_id).to.equal(id);
    const archived = await app.request('DELETE', `/businesses/${businessId}/branches/${id}`, { token: owner.accessToken });
    expect(archived.status).to.equal(200);
    expect(archived.body.data.archived).to.equal(true);
    expect((await app.request('GET', `/businesses/${businessId}/branches/${id}`, { token: owner.accessToken })).status).to.equal(404);
    const moved = await app.request('GET', `/staff/${staff.body.data.id}`, { token: owner.accessToken });
    expect(moved.body.data.branch_id).to.equal(main.id);
  });
});

describe('HTTP role matrix: every route x owner, staff, no token', () => {
  let app: TestApp;
  let owner: Owner;
  let staff: Awaited<ReturnType<typeof inviteAndSignIn>>;
  let businessId: string;
  let idp: GoogleIdp;
  /** Google ID tokens of three Google accounts, one for each request of the link row. */
  const googleTokens: string[] = [];
  before(async () => {
    idp = await startGoogleIdp();
    for (let i = 0; i < 3; i++) googleTokens.push(await idp.idToken());
    app = await createTestApp({ env: idp.env });
    owner = await registerOwner(app);
    staff = await inviteAndSignIn(app, owner);
    businessId = await businessIdOf(app, owner.accessToken);
    await putOnPlan(app, owner, 'BUSINESS'); // the top-services report is a Business and Pro feature
  });
  after(async () => {
    await app.close();
    await idp.close();
  });

  const branch = async () =>
    (await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: `B${Math.random()}` } })).body.data.id as string;
  const member = async () =>
    (await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone: aPhone(), first_name: 'M', last_name: 'N' } })).body.data.id as string;

  const product = async () =>
    (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Rice 5kg', price: 9500, quantity: 100 } })).body.data.id as string;
  const movement = async () =>
    (await app.request('POST', '/products/stock-adjustment', { token: owner.accessToken, body: { product_id: await product(), quantity_change: 5, reason: 'RESTOCK' } })).body.data.id as string;
  let productForAdjustments: string;
  let pendingReference: string;
  /** A transfer of one unit from the default branch to a new one (the owner's). */
  const transfer = async () => {
    const main = ((await app.request('GET', '/businesses/me/branches', { token: owner.accessToken })).body.data.content as { id: string; is_default: boolean }[]).find((b) => b.is_default)!.id;
    const body = { from_branch_id: main, to_branch_id: await branch(), items: [{ product_id: productForAdjustments, quantity: 1 }] };
    return body;
  };
  const transferId = async () => (await app.request('POST', '/products/stock-transfers', { token: owner.accessToken, body: await transfer() })).body.data.id as string;
  let transferBody: unknown;
  let debtor: string;
  let rentId: string;
  let dueSale: string;
  let partnerCode: string;
  /** The business in the partner's network (joining again changes nothing), so it can leave. */
  const inNetwork = async () => (await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: partnerCode } }), '/businesses/me/partner');
  const sale = async () =>
    (await app.request('POST', '/sales', { token: owner.accessToken, body: { items: [{ product_id: productForAdjustments, quantity: 1 }], payment_method: 'CASH' } })).body
      .data as { id: string; receipt_number: string };
  /** A return of one unit of a new sale (restocked, refunded in cash). */
  const aReturn = async () =>
    (await app.request('POST', `/sales/${(await sale()).id}/returns`, { token: owner.accessToken, body: { items: [{ product_id: productForAdjustments, quantity: 1 }], refund_method: 'CASH', reason: 'matrix' } })).body.data.id as string;
  const customer = async () => (await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Matrix' } })).body.data.id as string;
  const invoiceBody = async () => ({ type: 'INVOICE', customer_id: await customer(), lines: [{ description: 'Matrix work', quantity: 1, unit_price: 100 }] });
  /** A sent invoice to a customer with a phone (the share link goes to it). */
  const aShareableInvoice = async () => {
    const customerId = (await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Matrix', phone: aPhone() } })).body.data.id as string;
    const id = (await app.request('POST', '/invoices', { token: owner.accessToken, body: { ...(await invoiceBody()), customer_id: customerId } })).body.data.id as string;
    return (await app.request('POST', `/invoices/${id}/send`, { token: owner.accessToken })).body.data.id as string;
  };
  /** A draft invoice the owner made; `sent`: sent too. */
  const anInvoice = async (sent = false) => {
    const id = (await app.request('POST', '/invoices', { token: owner.accessToken, body: await invoiceBody() })).body.data.id as string;
    if (sent) await app.request('POST', `/invoices/${id}/send`, { token: owner.accessToken });
    return id;
  };
  const aProforma = async () => {
    const id = (await app.request('POST', '/invoices', { token: owner.accessToken, body: { ...(await invoiceBody()), type: 'PROFORMA' } })).body.data.id as string;
    await app.request('POST', `/invoices/${id}/send`, { token: owner.accessToken });
    return id;
  };
  let categoryCount = 0;
  const expenseCategory = async () =>
    (await app.request('POST', '/expenses/categories', { token: owner.accessToken, body: { name: `Matrix ${categoryCount++}` } })).body.data.id as string;
  const rent = async () =>
    ((await app.request('GET', '/expenses/categories?limit=100', { token: owner.accessToken })).body.data.content as { id: string; name: string }[]).find((c) => c.name === 'Rent')!.id;
  /** An expense the staff member recorded: the owner reads and changes it, the staff member reads it. */
  const expense = async () =>
    (await app.request('POST', '/expenses', { token: staff.accessToken, body: { category_id: await rent(), amount: 10, description: 'Matrix', payment_method: 'CASH' } })).body.data
      .id as string;
  const notification = async () =>
    (await app.request('POST', '/notifications/sms', { token: owner.accessToken, body: { to: owner.to, template: 'CUSTOM', message: 'Matrix' } })).body.data.id as string; // a member's number: messages go to customers and staff only
  /** A loan pack made on BUSINESS (ready at once, so it downloads). */
  const readyPack = async () => (await app.request('POST', '/reports/loan-pack', { token: owner.accessToken, body: {} })).body.data.reference as string;
  /** The id (`sid`) of a new sign-in of the phone's user. */
  const newSession = async (phone: string) => {
    await app.request('POST', '/auth/login', { body: { phone } });
    const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    return decodeJwt(signIn.body.data.access_token as string).sid as string;
  };
  // A row's path is asked for by the owner, then the staff member, then no one: each ends a session of their own.
  let sessionPaths = 0;
  const ownSession = async () => `/auth/sessions/${await newSession([owner.to, staff.phone, owner.to][sessionPaths++ % 3]!)}`;
  before(async () => {
    productForAdjustments = await product();
    partnerCode = (await aPartner(app)).code;
    // a pack waiting for payment, made on FREE, for the checkout and verify rows
    await putOnPlan(app, owner, 'FREE');
    pendingReference = (await app.request('POST', '/reports/loan-pack', { token: owner.accessToken, body: {} })).body.data.reference as string;
    await putOnPlan(app, owner, 'BUSINESS');
    debtor = await customer();
    rentId = await rent();
    transferBody = await transfer();
    // a debt of 100.00 for the payment rows to pay down
    const due = await app.request('POST', '/sales', {
      token: owner.accessToken,
      body: { items: [{ product_id: productForAdjustments, quantity: 1, unit_price: 100 }], payment_method: 'CREDIT', customer_id: debtor },
    });
    expect(due.status, due.text).to.equal(201);
    dueSale = due.body.data.id as string;
  });

  type Row = {
    route: string;
    method: string;
    path: () => Promise<string>;
    body?: () => unknown;
    /** A body that is not JSON (an upload). */
    raw?: { rawBody: string; headers: Record<string, string> };
    staff: 'allowed' | 'forbidden';
  };
  /** A synced offline sale of a product with no stock: an open oversell conflict (docs/adr/0034). */
  const openConflict = async () => {
    const product = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: `Oversold ${randomUUID().slice(0, 8)}`, price: 100 } })).body.data.id as string;
    const operations = [{ op_id: randomUUID(), type: 'sale.create', payload: { payment_method: 'CASH', items: [{ product_id: product, quantity: 1 }] } }];
    await app.request('POST', '/sync/batch', { token: owner.accessToken, body: { device_id: 'matrix', operations } });
    return (await app.request('GET', '/sync/conflicts?status=OPEN&limit=1', { token: owner.accessToken })).body.data.content[0].id as string;
  };
  // API-DECISIONS "Roles": staff read the business only; branches, staff and the profile are the owner's.
  const matrix: Row[] = [
    { route: 'GET /auth/me', method: 'GET', path: async () => '/auth/me', staff: 'allowed' },
    { route: 'GET /auth/sessions', method: 'GET', path: async () => '/auth/sessions', staff: 'allowed' },
    { route: 'DELETE /auth/sessions/:id', method: 'DELETE', path: ownSession, staff: 'allowed' },
    { route: 'POST /auth/google/link', method: 'POST', path: async () => '/auth/google/link', body: () => ({ id_token: googleTokens.shift() }), staff: 'allowed' },
    { route: 'GET /businesses/me', method: 'GET', path: async () => '/businesses/me', staff: 'allowed' },
    { route: 'GET /businesses/:id', method: 'GET', path: async () => `/businesses/${businessId}`, staff: 'allowed' },
    { route: 'POST /businesses/me/partner', method: 'POST', path: async () => '/businesses/me/partner', body: () => ({ partner_code: partnerCode }), staff: 'forbidden' },
    { route: 'DELETE /businesses/me/partner', method: 'DELETE', path: inNetwork, staff: 'forbidden' },
    { route: 'PUT /businesses/me', method: 'PUT', path: async () => '/businesses/me', body: () => ({ name: 'Renamed' }), staff: 'forbidden' },
    { route: 'POST /businesses/branches', method: 'POST', path: async () => '/businesses/branches', body: () => ({ name: 'New' }), staff: 'forbidden' },
    { route: 'GET /businesses/:id/branches', method: 'GET', path: async () => `/businesses/${businessId}/branches`, staff: 'forbidden' },
    { route: 'GET /businesses/me/branches', method: 'GET', path: async () => '/businesses/me/branches', staff: 'forbidden' },
    { route: 'GET /businesses/:id/branches/:branch_id', method: 'GET', path: async () => `/businesses/${businessId}/branches/${await branch()}`, staff: 'forbidden' },
    { route: 'PUT /businesses/:id/branches/:branch_id', method: 'PUT', path: async () => `/businesses/${businessId}/branches/${await branch()}`, body: () => ({ name: 'X' }), staff: 'forbidden' },
    { route: 'DELETE /businesses/:id/branches/:branch_id', method: 'DELETE', path: async () => `/businesses/${businessId}/branches/${await branch()}`, staff: 'forbidden' },
    { route: 'POST /staff/invite', method: 'POST', path: async () => '/staff/invite', body: () => ({ phone: aPhone(), first_name: 'A', last_name: 'B' }), staff: 'forbidden' },
    { route: 'GET /businesses/staff', method: 'GET', path: async () => '/businesses/staff', staff: 'forbidden' },
    { route: 'GET /staff', method: 'GET', path: async () => '/staff', staff: 'forbidden' },
    { route: 'GET /staff/:id', method: 'GET', path: async () => `/staff/${await member()}`, staff: 'forbidden' },
    { route: 'PUT /staff/:id', method: 'PUT', path: async () => `/staff/${await member()}`, body: () => ({ role: 'STAFF' }), staff: 'forbidden' },
    { route: 'DELETE /staff/:id', method: 'DELETE', path: async () => `/staff/${await member()}`, staff: 'forbidden' },
    // API-DECISIONS "Roles": staff read, create and adjust stock; update and import/export are the owner's.
    { route: 'POST /products', method: 'POST', path: async () => '/products', body: () => ({ name: 'Beans', price: 1200.5 }), staff: 'allowed' },
    { route: 'GET /products', method: 'GET', path: async () => '/products', staff: 'allowed' },
    { route: 'GET /products/categories', method: 'GET', path: async () => '/products/categories', staff: 'allowed' },
    { route: 'GET /products/:id', method: 'GET', path: async () => `/products/${await product()}`, staff: 'allowed' },
    { route: 'PUT /products/:id', method: 'PUT', path: async () => `/products/${await product()}`, body: () => ({ price: 9999 }), staff: 'forbidden' },
    { route: 'DELETE /products/:id', method: 'DELETE', path: async () => `/products/${await product()}`, staff: 'forbidden' },
    { route: 'POST /products/:id/restore', method: 'POST', path: async () => `/products/${await product()}/restore`, staff: 'forbidden' },
    {
      route: 'POST /products/stock-adjustment',
      method: 'POST',
      path: async () => '/products/stock-adjustment',
      body: () => ({ product_id: productForAdjustments, quantity_change: -1, reason: 'DAMAGE' }),
      staff: 'allowed',
    },
    { route: 'GET /products/stock-adjustments', method: 'GET', path: async () => '/products/stock-adjustments', staff: 'allowed' },
    { route: 'GET /products/stock-adjustments/:id', method: 'GET', path: async () => `/products/stock-adjustments/${await movement()}`, staff: 'allowed' },
    { route: 'GET /products/export', method: 'GET', path: async () => '/products/export', staff: 'forbidden' },
    // transfers between branches are the owner's
    { route: 'POST /products/stock-transfers', method: 'POST', path: async () => '/products/stock-transfers', body: () => transferBody, staff: 'forbidden' },
    { route: 'GET /products/stock-transfers', method: 'GET', path: async () => '/products/stock-transfers', staff: 'forbidden' },
    { route: 'GET /products/stock-transfers/:id', method: 'GET', path: async () => `/products/stock-transfers/${await transferId()}`, staff: 'forbidden' },
    {
      route: 'POST /products/import',
      method: 'POST',
      path: async () => '/products/import',
      raw: { rawBody: 'sku,name,price\r\nMATRIX-1,Matrix,10\r\n', headers: { 'content-type': 'text/csv' } },
      staff: 'forbidden',
    },
    // sales: everyone sells and reads; only the owner voids
    { route: 'POST /sales', method: 'POST', path: async () => '/sales', body: () => ({ items: [{ product_id: productForAdjustments, quantity: 1 }], payment_method: 'CASH' }), staff: 'allowed' },
    { route: 'GET /sales', method: 'GET', path: async () => '/sales', staff: 'allowed' },
    { route: 'GET /sales/receipts', method: 'GET', path: async () => '/sales/receipts', staff: 'allowed' },
    { route: 'GET /sales/receipts/:receipt_number', method: 'GET', path: async () => `/sales/receipts/${(await sale()).receipt_number}`, staff: 'allowed' },
    { route: 'GET /sales/:id', method: 'GET', path: async () => `/sales/${(await sale()).id}`, staff: 'allowed' },
    { route: 'GET /sales/:id/receipt', method: 'GET', path: async () => `/sales/${(await sale()).id}/receipt`, staff: 'allowed' },
    { route: 'GET /sync/changes', method: 'GET', path: async () => '/sync/changes', staff: 'allowed' },
    { route: 'GET /sync/conflicts', method: 'GET', path: async () => '/sync/conflicts', staff: 'forbidden' },
    { route: 'POST /sync/conflicts/:id/resolve', method: 'POST', path: async () => `/sync/conflicts/${await openConflict()}/resolve`, body: () => ({ resolution: 'STOCK_CORRECTION', quantity_change: 1 }), staff: 'forbidden' },
    { route: 'POST /sync/batch', method: 'POST', path: async () => '/sync/batch', body: () => ({ device_id: 'matrix', operations: [{ op_id: randomUUID(), type: 'customer.create', payload: { name: 'Matrix' } }] }), staff: 'allowed' },
    // returns: everyone who sells takes a return back and reads them
    { route: 'POST /sales/:id/returns', method: 'POST', path: async () => `/sales/${(await sale()).id}/returns`, body: () => ({ items: [{ product_id: productForAdjustments, quantity: 1 }], refund_method: 'CASH', reason: 'matrix' }), staff: 'allowed' },
    { route: 'GET /returns', method: 'GET', path: async () => '/returns', staff: 'allowed' },
    { route: 'GET /returns/:id', method: 'GET', path: async () => `/returns/${await aReturn()}`, staff: 'allowed' },
    { route: 'GET /returns/:id/receipt', method: 'GET', path: async () => `/returns/${await aReturn()}/receipt`, staff: 'allowed' },
    // invoices: owner and staff create, change, send and take payments; the owner cancels
    { route: 'POST /invoices', method: 'POST', path: async () => '/invoices', body: invoiceBody, staff: 'allowed' },
    { route: 'GET /invoices', method: 'GET', path: async () => '/invoices', staff: 'allowed' },
    { route: 'GET /invoices/:id', method: 'GET', path: async () => `/invoices/${await anInvoice()}`, staff: 'allowed' },
    { route: 'PUT /invoices/:id', method: 'PUT', path: async () => `/invoices/${await anInvoice()}`, body: async () => { const { type: _t, ...b } = await invoiceBody(); return b; }, staff: 'allowed' },
    { route: 'DELETE /invoices/:id', method: 'DELETE', path: async () => `/invoices/${await anInvoice()}`, staff: 'allowed' },
    { route: 'POST /invoices/:id/send', method: 'POST', path: async () => `/invoices/${await anInvoice()}/send`, staff: 'allowed' },
    { route: 'POST /invoices/:id/payments', method: 'POST', path: async () => `/invoices/${await anInvoice(true)}/payments`, body: () => ({ amount: 50, method: 'CASH' }), staff: 'allowed' },
    { route: 'POST /invoices/:id/convert', method: 'POST', path: async () => `/invoices/${await aProforma()}/convert`, staff: 'allowed' },
    { route: 'GET /invoices/:id/pdf', method: 'GET', path: async () => `/invoices/${await anInvoice(true)}/pdf`, staff: 'allowed' },
    { route: 'POST /invoices/:id/share', method: 'POST', path: async () => `/invoices/${await aShareableInvoice()}/share`, body: () => ({ channel: 'SMS' }), staff: 'allowed' },
    { route: 'POST /invoices/:id/cancel', method: 'POST', path: async () => `/invoices/${await anInvoice(true)}/cancel`, staff: 'forbidden' },
    { route: 'POST /sales/:id/void', method: 'POST', path: async () => `/sales/${(await sale()).id}/void`, body: () => ({ reason: 'matrix' }), staff: 'forbidden' },
    // customers and credit payments: everyone; the aging report is a report: the owner's
    { route: 'POST /customers', method: 'POST', path: async () => '/customers', body: () => ({ name: 'Matrix Customer' }), staff: 'allowed' },
    { route: 'GET /customers', method: 'GET', path: async () => '/customers', staff: 'allowed' },
    { route: 'GET /customers/:id', method: 'GET', path: async () => `/customers/${await customer()}`, staff: 'allowed' },
    { route: 'PUT /customers/:id', method: 'PUT', path: async () => `/customers/${await customer()}`, body: () => ({ notes: 'regular' }), staff: 'allowed' },
    { route: 'GET /customers/:id/transactions', method: 'GET', path: async () => `/customers/${await customer()}/transactions`, staff: 'allowed' },
    { route: 'GET /customers/:id/credit', method: 'GET', path: async () => `/customers/${await customer()}/credit`, staff: 'allowed' },
    {
      route: 'POST /customers/:id/credit/payment',
      method: 'POST',
      path: async () => `/customers/${debtor}/credit/payment`,
      body: () => ({ amount: 1, payment_method: 'CASH' }),
      staff: 'allowed',
    },
    { route: 'GET /credit/aging-report', method: 'GET', path: async () => '/credit/aging-report', staff: 'forbidden' },
    // reports: the owner's
    { route: 'GET /reports/sales/export', method: 'GET', path: async () => '/reports/sales/export', staff: 'forbidden' },
    { route: 'GET /reports/cash-flow/export', method: 'GET', path: async () => '/reports/cash-flow/export', staff: 'forbidden' },
    { route: 'GET /reports/profit-loss/export', method: 'GET', path: async () => '/reports/profit-loss/export', staff: 'forbidden' },
    { route: 'GET /reports/inventory/export', method: 'GET', path: async () => '/reports/inventory/export', staff: 'forbidden' },
    // expenses: staff record and read their own; changing and deleting them, and managing categories, are the owner's
    { route: 'POST /expenses', method: 'POST', path: async () => '/expenses', body: () => ({ category_id: rentId, amount: 1500.5, description: 'Diesel', payment_method: 'CASH' }), staff: 'allowed' },
    { route: 'GET /expenses', method: 'GET', path: async () => '/expenses', staff: 'allowed' },
    { route: 'GET /expenses/summary', method: 'GET', path: async () => '/expenses/summary?group_by=month', staff: 'allowed' },
    { route: 'GET /expenses/:id', method: 'GET', path: async () => `/expenses/${await expense()}`, staff: 'allowed' },
    { route: 'PUT /expenses/:id', method: 'PUT', path: async () => `/expenses/${await expense()}`, body: () => ({ amount: 20 }), staff: 'forbidden' },
    { route: 'DELETE /expenses/:id', method: 'DELETE', path: async () => `/expenses/${await expense()}`, staff: 'forbidden' },
    { route: 'GET /expenses/categories', method: 'GET', path: async () => '/expenses/categories', staff: 'allowed' },
    { route: 'POST /expenses/categories', method: 'POST', path: async () => '/expenses/categories', body: () => ({ name: `Matrix new ${categoryCount++}` }), staff: 'forbidden' },
    { route: 'PUT /expenses/categories/:id', method: 'PUT', path: async () => `/expenses/categories/${await expenseCategory()}`, body: () => ({ name: `Matrix renamed ${categoryCount++}` }), staff: 'forbidden' },
    { route: 'DELETE /expenses/categories/:id', method: 'DELETE', path: async () => `/expenses/categories/${await expenseCategory()}`, staff: 'forbidden' },
    { route: 'GET /reports/dashboard', method: 'GET', path: async () => '/reports/dashboard?period=7d', staff: 'forbidden' },
    { route: 'GET /reports/dashboard/top-services', method: 'GET', path: async () => '/reports/dashboard/top-services', staff: 'forbidden' },
    { route: 'GET /reports/profit-loss', method: 'GET', path: async () => '/reports/profit-loss?start_date=2026-01-01&end_date=2026-12-31', staff: 'forbidden' },
    { route: 'GET /reports/inventory', method: 'GET', path: async () => '/reports/inventory', staff: 'forbidden' },
    { route: 'GET /reports/daily-summary', method: 'GET', path: async () => '/reports/daily-summary', staff: 'forbidden' },
    // notifications: staff send receipts and reminders (CUSTOM is the owner's, tested apart); preferences are the owner's
    { route: 'POST /notifications/sms', method: 'POST', path: async () => '/notifications/sms', body: () => ({ to: owner.to, template: 'RECEIPT', sale_id: dueSale }), staff: 'allowed' },
    { route: 'POST /notifications/whatsapp', method: 'POST', path: async () => '/notifications/whatsapp', body: () => ({ to: owner.to, template: 'RECEIPT', sale_id: dueSale }), staff: 'allowed' },
    { route: 'GET /notifications', method: 'GET', path: async () => '/notifications?channel=SMS', staff: 'allowed' },
    { route: 'GET /notifications/:id', method: 'GET', path: async () => `/notifications/${await notification()}`, staff: 'allowed' },
    { route: 'GET /notifications/preferences', method: 'GET', path: async () => '/notifications/preferences', staff: 'forbidden' },
    { route: 'PUT /notifications/preferences', method: 'PUT', path: async () => '/notifications/preferences', body: () => ({ receipt_channel: 'NONE' }), staff: 'forbidden' },
    { route: 'GET /reports/sales-by-category', method: 'GET', path: async () => '/reports/sales-by-category?start_date=2026-11-01&end_date=2026-11-30', staff: 'forbidden' },
    { route: 'GET /reports/vat', method: 'GET', path: async () => '/reports/vat?month=2026-11', staff: 'forbidden' },
    { route: 'GET /reports/vat/export', method: 'GET', path: async () => '/reports/vat/export?month=2026-11', staff: 'forbidden' },
    // loan packs: the owner's
    { route: 'POST /reports/loan-pack', method: 'POST', path: async () => '/reports/loan-pack', body: () => ({ months: 6 }), staff: 'forbidden' },
    { route: 'GET /reports/loan-pack', method: 'GET', path: async () => '/reports/loan-pack', staff: 'forbidden' },
    { route: 'GET /reports/loan-pack/:reference', method: 'GET', path: async () => `/reports/loan-pack/${pendingReference}`, staff: 'forbidden' },
    {
      route: 'POST /reports/loan-pack/:reference/checkout',
      method: 'POST',
      path: async () => `/reports/loan-pack/${pendingReference}/checkout`,
      body: () => ({ email: 'owner@example.com' }),
      staff: 'forbidden',
    },
    { route: 'POST /reports/loan-pack/payment/verify', method: 'POST', path: async () => '/reports/loan-pack/payment/verify', body: () => ({ reference: pendingReference }), staff: 'forbidden' },
    { route: 'GET /reports/loan-pack/:reference/download', method: 'GET', path: async () => `/reports/loan-pack/${await readyPack()}/download`, staff: 'forbidden' },
    // the audit log: the owner's
    { route: 'GET /audit-log', method: 'GET', path: async () => '/audit-log?action=sale.voided', staff: 'forbidden' },
    { route: 'GET /audit-log/export', method: 'GET', path: async () => '/audit-log/export', staff: 'forbidden' },
  ];
  const publicRoutes = [
    'GET /loan-packs/verify/:reference',
    'POST /payments/paystack/webhook',
    'GET /sandbox/checkout/:code',
    'POST /sandbox/checkout/:code/pay',
    'POST /sandbox/checkout/:code/cancel',
    // the customer's invoice page (docs/adr/0075): the token is the secret
    'GET /public/invoices/:token', 'GET /public/invoices/:token/pdf', 'POST /public/invoices/:token/pay',
    'GET /actuator/health', 'POST /auth/register', 'POST /auth/google', 'POST /auth/verify-otp', 'POST /auth/login', 'POST /auth/refresh', 'POST /auth/logout', 'POST /auth/otp/send', 'POST /auth/otp/verify', 'POST /webhooks/termii', 'GET /webhooks/whatsapp', 'POST /webhooks/whatsapp'];

  it('covers every bearer route of the route table (a new route must join the matrix)', () => {
    // partner routes (X-API-Key) have their own matrix: test/http/partner-*.http.test.ts
    const table = app.routes.filter((r) => r.access !== 'public' && 'roles' in r.access).map((r) => `${r.method.toUpperCase()} ${r.path}`).sort();
    expect(table).to.deep.equal(matrix.map((r) => r.route).sort());
    expect(app.routes.filter((r) => r.access === 'public').map((r) => `${r.method.toUpperCase()} ${r.path}`).sort()).to.deep.equal([...publicRoutes].sort());
  });

  for (const row of matrix) {
    it(`${row.route}: owner 2xx, staff ${row.staff}, no token 401`, async () => {
      const body = await row.body?.();
      const asOwner = await app.request(row.method, await row.path(), { token: owner.accessToken, ...(body ? { body } : {}), ...row.raw });
      expect(asOwner.status, `owner: ${asOwner.text}`).to.be.within(200, 299);

      const asStaff = await app.request(row.method, await row.path(), { token: staff.accessToken, ...(body ? { body: await row.body!() } : {}), ...row.raw });
      if (row.staff === 'forbidden') {
        expect(asStaff.status, `staff: ${asStaff.text}`).to.equal(403);
        expect(asStaff.body.error.code).to.equal('INSUFFICIENT_ROLE');
      } else {
        expect(asStaff.status, `staff: ${asStaff.text}`).to.be.within(200, 299);
      }

      const anonymous = await app.request(row.method, await row.path(), { ...(body ? { body: await row.body!() } : {}), ...row.raw });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.error.code).to.equal('TOKEN_MISSING');
    });
  }
});

describe('HTTP tenancy: another business is invisible (404) on every id-bearing route', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('answers 404 with nothing leaked and nothing changed', async () => {
    const a = await registerOwner(app);
    const b = await registerOwner(app);
    const aBusiness = await businessIdOf(app, a.accessToken);
    const bBusiness = await businessIdOf(app, b.accessToken);
    const aBranch = (await app.request('POST', '/businesses/branches', { token: a.accessToken, body: { name: 'A-only' } })).body.data.id as string;
    const aMember = (await app.request('POST', '/staff/invite', { token: a.accessToken, body: { phone: aPhone(), first_name: 'A', last_name: 'M' } })).body.data.id as string;

    const attempts: [string, string, unknown?][] = [
      ['GET', `/businesses/${aBusiness}`],
      ['GET', `/businesses/${aBusiness}/branches`],
      ['GET', `/businesses/${aBusiness}/branches/${aBranch}`],
      ['PUT', `/businesses/${aBusiness}/branches/${aBranch}`, { name: 'stolen' }],
      ['DELETE', `/businesses/${aBusiness}/branches/${aBranch}`],
      ['GET', `/businesses/${bBusiness}/branches/${aBranch}`],
      ['PUT', `/businesses/${bBusiness}/branches/${aBranch}`, { name: 'stolen' }],
      ['DELETE', `/businesses/${bBusiness}/branches/${aBranch}`],
      ['GET', `/staff/${aMember}`],
      ['PUT', `/staff/${aMember}`, { role: 'BUSINESS_OWNER' }],
      ['DELETE', `/staff/${aMember}`],
      ['GET', '/staff/not-a-uuid'],
      ['GET', `/businesses/${bBusiness}/branches/not-a-uuid`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await app.request(method, path, { token: b.accessToken, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      expect(res.text).to.not.contain('A-only');
    }
    // a foreign branch as a reference is refused as unknown, never used
    const invite = await app.request('POST', '/staff/invite', { token: b.accessToken, body: { phone: aPhone(), first_name: 'X', last_name: 'Y', branch_id: aBranch } });
    expect(invite.status).to.equal(422);
    expect(invite.body.error.code).to.equal('UNKNOWN_BRANCH');

    const still = await app.request('GET', `/businesses/${aBusiness}/branches/${aBranch}`, { token: a.accessToken });
    expect(still.body.data.name).to.equal('A-only');
    expect((await app.request('GET', `/staff/${aMember}`, { token: a.accessToken })).body.data.status).to.equal('INVITED');
    const bStaff = await app.request('GET', '/businesses/staff', { token: b.accessToken });
    expect(bStaff.body.data.content).to.have.length(1);
  });
});
