import type { Sql } from './sql-session.js';
import type { BranchSort, BusinessRepositories, StaffMember, StaffSort } from '../../../application/business/ports.js';
import type { Branch, Business, Membership } from '../../../domain/business.js';
import type { Plan } from '../../../domain/plan.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource } from './keyset.sql.js';
import { firstRow, insertRow, type Row } from './sql-helpers.js';
import { memberChangedHere } from './member-cache.js';

/**
 * The business module over one transaction's Sql: businesses, branches and memberships.
 * Businesses and branches are read on every sale and memberships on every request: plain rows,
 * written with immediate SQL (docs/adr/0019), so the next read of the same unit of work sees them.
 */
export const sqlBusinessModule = (db: Sql): BusinessRepositories => ({
  businesses: {
    findById: (id) => firstRow(db, `select ${BUSINESS_COLUMNS} from businesses where id = ?`, [id], businessFromRow),
    add: (b) =>
      insertRow(db, 'businesses', BUSINESS_COLUMNS, [
        b.id, b.name, b.phone, b.email, b.address, b.category, b.logoUrl, b.plan, b.currency, b.timezone, b.createdAt, b.updatedAt,
        b.vatRegistered, b.tin, b.vatRate, b.pricesIncludeVat, b.paymentTermsDays, b.bankName, b.accountNumber, b.accountName, b.invoiceFooter,
      ]),
    save: async (b) => {
      await db.execute(`update businesses set name = ?, phone = ?, email = ?, address = ?, category = ?, logo_url = ?, plan = ?, updated_at = ?,
         vat_registered = ?, tin = ?, vat_rate = ?, prices_include_vat = ?, payment_terms_days = ?, bank_name = ?, account_number = ?, account_name = ?, invoice_footer = ? where id = ?`, [
        b.name, b.phone, b.email, b.address, b.category, b.logoUrl, b.plan, b.updatedAt, b.vatRegistered, b.tin, b.vatRate, b.pricesIncludeVat,
        b.paymentTermsDays, b.bankName, b.accountNumber, b.accountName, b.invoiceFooter, b.id,
      ]);
    },
  },
  branches: {
    findById: (businessId, id, options = {}) =>
      firstRow(
        db,
        `select ${BRANCHES.select} from branches where business_id = ? and id = ?${options.includeArchived ? '' : ' and archived_at is null'}${BRANCH_LOCKS[options.lock ?? 'none']}`,
        [businessId, id],
        branchFromRow,
      ),
    findDefault: async (businessId) => {
      const rows = await db.execute<Row[]>(
        `select ${BRANCHES.select} from branches where business_id = ? and is_default and archived_at is null`,
        [businessId],
      );
      if (!rows[0]) throw new Error(`business ${businessId} has no default branch`);
      return branchFromRow(rows[0]);
    },
    list: (businessId, page) => keysetPage(db, BRANCHES, businessId, page, [{ sql: 'archived_at is null', params: [] }], branchFromRow),
    add: (b) => insertRow(db, 'branches', BRANCHES.select, [b.id, b.businessId, b.name, b.address, b.phone, b.isDefault, b.archivedAt, b.createdAt, b.updatedAt]),
    save: async (b) => {
      await db.execute('update branches set name = ?, address = ?, phone = ?, archived_at = ?, updated_at = ? where business_id = ? and id = ?', [
        b.name, b.address, b.phone, b.archivedAt, b.updatedAt, b.businessId, b.id,
      ]);
    },
    isReferenced: async (businessId, id) => {
      const rows = await db.execute<{ referenced: boolean }[]>(
        `select exists (select 1 from memberships where business_id = ? and branch_id = ?)
             or exists (select 1 from sales where business_id = ? and branch_id = ?)
             or exists (select 1 from expenses where business_id = ? and branch_id = ?)
             or exists (select 1 from stock_movements where business_id = ? and branch_id = ?)
             or exists (select 1 from product_stock where business_id = ? and branch_id = ?) as referenced`,
        [businessId, id, businessId, id, businessId, id, businessId, id, businessId, id],
      );
      return rows[0]!.referenced === true;
    },
    holdsStock: async (businessId, id) => {
      const rows = await db.execute<unknown[]>('select 1 from product_stock where business_id = ? and branch_id = ? and quantity > 0 limit 1', [businessId, id]);
      return rows.length > 0;
    },
    remove: async (businessId, id) => {
      await db.execute('delete from branches where business_id = ? and id = ?', [businessId, id]);
    },
  },
  memberships: {
    findByUser: (userId) =>
      firstRow(
        db,
        `select ${MEMBERSHIP_COLUMNS} from memberships where user_id = ? order by status = 'DEACTIVATED', updated_at desc limit 1`,
        [userId],
        membershipFromRow,
      ),
    // The hot path: the membership and the session in one round trip (a primary-key probe).
    findByUserInSession: async (userId, sessionId) => {
      const rows = await db.execute<Row[]>(
        `select ${MEMBERSHIP_COLUMNS}, not exists (select 1 from sessions s where s.id = ? and s.user_id = m.user_id and s.revoked_at is null) as session_revoked ` +
          `from memberships m where user_id = ? order by status = 'DEACTIVATED', updated_at desc limit 1`,
        [sessionId, userId],
      );
      return rows[0] ? { membership: membershipFromRow(rows[0]), sessionRevoked: rows[0].session_revoked === true } : undefined;
    },
    findById: (businessId, id) =>
      firstRow(db, `select ${MEMBERSHIP_COLUMNS} from memberships where business_id = ? and id = ?`, [businessId, id], membershipFromRow),
    findStaffMember: (businessId, id) =>
      firstRow(db, `select ${STAFF.select} from ${STAFF.from} where m.business_id = ? and m.id = ?`, [businessId, id], staffFromRow),
    list: (businessId, page, filter) =>
      keysetPage(db, STAFF, businessId, page, filter.status ? [{ sql: 'm.status = ?', params: [filter.status] }] : [], staffFromRow),
    // FOR UPDATE in id order: two owners removing each other at once serialise here, and the second
    // re-reads the first's change (READ COMMITTED re-checks the WHERE of a locked row).
    countActiveOwnersLocked: async (businessId) =>
      (
        await db.execute<Row[]>(
          `select id from memberships where business_id = ? and role = 'BUSINESS_OWNER' and status = 'ACTIVE' order by id for update`,
          [businessId],
        )
      ).length,
    moveBranch: async (businessId, from, to) => {
      await db.execute('update memberships set branch_id = ? where business_id = ? and branch_id = ?', [to, businessId, from]);
      db.afterCommit(() => memberChangedHere(undefined));
    },
    add: async (m) => {
      await insertRow(db, 'memberships', MEMBERSHIP_COLUMNS, [m.id, m.businessId, m.userId, m.role, m.branchId, m.status, m.createdAt, m.updatedAt]);
      db.afterCommit(() => memberChangedHere(m.userId));
    },
    save: async (m) => {
      await db.execute('update memberships set role = ?, branch_id = ?, status = ?, updated_at = ? where business_id = ? and id = ?', [
        m.role, m.branchId, m.status, m.updatedAt, m.businessId, m.id,
      ]);
      db.afterCommit(() => memberChangedHere(m.userId));
    },
  },
});

