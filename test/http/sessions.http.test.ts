import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { decodeJwt, SignJWT } from 'jose';
import { createTestApp, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

type Tokens = { accessToken: string; refreshToken: string };

describe('HTTP sign-out and sessions (signed-in devices)', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  /** Signs the phone's user in again from a device with this User-Agent. */
  const signIn = async (phone: string, userAgent: string): Promise<Tokens> => {
    await app.request('POST', '/auth/login', { body: { phone } });
    const res = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) }, headers: { 'user-agent': userAgent } });
    expect(res.status, res.text).to.equal(200);
    return { accessToken: res.body.data.access_token, refreshToken: res.body.data.refresh_token };
  };
  /** An owner signed in on two devices, a phone and a laptop. */
  const twoDevices = async () => {
    const owner = await registerOwner(app);
    app.clock.advance(1000);
    const phone = await signIn(owner.to!, 'BizOps Android/2.1');
    app.clock.advance(1000);
    const laptop = await signIn(owner.to!, 'Mozilla/5.0 (Windows NT 10.0) Chrome/131');
    return { owner, phone, laptop };
  };
  const me = (token: string) => app.request('GET', '/auth/me', { token });
  const refresh = (refreshToken: string) => app.request('POST', '/auth/refresh', { body: { refresh_token: refreshToken } });
  const logout = (body: unknown) => app.request('POST', '/auth/logout', { body });
  const sessions = (token: string, query = '') => app.request('GET', `/auth/sessions${query}`, { token });
  const sid = (t: Tokens) => decodeJwt(t.accessToken).sid as string;
  const expectRefused = (res: TestResponse, code: string) => {
    expect(res.status, res.text).to.equal(401);
    expect(res.body.error.code).to.equal(code);
    expect(res.headers.get('www-authenticate')).to.equal(`Bearer realm="bizops", error="invalid_token", error_description="${code}"`);
  };

  describe('POST /auth/logout', () => {
    it('ends the session: its refresh token is refused, and its access token from the next request on', async () => {
      const { phone, laptop } = await twoDevices();
      expect((await me(phone.accessToken)).status).to.equal(200);

      const out = await logout({ refresh_token: phone.refreshToken });
      expect(out.status, out.text).to.equal(200);
      expect(out.body.data).to.deep.equal({ session_id: sid(phone) });

      expectRefused(await refresh(phone.refreshToken), 'REFRESH_TOKEN_INVALID');
      const refused = await me(phone.accessToken);
      expectRefused(refused, 'SESSION_REVOKED');
      expect(refused.body.message).to.match(/signed out/);
      // the other device stays signed in
      expect((await me(laptop.accessToken)).status).to.equal(200);
      expect((await refresh(laptop.refreshToken)).status).to.equal(200);
    });

    it('answers 200 again for a session already signed out, and for a spent token of it', async () => {
      const owner = await registerOwner(app);
      const next = (await refresh(owner.refreshToken)).body.data as { refresh_token: string };
      expect((await logout({ refresh_token: next.refresh_token })).status).to.equal(200);
      const again = await logout({ refresh_token: next.refresh_token });
      expect(again.status, again.text).to.equal(200);
      expect((await logout({ refresh_token: owner.refreshToken })).status, 'a spent token of the session').to.equal(200);
    });

    it('a spent token alone signs its session out (what a stolen, replayed token does too)', async () => {
      const owner = await registerOwner(app);
      const next = (await refresh(owner.refreshToken)).body.data as { refresh_token: string; access_token: string };
      expect((await logout({ refresh_token: owner.refreshToken })).status).to.equal(200);
      expectRefused(await refresh(next.refresh_token), 'REFRESH_TOKEN_INVALID');
      expectRefused(await me(next.access_token), 'SESSION_REVOKED');
    });

    it('needs no access token, and a string that was never a refresh token is 401 with nothing signed out', async () => {
      const owner = await registerOwner(app);
      const res = await logout({ refresh_token: randomBytes(32).toString('base64url') });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('REFRESH_TOKEN_INVALID');
      expect((await me(owner.accessToken)).status).to.equal(200);
      expect((await refresh(owner.refreshToken)).status).to.equal(200);
      // a common slip, the access token instead of the refresh token, is longer than any refresh token: 400
      expect((await logout({ refresh_token: owner.accessToken })).status).to.equal(400);
    });

    it('refuses a malformed body with 400 naming the field', async () => {
      for (const [body, field] of [
        [{}, 'refresh_token'],
        [{ refresh_token: '' }, 'refresh_token'],
        [{ refresh_token: 42 }, 'refresh_token'],
        [{ refresh_token: 'x'.repeat(513) }, 'refresh_token'],
        [{ refresh_token: 'abc', all_devices: true }, 'all_devices'],
        [[], '(body)'],
      ] as const) {
        const res = await logout(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('VALIDATION_FAILED');
        expect(res.body.error.errors.map((e: { field: string }) => e.field)).to.include(field);
      }
      const none = await app.request('POST', '/auth/logout');
      expect(none.status).to.equal(400);
      expect(none.body.error.errors).to.deep.equal([{ field: 'refresh_token', message: 'is required' }]);
    });
  });

  describe('GET /auth/sessions', () => {
    it('lists one entry per signed-in device, `current` on the one asking', async () => {
      const { owner, phone, laptop } = await twoDevices();
      // the sign-up's own session is one more device; sign it out to leave the two
      await logout({ refresh_token: owner.refreshToken });

      const fromPhone = await sessions(phone.accessToken);
      expect(fromPhone.status, fromPhone.text).to.equal(200);
      const list = fromPhone.body.data.content as Record<string, unknown>[];
      expect(list).to.have.length(2);
      expect(fromPhone.body.data).to.include({ has_next: false, cursor: null, limit: 20 });
      const byId = new Map(list.map((s) => [s.id, s]));
      expect(byId.get(sid(phone))).to.include({ current: true, user_agent: 'BizOps Android/2.1', ip: '127.0.0.1' });
      expect(byId.get(sid(laptop))).to.include({ current: false, user_agent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/131' });
      const entry = byId.get(sid(phone))!;
      expect(Object.keys(entry).sort()).to.deep.equal(['created_at', 'current', 'expires_at', 'id', 'ip', 'last_used_at', 'user_agent']);
      expect(Date.parse(entry.expires_at as string) - Date.parse(entry.created_at as string)).to.equal(30 * 86_400_000);

      const fromLaptop = (await sessions(laptop.accessToken)).body.data.content as Record<string, unknown>[];
      expect(fromLaptop.filter((s) => s.current).map((s) => s.id)).to.deep.equal([sid(laptop)]);
    });

    it('a refresh keeps the session: same id, later last_used_at and expiry, newest use listed first', async () => {
      const { owner, phone, laptop } = await twoDevices();
      await logout({ refresh_token: owner.refreshToken });
      app.clock.advance(60 * 60_000);
      const renewed = await app.request('POST', '/auth/refresh', { body: { refresh_token: phone.refreshToken }, headers: { 'user-agent': 'BizOps Android/2.2' } });
      const token = renewed.body.data.access_token as string;
      expect(decodeJwt(token).sid).to.equal(sid(phone));

      const list = (await sessions(token)).body.data.content as Record<string, string | boolean>[];
      expect(list.map((s) => s.id)).to.deep.equal([sid(phone), sid(laptop)]);
      expect(list[0]).to.include({ current: true, user_agent: 'BizOps Android/2.2' });
      expect(list[0]!.last_used_at).to.equal(app.clock.now().toISOString());
      expect(Date.parse(list[0]!.created_at as string)).to.be.lessThan(app.clock.now().getTime() - 60 * 60_000);
      expect(Date.parse(list[0]!.expires_at as string)).to.be.greaterThan(Date.parse(list[1]!.expires_at as string));
      const oldestFirst = (await sessions(token, '?sort_by=created_at&sort_dir=asc&limit=1')).body.data;
      expect(oldestFirst.content.map((s: { id: string }) => s.id)).to.deep.equal([sid(phone)]);
      expect(oldestFirst.has_next).to.equal(true);
    });

    it('shows only the caller’s own sessions', async () => {
      const a = await registerOwner(app);
      const b = await registerOwner(app);
      const listed = (await sessions(a.accessToken)).body.data.content as { id: string }[];
      expect(listed.map((s) => s.id)).to.deep.equal([sid(a)]);
      expect(listed.map((s) => s.id)).to.not.include(sid(b));
    });

    it('refuses unknown query parameters', async () => {
      const owner = await registerOwner(app);
      const res = await sessions(owner.accessToken, '?user_id=x');
      expect(res.status).to.equal(400);
      expect(res.body.error.errors[0].field).to.equal('user_id');
    });
  });

  describe('DELETE /auth/sessions/{id}', () => {
    it('signs one device out, access and refresh token, and leaves the other signed in', async () => {
      const { phone, laptop } = await twoDevices();
      const res = await app.request('DELETE', `/auth/sessions/${sid(laptop)}`, { token: phone.accessToken });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({ id: sid(laptop), current: false });

      expectRefused(await me(laptop.accessToken), 'SESSION_REVOKED');
      expectRefused(await refresh(laptop.refreshToken), 'REFRESH_TOKEN_INVALID');
      expect((await me(phone.accessToken)).status).to.equal(200);
      const ids = ((await sessions(phone.accessToken)).body.data.content as { id: string }[]).map((s) => s.id);
      expect(ids).to.include(sid(phone)).and.not.include(sid(laptop));
      expect((await refresh(phone.refreshToken)).status).to.equal(200);

      const again = await app.request('DELETE', `/auth/sessions/${sid(laptop)}`, { token: phone.accessToken });
      expect(again.status, 'already signed out').to.equal(404);
      expect(again.body.error.code).to.equal('RESOURCE_NOT_FOUND');
    });

    it('naming the current session signs this device out', async () => {
      const owner = await registerOwner(app);
      const res = await app.request('DELETE', `/auth/sessions/${sid(owner).toUpperCase()}`, { token: owner.accessToken });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({ id: sid(owner), current: true });
      expectRefused(await me(owner.accessToken), 'SESSION_REVOKED');
    });

    it('another user’s session, an unknown id and a malformed id are 404, and nothing is signed out', async () => {
      const a = await registerOwner(app);
      const b = await registerOwner(app);
      for (const id of [sid(b), randomUUID(), 'not-a-uuid', `${sid(b)}x`, '1']) {
        const res = await app.request('DELETE', `/auth/sessions/${id}`, { token: a.accessToken });
        expect(res.status, id).to.equal(404);
        expect(res.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      }
      expect((await me(b.accessToken)).status).to.equal(200);
      expect((await refresh(b.refreshToken)).status).to.equal(200);
      expect((await me(a.accessToken)).status).to.equal(200);
    });
  });

  describe('access tokens name their session', () => {
    it('a replayed refresh token (after the grace window) ends the session: its access tokens are refused too', async () => {
      const owner = await registerOwner(app);
      const next = (await refresh(owner.refreshToken)).body.data as { access_token: string };
      app.clock.advance(31_000);
      expectRefused(await refresh(owner.refreshToken), 'REFRESH_TOKEN_INVALID');
      expectRefused(await me(next.access_token), 'SESSION_REVOKED');
      expectRefused(await me(owner.accessToken), 'SESSION_REVOKED');
    });

    it('a token without a session (`sid`) or naming another user’s session is refused', async () => {
      const a = await registerOwner(app);
      const b = await registerOwner(app);
      const sign = (claims: Record<string, unknown>) =>
        new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: app.signingKey.kid }).sign(app.signingKey.privateKey);
      const { sid: _sid, ...withoutSid } = decodeJwt(a.accessToken);
      expectRefused(await me(await sign(withoutSid)), 'TOKEN_INVALID');
      expectRefused(await me(await sign({ ...withoutSid, sid: 'not-a-uuid' })), 'TOKEN_INVALID');
      expectRefused(await me(await sign({ ...withoutSid, sid: sid(b) })), 'SESSION_REVOKED');
      expect((await me(await sign({ ...withoutSid, sid: sid(a) }))).status).to.equal(200);
    });
  });
});
