import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { aGoogleSubject, startGoogleIdp, TEST_GOOGLE_CLIENT_ID, type GoogleIdp } from '../support/google-idp.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const userOf = (res: { body: any }) => decodeJwt(res.body.data.access_token as string).sub as string;
const expectProblem = (res: { status: number; text: string; body: any }, status: number, code: string) => {
  expect(res.status, res.text).to.equal(status);
  expect(res.body.error.code, res.text).to.equal(code);
};

describe('HTTP Google sign-in: POST /auth/google and /auth/google/link', () => {
  let idp: GoogleIdp;
  let app: TestApp;
  before(async () => {
    idp = await startGoogleIdp();
    app = await createTestApp({ env: idp.env });
  });
  after(async () => {
    await app.close();
    await idp.close();
  });
  const google = (body: Record<string, unknown>, token?: string) => app.request('POST', '/auth/google', { body, ...(token ? { token } : {}) });
  const link = (idToken: string, token?: string) => app.request('POST', '/auth/google/link', { body: { id_token: idToken }, ...(token ? { token } : {}) });

  it('registers someone unknown with business_name, as /auth/register does, already verified; the next sign-in finds them', async () => {
    const sub = aGoogleSubject();
    const email = `Ngozi.${sub}@Gmail.com`;
    const first = await google({ id_token: await idp.idToken({ sub, email, given_name: 'Ngozi', family_name: 'Eze' }), business_name: 'Ngozi Fabrics' });
    expect(first.status, first.text).to.equal(200);
    expect(first.body.data).to.include({ verified: true, token_type: 'Bearer', expires_in: 3600 });
    expect(first.body.data.refresh_token).to.be.a('string');

    const me = await app.request('GET', '/auth/me', { token: first.body.data.access_token });
    expect(me.body.data.user).to.include({ first_name: 'Ngozi', last_name: 'Eze', email: email.toLowerCase(), phone: null });
    expect(me.body.data.user.verified_at).to.be.a('string');
    expect(me.body.data.business).to.include({ name: 'Ngozi Fabrics', plan: 'FREE', currency: 'NGN', timezone: 'Africa/Lagos' });
    expect(me.body.data.roles).to.deep.equal(['BUSINESS_OWNER']);
    expect(me.body.data.branch.name).to.equal('Main branch');
    expect(me.body.data.status).to.equal('ACTIVE');
    const categories = await app.request('GET', '/expenses/categories', { token: first.body.data.access_token });
    expect(categories.body.data.map((c: { name: string }) => c.name)).to.include('Rent');

    // signs in again (business_name is ignored for a known account): the same user, no new business
    const again = await google({ id_token: await idp.idToken({ sub, email }), business_name: 'Another' });
    expect(again.status, again.text).to.equal(200);
    expect(again.body.data).to.not.have.property('verified');
    expect(userOf(again)).to.equal(userOf(first));
    const me2 = await app.request('GET', '/auth/me', { token: again.body.data.access_token });
    expect(me2.body.data.business.id).to.equal(me.body.data.business.id);
    // the account was registered by e-mail too: /auth/register refuses it, /auth/login knows it
    const dup = await app.request('POST', '/auth/register', { body: { email, first_name: 'A', last_name: 'B', business_name: 'C' } });
    expectProblem(dup, 409, 'DUPLICATE_EMAIL');
  });

  it('answers 400 BUSINESS_NAME_REQUIRED for someone unknown without business_name, and creates nothing', async () => {
    const sub = aGoogleSubject();
    const res = await google({ id_token: await idp.idToken({ sub }) });
    expectProblem(res, 400, 'BUSINESS_NAME_REQUIRED');
    expect(res.body.error.errors).to.deep.equal([{ field: 'business_name', message: 'is required to register a new account' }]);
    const registered = await google({ id_token: await idp.idToken({ sub }), business_name: 'Late Name' });
    expect(registered.status, registered.text).to.equal(200);
    expect(registered.body.data.verified).to.equal(true);
    // a blank business name is a bad request, as on /auth/register
    expectProblem(await google({ id_token: await idp.idToken(), business_name: '   ' }), 400, 'VALIDATION_FAILED');
  });

  it('signs in an existing user by their verified e-mail, links that Google account, and then finds them by it', async () => {
    const owner = await registerOwner(app, { email: `Ada.${Date.now()}@Example.com` });
    const sub = aGoogleSubject();
    const res = await google({ id_token: await idp.idToken({ sub, email: owner.to }) });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.not.have.property('verified');
    expect(userOf(res)).to.equal(owner.userId);
    // a sign-in is a session, as with a code
    const sessions = await app.request('GET', '/auth/sessions', { token: res.body.data.access_token });
    expect(sessions.body.data.content).to.have.length(2);

    // the e-mail on the Google account changed: the link (sub) still finds the user
    const moved = await google({ id_token: await idp.idToken({ sub, email: `new.${sub}@gmail.com` }) });
    expect(userOf(moved)).to.equal(owner.userId);
    // another Google account now holding the address is refused: the user is linked to the first
    const other = await google({ id_token: await idp.idToken({ email: owner.to }) });
    expectProblem(other, 409, 'GOOGLE_ACCOUNT_MISMATCH');
  });

  it('accepts both spellings of Google’s issuer', async () => {
    const res = await google({ id_token: await idp.idToken({ iss: 'accounts.google.com' }), business_name: 'Bare Issuer' });
    expect(res.status, res.text).to.equal(200);
  });

  it('refuses with 401 an expired token, another audience or issuer, an unverified e-mail, a bad signature, and an iat in the future or an exp more than a day ahead', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Promise<string>, string][] = [
      ['expired', idp.idToken({ iat: now - 7200, exp: now - 3600 }), 'GOOGLE_TOKEN_EXPIRED'],
      ['wrong audience', idp.idToken({ aud: 'someone-else.apps.googleusercontent.com' }), 'GOOGLE_TOKEN_INVALID'],
      ['wrong issuer', idp.idToken({ iss: 'https://evil.example.com' }), 'GOOGLE_TOKEN_INVALID'],
      ['email_verified false', idp.idToken({ email_verified: false }), 'GOOGLE_EMAIL_NOT_VERIFIED'],
      ['email_verified absent', idp.idToken({ email_verified: undefined }), 'GOOGLE_EMAIL_NOT_VERIFIED'],
      ['bad signature', idp.idToken({}, { signedBy: 'stranger' }), 'GOOGLE_TOKEN_INVALID'],
      ['unknown key', idp.idToken({}, { signedBy: 'stranger', kid: 'not-google' }), 'GOOGLE_TOKEN_INVALID'],
      ['no e-mail', idp.idToken({ email: undefined }), 'GOOGLE_TOKEN_INVALID'],
      ['iat 30 days ahead', idp.idToken({ iat: now + 30 * 86_400, exp: now + 30 * 86_400 + 3600 }), 'GOOGLE_TOKEN_INVALID'],
      ['iat 5 minutes ahead', idp.idToken({ iat: now + 300 }), 'GOOGLE_TOKEN_INVALID'],
      ['exp ten years ahead', idp.idToken({ exp: now + 10 * 365 * 86_400 }), 'GOOGLE_TOKEN_INVALID'],
      ['exp 25 hours ahead', idp.idToken({ exp: now + 25 * 3600 }), 'GOOGLE_TOKEN_INVALID'],
    ];
    for (const [name, token, code] of cases) {
      const res = await google({ id_token: await token, business_name: 'Never Made' });
      expect(res.status, `${name}: ${res.text}`).to.equal(401);
      expect(res.body.error.code, name).to.equal(code);
    }
    // within the bounds: issued 20 s ahead (clock skew), living 23 hours
    const skewed = await google({ id_token: await idp.idToken({ iat: now + 20, exp: now + 23 * 3600 }), business_name: 'Skewed Clock' });
    expect(skewed.status, skewed.text).to.equal(200);
    // a string that is not a JWT at all is a bad request
    expectProblem(await google({ id_token: 'not-a-token' }), 400, 'VALIDATION_FAILED');
  });

  it('links a Google account to the caller (again: the same answer); another user, or a second account, is 409', async () => {
    const owner = await registerOwner(app, { phone: aPhone() });
    const sub = aGoogleSubject();
    const token = await idp.idToken({ sub, email: `Shop.${sub}@gmail.com` });
    const linked = await link(token, owner.accessToken);
    expect(linked.status, linked.text).to.equal(200);
    expect(linked.body.data).to.include({ google_subject: sub, email: `shop.${sub}@gmail.com` });
    const again = await link(await idp.idToken({ sub }), owner.accessToken);
    expect(again.status, again.text).to.equal(200);
    expect(again.body.data).to.deep.equal(linked.body.data);

    // the phone-registered owner now signs in with Google
    const signIn = await google({ id_token: await idp.idToken({ sub }) });
    expect(userOf(signIn)).to.equal(owner.userId);

    const someoneElse = await registerOwner(app);
    expectProblem(await link(await idp.idToken({ sub }), someoneElse.accessToken), 409, 'GOOGLE_ACCOUNT_IN_USE');
    expectProblem(await link(await idp.idToken(), owner.accessToken), 409, 'GOOGLE_ACCOUNT_MISMATCH');
    expectProblem(await link(await idp.idToken({ sub })), 401, 'TOKEN_MISSING');
    expectProblem(await link(await idp.idToken({ aud: 'other' }), someoneElse.accessToken), 401, 'GOOGLE_TOKEN_INVALID');
  });

  it('an invited member’s first Google sign-in accepts the invitation', async () => {
    const owner = await registerOwner(app);
    const email = `staff.${Date.now()}@example.com`;
    const invite = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { email, first_name: 'Bola', last_name: 'Ade' } });
    expect(invite.status, invite.text).to.equal(201);
    const res = await google({ id_token: await idp.idToken({ email }) });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.verified).to.equal(true);
    const me = await app.request('GET', '/auth/me', { token: res.body.data.access_token });
    expect(me.body.data).to.deep.include({ roles: ['STAFF'], status: 'ACTIVE' });
  });

  it('a deactivated member is refused as verify-otp refuses them, unless they register their own business', async () => {
    const owner = await registerOwner(app);
    const email = `gone.${Date.now()}@example.com`;
    const invite = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { email, first_name: 'Tunde', last_name: 'Bakare' } });
    const sub = aGoogleSubject();
    const first = await google({ id_token: await idp.idToken({ sub, email }) });
    expect(first.status, first.text).to.equal(200);
    expect((await app.request('DELETE', `/staff/${invite.body.data.id}`, { token: owner.accessToken })).status).to.equal(200);

    expectProblem(await google({ id_token: await idp.idToken({ sub, email }) }), 401, 'ACCOUNT_DEACTIVATED');
    const own = await google({ id_token: await idp.idToken({ sub, email }), business_name: 'Tunde Repairs' });
    expect(own.status, own.text).to.equal(200);
    expect(userOf(own)).to.equal(userOf(first));
    const me = await app.request('GET', '/auth/me', { token: own.body.data.access_token });
    expect(me.body.data).to.deep.include({ roles: ['BUSINESS_OWNER'], status: 'ACTIVE' });
    expect(me.body.data.business.name).to.equal('Tunde Repairs');
  });

  it('two first sign-ins of one Google account at once make one account', async () => {
    const sub = aGoogleSubject();
    const [a, b] = await Promise.all([1, 2].map(async () => google({ id_token: await idp.idToken({ sub }), business_name: 'Twice' })));
    expect([a!.status, b!.status], `${a!.text} ${b!.text}`).to.deep.equal([200, 200]);
    expect(userOf(a!)).to.equal(userOf(b!));
    expect([a!.body.data.verified, b!.body.data.verified].filter(Boolean)).to.deep.equal([true]);
  });

  it('counts against the per-IP auth limit and documents every code it answers', async () => {
    const res = await google({ id_token: await idp.idToken(), business_name: 'Limits' });
    expect(res.headers.get('ratelimit-limit')).to.equal(app.config.RATE_LIMIT_AUTH_PER_IP.toString());
    const doc = app.openApi as any;
    const signIn = doc.paths['/api/v1/auth/google']?.post ?? doc.paths['/auth/google'].post;
    expect(signIn['x-error-codes']).to.include.members(['GOOGLE_SIGN_IN_NOT_CONFIGURED', 'GOOGLE_UNAVAILABLE', 'GOOGLE_TOKEN_INVALID', 'GOOGLE_TOKEN_EXPIRED', 'GOOGLE_EMAIL_NOT_VERIFIED', 'BUSINESS_NAME_REQUIRED', 'GOOGLE_ACCOUNT_MISMATCH']);
    expect(signIn.description).to.include('GOOGLE_SIGN_IN_NOT_CONFIGURED');
  });
});

