import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { RefreshTokenInvalid, SessionNotFound } from './errors.js';
import type { AuthRepositories, Session, SessionSort } from './ports.js';

/**
 * Sign-out: the refresh token's session ends (all its refresh tokens, and its access tokens at their
 * next request). Any token the API issued counts, spent or already signed out, so a retry succeeds;
 * a token it never issued is RefreshTokenInvalid (nothing was signed out).
 */
export const logout =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'refreshTokens'>>; clock: Clock; crypto: Crypto }) =>
  async (refreshToken: string): Promise<E.Either<RefreshTokenInvalid, { sessionId: string }>> =>
    deps.uow.run(async (repos) => {
      const stored = await repos.refreshTokens.findByHashForUpdate(deps.crypto.hashToken(refreshToken));
      if (!stored) return E.left({ _tag: 'RefreshTokenInvalid' as const });
      await repos.refreshTokens.revokeFamily(stored.familyId, deps.clock.now());
      return E.right({ sessionId: stored.familyId });
    });

/** The caller's signed-in devices: their live sessions (not signed out, not expired). */
export const listSessions =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'sessions'>>; clock: Clock }) =>
  async (actor: Actor, page: PageRequest<SessionSort>): Promise<Page<Session>> =>
    deps.uow.read((r) => r.sessions.list(actor.userId, deps.clock.now(), page));

/** Signs one of the caller's own devices out (the current one too); another user's session is not found. */
export const endSession =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'sessions'>>; clock: Clock }) =>
  async (actor: Actor, sessionId: string): Promise<E.Either<SessionNotFound, void>> =>
    deps.uow.run(async (repos) =>
      (await repos.sessions.revoke(actor.userId, sessionId, deps.clock.now())) ? E.right(undefined) : E.left({ _tag: 'SessionNotFound' as const }),
    );
