import * as t from 'io-ts';
import type { checkVerificationCode } from '../../../application/auth/check-verification-code.js';
import type { getMe } from '../../../application/auth/get-me.js';
import type { refreshSession } from '../../../application/auth/refresh-session.js';
import type { register } from '../../../application/auth/register.js';
import type { requestSignInCode } from '../../../application/auth/request-sign-in-code.js';
import type { sendVerificationCode } from '../../../application/auth/send-verification-code.js';
import type { verifySignInCode } from '../../../application/auth/verify-sign-in-code.js';
import type { TokenPair } from '../../../application/auth/sessions.js';
import { bool, dateTime, doc, int, nullableStr, object, opaqueToken, otpCode, shape, str, text, uuid } from '../codecs.js';
import { dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { created, ok, OWNER_AND_STAFF, route } from '../route.js';
import { identifierFields, identifierJson, identifierOf } from './identifier.js';
import { deviceOf } from './sessions.routes.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface AuthUseCases {
  readonly register: ReturnType<typeof register>;
  readonly requestSignInCode: ReturnType<typeof requestSignInCode>;
  readonly verifySignInCode: ReturnType<typeof verifySignInCode>;
  readonly refreshSession: ReturnType<typeof refreshSession>;
  readonly sendVerificationCode: ReturnType<typeof sendVerificationCode>;
  readonly checkVerificationCode: ReturnType<typeof checkVerificationCode>;
  readonly getMe: ReturnType<typeof getMe>;
}

export const tokenJson = (pair: TokenPair) => ({
  access_token: pair.accessToken,
  refresh_token: pair.refreshToken,
  token_type: 'Bearer',
  expires_in: pair.expiresIn,
});

const identifierDocs = { phone: nullableStr, email: nullableStr };
const tokensShape = { access_token: str, refresh_token: str, token_type: doc('Bearer', { const: 'Bearer' }), expires_in: int };
/** A sign-in's answer: verify-otp's, and POST /auth/google's. */
export const signedInShape = shape(
  'Tokens',
  { ...tokensShape },
  {
    access_token: 'EdDSA JWT, 1 hour',
    refresh_token: 'opaque, 30 days, single use',
    verified: 'present (true) only when this sign-in activated the account: a new registration, or an invited member’s first sign-in',
  },
  { verified: doc('true', { const: true }) },
);
export const signedInJson = ({ firstVerification, ...pair }: TokenPair & { firstVerification: boolean }) => ({
  ...(firstVerification ? { verified: true } : {}),
  ...tokenJson(pair),
});
const codeSentShape = shape('CodeSent', { ...identifierDocs, otp_expires_at: dateTime });

