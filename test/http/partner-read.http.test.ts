import { expect } from 'chai';
import { PDFParse } from 'pdf-parse';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// The partner's read side against a hand-worked fixture. Now is 2026-11-21 12:00Z (13:00 in Lagos).
// Partner A: M1 (joined 2026-09-01 at registration) and M2 (joined 2026-11-10 by POST); partner B: M3.
// Completed sales: M1 2026-10-01 2,000; 2026-11-20 1,000; 2026-11-21 500 and 400 on credit (and a
// voided 50); M2 2026-10-15 3,000 (before it joined: its history comes with it); M3 2026-11-21 7,000.
//
// 30d: current 2026-10-23..2026-11-21, previous 2026-09-23..2026-10-22 (Lagos days).
//   current: merchants 2 (M1, M2), active 1 (M1), rate 50.00, GMV 1,900 in 3 sales, average 633.33
//   previous: merchants 1 (M2 joined after it ended), active 1, rate 100.00, GMV 2,000 in 1, average 2,000
//   changes: +100.00, 0.00, -50.00, -5.00, +200.00, (63333 - 200000) / 200000 = -68.33
// At risk (no sale since 2026-11-07 12:00Z): M2, last sale 37 days ago.

const NOW = new Date('2026-11-21T12:00:00.000Z');
type Merchant = { token: string; businessId: string; phone: string; product: string };

