import type * as E from 'fp-ts/lib/Either.js';
import type { GoogleTokenRejected, GoogleUnavailable } from './errors.js';

/** What a Google ID token says about its holder, once its signature, issuer, audience and expiry are checked. */
export interface GoogleIdentityClaims {
  /** Google's stable id of the account (`sub`); an e-mail address can change hands, this cannot. */
  readonly subject: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly givenName?: string;
  readonly familyName?: string;
  /** The full name, when the token has no given and family names. */
  readonly name?: string;
}

/**
 * Checks a Google ID token (the port; adapters/auth/google-id-token.ts is the jose adapter). Answers
 * GoogleUnavailable when Google's keys cannot be had, never a rejection it cannot be sure of.
 */
export interface GoogleIdentityVerifier {
  verify(idToken: string): Promise<E.Either<GoogleTokenRejected | GoogleUnavailable, GoogleIdentityClaims>>;
}
