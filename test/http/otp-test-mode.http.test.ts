import { expect } from 'chai';
import { loadConfig } from '../../bootstrap/config.js';
import { DEFAULT_TEST_IDENTIFIERS, parseTestIdentifiers } from '../../domain/otp-test-identifiers.js';
import { aPhone, createTestApp, type TestApp } from '../support/test-app.js';

describe('OTP test mode', () => {
  it('the identifier list: phones, equal-length phone ranges, e-mails and *@domain; anything else is refused', () => {
    const listed = parseTestIdentifiers(DEFAULT_TEST_IDENTIFIERS)!;
    expect(listed({ kind: 'phone', value: '+2348000000000' as never })).to.equal(true);
    expect(listed({ kind: 'phone', value: '+2348000000099' as never })).to.equal(true);
    expect(listed({ kind: 'phone', value: '+2348000000100' as never })).to.equal(false);
    expect(listed({ kind: 'phone', value: '+2348031234567' as never })).to.equal(false);
    expect(listed({ kind: 'email', value: 'qa@example.com' })).to.equal(true);
    expect(listed({ kind: 'email', value: 'qa@example.com.ng' })).to.equal(false);
    const exact = parseTestIdentifiers('qa@shop.ng,+2348031234567')!;
    expect(exact({ kind: 'email', value: 'qa@shop.ng' })).to.equal(true);
    expect(exact({ kind: 'phone', value: '+2348031234567' as never })).to.equal(true);
    for (const bad of ['*', 'qa', '+234800-+2348000000099', '+2348000000099-+2348000000000', '*@', 'a@b']) expect(parseTestIdentifiers(bad), bad).to.equal(undefined);
  });

  it('is refused when NODE_ENV=production, and off by default', () => {
    expect(() => loadConfig({ OTP_TEST_MODE: 'true', NODE_ENV: 'production' })).to.throw(/OTP_TEST_MODE/);
    expect(loadConfig({}).OTP_TEST_MODE).to.equal(false);
    expect(() => loadConfig({ OTP_TEST_IDENTIFIERS: 'nonsense' })).to.throw(/OTP_TEST_IDENTIFIERS/);
  });

  describe('over HTTP', () => {
    let app: TestApp;
    before(async () => (app = await createTestApp({ env: { OTP_TEST_MODE: 'true' } })));
    after(async () => app.close());

    it('a listed phone registers and signs in with 000000 and no message is sent; health and the log say test mode is on', async () => {
      const phone = '+2348000000042';
      const reg = await app.request('POST', '/auth/register', { body: { phone, first_name: 'Test', last_name: 'Device', business_name: 'Staging Shop' } });
      expect(reg.status, reg.text).to.equal(201);
      expect(app.outbox.sent.filter((m) => m.to === phone)).to.deep.equal([]);
      const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: '000000' } });
      expect(signIn.status, signIn.text).to.equal(200);
      app.clock.advance(61_000);
      expect((await app.request('POST', '/auth/login', { body: { phone } })).status).to.equal(200);
      expect((await app.request('POST', '/auth/verify-otp', { body: { phone, otp: '000000' } })).status).to.equal(200);
      const health = await app.request('GET', '/actuator/health');
      expect(health.body.data.otp_test_mode).to.equal(true);
      expect(app.logLines.some((l) => l.includes('OTP test mode is on'))).to.equal(true);
    });

    it('an identifier outside the list gets a random code, sent as usual', async () => {
      const phone = aPhone();
      expect((await app.request('POST', '/auth/register', { body: { phone, first_name: 'Real', last_name: 'Person', business_name: 'Real Shop' } })).status).to.equal(201);
      const code = app.outbox.lastCode(phone);
      expect(code).to.match(/^\d{6}$/);
      if (code !== '000000') expect((await app.request('POST', '/auth/verify-otp', { body: { phone, otp: '000000' } })).status).to.equal(400);
    });
  });

  it('a server not in test mode says so, and 000000 is just a wrong code', async () => {
    const app = await createTestApp();
    try {
      expect((await app.request('GET', '/actuator/health')).body.data.otp_test_mode).to.equal(false);
      const phone = '+2348000000043';
      await app.request('POST', '/auth/register', { body: { phone, first_name: 'A', last_name: 'B', business_name: 'C' } });
      expect(app.outbox.sent.some((m) => m.to === phone)).to.equal(true);
    } finally {
      await app.close();
    }
  });
});
