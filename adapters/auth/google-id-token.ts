import * as E from 'fp-ts/lib/Either.js';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { GoogleTokenFault } from '../../application/auth/errors.js';
import type { GoogleIdentityVerifier } from '../../application/auth/google-identity-verifier.js';
import type { Clock } from '../../application/ports/clock.js';
import { isEmail } from '../../domain/identifier.js';

/** Both spellings Google's documentation allows for `iss`. */
export const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
/** Google signs ID tokens with RS256; no other algorithm is accepted. */
const ALGORITHMS = ['RS256'];
/** Clocks of phones and servers disagree a little. */
const CLOCK_TOLERANCE_SECONDS = 30;
/**
 * Google's ID tokens live one hour. A token made to look issued later than now (beyond the clock
 * tolerance) or to live more than a day from now is not one Google issued as documented: refused
 * (docs/adr/0042).
 */
export const GOOGLE_TOKEN_MAX_LIFETIME_SECONDS = 24 * 3600;

export interface GoogleSettings {
  /** The OAuth client ids the tokens may be issued to (`aud`): a web, an Android and an iOS client differ. */
  readonly clientIds: readonly string[];
  readonly jwksUrl: string;
  /** How long a fetch of the keys may take before the sign-in is answered 503. */
  readonly jwksTimeoutMs: number;
}

/** A failure to get the keys, told apart from a token the keys reject. */
class KeysUnavailable extends Error {}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

const faultOf = (e: unknown): GoogleTokenFault => {
  if (e instanceof errors.JWTExpired) return 'expired';
  if (e instanceof errors.JWTClaimValidationFailed && e.claim === 'aud') return 'audience';
  if (e instanceof errors.JWTClaimValidationFailed && e.claim === 'iss') return 'issuer';
  if (e instanceof errors.JWSSignatureVerificationFailed || e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JOSEAlgNotAllowed) return 'signature';
  return 'malformed';
};

/**
 * Google ID tokens checked with jose against Google's published keys (fetched with a deadline and
 * cached by jose): signature, issuer, audience, expiry, and a lifetime Google gives (iat not in the future, exp at most a day ahead). A key set that cannot be fetched or read is
 * GoogleUnavailable (503), not a rejection: the token may well be good.
 */
export const joseGoogleVerifier = (settings: GoogleSettings, clock: Clock): GoogleIdentityVerifier => {
  const remote = createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: settings.jwksTimeoutMs });
  const keys: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remote(header, token);
    } catch (e) {
      // the token names no key Google publishes, or an ambiguous one: the token's fault
      if (e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys) throw e;
      throw new KeysUnavailable('Google keys unavailable', { cause: e }); // timeout, network, not 200, not a key set
    }
  };
  return {
    async verify(idToken) {
      try {
        const { payload } = await jwtVerify(idToken, keys, {
          algorithms: ALGORITHMS,
          issuer: GOOGLE_ISSUERS,
          audience: [...settings.clientIds],
          requiredClaims: ['sub', 'email', 'exp', 'iat'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: clock.now(),
        });
        const nowSeconds = Math.floor(clock.now().getTime() / 1000);
        if (payload.iat! > nowSeconds + CLOCK_TOLERANCE_SECONDS || payload.exp! > nowSeconds + GOOGLE_TOKEN_MAX_LIFETIME_SECONDS) {
          return E.left({ _tag: 'GoogleTokenRejected', reason: 'lifetime' });
        }
        const subject = str(payload.sub);
        const email = str(payload.email);
        if (!subject || subject.length > 255 || !email || !isEmail(email)) return E.left({ _tag: 'GoogleTokenRejected', reason: 'malformed' });
        return E.right({
          subject,
          email,
          // Google has sent it as a string in older tokens
          emailVerified: payload.email_verified === true || payload.email_verified === 'true',
          ...(str(payload.given_name) ? { givenName: str(payload.given_name)! } : {}),
          ...(str(payload.family_name) ? { familyName: str(payload.family_name)! } : {}),
          ...(str(payload.name) ? { name: str(payload.name)! } : {}),
        });
      } catch (e) {
        if (e instanceof KeysUnavailable) return E.left({ _tag: 'GoogleUnavailable' });
        return E.left({ _tag: 'GoogleTokenRejected', reason: faultOf(e) });
      }
    },
  };
};