export const authRoutes = (uc: AuthUseCases) => [
  route({
    method: 'post',
    path: '/auth/register',
    operationId: 'register',
    tag: 'Auth',
    summary: 'Register a business and its owner',
    description:
      'Creates the user, the business (plan FREE, Africa/Lagos, NGN), its default branch and the owner membership, ' +
      'then sends a 6-digit code by SMS (phone) or e-mail. Give exactly one of phone or email. Verify with /auth/verify-otp. ' +
      "partner_code (optional, from a partner such as your bank or POS provider): the business joins that partner's network, which lets the partner see its figures " +
      '(not its sales, customers or products); an unknown code is 422 UNKNOWN_PARTNER_CODE. Leave a network with DELETE /businesses/me/partner.',
    access: 'public',
    rateLimit: 'identifier',
    bodyExample: { first_name: 'Ada', last_name: 'Okafor', business_name: 'Ada Stores', phone: '+2348031234567' },
    body: object(
      'RegisterRequest',
      { first_name: text(1, 100), last_name: text(1, 100), business_name: text(1, 120) },
      { ...identifierFields, partner_code: text(1, 20, "a partner's code, ignoring case") },
    ),
    success: { status: 201, description: 'Registered; a code was sent', data: shape('Registration', { user_id: uuid, ...identifierDocs, otp_expires_at: dateTime }) },
    failures: failuresOf<FailureOf<typeof uc.register>>({ DuplicateIdentifier: true, ResendTooSoon: true, HourlyCapReached: true, UnknownPartnerCode: true }),
    errors: [],
    handler: async ({ body, ctx }) => {
      const identifier = identifierOf(body);
      const cmd = { identifier, firstName: body.first_name, lastName: body.last_name, businessName: body.business_name, ...(body.partner_code !== undefined ? { partnerCode: body.partner_code } : {}) };
      const r = successOf(await uc.register(cmd, deviceOf(ctx).ip), 'sign-in');
      return created('Registration successful; a verification code was sent', {
        user_id: r.userId,
        ...identifierJson(r.identifier),
        otp_expires_at: dateTimeJson(r.otpExpiresAt),
      });
    },
  }),
  route({
    method: 'post',
    path: '/auth/verify-otp',
    operationId: 'verifyOtp',
    tag: 'Auth',
    summary: 'Exchange a sign-in code for tokens',
    description:
      'Checks the newest code sent by /auth/register or /auth/login (10 minutes, single use, 5 wrong tries). ' +
      'Returns `verified: true` only when the code activates a new registration. Each sign-in starts a session ' +
      '(a signed-in device, see GET /auth/sessions); the access token names it in its `sid` claim.',
    access: 'public',
    rateLimit: 'identifier',
    bodyExample: { phone: '+2348031234567', otp: '123456' },
    body: object('VerifyOtpRequest', { otp: otpCode }, identifierFields),
    success: {
      status: 200,
      description: 'Signed in',
      data: signedInShape,
    },
    failures: failuresOf<FailureOf<typeof uc.verifySignInCode>>({ InvalidOtp: true, OtpExpired: true, AccountDeactivated: true, InvitationExpired: true }),
    errors: [],
    handler: async ({ body, ctx }) => {
      return ok('Signed in', signedInJson(successOf(await uc.verifySignInCode(identifierOf(body), body.otp, deviceOf(ctx)), 'sign-in')));
    },
  }),
  route({
    method: 'post',
    path: '/auth/login',
    operationId: 'login',
    tag: 'Auth',
    summary: 'Send a sign-in code',
    description: 'Sends a code to a registered phone or e-mail. An unknown identifier gets the same answer, and nothing is sent.',
    access: 'public',
    rateLimit: 'identifier',
    bodyExample: { phone: '+2348031234567' },
    body: object('LoginRequest', {}, identifierFields),
    success: { status: 200, description: 'A code was sent if the identifier is registered', data: codeSentShape },
    failures: failuresOf<FailureOf<typeof uc.requestSignInCode>>({ ResendTooSoon: true, HourlyCapReached: true }),
    errors: [],
    handler: async ({ body, ctx }) => {
      const sent = successOf(await uc.requestSignInCode(identifierOf(body), deviceOf(ctx).ip), 'sign-in');
      return ok('If this identifier is registered, a code was sent', {
        ...identifierJson(sent.identifier),
        otp_expires_at: dateTimeJson(sent.otpExpiresAt),
      });
    },
  }),
  route({
    method: 'post',
    path: '/auth/refresh',
    operationId: 'refreshToken',
    tag: 'Auth',
    summary: 'Rotate a refresh token',
    description:
      'Spends the refresh token and returns a new pair of the same session. The same token presented again within 30 s of ' +
      'being spent (parallel refreshes, a retry after a lost answer) gets the same new refresh token and a fresh access token, ' +
      'as long as that new refresh token is unused. Otherwise presenting an already-spent token ends its ' +
      'whole session (its access tokens are then refused with 401 SESSION_REVOKED); so does POST /auth/logout.',
    access: 'public',
    rateLimit: 'ip',
    bodyExample: { refresh_token: 'the refresh_token from /auth/verify-otp' },
    body: object('RefreshRequest', { refresh_token: opaqueToken }),
    success: { status: 200, description: 'New tokens', data: shape('RefreshedTokens', tokensShape) },
    failures: failuresOf<FailureOf<typeof uc.refreshSession>>({ AccountDeactivated: true, RefreshTokenInvalid: true }),
    errors: [],
    handler: async ({ body, ctx }) => {
      return ok('Tokens refreshed', tokenJson(successOf(await uc.refreshSession(body.refresh_token, deviceOf(ctx)), 'sign-in')));
    },
  }),
  route({
    method: 'post',
    path: '/auth/otp/send',
    operationId: 'sendOtp',
    tag: 'Auth',
    summary: 'Send a verification code to a phone or e-mail',
    description: 'The generic pair with /auth/otp/verify: proves control of a phone or e-mail. These codes cannot be used to sign in.',
    access: 'public',
    rateLimit: 'identifier',
    bodyExample: { email: 'ada@example.com' },
    body: object('SendOtpRequest', {}, identifierFields),
    success: { status: 200, description: 'Code sent', data: codeSentShape },
    failures: failuresOf<FailureOf<typeof uc.sendVerificationCode>>({ ResendTooSoon: true, HourlyCapReached: true }),
    errors: [],
    handler: async ({ body, ctx }) => {
      const sent = successOf(await uc.sendVerificationCode(identifierOf(body), deviceOf(ctx).ip), 'sign-in');
      return ok('Verification code sent', { ...identifierJson(sent.identifier), otp_expires_at: dateTimeJson(sent.otpExpiresAt) });
    },
  }),
  route({
    method: 'post',
    path: '/auth/otp/verify',
    operationId: 'verifyOtpCode',
    tag: 'Auth',
    summary: 'Check a verification code',
    description:
      'Checks a code sent by POST /auth/otp/send for the VERIFY purpose (e.g. confirming a new phone or e-mail) without signing in: answers `verified: true` and uses the code up. A wrong code counts toward the 5 tries (401 INVALID_OTP); an old one is 401 OTP_EXPIRED.',
    access: 'public',
    rateLimit: 'identifier',
    bodyExample: { email: 'ada@example.com', otp: '123456' },
    body: object('CheckOtpRequest', { otp: otpCode }, identifierFields),
    success: { status: 200, description: 'The code was right', data: shape('Verified', { verified: bool, ...identifierDocs }) },
    failures: failuresOf<FailureOf<typeof uc.checkVerificationCode>>({ InvalidOtp: true, OtpExpired: true }),
    errors: [],
    handler: async ({ body }) => {
      const checked = successOf(await uc.checkVerificationCode(identifierOf(body), body.otp), 'sign-in');
      return ok('Code verified', { verified: true, ...identifierJson(checked.identifier) });
    },
  }),
  route({
    method: 'get',
    path: '/auth/me',
    operationId: 'getMe',
    tag: 'Auth',
    summary: 'The signed-in user, their business, branch and roles',
    description:
      'Who the access token belongs to, read fresh from the database: the user, their business, their branch (null when the member is not tied to one) and their roles as they are now (a role changed since the token was issued shows here at once).',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: {
      status: 200,
      description: 'The caller',
      data: shape('Me', {
        user: shape('MeUser', { id: uuid, first_name: str, last_name: str, ...identifierDocs, verified_at: doc('date-time or null', { type: ['string', 'null'], format: 'date-time' }) }),
        business: shape('MeBusiness', { id: uuid, name: str, plan: str, currency: str, timezone: str }),
        branch: doc('branch or null', { oneOf: [{ type: 'null' }, { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } }, required: ['id', 'name'] }] }),
        roles: doc('roles', { type: 'array', items: { type: 'string', enum: ['BUSINESS_OWNER', 'STAFF'] } }),
        status: str,
      }),
    },
    failures: failuresOf<FailureOf<typeof uc.getMe>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor }) => {
      const { user, business, membership, branch } = successOf(await uc.getMe(actor), 'signed-in user');
      return ok('Current user', {
        user: {
          id: user.id,
          first_name: user.firstName,
          last_name: user.lastName,
          phone: user.phone,
          email: user.email,
          verified_at: dateTimeJsonOrNull(user.verifiedAt),
        },
        business: { id: business.id, name: business.name, plan: business.plan, currency: business.currency, timezone: business.timezone },
        branch: branch ? { id: branch.id, name: branch.name } : null,
        roles: [membership.role],
        status: membership.status,
      });
    },
  }),
];
