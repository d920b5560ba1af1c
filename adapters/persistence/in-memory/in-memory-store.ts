import { AsyncLocalStorage } from 'node:async_hooks';
import type { Branch, Business, Membership, User } from '../../../domain/business.js';
import type { OtpCode } from '../../../domain/otp.js';
import { isLowStock, MAX_STOCK, type Product, type StockMovement } from '../../../domain/product.js';
import { formatReceiptNumber, type Sale } from '../../../domain/sale.js';
import type { Customer } from '../../../domain/customer.js';
import { agingBucket, lagosDaysBetween, type AgingRow, type CreditEntry } from '../../../domain/credit.js';
import { lagosDate } from '../../../domain/lagos-time.js';
import { kobo, type Kobo } from '../../../domain/money.js';
import type { RefreshToken, Repositories, Session, StaffMember } from '../../../application/ports/repositories.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { inMemorySessions, isSessionRevoked, revokeSessions } from './sessions.in-memory.js';
import { Rollback, type UnitOfWork } from '../../../application/ports/unit-of-work.js';
import { inMemoryEventLog, type OutboxRows } from './outbox.in-memory.js';

interface Tables {
  creditEntries: Map<string, CreditEntry>;
  creditAllocations: { paymentId: string; saleId: string; amount: Kobo }[];
  sales: Map<string, Sale>;
  receiptCounters: Map<string, number>;
  monthlySaleCounts: Map<string, number>;
  customers: Map<string, Customer>;
  products: Map<string, Product>;
  stockMovements: Map<string, StockMovement>;
  users: Map<string, User>;
  businesses: Map<string, Business>;
  branches: Map<string, Branch>;
  memberships: Map<string, Membership>;
  otps: Map<string, OtpCode>;
  refreshTokens: Map<string, RefreshToken>;
  sessions: Map<string, Session>;
  outbox: OutboxRows;
}

const emptyTables = (): Tables => ({
  creditEntries: new Map(),
  creditAllocations: [],
  sales: new Map(),
  receiptCounters: new Map(),
  monthlySaleCounts: new Map(),
  customers: new Map(),
  products: new Map(),
  stockMovements: new Map(),
  users: new Map(),
  businesses: new Map(),
  branches: new Map(),
  memberships: new Map(),
  otps: new Map(),
  refreshTokens: new Map(),
  sessions: new Map(),
  outbox: new Map(),
});

const copy = <T>(value: T): T => structuredClone(value);

/** `at`, or 1 ms after the latest of `earlier` when the clock has not passed it (ledgers read as chains). */
const after = (earlier: { createdAt: Date }[], at: Date): Date =>
  new Date(Math.max(at.getTime(), ...earlier.map((x) => x.createdAt.getTime() + 1)));
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

/** The user's current membership (not DEACTIVATED), else their latest deactivated one. */
const currentMembership = (t: Tables, userId: string) =>
  values(t.memberships)
    .filter((m) => m.userId === userId)
    .sort((a, b) => Number(a.status === 'DEACTIVATED') - Number(b.status === 'DEACTIVATED') || b.updatedAt.getTime() - a.updatedAt.getTime())[0];

const productsOf = (t: Tables, businessId: string) => values(t.products).filter((p) => p.businessId === businessId);
const skuTaken = (t: Tables, p: Product) =>
  productsOf(t, p.businessId).some((x) => x.id !== p.id && x.sku.toLowerCase() === p.sku.toLowerCase());

const salesOf = (t: Tables, businessId: string) => values(t.sales).filter((x) => x.businessId === businessId);
const saleOrder = (a: Sale, b: Sale) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);
const openDebtsOf = (t: Tables, businessId: string) => salesOf(t, businessId).filter((x) => x.creditOutstanding > 0).sort(saleOrder);
const phoneTaken = (t: Tables, c: Customer) =>
  c.phone !== null && values(t.customers).some((x) => x.businessId === c.businessId && x.id !== c.id && x.phone === c.phone);

/** The aging report the SQL adapter computes in the database, here over arrays. */
const agingRows = (t: Tables, businessId: string, today: string): AgingRow[] => {
  const rows = new Map<string, AgingRow>();
  for (const x of openDebtsOf(t, businessId)) {
    const c = t.customers.get(x.customerId!)!;
    const row = rows.get(c.id) ?? {
      customerId: c.id,
      customerName: c.name,
      customerPhone: c.phone,
      buckets: { days_0_30: kobo(0), days_31_60: kobo(0), days_61_90: kobo(0), days_over_90: kobo(0) },
      total: kobo(0),
      oldestUnpaidAt: x.createdAt,
    };
    const bucket = agingBucket(lagosDaysBetween(lagosDate(x.createdAt), today));
    rows.set(c.id, {
      ...row,
      buckets: { ...row.buckets, [bucket]: kobo(row.buckets[bucket] + x.creditOutstanding) },
      total: kobo(row.total + x.creditOutstanding),
    });
  }
  return [...rows.values()];
};

