import type { createExpenseCategory, deleteExpenseCategory, listExpenseCategories, renameExpenseCategory } from '../../../application/expenses/manage-categories.js';
import type { createExpense, deleteExpense, expenseSummary, ExpenseFields, getExpense, listExpenses, updateExpense } from '../../../application/expenses/manage-expenses.js';
import { CATEGORY_SORTS, EXPENSE_SORTS } from '../../../application/expenses/ports.js';
import { EXPENSE_PAYMENT_METHODS, EXPENSE_SUMMARY_GROUPS, type ExpensePaymentMethod } from '../../../domain/expense.js';
import type { Kobo } from '../../../domain/money.js';
import { dateTime, doc, Documented, enumOf, jsonSchemaOf, money, object, orNull, positiveMoney, shape, text, uuid, uuidInput } from '../codecs.js';
import { dateTimeJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { problem } from '../problem.js';
import { created, ok, OWNER_AND_STAFF, OWNER_ONLY, route } from '../route.js';
import { lagosDayInput as lagosDay } from '../dates.js';
import { categoryJson, categoryShape, expenseJson, expenseShape, summaryJson, summaryShape } from './expenses.views.js';

export interface ExpenseUseCases {
  readonly createExpense: ReturnType<typeof createExpense>;
  readonly updateExpense: ReturnType<typeof updateExpense>;
  readonly getExpense: ReturnType<typeof getExpense>;
  readonly listExpenses: ReturnType<typeof listExpenses>;
  readonly deleteExpense: ReturnType<typeof deleteExpense>;
  readonly expenseSummary: ReturnType<typeof expenseSummary>;
  readonly listExpenseCategories: ReturnType<typeof listExpenseCategories>;
  readonly createExpenseCategory: ReturnType<typeof createExpenseCategory>;
  readonly renameExpenseCategory: ReturnType<typeof renameExpenseCategory>;
  readonly deleteExpenseCategory: ReturnType<typeof deleteExpenseCategory>;
  readonly paging: Paging;
}

const TAG = 'Expenses';

const expenseFields = {
  category_id: uuidInput,
  amount: positiveMoney,
  description: text(1, 500, 'what the money was spent on'),
  payment_method: enumOf('payment_method', EXPENSE_PAYMENT_METHODS),
};
const optionalFields = {
  vendor: orNull(text(1, 200, 'who was paid')),
  spent_on: lagosDay('the Lagos day the money was spent; today in Lagos when left out; not after today'),
  reference: orNull(text(1, 100, "e.g. the supplier's invoice number")),
  branch_id: uuidInput,
  vat_amount: new Documented<Kobo, number>(
    'naira',
    {
      ...money.schema,
      description:
        "the VAT the amount holds (input VAT, on the supplier's invoice), at most the amount (422 VAT_EXCEEDS_AMOUNT); 0 when left out. " +
        "A VAT-registered business's P&L counts the expense net of it and GET /reports/vat sets it against output VAT (naira, at most 2 decimals)",
    },
    money.validate,
    money.encode,
  ),
};
type ExpenseBody = {
  category_id?: string;
  amount?: Kobo;
  description?: string;
  payment_method?: ExpensePaymentMethod;
  vendor?: string | null;
  spent_on?: string;
  reference?: string | null;
  branch_id?: string;
  vat_amount?: Kobo;
};
import { CLIENT_FIELDS, CLIENT_FIELDS_DESCRIPTION, clientMade, createdOnce, REPLAYED_HEADER } from '../client-made.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

const fieldsOf = (b: ExpenseBody): Partial<ExpenseFields> => {
  const out = {
    categoryId: b.category_id,
    amount: b.amount,
    description: b.description,
    paymentMethod: b.payment_method,
    vendor: b.vendor,
    spentOn: b.spent_on,
    reference: b.reference,
    branchId: b.branch_id,
    vatAmount: b.vat_amount,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Partial<ExpenseFields>;
};
const categoryName = object('ExpenseCategoryRequest', { name: text(1, 100, 'unique in the business, ignoring case') });
const deleted = (name: string) => shape(name, { id: uuid, deleted_at: dateTime });

export const expenseRoutes = (uc: ExpenseUseCases) => [
  route({
    method: 'get',
    path: '/expenses/categories',
    operationId: 'listExpenseCategories',
    tag: TAG,
    summary: 'Expense categories',
    description:
      'The categories of the business: the defaults it got at registration (`is_default`: Rent, Salaries and wages, Transport, ...) and its own. ' +
      'Paged (keyset) like every list: newest first unless sort_by says otherwise (name: by name, ignoring case; sort_dir=asc for A to Z). search: the name; start_date/end_date bound created_at.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('ExpenseCategoryListQuery', CATEGORY_SORTS, {}),
    success: { status: 200, description: 'A page of categories', data: doc('ExpenseCategoryPage', pageSchema(jsonSchemaOf(categoryShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listExpenseCategories', query, 'created_at');
      return ok('Expense categories', uc.paging.render('listExpenseCategories', query, req, await uc.listExpenseCategories(actor, req), categoryJson));
    },
  }),
  route({
    method: 'post',
    path: '/expenses/categories',
    operationId: 'createExpenseCategory',
    tag: TAG,
    summary: 'Add an expense category (owner)',
    description: 'A name the business does not use yet, ignoring case (409 DUPLICATE_CATEGORY).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { name: 'Security' },
    body: categoryName,
    success: { status: 201, description: 'The category', data: categoryShape },
    failures: failuresOf<FailureOf<typeof uc.createExpenseCategory>>({ DuplicateCategory: true }),
    errors: [],
    handler: async ({ actor, body }) => created('Expense category created', categoryJson(successOf(await uc.createExpenseCategory(actor, body.name), 'expense category'))),
  }),
  route({
    method: 'put',
    path: '/expenses/categories/:id',
    operationId: 'renameExpenseCategory',
    tag: TAG,
    summary: 'Rename an expense category (owner)',
    description: 'Default categories may be renamed too; the expenses filed under it show the new name.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: { name: 'Shop rent' },
    body: categoryName,
    success: { status: 200, description: 'The category', data: categoryShape },
    failures: failuresOf<FailureOf<typeof uc.renameExpenseCategory>>({ NotFound: true, DuplicateCategory: true }),
    errors: [],
    handler: async ({ actor, params, body }) =>
      ok('Expense category renamed', categoryJson(successOf(await uc.renameExpenseCategory(actor, params.id, body.name), 'expense category'))),
  }),
  route({
    method: 'delete',
    path: '/expenses/categories/:id',
    operationId: 'deleteExpenseCategory',
    tag: TAG,
    summary: 'Delete an expense category (owner)',
    description:
      'Only a category no expense is filed under (deleted expenses count: the audit trail keeps them), else 409 CATEGORY_IN_USE. Default categories may be deleted too.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The category is gone', data: shape('DeletedExpenseCategory', { id: uuid }) },
    failures: failuresOf<FailureOf<typeof uc.deleteExpenseCategory>>({ NotFound: true, CategoryInUse: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      successOf(await uc.deleteExpenseCategory(actor, params.id), 'expense category');
      return ok('Expense category deleted', { id: params.id });
    },
  }),
  route({
    method: 'get',
    path: '/expenses/summary',
    operationId: 'expenseSummary',
    tag: TAG,
    summary: 'What was spent, by category, day or month',
    description:
      'Total and count of the expenses (deleted ones left out) per group and overall, computed by the database. start_date and end_date (Lagos days, inclusive, ' +
      'both optional) bound spent_on; group_by is category (default, largest first), day or month (Lagos days and months, in calendar order). STAFF: their own expenses only.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: object(
      'ExpenseSummaryQuery',
      {},
      {
        start_date: lagosDay('from this Lagos day, inclusive'),
        end_date: lagosDay('to this Lagos day, inclusive'),
        group_by: enumOf('group_by', EXPENSE_SUMMARY_GROUPS, 'default category'),
      },
    ),
    success: { status: 200, description: 'The summary', data: summaryShape },
    errors: [],
    handler: async ({ actor, query }) => {
      if (query.start_date && query.end_date && query.start_date > query.end_date) {
        throw problem('VALIDATION_FAILED', 'start_date must not be after end_date.', { errors: [{ field: 'start_date', message: 'is after end_date' }] });
      }
      const groupBy = query.group_by ?? 'category';
      const summary = await uc.expenseSummary(actor, groupBy, { ...(query.start_date ? { spentFrom: query.start_date } : {}), ...(query.end_date ? { spentTo: query.end_date } : {}) });
      return ok('Expense summary', summaryJson(summary, { group_by: groupBy, start_date: query.start_date ?? null, end_date: query.end_date ?? null }));
    },
  }),
  route({
    method: 'post',
    path: '/expenses',
    operationId: 'createExpense',
    tag: TAG,
    summary: 'Record an expense',
    description:
      'amount (naira) above 0 (0 or less: 422 AMOUNT_MUST_BE_POSITIVE); category_id from GET /expenses/categories (else 422 UNKNOWN_CATEGORY); spent_on a Lagos day, ' +
      'today when left out, not after today (422 SPENT_ON_IN_FUTURE); branch_id from GET /businesses/me/branches (else 422 UNKNOWN_BRANCH), the caller\'s branch when left out. Honours Idempotency-Key.' + CLIENT_FIELDS_DESCRIPTION,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { category_id: '0b7e9a52-4f3c-4d8e-9a61-2f5b8c1d7e40', amount: 15000, description: 'Diesel for the generator', payment_method: 'CASH', vendor: 'Total, Allen Avenue', spent_on: '2026-11-21' },
    body: object('CreateExpenseRequest', expenseFields, { ...optionalFields, ...CLIENT_FIELDS }),
    success: { status: 201, description: 'The expense', data: expenseShape, headers: REPLAYED_HEADER },
    failures: failuresOf<FailureOf<typeof uc.createExpense>>({
      ClientIdConflict: true, AmountNotPositive: true, NegativeAmount: true, VatExceedsAmount: true, SpentOnInFuture: true, UnknownCategory: true, UnknownBranch: true,
    }),
    errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
    handler: async ({ actor, body }) => {
      const expense = successOf(await uc.createExpense(actor, { ...(fieldsOf(body) as ExpenseFields), ...clientMade(body) }), 'expense');
      return createdOnce('Expense recorded', expenseJson(expense), expense.replayed);
    },
  }),
  route({
    method: 'get',
    path: '/expenses',
    operationId: 'listExpenses',
    tag: TAG,
    summary: 'Expenses',
    description:
      'Paged (keyset), newest recorded first (created_at, the spec\'s default) unless sort_by says otherwise (spent_on: by the day the money was spent; amount); deleted expenses are left out. search: description, vendor, reference. ' +
      'start_date/end_date bound spent_on (a date-time selects its Lagos day). STAFF see only the expenses they recorded.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery(
      'ExpenseListQuery',
      EXPENSE_SORTS,
      { category_id: uuidInput, payment_method: enumOf('payment_method', EXPENSE_PAYMENT_METHODS), branch_id: uuidInput, created_by: uuidInput },
    ),
    success: { status: 200, description: 'A page of expenses', data: doc('ExpensePage', pageSchema(jsonSchemaOf(expenseShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listExpenses', query, 'created_at');
      const page = await uc.listExpenses(actor, req, {
        ...(query.category_id ? { categoryId: query.category_id } : {}),
        ...(query.payment_method ? { paymentMethod: query.payment_method } : {}),
        ...(query.branch_id ? { branchId: query.branch_id } : {}),
        ...(query.created_by ? { createdBy: query.created_by } : {}),
      });
      return ok('Expenses', uc.paging.render('listExpenses', query, req, page, expenseJson));
    },
  }),
  route({
    method: 'get',
    path: '/expenses/:id',
    operationId: 'getExpense',
    tag: TAG,
    summary: 'An expense',
    description: "One expense of the caller's business; a deleted one is 404, and so (for STAFF) is one another member recorded.",
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The expense', data: expenseShape },
    failures: failuresOf<FailureOf<typeof uc.getExpense>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => ok('Expense', expenseJson(successOf(await uc.getExpense(actor, params.id), 'expense'))),
  }),
  route({
    method: 'put',
    path: '/expenses/:id',
    operationId: 'updateExpense',
    tag: TAG,
    summary: 'Update an expense (owner)',
    description: 'Fields present are changed (null clears vendor or reference), under the rules of recording one.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: { amount: 16500, reference: 'INV-2026-0042' },
    body: object('UpdateExpenseRequest', {}, { ...expenseFields, ...optionalFields }),
    success: { status: 200, description: 'The expense', data: expenseShape },
    failures: failuresOf<FailureOf<typeof uc.updateExpense>>({
      NotFound: true, AmountNotPositive: true, NegativeAmount: true, VatExceedsAmount: true, SpentOnInFuture: true, UnknownCategory: true, UnknownBranch: true,
    }),
    errors: [],
    handler: async ({ actor, params, body }) => ok('Expense updated', expenseJson(successOf(await uc.updateExpense(actor, params.id, fieldsOf(body)), 'expense'))),
  }),
  route({
    method: 'delete',
    path: '/expenses/:id',
    operationId: 'deleteExpense',
    tag: TAG,
    summary: 'Delete an expense (owner)',
    description: 'A soft delete: the row stays for the audit trail (who deleted it and when); afterwards it is 404 and lists, the summary and reports leave it out.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The expense is deleted', data: deleted('DeletedExpense') },
    failures: failuresOf<FailureOf<typeof uc.deleteExpense>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      const d = successOf(await uc.deleteExpense(actor, params.id), 'expense');
      return ok('Expense deleted', { id: d.id, deleted_at: dateTimeJson(d.deletedAt) });
    },
  }),
];
