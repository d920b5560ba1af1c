import type { Identifier } from '../../domain/identifier.js';
import { identifierKey } from '../../domain/identifier.js';
import { checkSend, nextCodeTime, OTP_LENGTH, OTP_TTL_MS, type OtpPurpose, type SendRefusal } from '../../domain/otp.js';
import { TEST_MODE_CODE } from '../../domain/otp-test-identifiers.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { OutgoingMessage } from '../ports/message-sender.js';
import type { AuthRepositories } from './ports.js';

/**
 * What issuing a code needs. `testSignIn`, set only in OTP test mode (never in production), names the
 * identifiers that get TEST_MODE_CODE instead of a random one.
 */
export interface OtpDeps {
  readonly clock: Clock;
  readonly crypto: Crypto;
  readonly testSignIn?: (identifier: Identifier) => boolean;
}

export interface IssuedCode {
  readonly expiresAt: Date;
  /** The message to send after the transaction commits (none for an unknown login identifier). */
  readonly message: OutgoingMessage | undefined;
}

/**
 * Creates a code for the identifier inside the caller's transaction, enforcing the resend
 * cooldown and the hourly cap. `deliver: false` stores a code nobody receives, so an unknown
 * identifier behaves exactly like a known one (no account enumeration).
 */
export const issueCode = async (
  deps: OtpDeps,
  repos: Pick<AuthRepositories, 'otps'>,
  identifier: Identifier,
  purpose: OtpPurpose,
  deliver: boolean,
): Promise<{ ok: true; code: IssuedCode } | { ok: false; refusal: SendRefusal }> => {
  const key = identifierKey(identifier);
  const now = deps.clock.now();
  await repos.otps.lockIdentifier(key);
  const recent = await repos.otps.createdSince(key, new Date(now.getTime() - 3_600_000));
  const refusal = checkSend(recent, purpose, now);
  if (refusal) return { ok: false, refusal };
  // test mode: a listed identifier gets the fixed code, and nothing is sent
  const fixed = deps.testSignIn?.(identifier) ? TEST_MODE_CODE : undefined;
  const code = fixed ?? deps.crypto.otpCode(OTP_LENGTH);
  const createdAt = nextCodeTime(recent, now);
  const expiresAt = new Date(createdAt.getTime() + OTP_TTL_MS);
  await repos.otps.add({
    id: deps.crypto.uuid(),
    identifierKey: key,
    purpose,
    codeHash: deps.crypto.hashOtp(key, code),
    createdAt,
    expiresAt,
    wrongTries: 0,
    consumedAt: null,
  });
  const text = `Your verification code is ${code}. It expires in 10 minutes. Do not share it.`;
  const message: OutgoingMessage | undefined = deliver && !fixed
    ? { channel: identifier.kind === 'phone' ? 'sms' : 'email', to: identifier.value, text }
    : undefined;
  return { ok: true, code: { expiresAt, message } };
};