/** The text of the receipt PDF of a merchant's newest sale. */
const receiptText = async (app: TestApp, token: string) => {
  const sale = (await app.request('GET', '/sales?limit=1', { token })).body.data.content[0].id as string;
  const res = await fetch(`${app.baseUrl}/api/v1/sales/${sale}/receipt`, { headers: { authorization: `Bearer ${token}`, accept: 'application/pdf' } });
  expect(res.status).to.equal(200);
  const parser = new PDFParse({ data: new Uint8Array(await res.arrayBuffer()) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
};

// Run on the SQL adapter and on the in-memory one: both compute the same figures.
for (const persistence of ['postgres', 'memory'] as const)
describe(`HTTP partner read side (${persistence}): merchants, a merchant, analytics, branding; A never sees B`, function () {
  this.timeout(180_000);
  let app: TestApp;
  let a: Awaited<ReturnType<typeof aPartner>>;
  let b: Awaited<ReturnType<typeof aPartner>>;
  let m1: Merchant;
  let m2: Merchant;
  let m3: Merchant;

  const at = (iso: string) => app.clock.set(new Date(iso));
  const open = async (name: string, code?: string): Promise<Merchant> => {
    const phone = aPhone();
    const reg = await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ngozi', last_name: name, business_name: name, ...(code ? { partner_code: code } : {}) } });
    expect(reg.status, reg.text).to.equal(201);
    const token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
    const businessId = (await app.request('GET', '/businesses/me', { token })).body.data.id as string;
    const product = (await app.request('POST', '/products', { token, body: { name: 'Rice', price: 100, quantity: 10_000 } })).body.data.id as string;
    return { token, businessId, phone, product };
  };
  const sell = async (m: Merchant, iso: string, amount: number, extra: Record<string, unknown> = {}) => {
    at(iso);
    const res = await app.request('POST', '/sales', { token: m.token, body: { items: [{ product_id: m.product, quantity: 1, unit_price: amount }], payment_method: 'CASH', ...extra } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };

  before(async () => {
    app = await createTestApp({ persistence });
    a = await aPartner(app, 'Partner A');
    b = await aPartner(app, 'Partner B');
    at('2026-09-01T10:00:00.000Z');
    m1 = await open('Chika Stores', a.code);
    m2 = await open('Bayo Mart');
    m3 = await open('Emeka Shop', b.code);
    await sell(m1, '2026-10-01T10:00:00.000Z', 2000);
    await sell(m2, '2026-10-15T10:00:00.000Z', 3000);
    at('2026-11-10T10:00:00.000Z');
    expect((await app.request('POST', '/businesses/me/partner', { token: m2.token, body: { partner_code: a.code } })).status).to.equal(200);
    await sell(m1, '2026-11-20T10:00:00.000Z', 1000);
    await sell(m1, '2026-11-21T09:00:00.000Z', 500);
    const customer = (await app.request('POST', '/customers', { token: m1.token, body: { name: 'Tola' } })).body.data.id as string;
    await sell(m1, '2026-11-21T09:30:00.000Z', 400, { payment_method: 'CREDIT', customer_id: customer });
    const voided = await sell(m1, '2026-11-21T10:00:00.000Z', 50);
    expect((await app.request('POST', `/sales/${voided}/void`, { token: m1.token, body: { reason: 'mistake' } })).status).to.equal(200);
    await sell(m3, '2026-11-21T10:00:00.000Z', 7000);
    // an active staff member of M1
    const staffPhone = aPhone();
    await app.request('POST', '/staff/invite', { token: m1.token, body: { phone: staffPhone, first_name: 'Bola', last_name: 'Ade', role: 'STAFF' } });
    await app.request('POST', '/auth/login', { body: { phone: staffPhone } });
    expect((await app.request('POST', '/auth/verify-otp', { body: { phone: staffPhone, otp: app.outbox.lastCode(staffPhone) } })).status).to.equal(200);
    app.clock.set(NOW);
  });
  after(async () => app.close());

  const list = async (key: string, query = '') => {
    const res = await asPartner(app, key, 'GET', `/partner/merchants${query}`);
    expect(res.status, res.text).to.equal(200);
    return res.body.data as { content: Record<string, unknown>[]; has_next: boolean; cursor: string | null };
  };

  it('GET /partner/merchants: only the partner\'s merchants, with the hand-worked figures', async () => {
    const page = await list(a.key, '?sort_by=name&sort_dir=asc');
    expect(page.content).to.deep.equal([
      { id: m2.businessId, name: 'Bayo Mart', owner_name: 'Ngozi Bayo Mart', owner_phone: m2.phone, plan: 'FREE', status: 'DORMANT', joined_at: '2026-11-10T10:00:00.000Z', last_sale_at: '2026-10-15T10:00:00.000Z', sales_count_30d: 0, gmv_30d: 0 },
      { id: m1.businessId, name: 'Chika Stores', owner_name: 'Ngozi Chika Stores', owner_phone: m1.phone, plan: 'FREE', status: 'ACTIVE', joined_at: '2026-09-01T10:00:00.000Z', last_sale_at: '2026-11-21T09:30:00.000Z', sales_count_30d: 3, gmv_30d: 1900 },
    ]);
    expect((await list(b.key)).content.map((m) => m.id)).to.deep.equal([m3.businessId]);
  });

  it('search (name, owner phone), filters (plan, status, joined dates), sorts and pages', async () => {
    expect((await list(a.key, '?search=chika')).content.map((m) => m.id)).to.deep.equal([m1.businessId]);
    expect((await list(a.key, `?search=${encodeURIComponent(m2.phone.slice(4))}`)).content.map((m) => m.id)).to.deep.equal([m2.businessId]);
    expect((await list(a.key, '?search=emeka')).content).to.deep.equal([]); // B's merchant: not found by search either
    expect((await list(a.key, '?status=DORMANT')).content.map((m) => m.id)).to.deep.equal([m2.businessId]);
    expect((await list(a.key, '?status=ACTIVE')).content.map((m) => m.id)).to.deep.equal([m1.businessId]);
    expect((await list(a.key, '?plan=PRO')).content).to.deep.equal([]);
    expect((await list(a.key, '?start_date=2026-11-01')).content.map((m) => m.id)).to.deep.equal([m2.businessId]);
    expect((await list(a.key)).content.map((m) => m.id)).to.deep.equal([m2.businessId, m1.businessId]); // joined_at desc
    expect((await list(a.key, '?sort_by=gmv_30d')).content.map((m) => m.id)).to.deep.equal([m1.businessId, m2.businessId]);
    const first = await list(a.key, '?sort_by=gmv_30d&sort_dir=asc&limit=1');
    expect(first.content.map((m) => m.id)).to.deep.equal([m2.businessId]);
    const second = await list(a.key, `?sort_by=gmv_30d&sort_dir=asc&limit=1&cursor=${first.cursor}`);
    expect(second.content.map((m) => m.id)).to.deep.equal([m1.businessId]);
    expect(second.has_next).to.equal(false);
    for (const q of ['?sort_by=owner_name', '?status=SLEEPING', '?limit=0', '?cursor=abc.def']) expect((await asPartner(app, a.key, 'GET', `/partner/merchants${q}`)).status, q).to.equal(400);
  });

  it('GET /partner/merchants/{id}: 12 months, credit outstanding, staff count; another partner\'s merchant is 404 like an unknown id', async () => {
    const res = await asPartner(app, a.key, 'GET', `/partner/merchants/${m1.businessId}`);
    expect(res.status, res.text).to.equal(200);
    const d = res.body.data;
    expect(d).to.include({ id: m1.businessId, sales_count_30d: 3, gmv_30d: 1900, credit_outstanding: 400, staff_count: 1 });
    expect(d.monthly).to.have.length(12);
    expect(d.monthly[0]).to.deep.equal({ month: '2025-12', gmv: 0, sales_count: 0 });
    expect(d.monthly.slice(-2)).to.deep.equal([
      { month: '2026-10', gmv: 2000, sales_count: 1 },
      { month: '2026-11', gmv: 1900, sales_count: 3 },
    ]);
    expect(JSON.stringify(d)).to.not.match(/receipt|customer_id|product/);
    for (const [key, id] of [[a.key, m3.businessId], [b.key, m1.businessId], [a.key, '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f'], [a.key, 'nope']] as const) {
      const other = await asPartner(app, key, 'GET', `/partner/merchants/${id}`);
      expect(other.status, id).to.equal(404);
      expect(other.body.error.code).to.equal('RESOURCE_NOT_FOUND');
    }
  });

  it('GET /partner/analytics?period=30d: the hand-worked figures; B sees only its own', async () => {
    const res = await asPartner(app, a.key, 'GET', '/partner/analytics?period=30d');
    expect(res.status, res.text).to.equal(200);
    const r = res.body.data;
    expect(r).to.deep.include({ period: '30d', start_date: '2026-10-23', end_date: '2026-11-21', previous_start_date: '2026-09-23', previous_end_date: '2026-10-22' });
    expect(r.merchants_total).to.deep.equal({ value: 2, previous: 1, change_pct: 100 });
    expect(r.merchants_active).to.deep.equal({ value: 1, previous: 1, change_pct: 0 });
    expect(r.active_rate_pct).to.deep.equal({ value: 50, previous: 100, change_pct: -50 });
    expect(r.gmv).to.deep.equal({ value: 1900, previous: 2000, change_pct: -5 });
    expect(r.transactions).to.deep.equal({ value: 3, previous: 1, change_pct: 200 });
    expect(r.average_ticket).to.deep.equal({ value: 633.33, previous: 2000, change_pct: -68.33 });
    expect(r.daily_gmv).to.have.length(30);
    expect(r.daily_gmv.filter((d: { gmv: number }) => d.gmv > 0)).to.deep.equal([
      { date: '2026-11-20', gmv: 1000, transactions: 1 },
      { date: '2026-11-21', gmv: 900, transactions: 2 },
    ]);
    expect(r.merchants_at_risk).to.deep.equal({ count: 1, merchants: [{ id: m2.businessId, name: 'Bayo Mart', owner_phone: m2.phone, last_sale_at: '2026-10-15T10:00:00.000Z', days_since_last_sale: 37 }] });

    const ofB = (await asPartner(app, b.key, 'GET', '/partner/analytics')).body.data;
    expect(ofB.period).to.equal('30d');
    expect(ofB.merchants_total.value).to.equal(1);
    expect(ofB.gmv.value).to.equal(7000);
    expect(ofB.merchants_at_risk.count).to.equal(0);
    const week = (await asPartner(app, a.key, 'GET', '/partner/analytics?period=7d')).body.data;
    expect(week).to.deep.include({ start_date: '2026-11-15', end_date: '2026-11-21' });
    expect(week.gmv).to.deep.equal({ value: 1900, previous: 0, change_pct: null });
    expect((await asPartner(app, a.key, 'GET', '/partner/analytics?period=1y')).status).to.equal(400);
  });

  it('scopes: a merchants:read key reads merchants but gets 403 INSUFFICIENT_SCOPE on analytics and branding', async () => {
    const reader = (await asPartner(app, a.key, 'POST', '/partner/api-keys', { name: 'Reader', scopes: ['merchants:read'] })).body.data.key as string;
    expect((await asPartner(app, reader, 'GET', '/partner/merchants')).status).to.equal(200);
    for (const [method, path, body] of [['GET', '/partner/analytics', undefined], ['PUT', '/partner/branding', { display_name: 'x' }]] as const) {
      const res = await asPartner(app, reader, method, path, body);
      expect(res.status, path).to.equal(403);
      expect(res.body.error.code).to.equal('INSUFFICIENT_SCOPE');
    }
    const analyst = (await asPartner(app, a.key, 'POST', '/partner/api-keys', { name: 'Analyst', scopes: ['analytics:read'] })).body.data.key as string;
    expect((await asPartner(app, analyst, 'GET', `/partner/merchants/${m1.businessId}`)).status).to.equal(403);
  });

  it('PUT /partner/branding: shown to A\'s merchants in GET /businesses/me, not to B\'s; bad values are 400', async () => {
    const branding = { display_name: 'A Bank', logo_url: 'https://cdn.a.example/logo.png', primary_color: '#0a7f3d', support_phone: '08031234567', support_email: 'Help@A.example' };
    const res = await asPartner(app, a.key, 'PUT', '/partner/branding', branding);
    expect(res.status, res.text).to.equal(200);
    const saved = { display_name: 'A Bank', logo_url: 'https://cdn.a.example/logo.png', primary_color: '#0A7F3D', support_phone: '+2348031234567', support_email: 'help@a.example' };
    expect(res.body.data).to.deep.equal(saved);
    expect((await app.request('GET', '/businesses/me', { token: m1.token })).body.data.partner.branding).to.deep.equal(saved);
    expect((await app.request('GET', '/businesses/me', { token: m3.token })).body.data.partner.branding.display_name).to.equal(null);
    // and on their PDF receipts: A's branding and support contacts; B's name (it set no branding)
    const m1Receipt = await receiptText(app, m1.token);
    expect(m1Receipt).to.contain('In partnership with A Bank').and.contain('Support: +2348031234567 | help@a.example');
    const m3Receipt = await receiptText(app, m3.token);
    expect(m3Receipt).to.contain('In partnership with Partner B').and.not.contain('Support:');
    for (const bad of [{ logo_url: 'http://cdn.a.example/logo.png' }, { primary_color: 'green' }, { support_phone: '12' }, { support_email: 'nope' }, { display_name: '' }, { colour: '#000000' }]) {
      expect((await asPartner(app, a.key, 'PUT', '/partner/branding', bad)).status, JSON.stringify(bad)).to.equal(400);
    }
    const cleared = await asPartner(app, a.key, 'PUT', '/partner/branding', { display_name: 'A' });
    expect(cleared.body.data).to.deep.equal({ display_name: 'A', logo_url: null, primary_color: null, support_phone: null, support_email: null });
  });

  it('a merchant that leaves disappears from the list, its id is 404 and the analytics leave it out, at once', async () => {
    const owner = await registerOwner(app);
    expect((await app.request('POST', '/businesses/me/partner', { token: owner.accessToken, body: { partner_code: a.code } })).status).to.equal(200);
    const id = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
    expect((await asPartner(app, a.key, 'GET', `/partner/merchants/${id}`)).status).to.equal(200);
    expect((await asPartner(app, a.key, 'GET', '/partner/analytics')).body.data.merchants_total.value).to.equal(3);
    expect((await app.request('DELETE', '/businesses/me/partner', { token: owner.accessToken })).status).to.equal(200);
    expect((await asPartner(app, a.key, 'GET', `/partner/merchants/${id}`)).status).to.equal(404);
    expect((await list(a.key)).content.map((m) => m.id)).to.not.include(id);
    expect((await asPartner(app, a.key, 'GET', '/partner/analytics')).body.data.merchants_total.value).to.equal(2);
  });
});
