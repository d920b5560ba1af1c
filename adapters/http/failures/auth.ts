import type { AccountDeactivated, DuplicateIdentifier, InvalidOtp, InvitationExpired, OtpExpired, OtpSendRefused, RefreshTokenInvalid, SessionNotFound } from '../../../application/auth/errors.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { NOT_FOUND } from '../failures.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  INVALID_OTP: 400,
  OTP_EXPIRED: 400,
  REFRESH_TOKEN_INVALID: 401,
  INVITATION_EXPIRED: 401,
  DUPLICATE_EMAIL: 409,
  OTP_RESEND_TOO_SOON: 429,
  OTP_HOURLY_LIMIT: 429,
});

/** The failures of signing in with a code, sessions and invitations (Google's are in google.ts). */
export type AuthFailure = SessionNotFound | DuplicateIdentifier | OtpSendRefused | InvalidOtp | OtpExpired | AccountDeactivated | InvitationExpired | RefreshTokenInvalid;

const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });

export const AUTH_FAILURES = moduleFailures<AuthFailure>()(codes, {
  SessionNotFound: failure(['RESOURCE_NOT_FOUND'], () => problem('RESOURCE_NOT_FOUND', NOT_FOUND.session)),
  DuplicateIdentifier: failure(['DUPLICATE_PHONE', 'DUPLICATE_EMAIL'], (f) =>
    f.kind === 'phone'
      ? problem('DUPLICATE_PHONE', 'This phone number is already registered; sign in with /auth/login.')
      : problem('DUPLICATE_EMAIL', 'This e-mail address is already registered; sign in with /auth/login.'),
  ),
  ResendTooSoon: failure(['OTP_RESEND_TOO_SOON'], (f) =>
    problem('OTP_RESEND_TOO_SOON', `A code was sent moments ago; ask for a new one in ${f.retryAfterSeconds} s.`, { headers: retryAfter(f.retryAfterSeconds) }),
  ),
  HourlyCapReached: failure(['OTP_HOURLY_LIMIT'], (f) =>
    problem('OTP_HOURLY_LIMIT', `Too many codes were sent to this identifier in the last hour; try again in ${f.retryAfterSeconds} s.`, {
      headers: retryAfter(f.retryAfterSeconds),
    }),
  ),
  InvalidOtp: failure(['INVALID_OTP'], () => problem('INVALID_OTP', 'The code is wrong, used or no longer valid.', { errors: [{ field: 'otp', message: 'is invalid' }] })),
  OtpExpired: failure(['OTP_EXPIRED'], () => problem('OTP_EXPIRED', 'The code has expired; ask for a new one.', { errors: [{ field: 'otp', message: 'has expired' }] })),
  AccountDeactivated: failure(['ACCOUNT_DEACTIVATED'], () => problem('ACCOUNT_DEACTIVATED', 'This account has been deactivated by the business owner.')),
  InvitationExpired: failure(['INVITATION_EXPIRED'], () =>
    problem('INVITATION_EXPIRED', 'This invitation was not accepted within 7 days; ask the business owner to invite you again, or register your own business.'),
  ),
  // Logging out with a string that was never a token versus refreshing with a spent one.
  RefreshTokenInvalid: failure(['REFRESH_TOKEN_INVALID'], (_, subject) =>
    subject === 'session'
      ? problem('REFRESH_TOKEN_INVALID', 'This is not a refresh token issued by this API; nothing was signed out.')
      : problem('REFRESH_TOKEN_INVALID', 'The refresh token is invalid, expired or already used; sign in again.'),
  ),
});
