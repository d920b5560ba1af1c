import type { Expense, ExpenseCategory, ExpensePaymentMethod, ExpenseSummary, ExpenseSummaryGroupBy } from '../../domain/expense.js';
import type { Page, PageRequest } from '../ports/list.js';

// The expenses module's ports: expenses (deleted softly) and the categories they are filed under.

export const EXPENSE_SORTS = ['spent_on', 'amount', 'created_at'] as const;
export type ExpenseSort = (typeof EXPENSE_SORTS)[number];

export const CATEGORY_SORTS = ['created_at', 'name'] as const;
export type CategorySort = (typeof CATEGORY_SORTS)[number];

/** Which expenses a list or summary reads; `spentFrom`/`spentTo` are inclusive Lagos days (YYYY-MM-DD). */
export interface ExpenseFilter {
  readonly categoryId?: string;
  readonly paymentMethod?: ExpensePaymentMethod;
  readonly branchId?: string;
  readonly createdBy?: string;
  readonly spentFrom?: string;
  readonly spentTo?: string;
}

/** Expenses of one business. A deleted expense is invisible to every method but stays in the table. */
export interface ExpenseRepository {
  findById(businessId: string, expenseId: string, options?: { forUpdate?: boolean }): Promise<Expense | undefined>;
  /** A page of live expenses; `search` matches description, vendor and reference. */
  list(businessId: string, page: PageRequest<ExpenseSort>, filter: ExpenseFilter): Promise<Page<Expense>>;
  add(expense: Expense): Promise<void>;
  /** Saves the editable fields (category, amount, description, vendor, method, day, reference, branch). */
  save(expense: Expense): Promise<void>;
  /** Marks the expense deleted by `userId` at `at`; false when it is unknown or already deleted. */
  softDelete(businessId: string, expenseId: string, userId: string, at: Date): Promise<boolean>;
  /** Totals and counts of the live expenses per group and overall, computed by the database. */
  summary(businessId: string, groupBy: ExpenseSummaryGroupBy, filter: ExpenseFilter): Promise<ExpenseSummary>;
}

/** The expense categories of one business; names unique ignoring case. */
export interface ExpenseCategoryRepository {
  /** `lock: 'use'`: not deleted until the transaction ends (an expense about to name it); `'change'`: no one else uses or changes it meanwhile. */
  findById(businessId: string, categoryId: string, options?: { lock?: 'use' | 'change' }): Promise<ExpenseCategory | undefined>;
  /** Every category of the business, by name (there are a few dozen at most). */
  list(businessId: string): Promise<ExpenseCategory[]>;
  /** A keyset page of the business's categories (GET /expenses/categories); search: the name; dates: created_at. */
  page(businessId: string, page: PageRequest<CategorySort>): Promise<Page<ExpenseCategory>>;
  add(category: ExpenseCategory): Promise<'added' | 'duplicate_name'>;
  save(category: ExpenseCategory): Promise<'saved' | 'duplicate_name'>;
  /** True when an expense (live or deleted: the audit trail keeps it) is filed under the category. */
  isInUse(businessId: string, categoryId: string): Promise<boolean>;
  remove(businessId: string, categoryId: string): Promise<void>;
}

/** The expenses module's repositories, as a unit of work hands them to a use case. */
export interface ExpenseRepositories {
  readonly expenses: ExpenseRepository;
  readonly expenseCategories: ExpenseCategoryRepository;
}
