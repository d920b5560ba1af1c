import { EXPENSE_PAYMENT_METHODS, EXPENSE_SUMMARY_GROUPS, type Expense, type ExpenseCategory, type ExpenseSummary } from '../../../domain/expense.js';
import { bool, dateTime, doc, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { nairaJson, nairaSchema, nairaSumJson, NAIRA_SUM, dateTimeJson } from '../json-values.js';

// The JSON views of expenses, their categories and the summary, and the shapes the OpenAPI document gives them.

const MAX_NAIRA = 1_000_000_000_000;
const amountNaira = doc('naira above 0', nairaSchema({ exclusiveMinimum: 0, maximum: MAX_NAIRA }));
const totalNaira = doc('naira', nairaSchema({ minimum: 0, description: NAIRA_SUM }));
const lagosDayDoc = doc('date', { type: 'string', format: 'date', description: 'a Lagos calendar day', examples: ['2026-11-21'] });

export const expenseJson = (e: Expense) => ({
  id: e.id,
  business_id: e.businessId,
  branch_id: e.branchId,
  category_id: e.categoryId,
  category: e.categoryName,
  amount: nairaJson(e.amount),
  vat_amount: nairaJson(e.vatAmount ?? 0),
  description: e.description,
  vendor: e.vendor,
  payment_method: e.paymentMethod,
  spent_on: e.spentOn,
  reference: e.reference,
  created_by: e.createdBy,
  created_at: dateTimeJson(e.createdAt),
  updated_at: dateTimeJson(e.updatedAt),
});
export const expenseShape = shape(
  'Expense',
  {
    id: uuid,
    business_id: uuid,
    branch_id: uuid,
    category_id: uuid,
    category: str,
    amount: amountNaira,
    vat_amount: doc('naira', nairaSchema({ minimum: 0, maximum: MAX_NAIRA })),
    description: str,
    vendor: nullableStr,
    payment_method: doc('payment_method', { type: 'string', enum: [...EXPENSE_PAYMENT_METHODS] }),
    spent_on: lagosDayDoc,
    reference: nullableStr,
    created_by: uuid,
    created_at: dateTime,
    updated_at: dateTime,
  },
  { vat_amount: 'the VAT the amount holds (input VAT); 0.00 when none was recorded', category: "the category's current name", spent_on: 'the Lagos day the money was spent', reference: "e.g. the supplier's invoice number" },
);

export const categoryJson = (c: ExpenseCategory) => ({
  id: c.id,
  name: c.name,
  is_default: c.isDefault,
  created_at: dateTimeJson(c.createdAt),
  updated_at: dateTimeJson(c.updatedAt),
});
export const categoryShape = shape(
  'ExpenseCategory',
  { id: uuid, name: str, is_default: bool, created_at: dateTime, updated_at: dateTime },
  { is_default: 'one of the categories every business gets at registration (renamed and deleted like any other)' },
);

/** A bigint of kobo as naira with 2 decimals, exact at any size (docs/adr/0038, ADR 0046). */
const bigNaira = nairaSumJson;

export const summaryJson = (s: ExpenseSummary, query: { group_by: string; start_date: string | null; end_date: string | null }) => ({
  ...query,
  groups: s.groups.map((g) => ({ key: g.key, label: g.label, total: bigNaira(g.total), count: g.count })),
  total: bigNaira(s.total),
  count: s.count,
});
const summaryGroupShape = shape(
  'ExpenseSummaryGroup',
  { key: str, label: str, total: totalNaira, count: int },
  { key: 'the category id, the Lagos day (YYYY-MM-DD) or the Lagos month (YYYY-MM)', label: "the category's name, else the key" },
);
export const summaryShape = shape(
  'ExpenseSummary',
  {
    group_by: doc('group_by', { type: 'string', enum: [...EXPENSE_SUMMARY_GROUPS] }),
    start_date: doc('date or null', { type: ['string', 'null'], format: 'date' }),
    end_date: doc('date or null', { type: ['string', 'null'], format: 'date' }),
    groups: doc('groups', { type: 'array', items: jsonSchemaOf(summaryGroupShape) }),
    total: totalNaira,
    count: int,
  },
  { groups: 'by category: largest total first; by day or month: in calendar order. Groups without expenses are left out.' },
);
