import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

/** Issue 21: a stranger who knows the phone number cannot lock its owner out of signing in. */
describe('HTTP sign-in cannot be blocked by anyone who knows the number', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  it('21 requests in 4 minutes (codes of both purposes every minute, and killed sign-in codes) leave the owner able to sign in', async () => {
    const owner = await registerOwner(app);
    const phone = owner.to;
    app.clock.advance(61_000);
    let requests = 0;
    const send = async (path: string) => {
      requests += 1;
      const res = await app.request('POST', path, { body: { phone } });
      expect(res.status, `${path}: ${res.text}`).to.equal(200);
    };
    const killSignInCode = async () => {
      await send('/auth/login');
      const wrong = app.outbox.lastCode(phone) === '000000' ? '111111' : '000000';
      for (let t = 0; t < 5; t++) {
        requests += 1;
        expect((await app.request('POST', '/auth/verify-otp', { body: { phone, otp: wrong } })).status).to.equal(400);
      }
    };
    for (let minute = 0; minute < 4; minute++) {
      await send('/auth/otp/send');
      await send('/auth/login');
      app.clock.advance(61_000);
    }
    await killSignInCode();
    await killSignInCode();
    requests += 1;
    const last = await app.request('POST', '/auth/otp/send', { body: { phone } });
    expect(last.status).to.be.oneOf([200, 429]);
    expect(requests).to.equal(21);
    // the owner, a minute later, gets a code and signs in
    app.clock.advance(61_000);
    const login = await app.request('POST', '/auth/login', { body: { phone } });
    expect(login.status, login.text).to.equal(200);
    const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    expect(signIn.status, signIn.text).to.equal(200);
  });

  it('sign-in codes still stop at the hourly budget when they are used, not killed', async () => {
    const owner = await registerOwner(app);
    for (let i = 0; i < 9; i++) {
      app.clock.advance(1_000);
      expect((await app.request('POST', '/auth/login', { body: { phone: owner.to } })).status).to.equal(200);
      expect((await app.request('POST', '/auth/verify-otp', { body: { phone: owner.to, otp: app.outbox.lastCode(owner.to) } })).status).to.equal(200);
    }
    app.clock.advance(1_000);
    const capped = await app.request('POST', '/auth/login', { body: { phone: owner.to } });
    expect(capped.status, capped.text).to.equal(429);
    expect(capped.body.error.code).to.equal('OTP_HOURLY_LIMIT');
  });
});

/** Issue 31: the lockout a stranger could still cause, and the one per-number rate limit they could spend. */
describe('HTTP a stranger hammering a number from elsewhere does not lock its owner out', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp({ env: { TRUST_PROXY: 'true' } })));
  after(async () => app.close());
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('30 codes asked for and killed with wrong tries: the stranger gets 429 OTP_HOURLY_LIMIT, the owner still gets a code and signs in', async () => {
    const owner = await registerOwner(app);
    const phone = owner.to;
    app.clock.advance(61_000);
    const stranger = from('102.89.7.7');
    for (let i = 0; i < 30; i++) {
      const sent = await app.request('POST', '/auth/login', { body: { phone }, headers: stranger });
      expect(sent.status, `code ${i + 1}: ${sent.text}`).to.equal(200);
      const wrong = app.outbox.lastCode(phone) === '000000' ? '111111' : '000000';
      for (let t = 0; t < 5; t++) {
        expect((await app.request('POST', '/auth/verify-otp', { body: { phone, otp: wrong }, headers: stranger })).status).to.equal(400);
      }
      app.clock.advance(1_000);
    }
    const refused = await app.request('POST', '/auth/login', { body: { phone }, headers: stranger });
    expect(refused.status, refused.text).to.equal(429);
    expect(refused.body.error.code).to.equal('OTP_HOURLY_LIMIT');
    // the owner, on their own network: a code at once, and it signs in
    const mine = from('197.210.1.1');
    const login = await app.request('POST', '/auth/login', { body: { phone }, headers: mine });
    expect(login.status, login.text).to.equal(200);
    const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) }, headers: mine });
    expect(signIn.status, signIn.text).to.equal(200);
    // the generic pair too: the stranger's VERIFY codes are theirs to lose
    for (let i = 0; i < 30; i++) {
      expect((await app.request('POST', '/auth/otp/send', { body: { phone }, headers: stranger })).status).to.equal(200);
      const wrong = app.outbox.lastCode(phone) === '000000' ? '111111' : '000000';
      for (let t = 0; t < 5; t++) await app.request('POST', '/auth/otp/verify', { body: { phone, otp: wrong }, headers: stranger });
    }
    expect((await app.request('POST', '/auth/otp/send', { body: { phone }, headers: stranger })).body.error?.code).to.equal('OTP_HOURLY_LIMIT');
    expect((await app.request('POST', '/auth/otp/send', { body: { phone }, headers: mine })).status).to.equal(200);
  });
});

