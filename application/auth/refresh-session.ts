import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { TokenIssuer } from '../ports/token-issuer.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AccountDeactivated, RefreshTokenInvalid } from './errors.js';
import { continueSession, UNKNOWN_DEVICE, type TokenPair } from './sessions.js';
import type { AuthRepositories, RefreshToken, SessionDevice } from './ports.js';
import type { BusinessRepositories } from '../business/ports.js';

/**
 * How long after its rotation a refresh token is still answered (with the same successor) instead of
 * being taken for a theft: parallel or retried refreshes of one device (docs/adr/0042).
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

/**
 * Rotates a refresh token: the presented one is spent and its successor (crypto.successorToken) issued
 * in the same family. Presented again within REFRESH_REUSE_GRACE_MS of its rotation while that
 * successor is still unspent, it gets the same successor and a fresh access token: a client that
 * refreshed in parallel, or retried after a lost answer, stays signed in. Otherwise a spent token
 * means it was stolen or replayed: the whole family (the session, its access tokens too) is revoked.
 * The session records the device it was used from. Concurrent refreshes of one token queue on its
 * row lock, so the later ones see the rotation and the successor the first committed.
 */
export const refreshSession =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'refreshTokens' | 'sessions'> & Pick<BusinessRepositories, 'memberships'>>; clock: Clock; crypto: Crypto; tokens: TokenIssuer }) =>
  async (refreshToken: string, device: SessionDevice = UNKNOWN_DEVICE): Promise<E.Either<RefreshTokenInvalid | AccountDeactivated, TokenPair>> =>
    deps.uow.run(async (repos) => {
      const invalid = E.left({ _tag: 'RefreshTokenInvalid' as const });
      const now = deps.clock.now();
      const stored = await repos.refreshTokens.findByHashForUpdate(deps.crypto.hashToken(refreshToken));
      if (!stored || stored.revokedAt !== null) return invalid;
      const successor = deps.crypto.successorToken(refreshToken);
      const replayOf = stored.rotatedAt === null ? undefined : await graceReplay(deps, repos, stored, successor, now);
      if (stored.rotatedAt !== null && !replayOf) {
        await repos.refreshTokens.revokeFamily(stored.familyId, now);
        return invalid;
      }
      if (stored.expiresAt.getTime() <= now.getTime()) return invalid;

      const membership = await repos.memberships.findByUser(stored.userId);
      if (!membership || membership.status !== 'ACTIVE') {
        await repos.refreshTokens.revokeFamily(stored.familyId, now);
        return E.left({ _tag: 'AccountDeactivated' as const });
      }
      const actor = { userId: stored.userId, businessId: membership.businessId, roles: [membership.role] };
      if (replayOf) {
        const access = await deps.tokens.issueAccessToken(actor, stored.familyId);
        return E.right({ accessToken: access.token, refreshToken: successor, expiresIn: access.expiresIn });
      }
      stored.rotatedAt = now;
      await repos.refreshTokens.save(stored);
      return E.right(await continueSession(deps, repos, actor, stored.familyId, device, successor));
    });

/** The successor of a token rotated within the grace window, while it is still the session's live token. */
const graceReplay = async (
  deps: { crypto: Crypto },
  repos: Pick<AuthRepositories, 'refreshTokens'>,
  stored: RefreshToken,
  successor: string,
  now: Date,
): Promise<RefreshToken | undefined> => {
  if (now.getTime() - stored.rotatedAt!.getTime() > REFRESH_REUSE_GRACE_MS) return undefined;
  const next = await repos.refreshTokens.findByHashForUpdate(deps.crypto.hashToken(successor));
  const live = next && next.familyId === stored.familyId && next.rotatedAt === null && next.revokedAt === null && next.expiresAt.getTime() > now.getTime();
  return live ? next : undefined;
};
