import * as E from 'fp-ts/lib/Either.js';
import type { Identifier } from '../../domain/identifier.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { OtpSendRefused } from './errors.js';
import { issueCode, type OtpDeps } from './otp-delivery.js';
import type { AuthRepositories } from './ports.js';

/**
 * Login: sends a sign-in code to a registered identifier. An unknown identifier gets the same
 * answer (and the same cooldowns) but nothing is sent, so the endpoint reveals no accounts.
 */
export const requestSignInCode =
  (deps: OtpDeps & { uow: UnitOfWork<Pick<AuthRepositories, 'users' | 'otps'> & EventRepositories> }) =>
  async (identifier: Identifier, requester: string | null = null): Promise<E.Either<OtpSendRefused, { identifier: Identifier; otpExpiresAt: Date }>> => {
    const issued = await deps.uow.run(async (repos) => {
      const user = await repos.users.findByIdentifier(identifier);
      return issueCode(deps, repos, identifier, 'SIGN_IN', user !== undefined, null, requester);
    });
    if (!issued.ok) return E.left(issued.refusal);
    return E.right({ identifier, otpExpiresAt: issued.code.expiresAt });
  };
