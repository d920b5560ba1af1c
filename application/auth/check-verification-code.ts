import * as E from 'fp-ts/lib/Either.js';
import { identifierKey, type Identifier } from '../../domain/identifier.js';
import { judgeAttempt } from '../../domain/otp.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { InvalidOtp, OtpExpired } from './errors.js';
import type { AuthRepositories } from './ports.js';

/** The generic pair, part two: checks a code sent by sendVerificationCode (single use, 5 tries). */
export const checkVerificationCode =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'otps'>>; clock: Clock; crypto: Crypto }) =>
  async (identifier: Identifier, code: string): Promise<E.Either<InvalidOtp | OtpExpired, { identifier: Identifier }>> =>
    deps.uow.run(async (repos) => {
      const key = identifierKey(identifier);
      await repos.otps.lockIdentifier(key);
      const latest = await repos.otps.latest(key, 'VERIFY');
      const verdict = judgeAttempt(latest, deps.crypto.hashOtp(key, code), deps.clock.now());
      if (latest) await repos.otps.save(latest);
      return verdict.ok ? E.right({ identifier }) : E.left(verdict.failure);
    });
