import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { FIRST_ATTEMPT_GRACE_MS } from '../../application/ports/outbox.js';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

// Issue 36, the owner's half (docs/adr/0069, 0070): every audited action makes exactly one entry, with the
// right actor (a member, an offline till, a partner's key), in the change's own transaction; owners read
// and export the log with filters, staff cannot, and the table refuses UPDATE and DELETE.

type Entry = {
  id: string;
  at: string;
  action: string;
  actor: { type: string; user_id: string | null; name: string | null; role: string | null; device_id: string | null; api_key_id: string | null };
  subject: { type: string; id: string; label: string | null };
  branch_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string | null;
};

describe('HTTP audit log', function () {
  this.timeout(120_000);
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof registerOwner>>;
  let staff: { token: string; userId: string; membershipId: string; phone: string };
  let main: string;
  let productId: string;
  let discounted: { id: string; receipt: string };

  const ownerActor = () => ({ type: 'USER', user_id: owner.userId, name: 'Ada Obi', role: 'BUSINESS_OWNER', device_id: null, api_key_id: null });
  const staffActor = () => ({ type: 'USER', user_id: staff.userId, name: 'Bola Ade', role: 'STAFF', device_id: null, api_key_id: null });

  /** Every entry of the owner's log, newest first (paged through). */
  const all = async (token = owner.accessToken, query = ''): Promise<Entry[]> => {
    const out: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res: TestResponse = await app.request('GET', `/audit-log?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
      expect(res.status, res.text).to.equal(200);
      out.push(...(res.body.data.content as Entry[]));
      cursor = res.body.data.cursor;
    } while (cursor);
    return out;
  };
  /** The entries `act` adds to the owner's log. */
  const added = async (act: () => Promise<unknown>): Promise<Entry[]> => {
    const before = new Set((await all()).map((e) => e.id));
    app.clock.advance(1_000); // each change at its own time: the log is newest first
    await act();
    return (await all()).filter((e) => !before.has(e.id));
  };
  /** The one entry `act` adds (exactly one), with the answer of `act`. */
  const oneEntry = async <R>(act: () => Promise<R>): Promise<{ entry: Entry; result: R }> => {
    let result!: R;
    const fresh = await added(async () => (result = await act()));
    expect(fresh.map((e) => e.action), 'exactly one new entry').to.have.length(1);
    return { entry: fresh[0]!, result };
  };
  /** The outbox's due work, as the queue runs it once the grace of a request's first attempt is over. */
  const drain = async () => {
    for (let i = 0; i < 3; i++) {
      app.clock.advance(FIRST_ATTEMPT_GRACE_MS + 1_000);
      await app.dispatcher.runDue();
    }
  };
  const ok = (res: TestResponse, status = 200) => {
    expect(res.status, res.text).to.equal(status);
    return res;
  };
  const signIn = async (phone: string, userAgent?: string) => {
    const headers: Record<string, string> = userAgent ? { 'user-agent': userAgent } : {};
    ok(await app.request('POST', '/auth/login', { body: { phone }, headers }));
    return ok(await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) }, headers }));
  };

  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    const branches = ok(await app.request('GET', '/businesses/me/branches', { token: owner.accessToken })).body.data.content as { id: string; is_default: boolean }[];
    main = branches.find((b) => b.is_default)!.id;
    productId = ok(await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Rice 50kg', price: 1500.5, quantity: 100 } }), 201).body.data.id;
  });
  after(async () => app.close());

  it('staff.invited: by the owner, the member and their branch; their first sign-in is no new device', async () => {
    const phone = aPhone();
    const { entry, result } = await oneEntry(() => app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade' } }));
    const member = ok(result, 201).body.data;
    expect(entry).to.deep.include({ action: 'staff.invited', actor: ownerActor(), subject: { type: 'staff_member', id: member.id, label: 'Bola Ade' }, branch_id: main, before: null });
    expect(entry.after).to.deep.equal({ user_id: member.user_id, role: 'STAFF', phone });
    expect(entry.request_id).to.equal(result.headers.get('x-request-id'));
    const fresh = await added(() => signIn(phone));
    expect(fresh).to.deep.equal([]);
    staff = { token: (await signIn(phone)).body.data.access_token, userId: member.user_id, membershipId: member.id, phone };
  });

  it('sale.discounted: one entry for a line and a sale discount, by the member who sold; a sale without one makes none', async () => {
    const { entry, result } = await oneEntry(() =>
      app.request('POST', '/sales', { token: staff.token, body: { items: [{ product_id: productId, quantity: 2, discount: 100 }], discount: 50, payment_method: 'CASH' } }),
    );
    const sale = ok(result, 201).body.data;
    discounted = { id: sale.id, receipt: sale.receipt_number };
    expect(entry).to.deep.include({ action: 'sale.discounted', actor: staffActor(), subject: { type: 'sale', id: sale.id, label: sale.receipt_number }, branch_id: main });
    expect(entry.before).to.deep.equal({ total: 3001 });
    const raw = (await app.request('GET', `/audit-log?subject_id=${sale.id}`, { token: owner.accessToken })).text;
    expect(raw).to.include('"before":{"total":3001.00}').and.include('"discount":50.00'); // money with 2 decimals, as everywhere
    expect(entry.after).to.deep.equal({ total: 2851, discount: 50, line_discounts: [{ product_id: productId, name: 'Rice 50kg', quantity: 2, discount: 100 }] });
    expect(await added(() => app.request('POST', '/sales', { token: staff.token, body: { items: [{ product_id: productId, quantity: 1 }], payment_method: 'CASH' } }))).to.deep.equal([]);
  });

  it('sale.voided: one entry, the stock it put back inside it (no stock.adjusted beside it)', async () => {
    const { entry } = await oneEntry(() => app.request('POST', `/sales/${discounted.id}/void`, { token: owner.accessToken, body: { reason: 'Wrong bag' } }));
    expect(entry).to.deep.include({ action: 'sale.voided', actor: ownerActor(), subject: { type: 'sale', id: discounted.id, label: discounted.receipt }, branch_id: main });
    expect(entry.before).to.deep.equal({ status: 'COMPLETED', total: 2851 });
    expect(entry.after).to.deep.equal({ status: 'VOIDED', refund_amount: 2851, reason: 'Wrong bag', returned_stock: [{ product_id: productId, name: 'Rice 50kg', branch_id: main, quantity: 2 }] });
  });

  it('product.price_changed: the prices that changed, in naira; an edit of the name alone makes none', async () => {
    const { entry } = await oneEntry(() => app.request('PUT', `/products/${productId}`, { token: owner.accessToken, body: { price: 1600, cost_price: 1200.25 } }));
    expect(entry).to.deep.include({ action: 'product.price_changed', actor: ownerActor(), subject: { type: 'product', id: productId, label: 'Rice 50kg' }, branch_id: null });
    expect(entry.before).to.deep.equal({ price: 1500.5, cost_price: null });
    expect(entry.after).to.deep.equal({ price: 1600, cost_price: 1200.25 });
    expect(await added(() => app.request('PUT', `/products/${productId}`, { token: owner.accessToken, body: { name: 'Rice 50kg', unit: 'bag' } }))).to.deep.equal([]);
  });

  it('stock.adjusted: the branch quantity before and after, by the member', async () => {
    const { entry } = await oneEntry(() => app.request('POST', '/products/stock-adjustment', { token: staff.token, body: { product_id: productId, quantity_change: -10, reason: 'LOSS' } }));
    expect(entry).to.deep.include({ action: 'stock.adjusted', actor: staffActor(), subject: { type: 'product', id: productId, label: 'Rice 50kg' }, branch_id: main });
    expect(entry.before).to.deep.equal({ quantity: 99 });
    expect(entry.after).to.deep.equal({ quantity: 89, quantity_change: -10, reason: 'LOSS' });
  });

  it('stock.transferred: one entry for the transfer, none for its ledger rows', async () => {
    const lekki = ok(await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Lekki' } }), 201).body.data.id as string;
    const { entry, result } = await oneEntry(() =>
      app.request('POST', '/products/stock-transfers', { token: owner.accessToken, body: { from_branch_id: main, to_branch_id: lekki, items: [{ product_id: productId, quantity: 5 }], note: 'Weekend stock' } }),
    );
    const transfer = ok(result, 201).body.data;
    expect(entry).to.deep.include({ action: 'stock.transferred', actor: ownerActor(), subject: { type: 'stock_transfer', id: transfer.id, label: null }, branch_id: main, before: null });
    expect(entry.after).to.deep.equal({ from_branch_id: main, to_branch_id: lekki, items: [{ product_id: productId, quantity: 5 }], note: 'Weekend stock' });
  });

  it('expense.deleted: what the expense was; after is null', async () => {
    const category = ok(await app.request('GET', '/expenses/categories?search=Rent', { token: owner.accessToken })).body.data.content[0].id;
    const expense = ok(await app.request('POST', '/expenses', { token: owner.accessToken, body: { category_id: category, amount: 25000, description: 'Shop rent', payment_method: 'TRANSFER', spent_on: '2026-11-02' } }), 201).body.data;
    const { entry } = await oneEntry(() => app.request('DELETE', `/expenses/${expense.id}`, { token: owner.accessToken }));
    expect(entry).to.deep.include({ action: 'expense.deleted', actor: ownerActor(), subject: { type: 'expense', id: expense.id, label: 'Shop rent' }, branch_id: main, after: null });
    expect(entry.before).to.deep.equal({ amount: 25000, description: 'Shop rent', category_name: 'Rent', spent_on: '2026-11-02' });
  });

  it('sale.returned: one entry for a return, its restock inside it (no stock.adjusted beside it)', async () => {
    const sale = ok(await app.request('POST', '/sales', { token: staff.token, body: { items: [{ product_id: productId, quantity: 3 }], payment_method: 'CASH' } }), 201).body.data;
    const { entry, result } = await oneEntry(() =>
      app.request('POST', `/sales/${sale.id}/returns`, { token: owner.accessToken, body: { items: [{ product_id: productId, quantity: 1 }], refund_method: 'CASH', reason: 'Torn bag' } }),
    );
    const back = ok(result, 201).body.data;
    expect(entry).to.deep.include({ action: 'sale.returned', actor: ownerActor(), subject: { type: 'sale', id: sale.id, label: sale.receipt_number }, branch_id: main, before: null });
    expect(entry.after).to.deep.equal({
      return_id: back.id, return_number: back.return_number, amount: 1600, debt_reduced: 0, refund_amount: 1600, refund_method: 'CASH', restock: true, reason: 'Torn bag',
      lines: [{ product_id: productId, name: 'Rice 50kg', quantity: 1, amount: 1600 }],
    });
  });

  it('staff.role_changed and staff.deactivated: one entry each; a change of branch alone makes none', async () => {
    const promoted = await oneEntry(() => app.request('PUT', `/staff/${staff.membershipId}`, { token: owner.accessToken, body: { role: 'BUSINESS_OWNER' } }));
    expect(promoted.entry).to.deep.include({ action: 'staff.role_changed', actor: ownerActor(), subject: { type: 'staff_member', id: staff.membershipId, label: 'Bola Ade' }, before: { role: 'STAFF' }, after: { role: 'BUSINESS_OWNER' } });
    const demoted = await oneEntry(() => app.request('PUT', `/staff/${staff.membershipId}`, { token: owner.accessToken, body: { role: 'STAFF' } }));
    expect(demoted.entry).to.deep.include({ before: { role: 'BUSINESS_OWNER' }, after: { role: 'STAFF' } });
    expect(await added(() => app.request('PUT', `/staff/${staff.membershipId}`, { token: owner.accessToken, body: { branch_id: main } }))).to.deep.equal([]);

    const other = ok(await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone: aPhone(), first_name: 'Kemi', last_name: 'Bello' } }), 201).body.data;
    const { entry } = await oneEntry(() => app.request('DELETE', `/staff/${other.id}`, { token: owner.accessToken }));
    expect(entry).to.deep.include({ action: 'staff.deactivated', actor: ownerActor(), subject: { type: 'staff_member', id: other.id, label: 'Kemi Bello' }, before: { status: 'INVITED' }, after: { status: 'DEACTIVATED' } });
    expect(await added(() => app.request('DELETE', `/staff/${other.id}`, { token: owner.accessToken }))).to.deep.equal([]);
  });

  it('business.settings_changed: the fields that changed, with their API names; saving the same values makes none', async () => {
    const businessId = ok(await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id;
    const change = { name: 'Ada Stores Ikeja', address: '12 Allen Avenue, Ikeja', logo_url: 'https://cdn.example.com/ada.png' };
    const { entry } = await oneEntry(() => app.request('PUT', '/businesses/me', { token: owner.accessToken, body: change }));
    expect(entry).to.deep.include({ action: 'business.settings_changed', actor: ownerActor(), subject: { type: 'business', id: businessId, label: 'Ada Stores Ikeja' } });
    expect(entry.before).to.deep.equal({ name: 'Ada Stores', address: null, logo_url: null });
    expect(entry.after).to.deep.equal(change);
    expect(await added(() => app.request('PUT', '/businesses/me', { token: owner.accessToken, body: change }))).to.deep.equal([]);
  });

  it('notifications.preferences_changed: the sections and fields that changed, thresholds in naira; saving the same values makes none', async () => {
    const businessId = ok(await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id;
    const change = { audit_alerts: { enabled: true, sale_voided_over: 5000.5, stock_adjusted_over: 20 }, receipt_channel: 'SMS', daily_summary: { enabled: false } };
    const { entry } = await oneEntry(() => app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: change }));
    expect(entry).to.deep.include({ action: 'notifications.preferences_changed', actor: ownerActor(), subject: { type: 'business', id: businessId, label: 'Notification preferences' }, branch_id: null });
    // daily_summary.enabled was already false: not in the entry
    expect(entry.before).to.deep.equal({ audit_alerts: { enabled: false, sale_voided_over: null, stock_adjusted_over: null }, receipt_channel: 'NONE' });
    expect(entry.after).to.deep.equal({ audit_alerts: { enabled: true, sale_voided_over: 5000.5, stock_adjusted_over: 20 }, receipt_channel: 'SMS' });
    expect(await added(() => app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: change }))).to.deep.equal([]);
    // put back as it was: the alert tests below start from the defaults
    ok(await app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: { audit_alerts: { enabled: false, sale_voided_over: null, stock_adjusted_over: null }, receipt_channel: 'NONE' } }));
  });

  it('session.signed_in_new_device: a sign-in from a user agent the member never signed in from, once', async () => {
    const phone = owner.to;
    const agent = 'Mozilla/5.0 (Linux; Android 14; TECNO KI7) Chrome/126.0 Mobile';
    const { entry, result } = await oneEntry(() => signIn(phone, agent));
    expect(entry).to.deep.include({ action: 'session.signed_in_new_device', actor: ownerActor(), subject: { type: 'session', id: entry.subject.id, label: agent }, before: null });
    expect(entry.after).to.deep.equal({ user_agent: agent, ip: '127.0.0.1' });
    expect(entry.request_id).to.equal(result.headers.get('x-request-id'));
    expect(await added(() => signIn(phone, agent))).to.deep.equal([]);
  });

  it('loan_pack.paid: by the owner who verified the payment', async () => {
    const pack = ok(await app.request('POST', '/reports/loan-pack', { token: owner.accessToken, body: {} }), 201).body.data;
    const checkout = ok(await app.request('POST', `/reports/loan-pack/${pack.reference}/checkout`, { token: owner.accessToken, body: { email: 'ada@example.com' } })).body.data;
    ok(await app.request('POST', `${new URL(checkout.authorization_url).pathname}/pay`));
    const { entry } = await oneEntry(() => app.request('POST', '/reports/loan-pack/payment/verify', { token: owner.accessToken, body: { reference: pack.reference } }));
    expect(entry).to.deep.include({ action: 'loan_pack.paid', actor: ownerActor(), subject: { type: 'loan_pack', id: pack.reference, label: pack.reference }, before: { status: 'PENDING_PAYMENT' } });
    expect(entry.after).to.deep.include({ status: 'READY', amount_paid: 5000 });
    expect((await all(owner.accessToken, `&subject_type=loan_pack&subject_id=${pack.reference}`)).map((e) => e.id)).to.deep.equal([entry.id]);
  });

  it("api_key.created: by the partner's key, in the log of each business of its network (and no other)", async () => {
    const partner = await aPartner(app, 'Kudi Partners');
    ok(await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: partner.code } }));
    const outsider = await registerOwner(app);
    const { entry, result } = await oneEntry(() => asPartner(app, partner.key, 'POST', '/partner/api-keys', { name: 'Dashboard', scopes: ['merchants:read'] }));
    const key = ok(result, 201).body.data;
    expect(entry).to.deep.include({
      action: 'api_key.created',
      actor: { type: 'PARTNER_KEY', user_id: null, name: 'Kudi Partners', role: null, device_id: null, api_key_id: partner.keyId },
      subject: { type: 'api_key', id: key.id, label: `Dashboard (${key.prefix}…)` },
      before: null,
    });
    expect(entry.after).to.deep.include({ name: 'Dashboard', scopes: ['merchants:read'], rotated_from: null });
    expect(await all(outsider.accessToken)).to.deep.equal([]);
  });

  it("an offline till's operation is the DEVICE's, on its member's behalf; a replay of the operation makes none", async () => {
    const op = { op_id: randomUUID(), type: 'stock_adjustment.create', payload: { product_id: productId, quantity_change: -3, reason: 'DAMAGE' } };
    const sync = () => app.request('POST', '/sync/batch', { token: staff.token, body: { device_id: 'till-7', operations: [op] } });
    const { entry, result } = await oneEntry(sync);
    expect(ok(result).body.data.applied).to.equal(1);
    expect(entry).to.deep.include({ action: 'stock.adjusted', actor: { ...staffActor(), type: 'DEVICE', device_id: 'till-7' }, branch_id: main });
    expect(entry.after).to.deep.include({ quantity_change: -3, reason: 'DAMAGE' });
    expect(await added(sync)).to.deep.equal([]);
  });

  it('filters: action, actor_id, branch_id, subject_type and subject_id, dates; a bad filter is 400', async () => {
    const everything = await all();
    expect(everything.length).to.be.greaterThan(10);
    expect((await all(owner.accessToken, '&action=sale.voided')).map((e) => e.subject.id)).to.deep.equal([discounted.id]);
    const bySale = await all(owner.accessToken, `&subject_type=sale&subject_id=${discounted.id.toUpperCase()}`);
    expect(bySale.map((e) => e.action)).to.deep.equal(['sale.voided', 'sale.discounted']);
    const byStaff = await all(owner.accessToken, `&actor_id=${staff.userId}`);
    expect(byStaff.map((e) => e.action)).to.deep.equal(['stock.adjusted', 'stock.adjusted', 'sale.discounted']);
    expect(byStaff.every((e) => e.actor.user_id === staff.userId)).to.equal(true);
    const atMain = await all(owner.accessToken, `&branch_id=${main}`);
    expect(atMain.length).to.be.greaterThan(0);
    expect(atMain.every((e) => e.branch_id === main)).to.equal(true);
    expect(await all(owner.accessToken, '&start_date=2099-01-01')).to.deep.equal([]);
    const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10); // the Lagos day (UTC+1)
    expect((await all(owner.accessToken, `&start_date=${today}&end_date=${today}`)).length).to.equal(everything.length);
    const oldestFirst = ok(await app.request('GET', '/audit-log?sort_dir=asc&limit=2', { token: owner.accessToken })).body.data;
    expect(oldestFirst.content.map((e: Entry) => e.id)).to.deep.equal(everything.slice(-2).reverse().map((e) => e.id));
    for (const bad of ['action=sale.deleted', 'actor_id=nope', 'subject_type=customer', 'sort_by=action', 'limit=0', 'start_date=2026-02-30']) {
      const res = await app.request('GET', `/audit-log?${bad}`, { token: owner.accessToken });
      expect(res.status, bad).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_FAILED');
    }
  });

  it('GET /audit-log/export: a CSV of the entries the same filters select, money in naira', async () => {
    const res = await app.request('GET', '/audit-log/export?action=sale.voided', { token: owner.accessToken });
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).to.equal('id,at,action,actor_type,actor_user_id,actor_name,actor_role,actor_device_id,actor_api_key_id,subject_type,subject_id,subject_label,branch_id,before,after,request_id');
    expect(lines).to.have.length(2);
    expect(lines[1]).to.include(`,sale.voided,USER,${owner.userId},Ada Obi,BUSINESS_OWNER,,,sale,${discounted.id},${discounted.receipt},${main},`);
    expect(lines[1]).to.include('"{""status"":""COMPLETED"",""total"":2851.00}"');
    const whole = await app.request('GET', '/audit-log/export', { token: owner.accessToken });
    expect(whole.text.replace(/^\uFEFF/, '').trim().split('\r\n')).to.have.length((await all()).length + 1);
  });

  it('is for owners: staff get 403 on the list and the export, no token 401; another business sees none of it', async () => {
    for (const path of ['/audit-log', '/audit-log/export']) {
      const res = await app.request('GET', path, { token: staff.token });
      expect(res.status, path).to.equal(403);
      expect(res.body.error.code).to.equal('INSUFFICIENT_ROLE');
      expect((await app.request('GET', path)).status).to.equal(401);
    }
    const stranger = await registerOwner(app);
    expect(await all(stranger.accessToken)).to.deep.equal([]);
    expect((await all(owner.accessToken, `&actor_id=${stranger.userId}`))).to.deep.equal([]);
  });

  it('the table refuses UPDATE, DELETE and TRUNCATE, even for the role the API connects as', async () => {
    const client = new pg.Client({ connectionString: app.databaseUrl! });
    await client.connect();
    try {
      for (const sql of ["update audit_log set action = 'sale.discounted'", 'delete from audit_log', 'truncate audit_log']) {
        let refused: unknown;
        try {
          await client.query(sql);
        } catch (e) {
          refused = e;
        }
        expect(String(refused), sql).to.match(/audit_log is append-only: (UPDATE|DELETE|TRUNCATE) refused/);
      }
      const { rows } = await client.query<{ n: string }>('select count(*) as n from audit_log where action = $1', ['sale.voided']);
      expect(rows[0]!.n).to.equal('1');
    } finally {
      await client.end();
    }
  });

  it('alerts the owner through the queue to a void, a discount or an adjustment above the thresholds they chose', async () => {
    await drain(); // what happened before these preferences is past
    const prefs = (body: unknown) => app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: { audit_alerts: body } });
    const set = ok(await prefs({ enabled: true, channel: 'SMS', sale_voided_over: 1000, sale_discounted_over: 200.5, stock_adjusted_over: 5 }));
    expect(set.body.data.audit_alerts).to.deep.equal({ enabled: true, channel: 'SMS', sale_voided_over: 1000, sale_discounted_over: 200.5, stock_adjusted_over: 5 });
    expect(set.text).to.include('"sale_discounted_over":200.50');
    const negative = await prefs({ sale_voided_over: -1 });
    expect(negative.status, negative.text).to.equal(422);
    expect(negative.body.error).to.deep.include({ code: 'AMOUNT_MUST_NOT_BE_NEGATIVE', errors: [{ field: 'audit_alerts.sale_voided_over', message: 'must not be negative' }] });
    for (const bad of [{ stock_adjusted_over: 1.5 }, { stock_adjusted_over: -1 }, { sale_voided_over: 10.001 }, { stock_adjusted_over: 1_000_000_001 }, { sale_voided_over: 1e13 }, { nope: 1 }]) {
      expect((await prefs(bad)).status, JSON.stringify(bad)).to.equal(400);
    }
    const sent = app.outbox.sent.length;
    const sell = (discount: number) => app.request('POST', '/sales', { token: staff.token, body: { items: [{ product_id: productId, quantity: 1 }], discount, payment_method: 'CASH' } });
    const small = ok(await sell(200.5), 201).body.data; // a discount of exactly the threshold: no alert
    const big = ok(await sell(300), 201).body.data; // 1600 - 300 = 1300 total
    ok(await app.request('POST', `/sales/${big.id}/void`, { token: owner.accessToken, body: { reason: 'Till error' } }));
    ok(await app.request('POST', `/sales/${small.id}/void`, { token: owner.accessToken, body: { reason: 'Till error' } })); // 1399.50: alert
    const adjust = (n: number) => app.request('POST', '/products/stock-adjustment', { token: staff.token, body: { product_id: productId, quantity_change: n, reason: 'CORRECTION' } });
    ok(await adjust(-5), 201); // not more than 5
    ok(await adjust(-8), 201);
    ok(await adjust(6), 201);
    await drain();
    const alerts = app.outbox.sent.slice(sent).filter((m) => m.purpose === 'AUDIT_ALERT');
    expect(alerts.map((m) => [m.channel, m.to])).to.deep.equal(new Array(5).fill(['sms', owner.to]));
    expect(alerts.map((m) => m.text).sort()).to.deep.equal([
      `Ada Stores Ikeja: Ada Obi voided sale ${big.receipt_number} (₦1,300.00). See the audit log.`,
      `Ada Stores Ikeja: Ada Obi voided sale ${small.receipt_number} (₦1,399.50). See the audit log.`,
      `Ada Stores Ikeja: Bola Ade adjusted the stock of Rice 50kg down by 8. See the audit log.`,
      `Ada Stores Ikeja: Bola Ade adjusted the stock of Rice 50kg up by 6. See the audit log.`,
      `Ada Stores Ikeja: Bola Ade gave ₦300.00 off on sale ${big.receipt_number}. See the audit log.`,
    ].sort());
    const listed = ok(await app.request('GET', '/notifications?limit=100', { token: owner.accessToken })).body.data.content as { template: string; status: string }[];
    expect(listed.filter((n) => n.template === 'AUDIT_ALERT').map((n) => n.status)).to.deep.equal(new Array(5).fill('SENT'));
    ok(await prefs({ enabled: false }));
    ok(await adjust(-50), 201);
    await drain();
    expect(app.outbox.sent.slice(sent).filter((m) => m.purpose === 'AUDIT_ALERT')).to.have.length(5);
  });
});