const repositories = (t: Tables): Repositories => ({
  sales: {

    countSaleInMonth: async (businessId, month) => {
      const key = `${businessId}\n${month}`;
      const next = (t.monthlySaleCounts.get(key) ?? 0) + 1;
      t.monthlySaleCounts.set(key, next);
      return next;
    },
    monthlySaleCount: async (businessId, month) => t.monthlySaleCounts.get(`${businessId}\n${month}`) ?? 0,
    countCreatedBetween: async (businessId, from, to) => salesOf(t, businessId).filter((x) => x.createdAt >= from && x.createdAt < to).length,
    add: async (draft) => {
      const next = (t.receiptCounters.get(draft.businessId) ?? 0) + 1;
      t.receiptCounters.set(draft.businessId, next);
      const receiptNumber = formatReceiptNumber(next);
      t.sales.set(draft.id, copy({ ...draft, receiptNumber }));
      return receiptNumber;
    },
    findById: async (businessId, id) => salesOf(t, businessId).find((x) => x.id === id),
    findByReceiptNumber: async (businessId, receiptNumber) => salesOf(t, businessId).find((x) => x.receiptNumber === receiptNumber),
    list: async (businessId, page, filter) => {
      const page_ = keysetPageInMemory(
        salesOf(t, businessId).filter(
          (x) =>
            (!filter.paymentMethod || x.paymentMethod === filter.paymentMethod) &&
            (!filter.status || x.status === filter.status) &&
            (!filter.customerId || x.customerId === filter.customerId) &&
            (!filter.createdBy || x.createdBy === filter.createdBy) &&
            (!filter.branchId || x.branchId === filter.branchId),
        ),
        page,
        { sortValue: (x, by) => (by === 'total' ? x.total : x.createdAt.toISOString()), id: (x) => x.id, searchText: (x) => [x.receiptNumber], date: (x) => x.createdAt },
      );
      return { ...page_, items: page_.items.map((x) => ({ ...x, lines: [] })) }; // list items carry no lines, as in SQL
    },
    markVoided: async (sale) => {
      const stored = t.sales.get(sale.id);
      if (stored && stored.businessId === sale.businessId) {
        const { status, voidedAt, voidReason, voidedBy, refundAmount, creditOutstanding, balanceDue } = sale;
        Object.assign(stored, { status, voidedAt, voidReason, voidedBy, refundAmount, creditOutstanding, balanceDue });
      }
    },
    existsForBranch: async (businessId, branchId) => salesOf(t, businessId).some((x) => x.branchId === branchId),
  },
  customers: {
    exists: async (businessId, id) => t.customers.get(id)?.businessId === businessId,
    findById: async (businessId, id) => (t.customers.get(id)?.businessId === businessId ? copy(t.customers.get(id)) : undefined),
    list: async (businessId, page, filter) =>
      keysetPageInMemory(
        values(t.customers).filter((c) => c.businessId === businessId && (!filter.hasBalance || c.creditBalance > 0)),
        page,
        {
          sortValue: (c, by) => (by === 'name' ? c.name : by === 'credit_balance' ? c.creditBalance : c.createdAt.toISOString()),
          id: (c) => c.id,
          searchText: (c) => [`${c.name} ${c.phone ?? ''} ${c.email ?? ''}`],
          date: (c) => c.createdAt,
        },
      ),
    add: async (c) => {
      if (phoneTaken(t, c)) return 'duplicate_phone';
      t.customers.set(c.id, copy(c));
      return 'added';
    },
    save: async (c) => {
      if (phoneTaken(t, c)) return 'duplicate_phone';
      const stored = t.customers.get(c.id);
      if (stored && stored.businessId === c.businessId) t.customers.set(c.id, { ...copy(c), creditBalance: stored.creditBalance });
      return 'saved';
    },
    totalOwedExceeds: async (businessId, limit) =>
      values(t.customers).reduce((sum, c) => (c.businessId === businessId ? sum + BigInt(c.creditBalance) : sum), 0n) > BigInt(limit),
    setBalance: async (businessId, id, balance, at) => {
      const c = t.customers.get(id);
      if (c && c.businessId === businessId) Object.assign(c, { creditBalance: balance, updatedAt: at });
    },
  },
  credit: {
    add: async (e) => {
      if (e.balanceAfter < 0) throw new Error('check violation: balance_after >= 0');
      const createdAt = after(values(t.creditEntries).filter((x) => x.businessId === e.businessId && x.customerId === e.customerId), e.createdAt);
      t.creditEntries.set(e.id, copy({ ...e, createdAt }));
      return createdAt;
    },
    addAllocations: async (paymentId, allocations) => {
      for (const a of allocations) t.creditAllocations.push({ paymentId, saleId: a.saleId, amount: a.amount });
    },
    allocationsOf: async (businessId, paymentId) =>
      t.creditAllocations
        .filter((a) => a.paymentId === paymentId && t.creditEntries.get(paymentId)?.businessId === businessId)
        .map((a) => ({ saleId: a.saleId, amount: a.amount }))
        .sort((a, b) => saleOrder(t.sales.get(a.saleId)!, t.sales.get(b.saleId)!)),
    list: async (businessId, customerId, page) =>
      keysetPageInMemory(
        values(t.creditEntries).filter((e) => e.businessId === businessId && e.customerId === customerId),
        page,
        { sortValue: (e) => e.createdAt.toISOString(), id: (e) => e.id, searchText: (e) => [e.note], date: (e) => e.createdAt },
      ),
    lastPaymentAt: async (businessId, customerId) => {
      const times = values(t.creditEntries)
        .filter((e) => e.businessId === businessId && e.customerId === customerId && e.kind === 'PAYMENT')
        .map((e) => e.createdAt.getTime());
      return times.length > 0 ? new Date(Math.max(...times)) : undefined;
    },
    openDebts: async (businessId, customerId) =>
      openDebtsOf(t, businessId)
        .filter((x) => x.customerId === customerId)
        .map((x) => ({ saleId: x.id, outstanding: x.creditOutstanding, createdAt: x.createdAt })),
    reduceOutstanding: async (businessId, saleId, amount) => {
      const x = t.sales.get(saleId);
      if (x && x.businessId === businessId) x.creditOutstanding = kobo(x.creditOutstanding - amount);
    },
    aging: async (businessId, today, page) =>
      keysetPageInMemory(agingRows(t, businessId, today), page, {
        sortValue: (a, by) => (by === 'name' ? a.customerName : a.total),
        id: (a) => a.customerId,
        searchText: (a) => [a.customerName, a.customerPhone],
        date: (a) => a.oldestUnpaidAt,
      }),
    agingTotals: async (businessId, today) => {
      const rows = agingRows(t, businessId, today);
      const sum = (f: (a: AgingRow) => number) => kobo(rows.reduce((n, a) => n + f(a), 0));
      return {
        customers: rows.length,
        total: sum((a) => a.total),
        buckets: {
          days_0_30: sum((a) => a.buckets.days_0_30),
          days_31_60: sum((a) => a.buckets.days_31_60),
          days_61_90: sum((a) => a.buckets.days_61_90),
          days_over_90: sum((a) => a.buckets.days_over_90),
        },
      };
    },
  },
  products: {
    findById: async (businessId, id) => productsOf(t, businessId).find((p) => p.id === id),
    findMany: async (businessId, ids) => productsOf(t, businessId).filter((p) => ids.includes(p.id)),
    lockBySkus: async () => undefined, // transactions are already serialised
    findBySku: async (businessId, sku) => productsOf(t, businessId).find((p) => p.sku.toLowerCase() === sku.toLowerCase()),
    list: async (businessId, page, filter) =>
      keysetPageInMemory(
        productsOf(t, businessId).filter(
          (p) =>
            (filter.archived ? p.archivedAt !== null : p.archivedAt === null) &&
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
        if (p.category === null || p.archivedAt !== null) continue;
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
      if (p.quantity + change < 0) return { ok: false, available: p.quantity, reason: 'INSUFFICIENT' };
      if (p.quantity + change > MAX_STOCK) return { ok: false, available: p.quantity, reason: 'LIMIT' };
      const before = p.quantity;
      p.quantity += change;
      p.updatedAt = at;
      return { ok: true, before, after: p.quantity };
    },
  },
  stockLedger: {
    add: async (m) => {
      const createdAt = after(values(t.stockMovements).filter((x) => x.businessId === m.businessId && x.productId === m.productId), m.createdAt);
      t.stockMovements.set(m.id, copy({ ...m, createdAt }));
      return createdAt;
    },
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
    forSale: async (businessId, saleId) =>
      values(t.stockMovements)
        .filter((m) => m.businessId === businessId && m.saleId === saleId)
        .sort((a, b) => (a.productId < b.productId ? -1 : 1)),
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
    findById: async (businessId, id, options = {}) =>
      values(t.branches).find((b) => b.id === id && b.businessId === businessId && (options.includeArchived || b.archivedAt === null)),
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
    isReferenced: async (businessId, id) =>
      values(t.memberships).some((m) => m.businessId === businessId && m.branchId === id) || salesOf(t, businessId).some((x) => x.branchId === id),
    remove: async (businessId, id) => {
      if (t.branches.get(id)?.businessId === businessId) t.branches.delete(id);
    },
  },
  memberships: {
    findByUser: async (userId) => currentMembership(t, userId),
    findByUserInSession: async (userId, sessionId) => {
      const membership = currentMembership(t, userId);
      return membership && { membership, sessionRevoked: isSessionRevoked(t, userId, sessionId) };
    },
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
    countActiveOwnersLocked: async (businessId) =>
      values(t.memberships).filter((m) => m.businessId === businessId && m.role === 'BUSINESS_OWNER' && m.status === 'ACTIVE').length,
    moveBranch: async (businessId, from, to) => {
      for (const m of t.memberships.values()) if (m.businessId === businessId && m.branchId === from) m.branchId = to;
    },
    add: async (m) => {
      if (values(t.memberships).some((x) => x.userId === m.userId && x.status !== 'DEACTIVATED')) throw new Error('unique violation: memberships user');
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
      revokeSessions(t, (s) => s.id === familyId, at);
    },
    revokeAllForUser: async (userId, at) => {
      for (const r of t.refreshTokens.values()) if (r.userId === userId && r.revokedAt === null) r.revokedAt = at;
      revokeSessions(t, (s) => s.userId === userId, at);
    },
  },
  sessions: inMemorySessions(t),
  events: inMemoryEventLog(t.outbox),
});

/** The open `atomically` scope: its working tables, and what to undo outside the tables if it fails. */
interface AtomicScope {
  tables: Tables;
  readonly undo: (() => void)[];
}
const atomicScope = new AsyncLocalStorage<AtomicScope>();

/** Registers how to undo a change kept outside the tables (the idempotency store) if the open `atomically` fails. */
export const undoOnInMemoryRollback = (undo: () => void): void => void atomicScope.getStore()?.undo.push(undo);

/**
 * The persistence ports in memory, for unit tests and embedders. Transactions run one at a time
 * (like PGlite) and a throw or a Rollback restores the snapshot taken when the work began.
 */
export const inMemoryUnitOfWork = (): UnitOfWork => {
  let committed = emptyTables();
  let queue: Promise<unknown> = Promise.resolve();
  const serialised = async <A>(work: () => Promise<A>): Promise<A> => {
    const previous = queue;
    let release!: () => void;
    queue = new Promise<void>((r) => (release = r));
    await previous;
    try {
      return await work();
    } finally {
      release();
    }
  };
  /** Runs work on a copy of `base`; the copy replaces it (through `keep`) unless the work throws or rolls back. */
  const onCopy = async <A>(base: Tables, keep: (t: Tables) => void, work: (repos: Repositories) => Promise<A | Rollback<A>>): Promise<A> => {
    const working = copy(base);
    const result = await work(repositories(working));
    if (result instanceof Rollback) return result.value;
    keep(working);
    return result;
  };
  const run = <A>(work: (repos: Repositories) => Promise<A | Rollback<A>>): Promise<A> => {
    const scope = atomicScope.getStore();
    if (scope) return onCopy(scope.tables, (t) => (scope.tables = t), work);
    return serialised(() => onCopy(committed, (t) => (committed = t), work));
  };
  // Reads see committed rows (or the open scope's) and wait for nothing, like reads outside a transaction.
  const read = <A>(work: (repos: Repositories) => Promise<A>): Promise<A> => work(repositories(atomicScope.getStore()?.tables ?? committed));
  const atomically = <A>(work: () => Promise<A>): Promise<A> => {
    if (atomicScope.getStore()) return work();
    return serialised(async () => {
      const scope: AtomicScope = { tables: copy(committed), undo: [] };
      try {
        const result = await atomicScope.run(scope, work);
        committed = scope.tables;
        return result;
      } catch (e) {
        for (const undo of scope.undo.reverse()) undo();
        throw e;
      }
    });
  };
  return { run, read, atomically };
};
