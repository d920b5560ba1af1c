import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { TokenIssuer } from '../ports/token-issuer.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AccountDeactivated, RefreshTokenInvalid } from './errors.js';
import { continueSession, UNKNOWN_DEVICE, type TokenPair } from './sessions.js';
import type { AuthRepositories, SessionDevice } from './ports.js';
import type { BusinessRepositories } from '../business/ports.js';

/**
 * Rotates a refresh token: the presented one is spent and a new one of the same family issued.
 * Presenting a spent token means it was stolen or replayed: the whole family (the session, its access
 * tokens too) is revoked. The session records the device it was used from.
 */
export const refreshSession =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'refreshTokens' | 'sessions'> & Pick<BusinessRepositories, 'memberships'>>; clock: Clock; crypto: Crypto; tokens: TokenIssuer }) =>
  async (refreshToken: string, device: SessionDevice = UNKNOWN_DEVICE): Promise<E.Either<RefreshTokenInvalid | AccountDeactivated, TokenPair>> =>
    deps.uow.run(async (repos) => {
      const invalid = E.left({ _tag: 'RefreshTokenInvalid' as const });
      const now = deps.clock.now();
      const stored = await repos.refreshTokens.findByHashForUpdate(deps.crypto.hashToken(refreshToken));
      if (!stored || stored.revokedAt !== null) return invalid;
      if (stored.rotatedAt !== null) {
        await repos.refreshTokens.revokeFamily(stored.familyId, now);
        return invalid;
      }
      if (stored.expiresAt.getTime() <= now.getTime()) return invalid;

      const membership = await repos.memberships.findByUser(stored.userId);
      if (!membership || membership.status !== 'ACTIVE') {
        await repos.refreshTokens.revokeFamily(stored.familyId, now);
        return E.left({ _tag: 'AccountDeactivated' as const });
      }
      stored.rotatedAt = now;
      await repos.refreshTokens.save(stored);
      const actor = { userId: stored.userId, businessId: membership.businessId, roles: [membership.role] };
      return E.right(await continueSession(deps, repos, actor, stored.familyId, device));
    });
