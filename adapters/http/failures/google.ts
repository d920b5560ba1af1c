import type {
  BusinessNameRequired,
  GoogleAccountInUse,
  GoogleAccountMismatch,
  GoogleEmailNotVerified,
  GoogleSignInNotConfigured,
  GoogleTokenFault,
  GoogleTokenRejected,
  GoogleUnavailable,
} from '../../../application/auth/errors.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  BUSINESS_NAME_REQUIRED: 400,
  GOOGLE_TOKEN_INVALID: 401,
  GOOGLE_TOKEN_EXPIRED: 401,
  GOOGLE_EMAIL_NOT_VERIFIED: 401,
  GOOGLE_ACCOUNT_IN_USE: 409,
  GOOGLE_ACCOUNT_MISMATCH: 409,
  GOOGLE_SIGN_IN_NOT_CONFIGURED: 503,
  GOOGLE_UNAVAILABLE: 503,
});

/** The failures of Google sign-in and linking (docs/adr/0027); the auth module's second part. */
export type GoogleFailure =
  | GoogleSignInNotConfigured
  | GoogleUnavailable
  | GoogleTokenRejected
  | GoogleEmailNotVerified
  | BusinessNameRequired
  | GoogleAccountInUse
  | GoogleAccountMismatch;

const TOKEN_FAULTS: Record<GoogleTokenFault, string> = {
  expired: 'The Google ID token has expired; sign in with Google again for a fresh one.',
  audience: 'The Google ID token was issued to another client than this API’s (aud is not GOOGLE_CLIENT_ID).',
  issuer: 'The ID token was not issued by Google (iss).',
  signature: 'The ID token’s signature is not one of Google’s keys.',
  lifetime: 'The ID token’s iat is in the future or its exp more than a day ahead: Google’s tokens are issued now and live an hour.',
  malformed: 'This is not a Google ID token (it must be a signed JWT with sub, email, iat and exp).',
};

export const GOOGLE_FAILURES = moduleFailures<GoogleFailure>()(codes, {
  // The 503s: the deployment has no Google client, or Google's keys cannot be fetched (not the caller's fault).
  GoogleSignInNotConfigured: failure(['GOOGLE_SIGN_IN_NOT_CONFIGURED'], () =>
    problem('GOOGLE_SIGN_IN_NOT_CONFIGURED', 'Google sign-in is not configured on this server (GOOGLE_CLIENT_ID is unset); sign in with a code instead.'),
  ),
  GoogleUnavailable: failure(['GOOGLE_UNAVAILABLE'], () =>
    problem('GOOGLE_UNAVAILABLE', 'Google’s signing keys could not be fetched to check the ID token; try again shortly.', { headers: { 'Retry-After': '5' } }),
  ),
  GoogleTokenRejected: failure(['GOOGLE_TOKEN_EXPIRED', 'GOOGLE_TOKEN_INVALID'], (f) =>
    f.reason === 'expired' ? problem('GOOGLE_TOKEN_EXPIRED', TOKEN_FAULTS[f.reason]) : problem('GOOGLE_TOKEN_INVALID', TOKEN_FAULTS[f.reason]),
  ),
  GoogleEmailNotVerified: failure(['GOOGLE_EMAIL_NOT_VERIFIED'], () =>
    problem('GOOGLE_EMAIL_NOT_VERIFIED', 'Google does not vouch for this account’s e-mail address (email_verified is not true).'),
  ),
  BusinessNameRequired: failure(['BUSINESS_NAME_REQUIRED'], () =>
    problem('BUSINESS_NAME_REQUIRED', 'No account has this Google account or e-mail; give business_name to register one.', {
      errors: [{ field: 'business_name', message: 'is required to register a new account' }],
    }),
  ),
  GoogleAccountInUse: failure(['GOOGLE_ACCOUNT_IN_USE'], () => problem('GOOGLE_ACCOUNT_IN_USE', 'This Google account is linked to another user.')),
  GoogleAccountMismatch: failure(['GOOGLE_ACCOUNT_MISMATCH'], () =>
    problem('GOOGLE_ACCOUNT_MISMATCH', 'This account is linked to another Google account; sign in with that one, or with a code.'),
  ),
});
