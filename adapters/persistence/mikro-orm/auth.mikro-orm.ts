import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { AuthRepositories } from '../../../application/auth/ports.js';
import { mikroOrmSessions } from './sessions.mikro-orm.js';
import { OtpCodeSchema, RefreshTokenSchema, UserSchema } from './schemas.js';

/** The auth module over one transaction's EntityManager: users, sign-in codes, refresh tokens and sessions. */
export const mikroOrmAuthModule = (em: EntityManager): AuthRepositories => ({
  users: {
    findById: async (id) => (await em.findOne(UserSchema, { id })) ?? undefined,
    findByIdentifier: async (identifier) =>
      (await em.findOne(UserSchema, identifier.kind === 'phone' ? { phone: identifier.value } : { email: identifier.value })) ??
      undefined,
    add: async (user) => void em.persist(em.create(UserSchema, user)),
    save: async (user) => void em.persist(user),
  },
  otps: {
    lockIdentifier: async (key) => {
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
    },
    createdSince: (key, since) => em.find(OtpCodeSchema, { identifierKey: key, createdAt: { $gt: since } }),
    latest: async (key, purpose) =>
      (await em.findOne(OtpCodeSchema, { identifierKey: key, purpose }, { orderBy: { createdAt: 'desc' } })) ?? undefined,
    add: async (code) => void em.persist(em.create(OtpCodeSchema, code)),
    save: async (code) => void em.persist(code),
  },
  refreshTokens: {
    findByHashForUpdate: async (tokenHash) =>
      (await em.findOne(RefreshTokenSchema, { tokenHash }, { lockMode: LockMode.PESSIMISTIC_WRITE })) ?? undefined,
    add: async (token) => void em.persist(em.create(RefreshTokenSchema, token)),
    save: async (token) => void em.persist(token),
    revokeFamily: async (familyId, at) => {
      await em.nativeUpdate(RefreshTokenSchema, { familyId, revokedAt: null }, { revokedAt: at });
      await em.execute('update sessions set revoked_at = ? where id = ? and revoked_at is null', [at, familyId]);
    },
    revokeAllForUser: async (userId, at) => {
      await em.nativeUpdate(RefreshTokenSchema, { userId, revokedAt: null }, { revokedAt: at });
      await em.execute('update sessions set revoked_at = ? where user_id = ? and revoked_at is null', [at, userId]);
    },
  },
  sessions: mikroOrmSessions(em),
});
