import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

describe('HTTP auth: the flow of spec section 5', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('register -> verify -> me -> login -> verify -> refresh, by phone', async () => {
    const local = `0803${String(Date.now()).slice(-7)}`;
    const reg = await app.request('POST', '/auth/register', {
      body: { phone: local, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' },
    });
    expect(reg.status).to.equal(201);
    expect(reg.body.success).to.equal(true);
    const phone = `+234${local.slice(1)}`;
    expect(reg.body.data.phone).to.equal(phone);
    expect(reg.body.data.user_id).to.match(/^[0-9a-f-]{36}$/);
    expect(Date.parse(reg.body.data.otp_expires_at) - app.clock.now().getTime()).to.equal(10 * 60 * 1000);

    const verify = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    expect(verify.status).to.equal(200);
    expect(verify.body.data).to.include({ verified: true, token_type: 'Bearer', expires_in: 3600 });

    const me = await app.request('GET', '/auth/me', { token: verify.body.data.access_token });
    expect(me.status).to.equal(200);
    expect(me.body.data.roles).to.deep.equal(['BUSINESS_OWNER']);
    expect(me.body.data.business).to.include({ name: 'Ada Stores', plan: 'FREE', currency: 'NGN', timezone: 'Africa/Lagos' });
    expect(me.body.data.branch.name).to.be.a('string');
    expect(me.headers.get('cache-control')).to.equal('no-store');

    const login = await app.request('POST', '/auth/login', { body: { phone } });
    expect(login.status).to.equal(200);
    expect(login.body.data.phone).to.equal(phone);
    const again = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    expect(again.status).to.equal(200);
    expect(again.body.data).to.not.have.property('verified');

    const refreshed = await app.request('POST', '/auth/refresh', { body: { refresh_token: again.body.data.refresh_token } });
    expect(refreshed.status).to.equal(200);
    expect(refreshed.body.data.refresh_token).to.not.equal(again.body.data.refresh_token);
    const me2 = await app.request('GET', '/auth/me', { token: refreshed.body.data.access_token });
    expect(me2.body.data.user.phone).to.equal(phone);
  });

  it('the e-mail path returns the same kind of tokens', async () => {
    const owner = await registerOwner(app, { email: `Ada.${Date.now()}@Example.com` });
    const me = await app.request('GET', '/auth/me', { token: owner.accessToken });
    expect(me.body.data.user.email).to.equal(owner.to.toLowerCase());
    expect(app.outbox.sent.at(-1)!.channel).to.equal('email');
  });

  it('refuses a second registration of the same phone with 409 DUPLICATE_PHONE', async () => {
    const owner = await registerOwner(app);
    const dup = await app.request('POST', '/auth/register', {
      body: { phone: owner.to, first_name: 'B', last_name: 'C', business_name: 'D' },
    });
    expect(dup.status).to.equal(409);
    expect(dup.body.error.code).to.equal('DUPLICATE_PHONE');
  });

  it('answers garbage phones, both identifiers and none with 400 naming the field', async () => {
    for (const body of [
      { phone: 'not-a-phone', first_name: 'A', last_name: 'B', business_name: 'C' },
      { phone: aPhone(), email: 'a@b.co', first_name: 'A', last_name: 'B', business_name: 'C' },
      { first_name: 'A', last_name: 'B', business_name: 'C' },
    ]) {
      const res = await app.request('POST', '/auth/register', { body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_FAILED');
      expect(res.body.error.errors.map((e: { field: string }) => e.field)).to.include('phone');
    }
  });
});

describe('HTTP auth under concurrency', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('ten simultaneous registrations of one phone: exactly one 201, the rest 409', async () => {
    const phone = aPhone();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.request('POST', '/auth/register', { body: { phone, first_name: 'A', last_name: 'B', business_name: `Shop ${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, ...Array(9).fill(409)]);
  });

  it('ten simultaneous uses of one code: exactly one sign-in', async () => {
    const owner = await registerOwner(app);
    await app.request('POST', '/auth/login', { body: owner.identifier });
    const otp = app.outbox.lastCode(owner.to);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => app.request('POST', '/auth/verify-otp', { body: { ...owner.identifier, otp } })),
    );
    expect(results.filter((r) => r.status === 200)).to.have.length(1);
    expect(results.filter((r) => r.status === 400)).to.have.length(9);
  });

  it('ten simultaneous refreshes with one token: one rotation, all answered with its successor (the grace window); the family lives on', async () => {
    const owner = await registerOwner(app);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => app.request('POST', '/auth/refresh', { body: { refresh_token: owner.refreshToken } })),
    );
    expect(results.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.data.refresh_token)).size).to.equal(1);
    const next = await app.request('POST', '/auth/refresh', { body: { refresh_token: results[0]!.body.data.refresh_token } });
    expect(next.status, next.text).to.equal(200);
  });
});
