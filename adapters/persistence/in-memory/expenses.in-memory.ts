import type { ExpenseFilter, ExpenseRepositories } from '../../../application/expenses/ports.js';
import type { Expense, ExpenseCategory, ExpenseSummaryGroup, ExpenseSummaryGroupBy } from '../../../domain/expense.js';
import { lagosDayStart } from '../../../domain/lagos-time.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, rowKey, values } from './rows.js';

/** An expense row as the table holds it: no category name (read through the category), the soft delete's columns. */
export type ExpenseRow = Omit<Expense, 'categoryName'> & { deletedAt: Date | null; deletedBy: string | null };

/** The expenses module's tables: expenses (deleted softly) and their categories. */
export interface ExpenseTables {
  expenses: Map<string, ExpenseRow>;
  expenseCategories: Map<string, ExpenseCategory>;
}

const withName = (t: ExpenseTables, row: ExpenseRow): Expense => {
  const { deletedAt: _a, deletedBy: _b, ...e } = copy(row);
  return { ...e, categoryName: t.expenseCategories.get(row.categoryId)!.name };
};
const toRow = (e: Expense): ExpenseRow => {
  const { categoryName: _n, ...row } = copy(e);
  return { ...row, deletedAt: null, deletedBy: null };
};

/** The live expenses of a business that a filter selects. */
export const liveExpenses = (t: ExpenseTables, businessId: string, f: ExpenseFilter = {}): Expense[] =>
  values(t.expenses)
    .filter(
      (e) =>
        e.businessId === businessId &&
        e.deletedAt === null &&
        (!f.categoryId || e.categoryId === f.categoryId) &&
        (!f.paymentMethod || e.paymentMethod === f.paymentMethod) &&
        (!f.branchId || e.branchId === f.branchId) &&
        (!f.createdBy || e.createdBy === f.createdBy) &&
        (!f.spentFrom || e.spentOn >= f.spentFrom) &&
        (!f.spentTo || e.spentOn <= f.spentTo),
    )
    .map((e) => withName(t, e));

const nameTaken = (t: ExpenseTables, c: ExpenseCategory) =>
  values(t.expenseCategories).some((x) => x.businessId === c.businessId && x.id !== c.id && x.name.toLowerCase() === c.name.toLowerCase());

/** The summary the SQL adapter computes with GROUP BY, here over an array (same keys, labels and order). */
const summarise = (rows: Expense[], groupBy: ExpenseSummaryGroupBy) => {
  const groups = new Map<string, ExpenseSummaryGroup>();
  for (const e of rows) {
    const key = groupBy === 'category' ? e.categoryId : groupBy === 'day' ? e.spentOn : e.spentOn.slice(0, 7);
    const g = groups.get(key) ?? { key, label: groupBy === 'category' ? e.categoryName : key, total: 0n, count: 0 };
    groups.set(key, { ...g, total: g.total + BigInt(e.amount), count: g.count + 1 });
  }
  // names compare by code point, as the SQL's `collate "C"` does
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const order = (a: ExpenseSummaryGroup, b: ExpenseSummaryGroup) =>
    groupBy === 'category' ? (a.total === b.total ? byText(a.label, b.label) || byText(a.key, b.key) : a.total > b.total ? -1 : 1) : byText(a.key, b.key);
  return { groups: [...groups.values()].sort(order), total: rows.reduce((n, e) => n + BigInt(e.amount), 0n), count: rows.length };
};

/** The expenses module in memory: expenses and their categories. */
export const inMemoryExpensesModule: InMemoryModule<ExpenseTables, ExpenseRepositories> = {
  tables: () => ({ expenses: new Map(), expenseCategories: new Map() }),
  repositories: (t) => ({
    expenses: {
      findById: async (businessId, id) => {
        const row = t.expenses.get(rowKey(businessId, id));
        return row && row.deletedAt === null ? withName(t, row) : undefined;
      },
      list: async (businessId, page, filter) =>
        keysetPageInMemory(liveExpenses(t, businessId, filter), page, {
          sortValue: (e, by) => (by === 'amount' ? e.amount : by === 'spent_on' ? e.spentOn : e.createdAt.toISOString()),
          id: (e) => e.id,
          searchText: (e) => [e.description, e.vendor, e.reference],
          date: (e) => lagosDayStart(e.spentOn),
        }),
      add: async (e) => {
        // the table's checks and foreign keys, so both adapters refuse alike
        if (!(e.amount > 0)) throw new Error('check violation: amount > 0');
        if (t.expenseCategories.get(e.categoryId)?.businessId !== e.businessId) throw new Error('foreign key violation: category_id');
        t.expenses.set(rowKey(e.businessId, e.id), toRow(e));
      },
      save: async (e) => {
        const stored = t.expenses.get(rowKey(e.businessId, e.id));
        if (!(e.amount > 0)) throw new Error('check violation: amount > 0');
        if (stored && stored.deletedAt === null) t.expenses.set(rowKey(e.businessId, e.id), toRow(e));
      },
      softDelete: async (businessId, id, userId, at) => {
        const row = t.expenses.get(rowKey(businessId, id));
        if (!row || row.deletedAt !== null) return false;
        Object.assign(row, { deletedAt: at, deletedBy: userId });
        return true;
      },
      summary: async (businessId, groupBy, filter) => summarise(liveExpenses(t, businessId, filter), groupBy),
    },
    expenseCategories: {
      findById: async (businessId, id) => (t.expenseCategories.get(id)?.businessId === businessId ? copy(t.expenseCategories.get(id)) : undefined),
      list: async (businessId) =>
        values(t.expenseCategories)
          .filter((c) => c.businessId === businessId)
          .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id < b.id ? -1 : 1)),
      add: async (c) => {
        if (nameTaken(t, c) || t.expenseCategories.has(c.id)) return 'duplicate_name';
        t.expenseCategories.set(c.id, copy(c));
        return 'added';
      },
      save: async (c) => {
        if (nameTaken(t, c)) return 'duplicate_name';
        if (t.expenseCategories.get(c.id)?.businessId === c.businessId) t.expenseCategories.set(c.id, copy(c));
        return 'saved';
      },
      isInUse: async (businessId, id) => values(t.expenses).some((e) => e.businessId === businessId && e.categoryId === id),
      remove: async (businessId, id) => {
        if (t.expenseCategories.get(id)?.businessId === businessId) t.expenseCategories.delete(id);
      },
    },
  }),
};
