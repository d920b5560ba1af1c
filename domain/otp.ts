/** One-time code rules (API-DECISIONS "Auth"). */
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_WRONG_TRIES = 5;
export const OTP_RESEND_COOLDOWN_MS = 60 * 1000;
export const OTP_MAX_PER_HOUR = 10;
/**
 * Codes of one purpose an hour asked for by one requester, killed ones included: what bounds the
 * messages an attacker can make us send, and the guesses they get, by asking for codes and killing
 * them with wrong tries (ADR 0012). Per requester, so the attacker's codes never stop the phone's
 * owner, elsewhere, from getting one (ADR 0042).
 */
export const OTP_MAX_SENT_PER_HOUR = 30;
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
  /** Who asked for it: the client IP as the HTTP edge saw it (null when unknown, e.g. a program embedding the use cases). */
  readonly requestedBy: string | null;
  wrongTries: number;
  consumedAt: Date | null;
}

export const isLive = (code: OtpCode, now: Date): boolean =>
  code.consumedAt === null && code.wrongTries < OTP_MAX_WRONG_TRIES && code.expiresAt.getTime() > now.getTime();

export type SendRefusal =
  | { readonly _tag: 'ResendTooSoon'; readonly retryAfterSeconds: number }
  | { readonly _tag: 'HourlyCapReached'; readonly retryAfterSeconds: number };

/** A code that counts toward the hourly budget: used, or still usable. Killed and lapsed codes do not. */
const spendsBudget = (c: OtpCode, now: Date) => c.consumedAt !== null || isLive(c, now);

/**
 * May a new code be sent to `requester`? `recent` holds the identifier's codes created in the last hour.
 * A live unused code blocks a resend for 60 s after it was sent. Each purpose has its own budget, so
 * the public /otp/send cannot use up sign-in. At most 10 codes an hour that were used or are still
 * usable: a code killed by wrong tries or left to expire does not count, because anyone can make one,
 * while only the phone's owner can use one; when the budget is full, the newest code is still
 * live and usable by its owner. At most 30 codes sent an hour to one requester whatever became of
 * them (ADR 0012): a stranger who kills codes with wrong tries reaches that ceiling for themself,
 * not for the owner asking from elsewhere (ADR 0042).
 */
export const checkSend = (recent: readonly OtpCode[], purpose: OtpPurpose, now: Date, requester: string | null = null): SendRefusal | undefined => {
  const t = now.getTime();
  const lastHour = recent.filter((c) => c.purpose === purpose && c.createdAt.getTime() > t - 3_600_000);
  const retryAfter = (counted: readonly OtpCode[], cap: number) => {
    // the moment the oldest code that keeps the count at the cap leaves the hour
    const times = counted.map((c) => c.createdAt.getTime()).sort((a, b) => a - b);
    return Math.max(1, Math.ceil((times[times.length - cap]! + 3_600_000 - t) / 1000));
  };
  const counted = lastHour.filter((c) => spendsBudget(c, now));
  if (counted.length >= OTP_MAX_PER_HOUR) return { _tag: 'HourlyCapReached', retryAfterSeconds: retryAfter(counted, OTP_MAX_PER_HOUR) };
  const asked = lastHour.filter((c) => c.requestedBy === requester);
  if (asked.length >= OTP_MAX_SENT_PER_HOUR) return { _tag: 'HourlyCapReached', retryAfterSeconds: retryAfter(asked, OTP_MAX_SENT_PER_HOUR) };
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
