import type { RefreshToken, Session, SessionRepository } from '../../../application/auth/ports.js';
import { keysetPageInMemory } from './keyset.in-memory.js';

/** The tables sessions live in (a part of the in-memory store's). */
export interface SessionTables {
  sessions: Map<string, Session>;
  refreshTokens: Map<string, RefreshToken>;
}

/** True unless the user has a session `sessionId` that is not revoked (what an access token's `sid` must name). */
export const isSessionRevoked = (t: Pick<SessionTables, 'sessions'>, userId: string, sessionId: string): boolean => {
  const s = t.sessions.get(sessionId);
  return !s || s.userId !== userId || s.revokedAt !== null;
};

/** Marks the matching sessions and their refresh tokens revoked at `at` (those already revoked keep their time). */
export const revokeSessions = (t: SessionTables, match: (s: Session) => boolean, at: Date): number => {
  let count = 0;
  for (const [id, s] of t.sessions) {
    if (s.revokedAt !== null || !match(s)) continue;
    t.sessions.set(id, { ...s, revokedAt: at });
    count++;
    for (const r of t.refreshTokens.values()) if (r.familyId === id && r.revokedAt === null) r.revokedAt = at;
  }
  return count;
};

const isLive = (s: Session, now: Date) => s.revokedAt === null && s.expiresAt.getTime() > now.getTime();

export const inMemorySessions = (t: SessionTables): SessionRepository => ({
  add: async (s) => void t.sessions.set(s.id, structuredClone(s)),
  touch: async (userId, id, at, expiresAt, device) => {
    const s = t.sessions.get(id);
    if (!s || s.userId !== userId) return;
    t.sessions.set(id, { ...s, lastUsedAt: at, expiresAt, userAgent: device.userAgent ?? s.userAgent, ip: device.ip ?? s.ip });
  },
  history: async (userId, userAgent) => {
    const own = [...t.sessions.values()].filter((s) => s.userId === userId);
    return { signedInBefore: own.length > 0, fromThisDevice: own.some((s) => s.userAgent === userAgent) };
  },
  list: async (userId, now, page) =>
    keysetPageInMemory(
      [...t.sessions.values()].filter((s) => s.userId === userId && isLive(s, now)).map((s) => structuredClone(s)),
      page,
      {
        sortValue: (s, sortBy) => (sortBy === 'created_at' ? s.createdAt : s.lastUsedAt).toISOString(),
        id: (s) => s.id,
        searchText: (s) => [s.userAgent, s.ip],
        date: (s) => s.createdAt,
      },
    ),
  revoke: async (userId, id, at) => revokeSessions(t, (s) => s.id === id && s.userId === userId && isLive(s, at), at) > 0,
});
