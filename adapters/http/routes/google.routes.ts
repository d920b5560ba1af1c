import * as t from 'io-ts';
import type { linkGoogleIdentity, signInWithGoogle } from '../../../application/auth/google-sign-in.js';
import { dateTime, Documented, object, shape, str, text } from '../codecs.js';
import { dateTimeJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { ok, OWNER_AND_STAFF, route } from '../route.js';
import { signedInJson, signedInShape } from './auth.routes.js';
import { deviceOf } from './sessions.routes.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface GoogleUseCases {
  readonly signInWithGoogle: ReturnType<typeof signInWithGoogle>;
  readonly linkGoogleIdentity: ReturnType<typeof linkGoogleIdentity>;
}

const ID_TOKEN_MAX = 4096;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A Google ID token as Google Identity Services or the Android/iOS SDKs hand it over: a compact JWT. */
const idToken = new Documented<string>(
  'Google ID token',
  {
    type: 'string',
    minLength: 5,
    maxLength: ID_TOKEN_MAX,
    pattern: COMPACT_JWS.source,
    description: 'the ID token (a JWT) Google Sign-In gave the client; checked against Google’s keys, issuer, audience (GOOGLE_CLIENT_ID) and expiry',
  },
  (u, c) => (typeof u === 'string' && u.length <= ID_TOKEN_MAX && COMPACT_JWS.test(u) ? t.success(u) : t.failure(u, c, 'must be a Google ID token (a JWT)')),
);

const EXAMPLE_TOKEN = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiIxMTAxNjk0ODQ0NzQzODY3NjE2MDAifQ.c2lnbmF0dXJl';
/** What every Google route can answer about the token itself. */
const TOKEN_ERRORS = ['GOOGLE_SIGN_IN_NOT_CONFIGURED', 'GOOGLE_UNAVAILABLE', 'GOOGLE_TOKEN_INVALID', 'GOOGLE_TOKEN_EXPIRED', 'GOOGLE_EMAIL_NOT_VERIFIED'] as const;
const OFF = 'With GOOGLE_CLIENT_ID unset the deployment has no Google sign-in and answers 503 GOOGLE_SIGN_IN_NOT_CONFIGURED.';

export const googleRoutes = (uc: GoogleUseCases) => [
  route({
    method: 'post',
    path: '/auth/google',
    operationId: 'signInWithGoogle',
    tag: 'Auth',
    summary: 'Sign in (or register) with a Google ID token',
    description:
      'Exchanges a Google ID token for tokens, as /auth/verify-otp does. The token must be signed by Google, issued to this ' +
      'API’s client (GOOGLE_CLIENT_ID), unexpired, with `email_verified` true (else 401). The user is found by the Google account ' +
      'linked to them, else by the verified e-mail (that Google account is then linked). Someone unknown registers, as ' +
      '/auth/register does (plan FREE, default branch, owner), already verified: give `business_name` (without it 400 ' +
      'BUSINESS_NAME_REQUIRED, so the app can ask for it); the answer then has `verified: true`. A user already linked to another ' +
      `Google account is refused (409 GOOGLE_ACCOUNT_MISMATCH). ${OFF} Google’s keys unreachable: 503 GOOGLE_UNAVAILABLE (retry).`,
    access: 'public',
    rateLimit: 'ip',
    bodyExample: { id_token: EXAMPLE_TOKEN, business_name: 'Ada Stores' },
    body: object('GoogleSignInRequest', { id_token: idToken }, { business_name: text(1, 120, 'the business to register when no account has this Google account or e-mail') }),
    success: { status: 200, description: 'Signed in (or registered and signed in)', data: signedInShape },
    failures: failuresOf<FailureOf<typeof uc.signInWithGoogle>>({
      AccountDeactivated: true, InvitationExpired: true, GoogleSignInNotConfigured: true, GoogleUnavailable: true, GoogleTokenRejected: true,
      GoogleEmailNotVerified: true, BusinessNameRequired: true, GoogleAccountMismatch: true,
    }),
    errors: [...TOKEN_ERRORS, 'BUSINESS_NAME_REQUIRED', 'GOOGLE_ACCOUNT_MISMATCH', 'ACCOUNT_DEACTIVATED', 'INVITATION_EXPIRED'],
    handler: async ({ body, ctx }) => {
      const signedIn = successOf(await uc.signInWithGoogle({ idToken: body.id_token, businessName: body.business_name, device: deviceOf(ctx) }), 'sign-in');
      return ok('Signed in with Google', signedInJson(signedIn));
    },
  }),
  route({
    method: 'post',
    path: '/auth/google/link',
    operationId: 'linkGoogleAccount',
    tag: 'Auth',
    summary: 'Link a Google account to the signed-in user',
    description:
      'Links the Google account of the ID token (checked as in POST /auth/google) to the caller, who can then sign in with it. ' +
      'Linking the same account again answers the same. A Google account linked to another user: 409 GOOGLE_ACCOUNT_IN_USE; ' +
      `a caller already linked to another Google account: 409 GOOGLE_ACCOUNT_MISMATCH. ${OFF}`,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    bodyExample: { id_token: EXAMPLE_TOKEN },
    body: object('GoogleLinkRequest', { id_token: idToken }),
    success: {
      status: 200,
      description: 'Linked',
      data: shape(
        'GoogleLink',
        { google_subject: str, email: str, linked_at: dateTime },
        { google_subject: 'Google’s id of the account (`sub`)', email: 'the address Google vouched for when it was linked' },
      ),
    },
    failures: failuresOf<FailureOf<typeof uc.linkGoogleIdentity>>({
      GoogleSignInNotConfigured: true, GoogleUnavailable: true, GoogleTokenRejected: true, GoogleEmailNotVerified: true, GoogleAccountMismatch: true,
      GoogleAccountInUse: true,
    }),
    errors: [...TOKEN_ERRORS, 'GOOGLE_ACCOUNT_IN_USE', 'GOOGLE_ACCOUNT_MISMATCH'],
    handler: async ({ body, actor }) => {
      const linked = successOf(await uc.linkGoogleIdentity(actor, body.id_token), 'sign-in');
      return ok('Google account linked', { google_subject: linked.subject, email: linked.email, linked_at: dateTimeJson(linked.linkedAt) });
    },
  }),
];
