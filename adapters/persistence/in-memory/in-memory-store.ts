import type { Branch, Business, Membership, User } from '../../../domain/business.js';
import type { OtpCode } from '../../../domain/otp.js';
import type { RefreshToken, Repositories } from '../../../application/ports/repositories.js';
import { Rollback, type UnitOfWork } from '../../../application/ports/unit-of-work.js';

interface Tables {
  users: Map<string, User>;
  businesses: Map<string, Business>;
  branches: Map<string, Branch>;
  memberships: Map<string, Membership>;
  otps: Map<string, OtpCode>;
  refreshTokens: Map<string, RefreshToken>;
}

const emptyTables = (): Tables => ({
  users: new Map(),
  businesses: new Map(),
  branches: new Map(),
  memberships: new Map(),
  otps: new Map(),
  refreshTokens: new Map(),
});

const copy = <T>(value: T): T => structuredClone(value);
const values = <T>(m: Map<string, T>): T[] => [...m.values()].map(copy);

const repositories = (t: Tables): Repositories => ({
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
  businesses: {
    findById: async (id) => (t.businesses.has(id) ? copy(t.businesses.get(id)) : undefined),
    add: async (b) => void t.businesses.set(b.id, copy(b)),
  },
  branches: {
    findById: async (businessId, id) => {
      const b = t.branches.get(id);
      return b && b.businessId === businessId ? copy(b) : undefined;
    },
    add: async (b) => void t.branches.set(b.id, copy(b)),
  },
  memberships: {
    findByUser: async (userId) => values(t.memberships).find((m) => m.userId === userId),
    add: async (m) => {
      if (values(t.memberships).some((x) => x.userId === m.userId)) throw new Error('unique violation: memberships user');
      t.memberships.set(m.id, copy(m));
    },
    save: async (m) => void t.memberships.set(m.id, copy(m)),
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
    },
    revokeAllForUser: async (userId, at) => {
      for (const r of t.refreshTokens.values()) if (r.userId === userId && r.revokedAt === null) r.revokedAt = at;
    },
  },
});

/**
 * The persistence ports in memory, for unit tests and embedders. Transactions run one at a time
 * (like PGlite) and a throw or a Rollback restores the snapshot taken when the work began.
 */
export const inMemoryUnitOfWork = (): UnitOfWork => {
  let tables = emptyTables();
  let queue: Promise<unknown> = Promise.resolve();
  const run = async <A>(work: (repos: Repositories) => Promise<A | Rollback<A>>): Promise<A> => {
    const previous = queue;
    let release!: () => void;
    queue = new Promise<void>((r) => (release = r));
    await previous;
    const snapshot = tables;
    tables = copy(snapshot);
    try {
      const result = await work(repositories(tables));
      if (result instanceof Rollback) {
        tables = snapshot;
        return result.value;
      }
      return result;
    } catch (e) {
      tables = snapshot;
      throw e;
    } finally {
      release();
    }
  };
  return { run };
};
