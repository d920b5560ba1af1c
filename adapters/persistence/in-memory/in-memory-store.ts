import type { Branch, Business, Membership, User } from '../../../domain/business.js';
import type { OtpCode } from '../../../domain/otp.js';
import { isLowStock, type Product, type StockMovement } from '../../../domain/product.js';
import type { RefreshToken, Repositories, StaffMember } from '../../../application/ports/repositories.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { Rollback, type UnitOfWork } from '../../../application/ports/unit-of-work.js';

interface Tables {
  products: Map<string, Product>;
  stockMovements: Map<string, StockMovement>;
  users: Map<string, User>;
  businesses: Map<string, Business>;
  branches: Map<string, Branch>;
  memberships: Map<string, Membership>;
  otps: Map<string, OtpCode>;
  refreshTokens: Map<string, RefreshToken>;
}

const emptyTables = (): Tables => ({
  products: new Map(),
  stockMovements: new Map(),
  users: new Map(),
  businesses: new Map(),
  branches: new Map(),
  memberships: new Map(),
  otps: new Map(),
  refreshTokens: new Map(),
});

const copy = <T>(value: T): T => structuredClone(value);
const values = <T>(m: Map<string, T>): T[] => [...m.values()].map(copy);

const liveBranches = (t: Tables, businessId: string): Branch[] =>
  values(t.branches).filter((b) => b.businessId === businessId && b.archivedAt === null);

const staff = (t: Tables, businessId: string): StaffMember[] =>
  values(t.memberships)
    .filter((m) => m.businessId === businessId)
    .map((m) => {
      const u = t.users.get(m.userId)!;
      return { ...m, firstName: u.firstName, lastName: u.lastName, phone: u.phone, email: u.email };
    });

const productsOf = (t: Tables, businessId: string) => values(t.products).filter((p) => p.businessId === businessId);
const skuTaken = (t: Tables, p: Product) =>
  productsOf(t, p.businessId).some((x) => x.id !== p.id && x.sku.toLowerCase() === p.sku.toLowerCase());