describe('HTTP the per-number rate limit is per number and client IP', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp({ env: { TRUST_PROXY: 'true', RATE_LIMIT_AUTH_PER_IDENTIFIER: '3' } })));
  after(async () => app.close());

  it('a stranger spending a number’s 3 requests a minute gets 429 RATE_LIMITED; its owner, elsewhere, in the same minute, does not', async () => {
    const phone = aPhone();
    const stranger = { 'x-forwarded-for': '102.89.7.8' };
    for (let i = 0; i < 3; i++) await app.request('POST', '/auth/verify-otp', { body: { phone, otp: '000000' }, headers: stranger });
    const limited = await app.request('POST', '/auth/login', { body: { phone }, headers: stranger });
    expect(limited.status).to.equal(429);
    expect(limited.body.error.code).to.equal('RATE_LIMITED');
    const owner = await app.request('POST', '/auth/login', { body: { phone }, headers: { 'x-forwarded-for': '197.210.1.2' } });
    expect(owner.status, owner.text).to.equal(200);
  });
});

describe('HTTP an invitation does not claim a phone number', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const invite = (owner: { accessToken: string }, phone: string) =>
    app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Squat', last_name: 'Ted' } });

  it('invited then deactivated: the real person registers their own business and signs in to it', async () => {
    const squatter = await registerOwner(app);
    const phone = `+23480311${String(Date.now()).slice(-5)}`;
    const invited = await invite(squatter, phone);
    expect(invited.status, invited.text).to.equal(201);
    expect((await app.request('DELETE', `/staff/${invited.body.data.id}`, { token: squatter.accessToken })).status).to.equal(200);
    const own = await registerOwner(app, { phone });
    const me = await app.request('GET', '/businesses/me', { token: own.accessToken });
    expect(me.status).to.equal(200);
    expect(me.body.data.name).to.equal('Ada Stores');
    // and the squatter's staff list still shows the deactivated invitation (history kept)
    const staff = (await app.request('GET', '/businesses/staff?status=DEACTIVATED', { token: squatter.accessToken })).body.data.content as { id: string }[];
    expect(staff.map((m) => m.id)).to.include(invited.body.data.id);
    // while active in their own business, nobody else can invite them
    const other = await registerOwner(app);
    const refused = await invite(other, phone);
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('ALREADY_A_MEMBER');
  });

  it('a pending invitation does not stop the person registering: the invitation lapses, and cannot be renewed to squat the phone', async () => {
    const squatter = await registerOwner(app);
    const phone = `+23480313${String(Date.now()).slice(-5)}`;
    const invited = await invite(squatter, phone);
    expect(invited.status, invited.text).to.equal(201);
    app.clock.advance(61_000);
    const own = await registerOwner(app, { phone });
    const me = await app.request('GET', '/businesses/me', { token: own.accessToken });
    expect(me.body.data.name).to.equal('Ada Stores');
    expect(me.body.data.id).to.not.equal((await app.request('GET', '/businesses/me', { token: squatter.accessToken })).body.data.id);
    // the invitation is closed: the inviter's staff list shows it DEACTIVATED
    const staff = (await app.request('GET', '/businesses/staff?status=DEACTIVATED', { token: squatter.accessToken })).body.data.content as { id: string }[];
    expect(staff.map((m) => m.id)).to.include(invited.body.data.id);
    // deleting and inviting again does not take the phone back: the person is a member of their own business
    await app.request('DELETE', `/staff/${invited.body.data.id}`, { token: squatter.accessToken });
    const again = await invite(squatter, phone);
    expect(again.status, again.text).to.equal(409);
    expect(again.body.error.code).to.equal('ALREADY_A_MEMBER');
    // and accepting the invitation (signing in) lands in the person's own business, never the inviter's
    app.clock.advance(61_000);
    await app.request('POST', '/auth/login', { body: { phone } });
    const signedIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    expect(signedIn.status, signedIn.text).to.equal(200);
    expect((await app.request('GET', '/businesses/me', { token: signedIn.body.data.access_token })).body.data.id).to.equal(me.body.data.id);
  });

  it('an invitation not accepted within 7 days lapses: sign-in is 401 INVITATION_EXPIRED, and the person may register or be invited elsewhere', async () => {
    const first = await registerOwner(app);
    const phone = `+23480312${String(Date.now()).slice(-5)}`;
    expect((await invite(first, phone)).status).to.equal(201);
    const second = await registerOwner(app);
    const tooSoon = await invite(second, phone);
    expect(tooSoon.status).to.equal(409);
    app.clock.advance(7 * 24 * 3_600_000 + 1_000);
    await app.request('POST', '/auth/login', { body: { phone } });
    const lapsed = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    expect(lapsed.status, lapsed.text).to.equal(401);
    expect(lapsed.body.error.code).to.equal('INVITATION_EXPIRED');
    const again = await invite(second, phone);
    expect(again.status, again.text).to.equal(201);
    app.clock.advance(61_000);
    await app.request('POST', '/auth/login', { body: { phone } });
    const joined = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    expect(joined.status, joined.text).to.equal(200);
    const me = await app.request('GET', '/businesses/me', { token: joined.body.data.access_token });
    expect(me.body.data.id).to.equal((await app.request('GET', '/businesses/me', { token: second.accessToken })).body.data.id);
  });
});
