import { expect } from 'chai';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

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