const repositories = (t: Tables): Repositories => ({
  products: {
    findById: async (businessId, id) => productsOf(t, businessId).find((p) => p.id === id),
    findBySku: async (businessId, sku) => productsOf(t, businessId).find((p) => p.sku.toLowerCase() === sku.toLowerCase()),
    list: async (businessId, page, filter) =>
      keysetPageInMemory(
        productsOf(t, businessId).filter(
          (p) =>
            (filter.category === undefined || p.category?.toLowerCase() === filter.category.toLowerCase()) &&
            (!filter.type || p.type === filter.type) &&
            (!filter.lowStock || isLowStock(p)),
        ),
        page,
        {
          sortValue: (p, by) =>
            by === 'name' ? p.name : by === 'price' ? p.price : by === 'quantity' ? p.quantity : (by === 'updated_at' ? p.updatedAt : p.createdAt).toISOString(),
          id: (p) => p.id,
          searchText: (p) => [`${p.name} ${p.sku} ${p.category ?? ''} ${p.barcode ?? ''}`],
          date: (p) => p.createdAt,
        },
      ),
    categories: async (businessId) => {
      const counts = new Map<string, { name: string; productCount: number }>();
      for (const p of productsOf(t, businessId)) {
        if (p.category === null) continue;
        const key = p.category.toLowerCase();
        const entry = counts.get(key) ?? { name: p.category, productCount: 0 };
        if (p.category < entry.name) entry.name = p.category;
        entry.productCount += 1;
        counts.set(key, entry);
      }
      return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
    },
    add: async (p) => {
      if (skuTaken(t, p)) return 'duplicate_sku';
      t.products.set(p.id, copy(p));
      return 'added';
    },
    save: async (p) => {
      if (skuTaken(t, p)) return 'duplicate_sku';
      const stored = t.products.get(p.id);
      if (stored && stored.businessId === p.businessId) t.products.set(p.id, { ...copy(p), quantity: stored.quantity });
      return 'saved';
    },
    changeQuantity: async (businessId, id, change, at) => {
      const p = t.products.get(id);
      if (!p || p.businessId !== businessId) return undefined;
      if (p.quantity + change < 0) return { ok: false, available: p.quantity };
      const before = p.quantity;
      p.quantity += change;
      p.updatedAt = at;
      return { ok: true, before, after: p.quantity };
    },
  },
  stockLedger: {
    add: async (m) => void t.stockMovements.set(m.id, copy(m)),
    findById: async (businessId, id) => {
      const m = t.stockMovements.get(id);
      return m && m.businessId === businessId ? copy(m) : undefined;
    },
    list: async (businessId, page, filter) =>
      keysetPageInMemory(
        values(t.stockMovements).filter(
          (m) => m.businessId === businessId && (!filter.productId || m.productId === filter.productId) && (!filter.reason || m.reason === filter.reason),
        ),
        page,
        { sortValue: (m) => m.createdAt.toISOString(), id: (m) => m.id, searchText: (m) => [m.note], date: (m) => m.createdAt },
      ),
  },
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
    save: async (b) => void t.businesses.set(b.id, copy(b)),
  },
  branches: {
    findById: async (businessId, id) => liveBranches(t, businessId).find((b) => b.id === id),
    findDefault: async (businessId) => {
      const found = liveBranches(t, businessId).find((b) => b.isDefault);
      if (!found) throw new Error(`business ${businessId} has no default branch`);
      return found;
    },
    list: async (businessId, page) =>
      keysetPageInMemory(liveBranches(t, businessId), page, {
        sortValue: (b, by) => (by === 'name' ? b.name : b.createdAt.toISOString()),
        id: (b) => b.id,
        searchText: (b) => [b.name, b.address, b.phone],
        date: (b) => b.createdAt,
      }),
    add: async (b) => void t.branches.set(b.id, copy(b)),
    save: async (b) => void t.branches.set(b.id, copy(b)),
    isReferenced: async (businessId, id) => values(t.memberships).some((m) => m.businessId === businessId && m.branchId === id),
    remove: async (businessId, id) => {
      if (t.branches.get(id)?.businessId === businessId) t.branches.delete(id);
    },
  },
  memberships: {
    findByUser: async (userId) => values(t.memberships).find((m) => m.userId === userId),
    findById: async (businessId, id) => {
      const m = t.memberships.get(id);
      return m && m.businessId === businessId ? copy(m) : undefined;
    },
    findStaffMember: async (businessId, id) => staff(t, businessId).find((m) => m.id === id),
    list: async (businessId, page, filter) =>
      keysetPageInMemory(
        staff(t, businessId).filter((m) => !filter.status || m.status === filter.status),
        page,
        {
          sortValue: (m, by) => (by === 'first_name' ? m.firstName : by === 'last_name' ? m.lastName : m.createdAt.toISOString()),
          id: (m) => m.id,
          searchText: (m) => [`${m.firstName} ${m.lastName}`, m.phone, m.email],
          date: (m) => m.createdAt,
        },
      ),
    countActiveOwners: async (businessId) =>
      values(t.memberships).filter((m) => m.businessId === businessId && m.role === 'BUSINESS_OWNER' && m.status !== 'DEACTIVATED').length,
    moveBranch: async (businessId, from, to) => {
      for (const m of t.memberships.values()) if (m.businessId === businessId && m.branchId === from) m.branchId = to;
    },
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
  let committed = emptyTables();
  let queue: Promise<unknown> = Promise.resolve();
  const run = async <A>(work: (repos: Repositories) => Promise<A | Rollback<A>>): Promise<A> => {
    const previous = queue;
    let release!: () => void;
    queue = new Promise<void>((r) => (release = r));
    await previous;
    try {
      const working = copy(committed);
      const result = await work(repositories(working));
      if (result instanceof Rollback) return result.value;
      committed = working;
      return result;
    } finally {
      release();
    }
  };
  // Reads see committed rows and wait for nothing, like reads outside a transaction.
  const read = <A>(work: (repos: Repositories) => Promise<A>): Promise<A> => work(repositories(committed));
  return { run, read };
};
