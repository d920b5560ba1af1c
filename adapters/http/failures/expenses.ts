import type { CategoryInUse, DuplicateCategory } from '../../../application/expenses/manage-categories.js';
import type { UnknownCategory } from '../../../application/expenses/manage-expenses.js';
import type { SpentOnInFuture, VatExceedsAmount } from '../../../domain/expense.js';
import { nairaText } from '../json-values.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  DUPLICATE_CATEGORY: 409,
  CATEGORY_IN_USE: 409,
  UNKNOWN_CATEGORY: 422,
  SPENT_ON_IN_FUTURE: 422,
  VAT_EXCEEDS_AMOUNT: 422,
});

/** The failures of the expenses module, expenses and their categories (docs/adr/0022) (application/expenses/manage-expenses.ts has ExpenseFailure, an expense's own). */
export type ExpenseModuleFailure = UnknownCategory | DuplicateCategory | CategoryInUse | SpentOnInFuture | VatExceedsAmount;

export const EXPENSE_FAILURES = moduleFailures<ExpenseModuleFailure>()(codes, {
  UnknownCategory: failure(['UNKNOWN_CATEGORY'], () =>
    problem('UNKNOWN_CATEGORY', 'category_id names no expense category of this business (GET /expenses/categories lists them).', {
      errors: [{ field: 'category_id', message: 'is not an expense category of this business' }],
    }),
  ),
  SpentOnInFuture: failure(['SPENT_ON_IN_FUTURE'], (f) =>
    problem('SPENT_ON_IN_FUTURE', `spent_on (${f.spentOn}) is after today in Lagos (${f.today}); record an expense once it is spent.`, {
      errors: [{ field: 'spent_on', message: `must not be after ${f.today}` }],
    }),
  ),
  VatExceedsAmount: failure(['VAT_EXCEEDS_AMOUNT'], (f) =>
    problem('VAT_EXCEEDS_AMOUNT', `vat_amount (${nairaText(f.vatAmount)}) is more than the expense's amount (${nairaText(f.amount)}): the VAT paid is part of the amount.`, {
      errors: [{ field: 'vat_amount', message: 'must be at most the amount' }],
    }),
  ),
  DuplicateCategory: failure(['DUPLICATE_CATEGORY'], (f) =>
    problem('DUPLICATE_CATEGORY', `This business already has an expense category named "${f.name}" (names ignore case).`, { errors: [{ field: 'name', message: 'is already used' }] }),
  ),
  CategoryInUse: failure(['CATEGORY_IN_USE'], () =>
    problem('CATEGORY_IN_USE', 'Expenses are filed under this category (deleted ones too: the audit trail keeps them); move them to another category, or rename it instead.'),
  ),
});
