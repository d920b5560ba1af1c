import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('HTTP auth: tokens and codes under attack', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof registerOwner>>;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
  });
  after(async () => app.close());

  const me = (token: string) => app.request('GET', '/auth/me', { token });
  const claimsOf = (token: string) => decodeJwt(token);

  describe('access tokens', () => {
    it('carry sub, business_id, roles, iat, exp (1 h), iss, aud, jti and a kid, signed with EdDSA', async () => {
      const header = decodeProtectedHeader(owner.accessToken);
      expect(header.alg).to.equal('EdDSA');
      expect(header.kid).to.equal(app.signingKey.kid);
      const c = claimsOf(owner.accessToken);
      expect(c.sub).to.equal(owner.userId);
      expect(c.business_id).to.be.a('string');
      expect(c.roles).to.deep.equal(['BUSINESS_OWNER']);
      expect(c.exp! - c.iat!).to.equal(3600);
      expect(c.iss).to.equal(app.config.JWT_ISSUER);
      expect(c.aud).to.equal(app.config.JWT_AUDIENCE);
      expect(c.jti).to.be.a('string');
      expect((await me(owner.accessToken)).status).to.equal(200);
    });

    it('refuses a tampered payload', async () => {
      const [h, , s] = owner.accessToken.split('.');
      const forged = `${h}.${b64({ ...claimsOf(owner.accessToken), roles: ['BUSINESS_OWNER', 'STAFF'], business_id: '00000000-0000-4000-8000-000000000000' })}.${s}`;
      const res = await me(forged);
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('TOKEN_INVALID');
    });

    it('refuses alg "none"', async () => {
      const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(owner.accessToken))}.`;
      const res = await me(unsigned);
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('TOKEN_INVALID');
    });

    it('refuses a token signed by another key, and an HS256 token keyed with our public key', async () => {
      const other = generateKeyPairSync('ed25519').privateKey;
      const claims = claimsOf(owner.accessToken);
      const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: app.signingKey.kid }).sign(other);
      expect((await me(foreign)).body.error.code).to.equal('TOKEN_INVALID');
      const publicPem = app.signingKey.publicKey.export({ type: 'spki', format: 'pem' });
      const confused = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(String(publicPem)));
      expect((await me(confused)).body.error.code).to.equal('TOKEN_INVALID');
    });

    it('refuses an expired token with TOKEN_EXPIRED and a message that says so', async () => {
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ ...claimsOf(owner.accessToken), iat: now - 7200, exp: now - 3600 })
        .setProtectedHeader({ alg: 'EdDSA', kid: app.signingKey.kid })
        .sign(app.signingKey.privateKey);
      const res = await me(expired);
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('TOKEN_EXPIRED');
      expect(res.body.message).to.match(/expired/i);
    });

    it('refuses a token for another audience or issuer', async () => {
      for (const change of [{ aud: 'someone-else' }, { iss: 'someone-else' }]) {
        const token = await new SignJWT({ ...claimsOf(owner.accessToken), ...change })
          .setProtectedHeader({ alg: 'EdDSA', kid: app.signingKey.kid })
          .sign(app.signingKey.privateKey);
        const res = await me(token);
        expect(res.status, JSON.stringify(change)).to.equal(401);
        expect(res.body.error.code).to.equal('TOKEN_INVALID');
      }
    });

    it('refuses a token whose roles are not ours', async () => {
      const token = await new SignJWT({ ...claimsOf(owner.accessToken), roles: ['ROOT'] })
        .setProtectedHeader({ alg: 'EdDSA', kid: app.signingKey.kid })
        .sign(app.signingKey.privateKey);
      expect((await me(token)).body.error.code).to.equal('TOKEN_INVALID');
    });
  });

  describe('refresh tokens', () => {
    it('rotate on use; presenting a spent one (after the 30 s grace window) revokes the whole family', async () => {
      const first = await app.request('POST', '/auth/refresh', { body: { refresh_token: owner.refreshToken } });
      expect(first.status).to.equal(200);
      const second = first.body.data.refresh_token as string;
      app.clock.advance(30_001);

      const replay = await app.request('POST', '/auth/refresh', { body: { refresh_token: owner.refreshToken } });
      expect(replay.status).to.equal(401);
      expect(replay.body.error.code).to.equal('REFRESH_TOKEN_INVALID');

      const afterRevocation = await app.request('POST', '/auth/refresh', { body: { refresh_token: second } });
      expect(afterRevocation.status).to.equal(401);
      expect(afterRevocation.body.error.code).to.equal('REFRESH_TOKEN_INVALID');
    });

    it('leave other sessions (families) of the same user alone', async () => {
      const a = await registerOwner(app);
      await app.request('POST', '/auth/login', { body: a.identifier });
      const b = await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: app.outbox.lastCode(a.to) } });
      await app.request('POST', '/auth/refresh', { body: { refresh_token: a.refreshToken } });
      app.clock.advance(31_000);
      await app.request('POST', '/auth/refresh', { body: { refresh_token: a.refreshToken } }); // reuse: family A revoked
      const other = await app.request('POST', '/auth/refresh', { body: { refresh_token: b.body.data.refresh_token } });
      expect(other.status).to.equal(200);
    });

    it('five simultaneous refreshes with one token: all 200 with the same new refresh token, the session alive, every token working', async () => {
      const a = await registerOwner(app);
      const all = await Promise.all([1, 2, 3, 4, 5].map(() => app.request('POST', '/auth/refresh', { body: { refresh_token: a.refreshToken } })));
      for (const res of all) expect(res.status, res.text).to.equal(200);
      const next = all[0]!.body.data.refresh_token as string;
      expect(all.map((r) => r.body.data.refresh_token)).to.deep.equal([next, next, next, next, next]);
      for (const res of all) expect((await me(res.body.data.access_token)).status).to.equal(200);
      const sessions = await app.request('GET', '/auth/sessions', { token: all[4]!.body.data.access_token });
      expect(sessions.body.data.content).to.have.length(1);
      // the new token rotates as usual, and the session goes on
      const later = await app.request('POST', '/auth/refresh', { body: { refresh_token: next } });
      expect(later.status, later.text).to.equal(200);
      expect((await me(later.body.data.access_token)).status).to.equal(200);
    });

    it('a spent token is answered again within 30 s of its rotation, not after; nor once its successor was used', async () => {
      const a = await registerOwner(app);
      const first = await app.request('POST', '/auth/refresh', { body: { refresh_token: a.refreshToken } });
      app.clock.advance(29_000);
      const retry = await app.request('POST', '/auth/refresh', { body: { refresh_token: a.refreshToken } });
      expect(retry.status, retry.text).to.equal(200);
      expect(retry.body.data.refresh_token).to.equal(first.body.data.refresh_token);
      app.clock.advance(2_000);
      const late = await app.request('POST', '/auth/refresh', { body: { refresh_token: a.refreshToken } });
      expect(late.status).to.equal(401);
      expect(late.body.error.code).to.equal('REFRESH_TOKEN_INVALID');
      // theft detection still works: the family is revoked, its access tokens too
      expect((await app.request('POST', '/auth/refresh', { body: { refresh_token: first.body.data.refresh_token } })).status).to.equal(401);
      expect((await me(retry.body.data.access_token)).body.error.code).to.equal('SESSION_REVOKED');

      const b = await registerOwner(app);
      const second = await app.request('POST', '/auth/refresh', { body: { refresh_token: b.refreshToken } });
      expect((await app.request('POST', '/auth/refresh', { body: { refresh_token: second.body.data.refresh_token } })).status).to.equal(200);
      const stale = await app.request('POST', '/auth/refresh', { body: { refresh_token: b.refreshToken } });
      expect(stale.status, 'the successor was already spent: a replay, within the window or not').to.equal(401);
      expect((await me(second.body.data.access_token)).body.error.code).to.equal('SESSION_REVOKED');
    });

    it('expire after 30 days', async () => {
      const a = await registerOwner(app);
      app.clock.advance(30 * 24 * 3_600_000 + 1000);
      try {
        const res = await app.request('POST', '/auth/refresh', { body: { refresh_token: a.refreshToken } });
        expect(res.status).to.equal(401);
        expect(res.body.error.code).to.equal('REFRESH_TOKEN_INVALID');
      } finally {
        app.clock.advance(-(30 * 24 * 3_600_000 + 1000));
      }
    });

    it('refuse garbage', async () => {
      const res = await app.request('POST', '/auth/refresh', { body: { refresh_token: 'nope' } });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('REFRESH_TOKEN_INVALID');
    });
  });

  describe('one-time codes', () => {
    it('work once: a used code is refused', async () => {
      const a = await registerOwner(app);
      await app.request('POST', '/auth/login', { body: a.identifier });
      const code = app.outbox.lastCode(a.to);
      expect((await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: code } })).status).to.equal(200);
      const reuse = await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: code } });
      expect(reuse.status).to.equal(400);
      expect(reuse.body.error.code).to.equal('INVALID_OTP');
      expect(reuse.body.error.type).to.equal(`${app.config.ERROR_TYPE_BASE}/validation`);
    });

    it('die after 5 wrong tries, even for the right code', async () => {
      const a = await registerOwner(app);
      await app.request('POST', '/auth/login', { body: a.identifier });
      const code = app.outbox.lastCode(a.to);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const res = await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: wrong } });
        expect(res.body.error.code).to.equal('INVALID_OTP');
      }
      const right = await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: code } });
      expect(right.status).to.equal(400);
      expect(right.body.error.code).to.equal('INVALID_OTP');
    });

    it('still work after 4 wrong tries', async () => {
      const a = await registerOwner(app);
      await app.request('POST', '/auth/login', { body: a.identifier });
      const code = app.outbox.lastCode(a.to);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i++) await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: wrong } });
      expect((await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: code } })).status).to.equal(200);
    });

    it('expire after 10 minutes with OTP_EXPIRED', async () => {
      const phone = aPhone();
      await app.request('POST', '/auth/register', { body: { phone, first_name: 'A', last_name: 'B', business_name: 'C' } });
      app.clock.advance(10 * 60 * 1000 + 1);
      const res = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('OTP_EXPIRED');
    });

    it('cannot be resent within 60 s while unused (429 with Retry-After), then can', async () => {
      const a = await registerOwner(app);
      expect((await app.request('POST', '/auth/login', { body: a.identifier })).status).to.equal(200);
      const soon = await app.request('POST', '/auth/login', { body: a.identifier });
      expect(soon.status).to.equal(429);
      expect(soon.body.error.code).to.equal('OTP_RESEND_TOO_SOON');
      expect(Number(soon.headers.get('retry-after'))).to.be.within(1, 60);
      app.clock.advance(61_000);
      expect((await app.request('POST', '/auth/login', { body: a.identifier })).status).to.equal(200);
    });

    it('are capped at 10 an hour per identifier', async () => {
      const a = await registerOwner(app); // code 1 (register)
      for (let i = 2; i <= 10; i++) {
        app.clock.advance(61_000);
        const res = await app.request('POST', '/auth/login', { body: a.identifier });
        expect(res.status, `code ${i}`).to.equal(200);
      }
      app.clock.advance(61_000);
      const eleventh = await app.request('POST', '/auth/login', { body: a.identifier });
      expect(eleventh.status).to.equal(429);
      expect(eleventh.body.error.code).to.equal('OTP_HOURLY_LIMIT');
      expect(Number(eleventh.headers.get('retry-after'))).to.be.greaterThan(0);
      app.clock.advance(3_600_000);
      expect((await app.request('POST', '/auth/login', { body: a.identifier })).status).to.equal(200);
    });

    it('login does not reveal whether an identifier is registered', async () => {
      const known = await registerOwner(app);
      const unknown = { phone: aPhone() };
      const sentBefore = app.outbox.sent.length;
      const k = await app.request('POST', '/auth/login', { body: known.identifier });
      const u = await app.request('POST', '/auth/login', { body: unknown });
      expect(u.status).to.equal(k.status);
      expect(Object.keys(u.body.data)).to.deep.equal(Object.keys(k.body.data));
      expect(u.body.message).to.equal(k.body.message);
      expect(app.outbox.sent.length).to.equal(sentBefore + 1); // only the known one got a message
      // the cooldown looks the same too
      const k2 = await app.request('POST', '/auth/login', { body: known.identifier });
      const u2 = await app.request('POST', '/auth/login', { body: unknown });
      expect([k2.status, u2.status]).to.deep.equal([429, 429]);
      // and no code works for the unknown identifier
      const guess = await app.request('POST', '/auth/verify-otp', { body: { ...unknown, otp: '123456' } });
      expect(guess.body.error.code).to.equal('INVALID_OTP');
    });

    it('the generic pair: /auth/otp/send + /auth/otp/verify, whose codes cannot sign anyone in', async () => {
      const a = await registerOwner(app);
      const sent = await app.request('POST', '/auth/otp/send', { body: a.identifier });
      expect(sent.status).to.equal(200);
      const code = app.outbox.lastCode(a.to);
      const signIn = await app.request('POST', '/auth/verify-otp', { body: { ...a.identifier, otp: code } });
      expect(signIn.status).to.equal(400);
      const checked = await app.request('POST', '/auth/otp/verify', { body: { ...a.identifier, otp: code } });
      expect(checked.status).to.equal(200);
      expect(checked.body.data.verified).to.equal(true);
      const again = await app.request('POST', '/auth/otp/verify', { body: { ...a.identifier, otp: code } });
      expect(again.body.error.code).to.equal('INVALID_OTP');
    });

    it('are stored hashed: the code never appears in the database', async () => {
      const a = await registerOwner(app);
      await app.request('POST', '/auth/otp/send', { body: a.identifier });
      const code = app.outbox.lastCode(a.to);
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: app.databaseUrl! });
      await client.connect();
      try {
        const rows = (await client.query('select code_hash from otp_codes')).rows as { code_hash: string }[];
        expect(rows.length).to.be.greaterThan(0);
        expect(rows.some((r) => r.code_hash.includes(code))).to.equal(false);
        const tokens = (await client.query('select token_hash from refresh_tokens')).rows as { token_hash: string }[];
        expect(tokens.some((r) => r.token_hash === a.refreshToken)).to.equal(false);
      } finally {
        await client.end();
      }
    });
  });
});
