import { checkAmounts, checkPayment, type AmountNotPositive, type NegativeAmount } from './amount-rules.js';
import type { Kobo } from './money.js';

/** How an expense was paid (issue 13): no CREDIT, a shop's own bills are settled in money. */
export const EXPENSE_PAYMENT_METHODS = ['CASH', 'TRANSFER', 'CARD', 'POS', 'OTHER'] as const;
export type ExpensePaymentMethod = (typeof EXPENSE_PAYMENT_METHODS)[number];

/** What the business spent, on a Lagos day (`spentOn`, YYYY-MM-DD). `categoryName` is the category's current name. */
export interface Expense {
  readonly id: string;
  readonly businessId: string;
  branchId: string;
  categoryId: string;
  categoryName: string;
  amount: Kobo;
  /** The VAT the amount holds (input VAT, docs/adr/0054), at most the amount; absent when none was recorded (0). */
  vatAmount?: Kobo;
  description: string;
  vendor: string | null;
  paymentMethod: ExpensePaymentMethod;
  spentOn: string;
  reference: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** A heading expenses are filed under; names are unique in a business, ignoring case. */
export interface ExpenseCategory {
  readonly id: string;
  readonly businessId: string;
  name: string;
  /** One of the categories every business gets at registration; renamed and deleted like any other. */
  readonly isDefault: boolean;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** The categories every business starts with (the migration gives them to businesses that existed before). */
export const DEFAULT_EXPENSE_CATEGORIES = [
  'Rent',
  'Salaries and wages',
  'Transport',
  'Electricity and utilities',
  'Fuel and generator',
  'Stock purchase',
  'Marketing',
  'Bank charges',
  'Taxes and levies',
  'Repairs and maintenance',
  'Other',
] as const;

/** The default categories of a new business, each with an id from `newId`. */
export const defaultExpenseCategories = (businessId: string, newId: () => string, at: Date): ExpenseCategory[] =>
  DEFAULT_EXPENSE_CATEGORIES.map((name) => ({ id: newId(), businessId, name, isDefault: true, createdAt: at, updatedAt: at }));

/** An expense dated after today (in Lagos) has not happened yet. */
export type SpentOnInFuture = { readonly _tag: 'SpentOnInFuture'; readonly spentOn: string; readonly today: string };

/** The input VAT recorded on an expense is more than the expense. */
export type VatExceedsAmount = { readonly _tag: 'VatExceedsAmount'; readonly vatAmount: Kobo; readonly amount: Kobo };

/** An expense's input VAT is part of its amount: at most the amount (checked on the expense as it will be saved). */
export const checkExpenseVat = (e: { amount: Kobo; vatAmount?: Kobo | undefined }): VatExceedsAmount | undefined =>
  (e.vatAmount ?? 0) > e.amount ? { _tag: 'VatExceedsAmount', vatAmount: e.vatAmount!, amount: e.amount } : undefined;

/** The rules of an expense's amount and day: more than zero, its VAT not negative, and not after today in Lagos. */
export const checkExpense = (fields: { amount?: Kobo; vatAmount?: Kobo; spentOn?: string }, today: string): AmountNotPositive | NegativeAmount | SpentOnInFuture | undefined => {
  if (fields.amount !== undefined) {
    const broken = checkPayment('amount', fields.amount);
    if (broken) return broken;
  }
  const negative = checkAmounts([['vatAmount', fields.vatAmount]]);
  if (negative) return negative;
  // YYYY-MM-DD compares as text in calendar order
  if (fields.spentOn !== undefined && fields.spentOn > today) return { _tag: 'SpentOnInFuture', spentOn: fields.spentOn, today };
  return undefined;
};

/** How the summary groups expenses: by category, by Lagos day, or by Lagos month. */
export const EXPENSE_SUMMARY_GROUPS = ['category', 'day', 'month'] as const;
export type ExpenseSummaryGroupBy = (typeof EXPENSE_SUMMARY_GROUPS)[number];

/**
 * One group of the summary. `key`: the category id, the day (YYYY-MM-DD) or the month (YYYY-MM);
 * `label`: the category's name, else the key. Totals are bigint kobo: a sum of many large
 * expenses may pass what a safe integer holds.
 */
export interface ExpenseSummaryGroup {
  readonly key: string;
  readonly label: string;
  readonly total: bigint;
  readonly count: number;
}

export interface ExpenseSummary {
  readonly groups: ExpenseSummaryGroup[];
  readonly total: bigint;
  readonly count: number;
}
