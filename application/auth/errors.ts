import type { SendRefusal } from '../../domain/otp.js';

export type DuplicateIdentifier = { readonly _tag: 'DuplicateIdentifier'; readonly kind: 'phone' | 'email' };
export type InvalidOtp = { readonly _tag: 'InvalidOtp' };
export type OtpExpired = { readonly _tag: 'OtpExpired' };
export type RefreshTokenInvalid = { readonly _tag: 'RefreshTokenInvalid' };
export type AccountDeactivated = { readonly _tag: 'AccountDeactivated' };
export type OtpSendRefused = SendRefusal;
