import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Repositories } from '../ports/repositories.js';
import type { TokenIssuer } from '../ports/token-issuer.js';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3_600_000;

export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
}

/** Issues an access token and a refresh token of the given family (a new family at sign-in). */
export const issueTokenPair = async (
  deps: { clock: Clock; crypto: Crypto; tokens: TokenIssuer },
  repos: Repositories,
  actor: Actor,
  familyId: string,
): Promise<TokenPair> => {
  const now = deps.clock.now();
  const refreshToken = deps.crypto.refreshToken();
  await repos.refreshTokens.add({
    id: deps.crypto.uuid(),
    familyId,
    userId: actor.userId,
    tokenHash: deps.crypto.hashToken(refreshToken),
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    createdAt: now,
    rotatedAt: null,
    revokedAt: null,
  });
  const access = await deps.tokens.issueAccessToken(actor);
  return { accessToken: access.token, refreshToken, expiresIn: access.expiresIn };
};
