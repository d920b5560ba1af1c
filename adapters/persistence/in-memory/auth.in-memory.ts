import type { AuthRepositories, GoogleIdentity, RefreshToken, Session } from '../../../application/auth/ports.js';
import type { User } from '../../../domain/business.js';
import type { OtpCode } from '../../../domain/otp.js';
import type { InMemoryModule } from './in-memory-store.js';
import { copy, values } from './rows.js';
import { inMemorySessions, revokeSessions } from './sessions.in-memory.js';

/** The auth module's tables. */
export interface AuthTables {
  users: Map<string, User>;
  otps: Map<string, OtpCode>;
  refreshTokens: Map<string, RefreshToken>;
  sessions: Map<string, Session>;
  /** By Google subject. */
  googleIdentities: Map<string, GoogleIdentity>;
}

/** The auth module in memory: users, sign-in codes, refresh tokens, sessions and linked Google accounts. */
export const inMemoryAuthModule: InMemoryModule<AuthTables, AuthRepositories> = {
  tables: () => ({ users: new Map(), otps: new Map(), refreshTokens: new Map(), sessions: new Map(), googleIdentities: new Map() }),
  repositories: (t) => ({
    users: {
      findById: async (id) => (t.users.has(id) ? copy(t.users.get(id)) : undefined),
      findByIdentifier: async (identifier) =>
        values(t.users).find((u) =>
          identifier.kind === 'phone' ? u.phone === identifier.value : u.email === identifier.value,
        ),
      add: async (user) => {
        if (values(t.users).some((u) => (user.phone && u.phone === user.phone) || (user.email && u.email === user.email))) {
          throw new Error('unique violation: users identifier');
        }
        t.users.set(user.id, copy(user));
      },
      save: async (user) => void t.users.set(user.id, copy(user)),
    },
    otps: {
      lockIdentifier: async () => undefined, // transactions are already serialised
      createdSince: async (key, since) =>
        values(t.otps).filter((c) => c.identifierKey === key && c.createdAt.getTime() > since.getTime()),
      latest: async (key, purpose) =>
        values(t.otps)
          .filter((c) => c.identifierKey === key && c.purpose === purpose)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0],
      add: async (c) => void t.otps.set(c.id, copy(c)),
      save: async (c) => void t.otps.set(c.id, copy(c)),
    },
    refreshTokens: {
      findByHashForUpdate: async (hash) => values(t.refreshTokens).find((r) => r.tokenHash === hash),
      add: async (r) => void t.refreshTokens.set(r.id, copy(r)),
      save: async (r) => void t.refreshTokens.set(r.id, copy(r)),
      revokeFamily: async (familyId, at) => {
        for (const r of t.refreshTokens.values()) if (r.familyId === familyId && r.revokedAt === null) r.revokedAt = at;
        revokeSessions(t, (s) => s.id === familyId, at);
      },
      revokeAllForUser: async (userId, at) => {
        for (const r of t.refreshTokens.values()) if (r.userId === userId && r.revokedAt === null) r.revokedAt = at;
        revokeSessions(t, (s) => s.userId === userId, at);
      },
    },
    sessions: inMemorySessions(t),
    googleIdentities: {
      findBySubject: async (subject) => (t.googleIdentities.has(subject) ? copy(t.googleIdentities.get(subject)) : undefined),
      findByUser: async (userId) => values(t.googleIdentities).find((g) => g.userId === userId),
      add: async (g) => {
        // the SQL table's two unique keys
        if (t.googleIdentities.has(g.subject) || values(t.googleIdentities).some((o) => o.userId === g.userId)) throw new Error('unique violation: google_identities');
        t.googleIdentities.set(g.subject, copy(g));
      },
    },
  }),
};