const MEMBERSHIP_COLUMNS = 'id, business_id, user_id, role, branch_id, status, created_at, updated_at';

const membershipFromRow = (r: Row): Membership => ({
  id: String(r.id),
  businessId: String(r.business_id),
  userId: String(r.user_id),
  role: r.role as Membership['role'],
  branchId: (r.branch_id as string | null) ?? null,
  status: r.status as Membership['status'],
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

const BUSINESS_COLUMNS = 'id, name, phone, email, address, category, logo_url, plan, currency, timezone, created_at, updated_at, vat_registered, tin, vat_rate, prices_include_vat, payment_terms_days, bank_name, account_number, account_name, invoice_footer';

const businessFromRow = (r: Row): Business => ({
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
  vatRegistered: r.vat_registered === true,
  tin: (r.tin as string | null) ?? null,
  vatRate: Number(r.vat_rate),
  pricesIncludeVat: r.prices_include_vat !== false,
  paymentTermsDays: Number(r.payment_terms_days ?? 30),
  bankName: (r.bank_name as string | null) ?? null,
  accountNumber: (r.account_number as string | null) ?? null,
  accountName: (r.account_name as string | null) ?? null,
  invoiceFooter: (r.invoice_footer as string | null) ?? null,
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

const branchFromRow = (r: Row): Branch => ({
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

const staffFromRow = (r: Row): StaffMember => ({
  ...membershipFromRow(r),
  firstName: String(r.first_name),
  lastName: String(r.last_name),
  phone: (r.phone as string | null) ?? null,
  email: (r.email as string | null) ?? null,
});

