import type { SendRefusal } from '../../domain/otp.js';

export type DuplicateIdentifier = { readonly _tag: 'DuplicateIdentifier'; readonly kind: 'phone' | 'email' };
export type InvalidOtp = { readonly _tag: 'InvalidOtp' };
export type OtpExpired = { readonly _tag: 'OtpExpired' };
export type RefreshTokenInvalid = { readonly _tag: 'RefreshTokenInvalid' };
export type AccountDeactivated = { readonly _tag: 'AccountDeactivated' };
/** The session (sign-in) the access token belongs to was signed out or revoked. */
export type SessionRevoked = { readonly _tag: 'SessionRevoked' };
/** No live session of the caller has this id. */
export type SessionNotFound = { readonly _tag: 'SessionNotFound' };
/** The invitation was not accepted within INVITATION_TTL_MS; the owner may invite again. */
export type InvitationExpired = { readonly _tag: 'InvitationExpired' };
export type OtpSendRefused = SendRefusal;
