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

// Google sign-in (docs/adr/0027)
/** This deployment names no Google client (GOOGLE_CLIENT_ID unset): Google sign-in is off. */
export type GoogleSignInNotConfigured = { readonly _tag: 'GoogleSignInNotConfigured' };
/** Google's signing keys could not be fetched in time: nothing can be said about the token yet. */
export type GoogleUnavailable = { readonly _tag: 'GoogleUnavailable' };
/** The ID token is not a live token Google issued for this API's client. */
export type GoogleTokenRejected = { readonly _tag: 'GoogleTokenRejected'; readonly reason: GoogleTokenFault };
export type GoogleTokenFault = 'expired' | 'audience' | 'issuer' | 'signature' | 'malformed' | 'lifetime';
/** Google does not vouch for the e-mail (`email_verified` is not true). */
export type GoogleEmailNotVerified = { readonly _tag: 'GoogleEmailNotVerified' };
/** No account has this Google identity or e-mail, and no business name was given to register one. */
export type BusinessNameRequired = { readonly _tag: 'BusinessNameRequired' };
/** The Google account is linked to another user. */
export type GoogleAccountInUse = { readonly _tag: 'GoogleAccountInUse' };
/** The user is linked to another Google account than the token's. */
export type GoogleAccountMismatch = { readonly _tag: 'GoogleAccountMismatch' };
