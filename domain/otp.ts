/** One-time code rules (API-DECISIONS "Auth"). */
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_WRONG_TRIES = 5;
export const OTP_RESEND_COOLDOWN_MS = 60 * 1000;
export const OTP_MAX_PER_HOUR = 10;
export const OTP_LENGTH = 6;

/** What a code is for: a register/login code cannot be spent on the generic check, nor the reverse. */
export type OtpPurpose = 'SIGN_IN' | 'VERIFY';

export interface OtpCode {
  readonly id: string;
  readonly identifierKey: string;
  readonly purpose: OtpPurpose;
  readonly codeHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  wrongTries: number;
  consumedAt: Date | null;
}

export const isLive = (code: OtpCode, now: Date): boolean =>
  code.consumedAt === null && code.wrongTries < OTP_MAX_WRONG_TRIES && code.expiresAt.getTime() > now.getTime();

export type SendRefusal =
  | { readonly _tag: 'ResendTooSoon'; readonly retryAfterSeconds: number }
  | { readonly _tag: 'HourlyCapReached'; readonly retryAfterSeconds: number };

/**
 * May a new code be sent? `recent` holds the identifier's codes (all purposes) created in the last hour.
 * A live unused code blocks a resend for 60 s after it was sent; at most 10 codes an hour.
 */
export const checkSend = (recent: readonly OtpCode[], purpose: OtpPurpose, now: Date): SendRefusal | undefined => {
  const t = now.getTime();
  const lastHour = recent.filter((c) => c.createdAt.getTime() > t - 3_600_000);
  if (lastHour.length >= OTP_MAX_PER_HOUR) {
    const oldest = Math.min(...lastHour.map((c) => c.createdAt.getTime()));
    return { _tag: 'HourlyCapReached', retryAfterSeconds: Math.max(1, Math.ceil((oldest + 3_600_000 - t) / 1000)) };
  }
  const blocking = lastHour.filter(
    (c) => c.purpose === purpose && isLive(c, now) && c.createdAt.getTime() > t - OTP_RESEND_COOLDOWN_MS,
  );
  if (blocking.length > 0) {
    const newest = Math.max(...blocking.map((c) => c.createdAt.getTime()));
    const seconds = Math.ceil((newest + OTP_RESEND_COOLDOWN_MS - t) / 1000);
    return { _tag: 'ResendTooSoon', retryAfterSeconds: Math.min(OTP_RESEND_COOLDOWN_MS / 1000, Math.max(1, seconds)) };
  }
  return undefined;
};

export type CheckFailure = { readonly _tag: 'InvalidOtp' } | { readonly _tag: 'OtpExpired' };

/**
 * Judges a submitted code against the newest code for the identifier and mutates it:
 * a match consumes it, a miss counts a wrong try (the 5th kills it).
 */
export const judgeAttempt = (
  code: OtpCode | undefined,
  submittedHash: string,
  now: Date,
): { ok: true } | { ok: false; failure: CheckFailure } => {
  if (!code || code.consumedAt !== null || code.wrongTries >= OTP_MAX_WRONG_TRIES) {
    return { ok: false, failure: { _tag: 'InvalidOtp' } };
  }
  if (code.expiresAt.getTime() <= now.getTime()) return { ok: false, failure: { _tag: 'OtpExpired' } };
  if (code.codeHash !== submittedHash) {
    code.wrongTries += 1;
    return { ok: false, failure: { _tag: 'InvalidOtp' } };
  }
  code.consumedAt = now;
  return { ok: true };
};

/**
 * The creation time of a new code: now, but strictly after the identifier's newest code, so
 * "the newest code" is never ambiguous even when two are made within one millisecond.
 */
export const nextCodeTime = (recent: readonly OtpCode[], now: Date): Date => {
  const newest = Math.max(0, ...recent.map((c) => c.createdAt.getTime()));
  return new Date(Math.max(now.getTime(), newest + 1));
};
