import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { TokenIssuer } from '../ports/token-issuer.js';
import type { AuthRepositories, SessionDevice } from './ports.js';
import type { EventRepositories } from '../ports/outbox.js';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3_600_000;
/** Longer user agents are cut: the list only has to tell devices apart. */
export const USER_AGENT_MAX = 512;

/** A device unknown to the caller (a program that embeds the use cases). */
export const UNKNOWN_DEVICE: SessionDevice = { userAgent: null, ip: null };

export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
}

type Deps = { clock: Clock; crypto: Crypto; tokens: TokenIssuer };
type SessionRepos = Pick<AuthRepositories, 'refreshTokens' | 'sessions'> & EventRepositories;

const clean = (s: string | null, max: number) => s?.replace(/\u0000/g, '').trim().slice(0, max) || null;
const cleanDevice = (d: SessionDevice): SessionDevice => ({ userAgent: clean(d.userAgent, USER_AGENT_MAX), ip: clean(d.ip, 64) });

/** Issues an access token and a refresh token (`refreshToken`, else a random one) of the session (the refresh-token family). */
const issueTokenPair = async (
  deps: Deps,
  repos: Pick<AuthRepositories, 'refreshTokens'>,
  actor: Actor,
  sessionId: string,
  now: Date,
  expiresAt: Date,
  refreshToken = deps.crypto.refreshToken(),
): Promise<TokenPair> => {
  await repos.refreshTokens.add({
    id: deps.crypto.uuid(),
    familyId: sessionId,
    userId: actor.userId,
    tokenHash: deps.crypto.hashToken(refreshToken),
    expiresAt,
    createdAt: now,
    rotatedAt: null,
    revokedAt: null,
  });
  const access = await deps.tokens.issueAccessToken(actor, sessionId);
  return { accessToken: access.token, refreshToken, expiresIn: access.expiresIn };
};

/**
 * A sign-in: a new session for the device, with its first token pair. A sign-in from a user agent none
 * of the member's earlier sessions had (not their first sign-in) is recorded for the audit log.
 */
export const startSession = async (deps: Deps, repos: SessionRepos, actor: Actor, device: SessionDevice): Promise<TokenPair> => {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_MS);
  const id = deps.crypto.uuid();
  const seen = cleanDevice(device);
  const history = seen.userAgent === null ? undefined : await repos.sessions.history(actor.userId, seen.userAgent);
  await repos.sessions.add({ id, userId: actor.userId, createdAt: now, lastUsedAt: now, expiresAt, revokedAt: null, ...seen });
  if (history?.signedInBefore && !history.fromThisDevice) {
    await repos.events.record(now, { _tag: 'SignedInFromNewDevice', businessId: actor.businessId, userId: actor.userId, role: actor.roles[0]!, sessionId: id, userAgent: seen.userAgent!, ip: seen.ip });
  }
  return issueTokenPair(deps, repos, actor, id, now, expiresAt);
};

/**
 * A refresh: the session's next token pair, its refresh token `successor` (the spent token's
 * successorToken); the session records the use and lives 30 days more.
 */
export const continueSession = async (deps: Deps, repos: Pick<AuthRepositories, 'refreshTokens' | 'sessions'>, actor: Actor, sessionId: string, device: SessionDevice, successor: string): Promise<TokenPair> => {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_MS);
  await repos.sessions.touch(actor.userId, sessionId, now, expiresAt, cleanDevice(device));
  return issueTokenPair(deps, repos, actor, sessionId, now, expiresAt, successor);
};