describe('HTTP Google sign-in off or unreachable', () => {
  it('answers 503 GOOGLE_SIGN_IN_NOT_CONFIGURED with GOOGLE_CLIENT_ID unset', async () => {
    const idp = await startGoogleIdp();
    const app = await createTestApp({ persistence: 'memory' });
    try {
      expect(app.config.GOOGLE_CLIENT_ID).to.equal(undefined);
      const res = await app.request('POST', '/auth/google', { body: { id_token: await idp.idToken(), business_name: 'Off' } });
      expectProblem(res, 503, 'GOOGLE_SIGN_IN_NOT_CONFIGURED');
      const owner = await registerOwner(app);
      expectProblem(await app.request('POST', '/auth/google/link', { token: owner.accessToken, body: { id_token: await idp.idToken() } }), 503, 'GOOGLE_SIGN_IN_NOT_CONFIGURED');
      expect(idp.fetches).to.equal(0);
    } finally {
      await app.close();
      await idp.close();
    }
  });

  for (const mode of ['failing', 'hanging'] as const) {
    it(`answers 503 GOOGLE_UNAVAILABLE (with Retry-After) when Google’s keys are ${mode === 'failing' ? 'answered 500' : 'not answered in time'}, then works once they are back`, async () => {
      const idp = await startGoogleIdp();
      const app = await createTestApp({ persistence: 'memory', env: { ...idp.env, GOOGLE_JWKS_TIMEOUT_MS: '300' } });
      try {
        idp.setMode(mode);
        const res = await app.request('POST', '/auth/google', { body: { id_token: await idp.idToken(), business_name: 'Outage' } });
        expectProblem(res, 503, 'GOOGLE_UNAVAILABLE');
        expect(res.headers.get('retry-after')).to.equal('5');
        idp.setMode('up');
        const back = await app.request('POST', '/auth/google', { body: { id_token: await idp.idToken(), business_name: 'Outage' } });
        expect(back.status, back.text).to.equal(200);
      } finally {
        await app.close();
        await idp.close();
      }
    });
  }

  it('refuses a GOOGLE_JWKS_URL that is not an http(s) URL at start', async () => {
    let error: unknown;
    try {
      await createTestApp({ persistence: 'memory', env: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: 'file:///etc/passwd' } });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.include('GOOGLE_JWKS_URL');
  });
});
