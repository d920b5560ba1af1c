import type { Identifier } from '../../domain/identifier.js';
import { identifierKey } from '../../domain/identifier.js';
import { checkSend, nextCodeTime, OTP_LENGTH, OTP_TTL_MS, type OtpPurpose, type SendRefusal } from '../../domain/otp.js';
import { TEST_MODE_CODE } from '../../domain/otp-test-identifiers.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
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
}

/**
 * Creates a code for the identifier inside the caller's transaction, enforcing the resend
 * cooldown and the hourly caps (`requester`: who asks, see OtpCode.requestedBy), and records the
 * event that has it sent after the commit.
 * `deliver: false` stores a code nobody receives, so an unknown identifier behaves exactly like a
 * known one (no account enumeration).
 */
export const issueCode = async (
  deps: OtpDeps,
  repos: Pick<AuthRepositories, 'otps'> & EventRepositories,
  identifier: Identifier,
  purpose: OtpPurpose,
  deliver: boolean,
  businessId: string | null = null,
  requester: string | null = null,
): Promise<{ ok: true; code: IssuedCode } | { ok: false; refusal: SendRefusal }> => {
  const key = identifierKey(identifier);
  const now = deps.clock.now();
  await repos.otps.lockIdentifier(key);
  const recent = await repos.otps.createdSince(key, new Date(now.getTime() - 3_600_000));
  const refusal = checkSend(recent, purpose, now, requester);
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
    requestedBy: requester,
    wrongTries: 0,
    consumedAt: null,
  });
  if (deliver && !fixed) {
    const issued = { businessId, identifier, code, expiresAt: expiresAt.toISOString() };
    await repos.events.record(now, purpose === 'SIGN_IN' ? { _tag: 'SignInCodeIssued', ...issued } : { _tag: 'VerificationCodeIssued', ...issued });
  }
  return { ok: true, code: { expiresAt } };
};
