import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { Repositories } from '../../../application/ports/repositories.js';
import { BranchSchema, BusinessSchema, MembershipSchema, OtpCodeSchema, RefreshTokenSchema, UserSchema } from './schemas.js';

/**
 * The repository ports over one transactional EntityManager. Writes are flushed when the
 * transaction commits; `save` only marks an entity loaded through this manager as changed.
 */
export const mikroOrmRepositories = (em: EntityManager): Repositories => ({
  users: {
    findById: async (id) => (await em.findOne(UserSchema, { id })) ?? undefined,
    findByIdentifier: async (identifier) =>
      (await em.findOne(UserSchema, identifier.kind === 'phone' ? { phone: identifier.value } : { email: identifier.value })) ??
      undefined,
    add: async (user) => void em.persist(em.create(UserSchema, user)),
    save: async (user) => void em.persist(user),
  },
  businesses: {
    findById: async (id) => (await em.findOne(BusinessSchema, { id })) ?? undefined,
    add: async (business) => void em.persist(em.create(BusinessSchema, business)),
  },
  branches: {
    findById: async (businessId, id) => (await em.findOne(BranchSchema, { id, businessId })) ?? undefined,
    add: async (branch) => void em.persist(em.create(BranchSchema, branch)),
  },
  memberships: {
    findByUser: async (userId) => (await em.findOne(MembershipSchema, { userId })) ?? undefined,
    add: async (membership) => void em.persist(em.create(MembershipSchema, membership)),
    save: async (membership) => void em.persist(membership),
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
    },
    revokeAllForUser: async (userId, at) => {
      await em.nativeUpdate(RefreshTokenSchema, { userId, revokedAt: null }, { revokedAt: at });
    },
  },
});
