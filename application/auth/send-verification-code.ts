import * as E from 'fp-ts/lib/Either.js';
import type { Identifier } from '../../domain/identifier.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { OtpSendRefused } from './errors.js';
import { issueCode, type OtpDeps } from './otp-delivery.js';
import type { AuthRepositories } from './ports.js';

/** The generic pair, part one: sends a code proving control of any phone or e-mail. */
export const sendVerificationCode =
  (deps: OtpDeps & { uow: UnitOfWork<Pick<AuthRepositories, 'otps'> & EventRepositories> }) =>
  async (identifier: Identifier, requester: string | null = null): Promise<E.Either<OtpSendRefused, { identifier: Identifier; otpExpiresAt: Date }>> => {
    const issued = await deps.uow.run((repos) => issueCode(deps, repos, identifier, 'VERIFY', true, null, requester));
    if (!issued.ok) return E.left(issued.refusal);
    return E.right({ identifier, otpExpiresAt: issued.code.expiresAt });
  };
