import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, errors, exportJWK, jwtVerify, SignJWT } from 'jose';
import type { TokenIssuer } from '../../application/ports/token-issuer.js';
import { isRole, type Actor } from '../../domain/roles.js';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const ALG = 'EdDSA';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly kid: string;
}

export interface TokenSettings {
  readonly issuer: string;
  readonly audience: string;
}

const withKid = async (privateKey: KeyObject): Promise<SigningKey> => {
  const publicKey = createPublicKey(privateKey);
  const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
  return { privateKey, publicKey, kid };
};

/** Reads an Ed25519 PKCS#8 PEM key. */
export const signingKeyFromPem = (pem: string): Promise<SigningKey> => withKid(createPrivateKey(pem));

/** The key pair kept in the data directory, generated on first use (mode 0600). */
/** The generated signing key's file in the data directory (a backup carries it, docs/adr/0067). */
export const JWT_KEY_FILE = 'jwt-ed25519.pem';

export const signingKeyFromDataDir = async (dataDir: string): Promise<SigningKey> => {
  const file = join(dataDir, JWT_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  }
  return signingKeyFromPem(readFileSync(file, 'utf8'));
};

export const joseTokenIssuer = (key: SigningKey, settings: TokenSettings, newId: () => string): TokenIssuer => ({
  async issueAccessToken(actor, sessionId) {
    const token = await new SignJWT({ business_id: actor.businessId, roles: [...actor.roles], sid: sessionId })
      .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
      .setSubject(actor.userId)
      .setIssuer(settings.issuer)
      .setAudience(settings.audience)
      .setJti(newId())
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
      .sign(key.privateKey);
    return { token, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  },
});

export type VerifyResult =
  | { ok: true; actor: Actor; sessionId: string; /** epoch ms: the token's `exp` */ expiresAt: number }
  | { ok: false; reason: 'TOKEN_EXPIRED' | 'TOKEN_INVALID' };

/**
 * Verifies an access token: alg pinned to EdDSA, issuer, audience, expiry and claim shapes, and the
 * session (`sid`, required: a token without one cannot be signed out).
 */
export const joseTokenVerifier =
  (key: SigningKey, settings: TokenSettings) =>
  async (token: string): Promise<VerifyResult> => {
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: [ALG],
        issuer: settings.issuer,
        audience: settings.audience,
        requiredClaims: ['sub', 'exp', 'iat', 'jti', 'sid'],
      });
      const { sub, business_id: businessId, roles, sid, exp } = payload;
      if (
        typeof sub !== 'string' ||
        typeof businessId !== 'string' ||
        typeof sid !== 'string' ||
        !UUID.test(sid) ||
        !Array.isArray(roles) ||
        !roles.every((r) => typeof r === 'string' && isRole(r))
      ) {
        return { ok: false, reason: 'TOKEN_INVALID' };
      }
      return { ok: true, actor: { userId: sub, businessId, roles }, sessionId: sid, expiresAt: exp! * 1000 };
    } catch (e) {
      return { ok: false, reason: e instanceof errors.JWTExpired ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID' };
    }
  };

/**
 * A verifier that remembers the tokens it verified until their `exp` (docs/adr/0036): the same string
 * verified again would give the same claims, so a client's every request need not pay the signature
 * check (a sixth of a product page's CPU). Only verified tokens are kept, at most `max` (the oldest
 * first out). A remembered token past its `exp` is refused as expired, as jose refuses it. Whether the
 * member, role and session still hold is checked on every request after this (resolveActor).
 */
export const rememberingVerifier = (
  verify: (token: string) => Promise<VerifyResult>,
  options: { max: number; now?: () => number },
): ((token: string) => Promise<VerifyResult>) => {
  const now = options.now ?? Date.now;
  const verified = new Map<string, Extract<VerifyResult, { ok: true }>>();
  return async (token) => {
    const known = verified.get(token);
    if (known) {
      if (now() < known.expiresAt) return known;
      verified.delete(token);
      return { ok: false, reason: 'TOKEN_EXPIRED' };
    }
    const result = await verify(token);
    if (result.ok) {
      if (verified.size >= options.max) verified.delete(verified.keys().next().value!);
      verified.set(token, result);
    }
    return result;
  };
};
