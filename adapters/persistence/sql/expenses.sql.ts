import type { Sql } from './sql-session.js';
import type { CategorySort, ExpenseCategoryRepository, ExpenseFilter, ExpenseRepositories, ExpenseRepository, ExpenseSort } from '../../../application/expenses/ports.js';
import type { Expense, ExpenseCategory, ExpensePaymentMethod, ExpenseSummaryGroupBy } from '../../../domain/expense.js';
import { kobo } from '../../../domain/money.js';
import { asDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import { firstRow, insertRow, unlessDuplicate, type Row } from './sql-helpers.js';

const EXPENSE_COLUMNS = 'id, business_id, branch_id, category_id, amount, description, vendor, payment_method, spent_on, reference, created_by, created_at, updated_at, vat_amount';
// An expense with its category's current name; spent_on read as text (a Lagos day, no time zone to shift it).
const EXPENSE_SELECT =
  'e.id, e.business_id, e.branch_id, e.category_id, c.name as category_name, e.amount, e.description, e.vendor, e.payment_method, ' +
  'e.spent_on::text as spent_on, e.reference, e.created_by, e.created_at, e.updated_at, e.vat_amount';
const EXPENSE_FROM = 'expenses e join expense_categories c on c.business_id = e.business_id and c.id = e.category_id';

const EXPENSES: KeysetSource<ExpenseSort> = {
  select: EXPENSE_SELECT,
  from: EXPENSE_FROM,
  tenantColumn: 'e.business_id',
  idColumn: 'e.id',
  sort: {
    spent_on: { column: 'e.spent_on', type: 'date' },
    amount: { column: 'e.amount', type: 'bigint' },
    created_at: { column: 'e.created_at', type: 'timestamptz' },
  },
  search: ['e.description', "coalesce(e.vendor, '')", "coalesce(e.reference, '')"],
  dateColumn: 'e.created_at', // unused: the use case turns start_date/end_date into spent_on days
};

const expenseFromRow = (r: Row): Expense => ({
  id: String(r.id),
  businessId: String(r.business_id),
  branchId: String(r.branch_id),
  categoryId: String(r.category_id),
  categoryName: String(r.category_name),
  amount: kobo(Number(r.amount)),
  ...(Number(r.vat_amount ?? 0) > 0 ? { vatAmount: kobo(Number(r.vat_amount)) } : {}),
  description: String(r.description),
  vendor: (r.vendor as string | null) ?? null,
  paymentMethod: r.payment_method as ExpensePaymentMethod,
  spentOn: String(r.spent_on),
  reference: (r.reference as string | null) ?? null,
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

const CATEGORY_COLUMNS = 'id, business_id, name, is_default, created_at, updated_at';
const categoryFromRow = (r: Row): ExpenseCategory => ({
  id: String(r.id),
  businessId: String(r.business_id),
  name: String(r.name),
  isDefault: r.is_default === true,
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

// Names compare by code point of their lower case, as the list by name always did (collate "C").
const CATEGORIES: KeysetSource<CategorySort> = {
  select: CATEGORY_COLUMNS,
  from: 'expense_categories',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' }, name: { column: 'lower(name) collate "C"', type: 'text' } },
  search: ['name'],
  dateColumn: 'created_at',
};

/** The live expenses a filter selects, as conditions on `expenses e`. */
const conditions = (f: ExpenseFilter): SqlCondition[] => [
  { sql: 'e.deleted_at is null', params: [] },
  ...(f.categoryId ? [{ sql: 'e.category_id = ?', params: [f.categoryId] }] : []),
  ...(f.paymentMethod ? [{ sql: 'e.payment_method = ?', params: [f.paymentMethod] }] : []),
  ...(f.branchId ? [{ sql: 'e.branch_id = ?', params: [f.branchId] }] : []),
  ...(f.createdBy ? [{ sql: 'e.created_by = ?', params: [f.createdBy] }] : []),
  ...(f.spentFrom ? [{ sql: 'e.spent_on >= ?::date', params: [f.spentFrom] }] : []),
  ...(f.spentTo ? [{ sql: 'e.spent_on <= ?::date', params: [f.spentTo] }] : []),
];

/** Each grouping: the key and label expressions, grouped in one pass with the overall row (grouping sets). */
const GROUPS: Record<ExpenseSummaryGroupBy, { key: string; label: string; by: string; order: string }> = {
  category: { key: 'c.id::text', label: 'c.name', by: 'c.id, c.name', order: 'sum(e.amount) desc, c.name collate "C", c.id' },
  day: { key: 'e.spent_on::text', label: 'e.spent_on::text', by: 'e.spent_on', order: 'e.spent_on' },
  month: { key: "to_char(e.spent_on, 'YYYY-MM')", label: "to_char(e.spent_on, 'YYYY-MM')", by: "to_char(e.spent_on, 'YYYY-MM')", order: "to_char(e.spent_on, 'YYYY-MM')" },
};

/** Expenses as plain rows, never deleted from the table (deleted_at, deleted_by). */
export const sqlExpenses = (db: Sql): ExpenseRepository => ({
  findById: (businessId, id, options = {}) =>
    firstRow(
      db,
      `select ${EXPENSE_SELECT} from ${EXPENSE_FROM} where e.business_id = ? and e.id = ? and e.deleted_at is null${options.forUpdate ? ' for update of e' : ''}`,
      [businessId, id],
      expenseFromRow,
    ),
  list: (businessId, page, filter) => keysetPage(db, EXPENSES, businessId, page, conditions(filter), expenseFromRow),
  add: (x) =>
    insertRow(db, 'expenses', EXPENSE_COLUMNS, [
      x.id, x.businessId, x.branchId, x.categoryId, x.amount, x.description, x.vendor, x.paymentMethod, x.spentOn, x.reference, x.createdBy, x.createdAt, x.updatedAt, x.vatAmount ?? 0,
    ]),
  async save(x) {
    await db.execute(
      `update expenses set branch_id = ?, category_id = ?, amount = ?, description = ?, vendor = ?, payment_method = ?, spent_on = ?, reference = ?, updated_at = ?,
         vat_amount = ? where business_id = ? and id = ? and deleted_at is null`,
      [x.branchId, x.categoryId, x.amount, x.description, x.vendor, x.paymentMethod, x.spentOn, x.reference, x.updatedAt, x.vatAmount ?? 0, x.businessId, x.id],
    );
  },
  async softDelete(businessId, id, userId, at) {
    const rows = await db.execute<unknown[]>(
      'update expenses set deleted_at = ?, deleted_by = ? where business_id = ? and id = ? and deleted_at is null returning id',
      [at, userId, businessId, id],
    );
    return rows.length === 1;
  },
  async summary(businessId, groupBy, filter) {
    const g = GROUPS[groupBy];
    const where = conditions(filter);
    // sum() of bigint is numeric: exact however many expenses; read as text into bigint
    const rows = await db.execute<Row[]>(
      `select ${g.key} as key, ${g.label} as label, coalesce(sum(e.amount), 0)::text as total, count(*)::int as count, grouping(${g.by}) <> 0 as overall
       from ${EXPENSE_FROM} where e.business_id = ? and ${where.map((c) => c.sql).join(' and ')}
       group by grouping sets ((${g.by}), ()) order by overall, ${g.order}`,
      [businessId, ...where.flatMap((c) => c.params)],
    );
    const overall = rows.find((r) => r.overall === true);
    return {
      groups: rows.filter((r) => r.overall !== true).map((r) => ({ key: String(r.key), label: String(r.label), total: BigInt(String(r.total)), count: Number(r.count) })),
      total: BigInt(String(overall?.total ?? '0')),
      count: Number(overall?.count ?? 0),
    };
  },
});

const CATEGORY_LOCKS = { none: '', use: ' for key share', change: ' for update' } as const;

/** Expense categories as plain rows; the unique index on (business_id, lower(name)) refuses a second name. */
export const sqlExpenseCategories = (db: Sql): ExpenseCategoryRepository => ({
  findById: (businessId, id, options = {}) =>
    firstRow(db, `select ${CATEGORY_COLUMNS} from expense_categories where business_id = ? and id = ?${CATEGORY_LOCKS[options.lock ?? 'none']}`, [businessId, id], categoryFromRow),
  async list(businessId) {
    const rows = await db.execute<Row[]>(`select ${CATEGORY_COLUMNS} from expense_categories where business_id = ? order by lower(name) collate "C", id`, [businessId]);
    return rows.map(categoryFromRow);
  },
  page: (businessId, page) => keysetPage(db, CATEGORIES, businessId, page, [], categoryFromRow),
  async add(c) {
    const rows = await db.execute<unknown[]>(
      `insert into expense_categories (${CATEGORY_COLUMNS}) values (?, ?, ?, ?, ?, ?) on conflict do nothing returning id`,
      [c.id, c.businessId, c.name, c.isDefault, c.createdAt, c.updatedAt],
    );
    return rows.length === 1 ? 'added' : 'duplicate_name';
  },
  async save(c) {
    const saved = await unlessDuplicate(db, 'update expense_categories set name = ?, updated_at = ? where business_id = ? and id = ?', [c.name, c.updatedAt, c.businessId, c.id]);
    return saved === 'done' ? 'saved' : 'duplicate_name';
  },
  async isInUse(businessId, id) {
    const rows = await db.execute<{ used: boolean }[]>('select exists (select 1 from expenses where business_id = ? and category_id = ?) as used', [businessId, id]);
    return rows[0]!.used === true;
  },
  async remove(businessId, id) {
    await db.execute('delete from expense_categories where business_id = ? and id = ?', [businessId, id]);
  },
});

/** The expenses module over one transaction's Sql: expenses and their categories. */
export const sqlExpensesModule = (db: Sql): ExpenseRepositories => ({ expenses: sqlExpenses(db), expenseCategories: sqlExpenseCategories(db) });
