import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import { joseTokenIssuer, joseTokenVerifier, rememberingVerifier, signingKeyFromPem, type SigningKey, type VerifyResult } from '../../../adapters/auth/jose-tokens.js';

const settings = { issuer: 'bizops-test', audience: 'bizops-test-api' };
const actor = { userId: '0b9f6b52-8f7c-4c8e-9a55-4b1b0c7b3d11', businessId: '5d0e4c7a-7f43-4d1b-8a51-2a3f61e0c9b2', roles: ['BUSINESS_OWNER' as const] };
const sessionId = '9c1f3a0e-2b7d-4e65-b1a4-6d8e2f0c5a73';

describe('rememberingVerifier (a verified token is not verified again until its exp)', () => {
  let key: SigningKey;
  before(async () => {
    key = await signingKeyFromPem(String(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' })));
  });

  const counting = () => {
    const calls: string[] = [];
    const inner = joseTokenVerifier(key, settings);
    return { calls, verify: (token: string) => (calls.push(token), inner(token)) };
  };
  const issue = async () => (await joseTokenIssuer(key, settings, () => crypto.randomUUID()).issueAccessToken(actor, sessionId)).token;

  it('answers the same claims for the same token without verifying it twice', async () => {
    const { calls, verify } = counting();
    const remembering = rememberingVerifier(verify, { max: 10 });
    const token = await issue();
    const first = await remembering(token);
    const second = await remembering(token);
    expect(first.ok && second.ok).to.equal(true);
    expect(second).to.deep.equal(first);
    expect(calls).to.have.length(1);
  });

  it('refuses a remembered token as expired once its exp has passed, as jose would', async () => {
    const { verify } = counting();
    let now = Date.now();
    const remembering = rememberingVerifier(verify, { max: 10, now: () => now });
    const token = await issue();
    const first = (await remembering(token)) as Extract<VerifyResult, { ok: true }>;
    now = first.expiresAt - 1;
    expect((await remembering(token)).ok).to.equal(true);
    now = first.expiresAt;
    expect(await remembering(token)).to.deep.equal({ ok: false, reason: 'TOKEN_EXPIRED' });
  });

  it('does not remember a refused token: a forged one is checked, and refused, every time', async () => {
    const { calls, verify } = counting();
    const remembering = rememberingVerifier(verify, { max: 10 });
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = await new SignJWT({ business_id: actor.businessId, roles: actor.roles, sid: sessionId })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setSubject(actor.userId)
      .setIssuer(settings.issuer)
      .setAudience(settings.audience)
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(other);
    expect(await remembering(forged)).to.deep.equal({ ok: false, reason: 'TOKEN_INVALID' });
    expect(await remembering(forged)).to.deep.equal({ ok: false, reason: 'TOKEN_INVALID' });
    expect(calls).to.have.length(2);
  });

  it('keeps at most max tokens, dropping the oldest first', async () => {
    const { calls, verify } = counting();
    const remembering = rememberingVerifier(verify, { max: 2 });
    const [a, b, c] = [await issue(), await issue(), await issue()];
    for (const t of [a, b, c]) await remembering(t);
    await remembering(c);
    await remembering(b);
    expect(calls).to.deep.equal([a, b, c]);
    await remembering(a); // dropped when c came in
    expect(calls).to.deep.equal([a, b, c, a]);
  });
});
