import { expect } from 'chai';
import { PARTNER_SCOPES } from '../../domain/partner.js';
import { aPartner, asPartner } from '../support/partners.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const DAY = 24 * 60 * 60 * 1000;

describe('HTTP partner API keys (X-API-Key, scopes, expiry, revocation, rotation)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let a: Awaited<ReturnType<typeof aPartner>>;
  let b: Awaited<ReturnType<typeof aPartner>>;
  before(async () => {
    app = await createTestApp();
    a = await aPartner(app, 'Partner A');
    b = await aPartner(app, 'Partner B');
  });
  after(async () => app.close());

  const make = async (key: string, body: Record<string, unknown>) => {
    const res = await asPartner(app, key, 'POST', '/partner/api-keys', body);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; key: string; prefix: string; status: string; expires_at: string | null; scopes: string[] };
  };

  it('partner routes take X-API-Key only: none, a bearer token, garbage are 401 with the ApiKey scheme; a partner key on a merchant route is 401', async () => {
    const missing = await app.request('GET', '/partner/api-keys');
    expect(missing.status).to.equal(401);
    expect(missing.body.error.code).to.equal('API_KEY_MISSING');
    expect(missing.headers.get('www-authenticate')).to.match(/^ApiKey realm="bizops-partner"/);
    const owner = await registerOwner(app);
    const bearer = await app.request('GET', '/partner/api-keys', { token: owner.accessToken });
    expect(bearer.status).to.equal(401);
    expect(bearer.body.error.code).to.equal('API_KEY_MISSING');
    for (const bad of ['pk_live_nope', 'nope', `pk_live_${'x'.repeat(300)}`, a.key.slice(0, -1)]) {
      const res = await asPartner(app, bad, 'GET', '/partner/api-keys');
      expect(res.status, bad).to.equal(401);
      expect(res.body.error.code, bad).to.equal('API_KEY_INVALID');
    }
    const merchant = await asPartner(app, a.key, 'GET', '/businesses/me');
    expect(merchant.status).to.equal(401);
    expect(merchant.body.error.code).to.equal('TOKEN_MISSING');
  });

  it('POST makes a key shown once (pk_live_ + 32 bytes base64url); the list shows prefix, scopes, status, never the key; last_used_at moves', async () => {
    const k = await make(a.key, { name: 'Dashboard', scopes: ['merchants:read', 'analytics:read'], expires_in_days: 90 });
    expect(k.key).to.match(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(k.prefix).to.equal(k.key.slice(0, 12));
    expect(k).to.include({ status: 'ACTIVE', expires_at: new Date(app.clock.now().getTime() + 90 * DAY).toISOString() });
    expect(k.scopes).to.deep.equal(['merchants:read', 'analytics:read']);
    const list = await asPartner(app, a.key, 'GET', '/partner/api-keys');
    expect(list.status).to.equal(200);
    expect(list.text).to.not.contain(k.key).and.not.contain(a.key);
    const row = list.body.data.content.find((x: { id: string }) => x.id === k.id);
    expect(row).to.include({ name: 'Dashboard', prefix: k.prefix, status: 'ACTIVE', last_used_at: null });
    expect(Object.keys(row).sort()).to.deep.equal(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scopes', 'status']);
    const first = list.body.data.content.find((x: { id: string }) => x.id === a.keyId);
    expect(first.last_used_at).to.equal(app.clock.now().toISOString());
    // B sees only its own keys
    const ofB = await asPartner(app, b.key, 'GET', '/partner/api-keys');
    expect(ofB.body.data.content.map((x: { id: string }) => x.id)).to.deep.equal([b.keyId]);
  });

  it('a call outside the key\'s scopes is 403 INSUFFICIENT_SCOPE; a key cannot make a key with scopes it lacks', async () => {
    const reader = await make(a.key, { name: 'Reader', scopes: ['merchants:read'] });
    const res = await asPartner(app, reader.key, 'GET', '/partner/api-keys');
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('INSUFFICIENT_SCOPE');
    const manager = await make(a.key, { name: 'Key manager', scopes: ['keys:manage', 'merchants:read'] });
    const stronger = await asPartner(app, manager.key, 'POST', '/partner/api-keys', { name: 'Stronger', scopes: ['analytics:read'] });
    expect(stronger.status).to.equal(403);
    expect(stronger.body.error.code).to.equal('INSUFFICIENT_SCOPE');
    expect(stronger.body.error.errors).to.deep.equal([{ field: 'scopes', message: 'analytics:read not held by the calling key' }]);
    await make(manager.key, { name: 'Weaker', scopes: ['merchants:read'] });
  });

  it('every partner route: no key is 401 API_KEY_MISSING, a bearer token too, a key without the route\'s scope 403 INSUFFICIENT_SCOPE', async () => {
    const owner = await registerOwner(app);
    const lacking = new Map<string, string>();
    for (const scope of PARTNER_SCOPES) {
      lacking.set(scope, (await make(a.key, { name: `Without ${scope}`, scopes: PARTNER_SCOPES.filter((s) => s !== scope) })).key);
    }
    const partnerRoutes = app.routes.filter((r) => r.access !== 'public' && 'partnerScope' in r.access);
    expect(partnerRoutes.length).to.be.greaterThan(15);
    for (const r of partnerRoutes) {
      const scope = (r.access as { partnerScope: string }).partnerScope;
      const path = r.path.replace(/:\w+/g, '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f');
      const where = `${r.method.toUpperCase()} ${r.path}`;
      const none = await app.request(r.method.toUpperCase(), path);
      expect([none.status, none.body.error.code], where).to.deep.equal([401, 'API_KEY_MISSING']);
      const bearer = await app.request(r.method.toUpperCase(), path, { token: owner.accessToken });
      expect([bearer.status, bearer.body.error.code], where).to.deep.equal([401, 'API_KEY_MISSING']);
      const without = await asPartner(app, lacking.get(scope)!, r.method.toUpperCase(), path);
      expect([without.status, without.body.error.code], where).to.deep.equal([403, 'INSUFFICIENT_SCOPE']);
    }
  });

  it('bad bodies are 400: a lifetime other than 30/90/365/null, an unknown or repeated scope, no scopes, an unknown field', async () => {
    for (const body of [
      { name: 'x', scopes: ['merchants:read'], expires_in_days: 45 },
      { name: 'x', scopes: ['merchants:write'] },
      { name: 'x', scopes: ['merchants:read', 'merchants:read'] },
      { name: 'x', scopes: [] },
      { name: '', scopes: ['merchants:read'] },
      { name: 'x', scopes: ['merchants:read'], admin: true },
    ]) {
      const res = await asPartner(app, a.key, 'POST', '/partner/api-keys', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_FAILED');
    }
  });

  it('expiry takes effect at once: a 30-day key is 401 API_KEY_EXPIRED on day 30 and listed EXPIRED', async () => {
    const k = await make(a.key, { name: 'Short', scopes: ['keys:manage'], expires_in_days: 30 });
    expect((await asPartner(app, k.key, 'GET', '/partner/api-keys')).status).to.equal(200);
    app.clock.advance(30 * DAY);
    try {
      const res = await asPartner(app, k.key, 'GET', '/partner/api-keys');
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('API_KEY_EXPIRED');
      const list = await asPartner(app, a.key, 'GET', '/partner/api-keys');
      expect(list.body.data.content.find((x: { id: string }) => x.id === k.id).status).to.equal('EXPIRED');
      expect((await asPartner(app, a.key, 'POST', `/partner/api-keys/${k.id}/rotate`)).status).to.equal(404);
    } finally {
      app.clock.advance(-30 * DAY);
    }
  });

  it('revocation takes effect at once; another partner\'s key is 404 to revoke or rotate, and stays valid', async () => {
    const k = await make(a.key, { name: 'Leaked', scopes: ['keys:manage'] });
    expect((await asPartner(app, b.key, 'POST', `/partner/api-keys/${k.id}/revoke`)).status).to.equal(404);
    expect((await asPartner(app, b.key, 'POST', `/partner/api-keys/${k.id}/rotate`)).status).to.equal(404);
    expect((await asPartner(app, k.key, 'GET', '/partner/api-keys')).status).to.equal(200);
    const revoked = await asPartner(app, a.key, 'POST', `/partner/api-keys/${k.id}/revoke`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.data).to.include({ id: k.id, status: 'REVOKED', revoked_at: app.clock.now().toISOString() });
    const res = await asPartner(app, k.key, 'GET', '/partner/api-keys');
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('API_KEY_INVALID');
    expect((await asPartner(app, a.key, 'POST', `/partner/api-keys/${k.id}/revoke`)).body.data.status).to.equal('REVOKED');
    expect((await asPartner(app, a.key, 'POST', '/partner/api-keys/not-a-uuid/revoke')).status).to.equal(404);
  });

  it('a key cannot revoke or rotate a key with scopes it lacks (403 INSUFFICIENT_SCOPE, the key unchanged); it may revoke a weaker one and itself', async () => {
    const manager = await make(a.key, { name: 'Narrow manager', scopes: ['keys:manage'] });
    for (const action of ['revoke', 'rotate']) {
      const res = await asPartner(app, manager.key, 'POST', `/partner/api-keys/${a.keyId}/${action}`);
      expect([res.status, res.body.error?.code], action).to.deep.equal([403, 'INSUFFICIENT_SCOPE']);
      expect(res.body.error.detail, action).to.contain('merchants:read');
    }
    expect((await asPartner(app, a.key, 'GET', '/partner/api-keys')).status, 'the full key still works').to.equal(200);
    const list = await asPartner(app, a.key, 'GET', '/partner/api-keys');
    expect(list.body.data.content.find((x: { id: string }) => x.id === a.keyId)).to.include({ status: 'ACTIVE', revoked_at: null, expires_at: null });
    const weaker = await make(a.key, { name: 'Weaker manager', scopes: ['keys:manage'] });
    expect((await asPartner(app, manager.key, 'POST', `/partner/api-keys/${weaker.id}/revoke`)).status).to.equal(200);
    expect((await asPartner(app, manager.key, 'POST', `/partner/api-keys/${manager.id}/revoke`)).status).to.equal(200);
    expect((await asPartner(app, manager.key, 'GET', '/partner/api-keys')).status).to.equal(401);
  });

  it('rotation: a new key with the same name and scopes; the old one works for 24 hours, then is EXPIRED', async () => {
    const old = await make(a.key, { name: 'Rotating', scopes: ['keys:manage', 'merchants:read'], expires_in_days: 365 });
    const res = await asPartner(app, a.key, 'POST', `/partner/api-keys/${old.id}/rotate`);
    expect(res.status, res.text).to.equal(201);
    const fresh = res.body.data;
    expect(fresh.key).to.match(/^pk_live_/).and.not.equal(old.key);
    expect(fresh).to.include({ name: 'Rotating', status: 'ACTIVE', expires_at: new Date(app.clock.now().getTime() + 365 * DAY).toISOString() });
    expect(fresh.scopes).to.deep.equal(['keys:manage', 'merchants:read']);
    const list = await asPartner(app, fresh.key, 'GET', '/partner/api-keys');
    expect(list.body.data.content.find((x: { id: string }) => x.id === old.id)).to.include({ status: 'ACTIVE', expires_at: new Date(app.clock.now().getTime() + DAY).toISOString() });
    app.clock.advance(DAY - 1);
    try {
      expect((await asPartner(app, old.key, 'GET', '/partner/api-keys')).status).to.equal(200);
      app.clock.advance(1);
      expect((await asPartner(app, old.key, 'GET', '/partner/api-keys')).body.error.code).to.equal('API_KEY_EXPIRED');
      expect((await asPartner(app, fresh.key, 'GET', '/partner/api-keys')).status).to.equal(200);
    } finally {
      app.clock.advance(-DAY);
    }
  });
});

describe('HTTP partner rate limit (per API key, with the RateLimit headers)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => (app = await createTestApp({ env: { RATE_LIMIT_PARTNER: '3' } })));
  after(async () => app.close());

  it('RATE_LIMIT_PARTNER calls a minute per key, then 429 RATE_LIMITED with Retry-After; another key has its own count', async () => {
    const p = await aPartner(app);
    const other = (await asPartner(app, p.key, 'POST', '/partner/api-keys', { name: 'Other', scopes: ['keys:manage'] })).body.data.key as string; // call 1
    for (const remaining of [1, 0]) {
      const res = await asPartner(app, p.key, 'GET', '/partner/api-keys');
      expect(res.status).to.equal(200);
      expect(res.headers.get('ratelimit-limit')).to.equal('3');
      expect(res.headers.get('ratelimit-remaining')).to.equal(String(remaining));
      expect(Number(res.headers.get('ratelimit-reset'))).to.be.within(1, 60);
    }
    const limited = await asPartner(app, p.key, 'GET', '/partner/api-keys');
    expect(limited.status).to.equal(429);
    expect(limited.body.error.code).to.equal('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    expect((await asPartner(app, other, 'GET', '/partner/api-keys')).status).to.equal(200);
  });
});
