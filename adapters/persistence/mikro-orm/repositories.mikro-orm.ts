import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { BranchSort, Repositories, StaffMember, StaffSort } from '../../../application/ports/repositories.js';
import type { Branch, Business, Membership } from '../../../domain/business.js';
import type { Plan } from '../../../domain/plan.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource } from './keyset.mikro-orm.js';
import { mikroOrmProducts, mikroOrmStockLedger } from './products.mikro-orm.js';
import { mikroOrmCreditLedger, mikroOrmCustomers, mikroOrmSales } from './sales.mikro-orm.js';
import { mikroOrmSessions } from './sessions.mikro-orm.js';
import { mikroOrmEventLog } from './outbox.mikro-orm.js';
import { BranchSchema, BusinessSchema, MembershipSchema, OtpCodeSchema, RefreshTokenSchema, UserSchema } from './schemas.js';

/**
 * The repository ports over one transactional EntityManager. Writes are flushed when the
 * transaction commits; `save` only marks an entity loaded through this manager as changed.
 */
export const mikroOrmRepositories = (em: EntityManager): Repositories => ({
  products: mikroOrmProducts(em),
  sales: mikroOrmSales(em),
  customers: mikroOrmCustomers(em),
  credit: mikroOrmCreditLedger(em),
  stockLedger: mikroOrmStockLedger(em),
  events: mikroOrmEventLog(em),
  users: {
    findById: async (id) => (await em.findOne(UserSchema, { id })) ?? undefined,
    findByIdentifier: async (identifier) =>
      (await em.findOne(UserSchema, identifier.kind === 'phone' ? { phone: identifier.value } : { email: identifier.value })) ??
      undefined,
    add: async (user) => void em.persist(em.create(UserSchema, user)),
    save: async (user) => void em.persist(user),
  },
  // Businesses and branches are read on every sale: plain rows, saved by an explicit UPDATE (no identity map).
  businesses: {
    findById: async (id) => {
      const rows = await em.execute<Record<string, unknown>[]>(`select ${BUSINESS_COLUMNS} from businesses where id = ?`, [id]);
      return rows[0] ? businessFromRow(rows[0]) : undefined;
    },
    add: async (business) => void em.persist(em.create(BusinessSchema, business)),
    save: async (b) => {
      await em.execute('update businesses set name = ?, phone = ?, email = ?, address = ?, category = ?, logo_url = ?, plan = ?, updated_at = ? where id = ?', [
        b.name, b.phone, b.email, b.address, b.category, b.logoUrl, b.plan, b.updatedAt, b.id,
      ]);
    },
  },
  branches: {
    findById: async (businessId, id, options = {}) => {
      const rows = await em.execute<Record<string, unknown>[]>(
        `select ${BRANCHES.select} from branches where business_id = ? and id = ?${options.includeArchived ? '' : ' and archived_at is null'}${BRANCH_LOCKS[options.lock ?? 'none']}`,
        [businessId, id],
      );
      return rows[0] ? branchFromRow(rows[0]) : undefined;
    },
    findDefault: async (businessId) => {
      const rows = await em.execute<Record<string, unknown>[]>(
        `select ${BRANCHES.select} from branches where business_id = ? and is_default and archived_at is null`,
        [businessId],
      );
      if (!rows[0]) throw new Error(`business ${businessId} has no default branch`);
      return branchFromRow(rows[0]);
    },
    list: (businessId, page) => keysetPage(em, BRANCHES, businessId, page, [{ sql: 'archived_at is null', params: [] }], branchFromRow),
    add: async (branch) => void em.persist(em.create(BranchSchema, branch)),
    save: async (b) => {
      await em.execute('update branches set name = ?, address = ?, phone = ?, archived_at = ?, updated_at = ? where business_id = ? and id = ?', [
        b.name, b.address, b.phone, b.archivedAt, b.updatedAt, b.businessId, b.id,
      ]);
    },
    isReferenced: async (businessId, id) =>
      (await em.count(MembershipSchema, { businessId, branchId: id })) > 0 || (await mikroOrmSales(em).existsForBranch(businessId, id)),
    remove: async (businessId, id) => void (await em.nativeDelete(BranchSchema, { id, businessId })),
  },
  // Memberships are read on every authenticated request (resolveActor): plain rows, saved by an explicit UPDATE.
  memberships: {
    findByUser: async (userId) => {
      const rows = await em.execute<Record<string, unknown>[]>(
        `select ${MEMBERSHIP_COLUMNS} from memberships where user_id = ? order by status = 'DEACTIVATED', updated_at desc limit 1`,
        [userId],
      );
      return rows[0] ? membershipFromRow(rows[0]) : undefined;
    },
    // The hot path: the membership and the session in one round trip (a primary-key probe).
    findByUserInSession: async (userId, sessionId) => {
      const rows = await em.execute<Record<string, unknown>[]>(
        `select ${MEMBERSHIP_COLUMNS}, not exists (select 1 from sessions s where s.id = ? and s.user_id = m.user_id and s.revoked_at is null) as session_revoked ` +
          `from memberships m where user_id = ? order by status = 'DEACTIVATED', updated_at desc limit 1`,
        [sessionId, userId],
      );
      return rows[0] ? { membership: membershipFromRow(rows[0]), sessionRevoked: rows[0].session_revoked === true } : undefined;
    },
    findById: async (businessId, id) => {
      const rows = await em.execute<Record<string, unknown>[]>(`select ${MEMBERSHIP_COLUMNS} from memberships where business_id = ? and id = ?`, [businessId, id]);
      return rows[0] ? membershipFromRow(rows[0]) : undefined;
    },
    findStaffMember: async (businessId, id) => {
      const rows = await em.execute<Record<string, unknown>[]>(`select ${STAFF.select} from ${STAFF.from} where m.business_id = ? and m.id = ?`, [businessId, id]);
      return rows[0] ? staffFromRow(rows[0]) : undefined;
    },
    list: (businessId, page, filter) =>
      keysetPage(em, STAFF, businessId, page, filter.status ? [{ sql: 'm.status = ?', params: [filter.status] }] : [], staffFromRow),
    // FOR UPDATE in id order: two owners removing each other at once serialise here, and the second
    // re-reads the first's change (READ COMMITTED re-checks the WHERE of a locked row).
    countActiveOwnersLocked: async (businessId) =>
      (
        await em.execute<Record<string, unknown>[]>(
          `select id from memberships where business_id = ? and role = 'BUSINESS_OWNER' and status = 'ACTIVE' order by id for update`,
          [businessId],
        )
      ).length,
    moveBranch: async (businessId, from, to) => {
      await em.flush();
      await em.nativeUpdate(MembershipSchema, { businessId, branchId: from }, { branchId: to });
    },
    add: async (membership) => void em.persist(em.create(MembershipSchema, membership)),
    save: async (m) => {
      await em.execute('update memberships set role = ?, branch_id = ?, status = ?, updated_at = ? where business_id = ? and id = ?', [
        m.role, m.branchId, m.status, m.updatedAt, m.businessId, m.id,
      ]);
    },
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

const MEMBERSHIP_COLUMNS = 'id, business_id, user_id, role, branch_id, status, created_at, updated_at';

const membershipFromRow = (r: Record<string, unknown>): Membership => ({
  id: String(r.id),
  businessId: String(r.business_id),
  userId: String(r.user_id),
  role: r.role as Membership['role'],
  branchId: (r.branch_id as string | null) ?? null,
  status: r.status as Membership['status'],
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

const BUSINESS_COLUMNS = 'id, name, phone, email, address, category, logo_url, plan, currency, timezone, created_at, updated_at';

const businessFromRow = (r: Record<string, unknown>): Business => ({
  id: String(r.id),
  name: String(r.name),
  phone: (r.phone as string | null) ?? null,
  email: (r.email as string | null) ?? null,
  address: (r.address as string | null) ?? null,
  category: (r.category as string | null) ?? null,
  logoUrl: (r.logo_url as string | null) ?? null,
  plan: r.plan as Plan,
  currency: String(r.currency).trim(),
  timezone: String(r.timezone),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

// KEY SHARE (a user of the branch) and UPDATE (its archive or delete) exclude each other; users do not block each other.
const BRANCH_LOCKS = { none: '', use: ' for key share', change: ' for update' } as const;

const BRANCHES: KeysetSource<BranchSort> = {
  select: 'id, business_id, name, address, phone, is_default, archived_at, created_at, updated_at',
  from: 'branches',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' }, name: { column: 'name', type: 'text' } },
  search: ['name', 'address', 'phone'],
  dateColumn: 'created_at',
};

const branchFromRow = (r: Record<string, unknown>): Branch => ({
  id: String(r.id),
  businessId: String(r.business_id),
  name: String(r.name),
  address: (r.address as string | null) ?? null,
  phone: (r.phone as string | null) ?? null,
  isDefault: Boolean(r.is_default),
  archivedAt: asOptionalDate(r.archived_at),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

const STAFF: KeysetSource<StaffSort> = {
  select:
    'm.id, m.business_id, m.user_id, m.role, m.branch_id, m.status, m.created_at, m.updated_at, u.first_name, u.last_name, u.phone, u.email',
  from: 'memberships m join users u on u.id = m.user_id',
  tenantColumn: 'm.business_id',
  idColumn: 'm.id',
  sort: {
    created_at: { column: 'm.created_at', type: 'timestamptz' },
    first_name: { column: 'u.first_name', type: 'text' },
    last_name: { column: 'u.last_name', type: 'text' },
  },
  search: ["(u.first_name || ' ' || u.last_name)", 'u.phone', 'u.email'],
  dateColumn: 'm.created_at',
};

const staffFromRow = (r: Record<string, unknown>): StaffMember => ({
  ...membershipFromRow(r),
  firstName: String(r.first_name),
  lastName: String(r.last_name),
  phone: (r.phone as string | null) ?? null,
  email: (r.email as string | null) ?? null,
});
