import { expenseRoutes } from '../../adapters/http/routes/expenses.routes.js';
import { createExpenseCategory, deleteExpenseCategory, listExpenseCategories, renameExpenseCategory } from '../../application/expenses/manage-categories.js';
import { createExpense, deleteExpense, expenseSummary, getExpense, listExpenses, updateExpense } from '../../application/expenses/manage-expenses.js';
import { inMemoryExpensesModule } from '../../adapters/persistence/in-memory/expenses.in-memory.js';
import { sqlExpensesModule } from '../../adapters/persistence/sql/expenses.sql.js';
import { EXPENSE_FAILURES } from '../../adapters/http/failures/expenses.js';
import { defineModule, repositories } from './module.js';

/** Expenses and their categories. */
export const expensesModule = defineModule({
  name: 'expenses',
  folders: ['expenses'],
  repositories: [repositories(inMemoryExpensesModule, sqlExpensesModule)],
  failures: [EXPENSE_FAILURES],
  migrations: [{ name: 'Migration20261126000000_expenses', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261126000000_expenses.js')).Migration20261126000000_expenses }],
  useCases: ({ deps, paging }) => ({
    createExpense: createExpense(deps),
    updateExpense: updateExpense(deps),
    getExpense: getExpense(deps),
    listExpenses: listExpenses(deps),
    deleteExpense: deleteExpense(deps),
    expenseSummary: expenseSummary(deps),
    listExpenseCategories: listExpenseCategories(deps),
    createExpenseCategory: createExpenseCategory(deps),
    renameExpenseCategory: renameExpenseCategory(deps),
    deleteExpenseCategory: deleteExpenseCategory(deps),
    paging,
  }),
  routes: (uc) => expenseRoutes(uc),
});
