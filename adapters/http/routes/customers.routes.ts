import * as E from 'fp-ts/lib/Either.js';
import type { agingReport, getCreditSummary, listCreditTransactions, recordCreditPayment } from '../../../application/customers/credit.js';
import type { createCustomer, CustomerFields, getCustomer, listCustomers, updateCustomer } from '../../../application/customers/manage-customers.js';
import { AGING_SORTS, CUSTOMER_SORTS } from '../../../application/customers/ports.js';
import { AGING_BUCKETS, PAYMENT_METHODS_FOR_CREDIT, type AgingRow, type Allocation, type CreditEntry } from '../../../domain/credit.js';
import type { Customer } from '../../../domain/customer.js';
import type { Kobo } from '../../../domain/money.js';
import { dateTime, doc, email, enumOf, int, jsonSchemaOf, money, nairaJson, positiveMoney, nullableStr, object, orNull, phone, queryFlag, shape, str, text, uuid } from '../codecs.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { problem } from '../problem.js';
import { created, ok, OWNER_AND_STAFF, OWNER_ONLY, route } from '../route.js';

export interface CustomerUseCases {
  readonly createCustomer: ReturnType<typeof createCustomer>;
  readonly updateCustomer: ReturnType<typeof updateCustomer>;
  readonly getCustomer: ReturnType<typeof getCustomer>;
  readonly listCustomers: ReturnType<typeof listCustomers>;
  readonly recordCreditPayment: ReturnType<typeof recordCreditPayment>;
  readonly getCreditSummary: ReturnType<typeof getCreditSummary>;
  readonly listCreditTransactions: ReturnType<typeof listCreditTransactions>;
  readonly agingReport: ReturnType<typeof agingReport>;
  readonly paging: Paging;
}

const naira = doc('naira', { type: 'number' });
const nullableNaira = doc('naira or null', { type: ['number', 'null'] });
const nullableTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });

const customerJson = (c: Customer) => ({
  id: c.id,
  name: c.name,
  phone: c.phone,
  email: c.email,
  address: c.address,
  notes: c.notes,
  credit_limit: nairaJson(c.creditLimit),
  credit_balance: nairaJson(c.creditBalance),
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});
const customerShape = shape(
  'Customer',
  {
    id: uuid,
    name: str,
    phone: nullableStr,
    email: nullableStr,
    address: nullableStr,
    notes: nullableStr,
    credit_limit: nullableNaira,
    credit_balance: naira,
    created_at: dateTime,
    updated_at: dateTime,
  },
  { credit_balance: 'what the customer owes (read-only: the sum of their credit ledger)' },
);

const allocationJson = (a: Allocation) => ({ sale_id: a.saleId, amount: nairaJson(a.amount) });
const allocationSchema = jsonSchemaOf(shape('Allocation', { sale_id: uuid, amount: naira }));

const entryJson = (e: CreditEntry & { allocations: Allocation[] }) => ({
  id: e.id,
  type: e.kind,
  amount: nairaJson(e.amount as Kobo),
  balance_after: nairaJson(e.balanceAfter),
  sale_id: e.saleId,
  method: e.method,
  note: e.note,
  allocations: e.allocations.map(allocationJson),
  created_by: e.createdBy,
  created_at: e.createdAt.toISOString(),
});
const entryShape = shape(
  'CreditTransaction',
  {
    id: uuid,
    type: doc('type', { type: 'string', enum: ['SALE', 'PAYMENT', 'VOID'] }),
    amount: naira,
    balance_after: naira,
    sale_id: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }),
    method: doc('method or null', { type: ['string', 'null'], enum: [...PAYMENT_METHODS_FOR_CREDIT, null] }),
    note: nullableStr,
    allocations: doc('allocations', { type: 'array', items: allocationSchema }),
    created_by: uuid,
    created_at: dateTime,
  },
  { amount: 'effect on the balance: positive adds debt, negative settles it', balance_after: 'running balance after this entry' },
);

const bucketsJson = (b: Record<string, Kobo>) => Object.fromEntries(AGING_BUCKETS.map((k) => [k, nairaJson(b[k]!)]));
const agingNaira = doc('naira', { type: 'number', minimum: 0 });
const bucketShapes = Object.fromEntries(AGING_BUCKETS.map((k) => [k, agingNaira]));
/** One customer's row of the aging report. */
const agingRowShape = shape('AgingRow', {
  customer_id: uuid,
  name: str,
  phone: nullableStr,
  ...bucketShapes,
  total: agingNaira,
  oldest_unpaid_at: dateTime,
});
/** The aging report's totals over every customer who owes (not only this page). */
const agingTotalsShape = shape('AgingTotals', { ...bucketShapes, total: agingNaira, customers: int });
const agingJson = (a: AgingRow) => ({
  customer_id: a.customerId,
  name: a.customerName,
  phone: a.customerPhone,
  ...bucketsJson(a.buckets),
  total: nairaJson(a.total),
  oldest_unpaid_at: a.oldestUnpaidAt.toISOString(),
});

const customerFields = { phone: orNull(phone), email: orNull(email), address: orNull(text(1, 300)), notes: orNull(text(1, 1000)), credit_limit: orNull(money) };
type CustomerBody = { name?: string; phone?: string | null; email?: string | null; address?: string | null; notes?: string | null; credit_limit?: Kobo | null };
const fieldsOf = (b: CustomerBody): Partial<CustomerFields> => {
  if (b.credit_limit !== undefined && b.credit_limit !== null && b.credit_limit < 0) {
    throw problem('AMOUNT_MUST_NOT_BE_NEGATIVE', 'credit_limit must not be negative.', { errors: [{ field: 'credit_limit', message: 'must not be negative' }] });
  }
  const out = { name: b.name, phone: b.phone, email: b.email, address: b.address, notes: b.notes, creditLimit: b.credit_limit };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Partial<CustomerFields>;
};

const notFound = () => problem('RESOURCE_NOT_FOUND', 'No such customer.');
const duplicatePhone = () => problem('DUPLICATE_PHONE', 'Another customer of this business has this phone number.', { errors: [{ field: 'phone', message: 'is already used' }] });
const TAG = 'Customers';

export const customerRoutes = (uc: CustomerUseCases) => [
  route({
    method: 'post',
    path: '/customers',
    operationId: 'createCustomer',
    tag: TAG,
    summary: 'Add a customer',
    description:
      'Adds a customer the business can sell to on credit. A phone (optional) is normalised to E.164 and unique in the business (409 DUPLICATE_PHONE); `credit_limit` (naira, 0 or more) caps what they may owe, none when left out or null.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    bodyExample: { name: 'Mama Chioma', phone: '+2348035556666', credit_limit: 50000 },
    body: object('CreateCustomerRequest', { name: text(1, 200) }, customerFields),
    success: { status: 201, description: 'The customer', data: customerShape },
    errors: ['DUPLICATE_PHONE', 'AMOUNT_MUST_NOT_BE_NEGATIVE'],
    handler: async ({ actor, body }) => {
      const r = await uc.createCustomer(actor!, fieldsOf(body) as CustomerFields);
      if (E.isLeft(r)) throw duplicatePhone();
      return created('Customer created', customerJson(r.right));
    },
  }),
  route({
    method: 'get',
    path: '/customers',
    operationId: 'listCustomers',
    tag: TAG,
    summary: 'Customers',
    description: 'Paged (keyset). search: name, phone, email. has_balance=true: only those who owe something.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('CustomerListQuery', CUSTOMER_SORTS, { has_balance: queryFlag }),
    success: { status: 200, description: 'A page of customers', data: doc('CustomerPage', pageSchema(jsonSchemaOf(customerShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listCustomers', query, 'created_at');
      const page = await uc.listCustomers(actor!, req, query.has_balance ? { hasBalance: true } : {});
      return ok('Customers', uc.paging.render('listCustomers', query, req, page, customerJson));
    },
  }),
  route({
    method: 'get',
    path: '/customers/:id',
    operationId: 'getCustomer',
    tag: TAG,
    summary: 'A customer',
    description:
      "One customer of the caller's business with their outstanding balance; another business's customer is 404.",
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The customer', data: customerShape },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params }) => {
      const r = await uc.getCustomer(actor!, params.id!);
      if (E.isLeft(r)) throw notFound();
      return ok('Customer', customerJson(r.right));
    },
  }),
  route({
    method: 'put',
    path: '/customers/:id',
    operationId: 'updateCustomer',
    tag: TAG,
    summary: 'Update a customer',
    description: 'Fields present are updated (null clears an optional one). credit_balance is read-only.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    bodyExample: { credit_limit: 75000, notes: 'Pays on Fridays' },
    body: object('UpdateCustomerRequest', {}, { name: text(1, 200), ...customerFields }),
    success: { status: 200, description: 'The customer', data: customerShape },
    errors: ['RESOURCE_NOT_FOUND', 'DUPLICATE_PHONE', 'AMOUNT_MUST_NOT_BE_NEGATIVE'],
    handler: async ({ actor, params, body }) => {
      const r = await uc.updateCustomer(actor!, params.id!, fieldsOf(body));
      if (E.isLeft(r)) throw r.left._tag === 'NotFound' ? notFound() : duplicatePhone();
      return ok('Customer updated', customerJson(r.right));
    },
  }),
  route({
    method: 'get',
    path: '/customers/:id/transactions',
    operationId: 'listCustomerTransactions',
    tag: TAG,
    summary: "A customer's sales, payments and voids",
    description: 'Paged, newest first; each entry with its effect on the balance and the running balance after it.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('CustomerTransactionsQuery', ['created_at'] as const, {}),
    success: { status: 200, description: 'A page of ledger entries', data: doc('CreditTransactionPage', pageSchema(jsonSchemaOf(entryShape))) },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params, query }) => {
      const req = uc.paging.request('listCustomerTransactions', query, 'created_at');
      const r = await uc.listCreditTransactions(actor!, params.id!, req);
      if (E.isLeft(r)) throw notFound();
      return ok('Transactions', uc.paging.render('listCustomerTransactions', query, req, r.right, entryJson));
    },
  }),
  route({
    method: 'get',
    path: '/customers/:id/credit',
    operationId: 'getCustomerCredit',
    tag: 'Credit',
    summary: "A customer's credit account",
    description:
      'What the customer owes: the balance, the credit limit and what is left of it, and the unpaid credit sales oldest first (the order a payment settles them in).',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: {
      status: 200,
      description: 'The credit account',
      data: shape('CreditAccount', {
        balance: naira,
        credit_limit: nullableNaira,
        available_credit: nullableNaira,
        oldest_unpaid_at: nullableTime,
        last_payment_at: nullableTime,
      }),
    },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params }) => {
      const r = await uc.getCreditSummary(actor!, params.id!);
      if (E.isLeft(r)) throw notFound();
      const c = r.right;
      return ok('Credit account', {
        balance: nairaJson(c.balance),
        credit_limit: nairaJson(c.creditLimit),
        available_credit: nairaJson(c.availableCredit),
        oldest_unpaid_at: c.oldestUnpaidAt?.toISOString() ?? null,
        last_payment_at: c.lastPaymentAt?.toISOString() ?? null,
      });
    },
  }),
  route({
    method: 'post',
    path: '/customers/:id/credit/payment',
    operationId: 'recordCreditPayment',
    tag: 'Credit',
    summary: 'Record a payment toward what a customer owes',
    description: 'Allocated to the oldest open debt first. More than the balance is 422 OVERPAYMENT. Honours Idempotency-Key.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { amount: 5000, method: 'TRANSFER', note: 'Part payment' },
    body: object('CreditPaymentRequest', { amount: positiveMoney, method: enumOf('method', PAYMENT_METHODS_FOR_CREDIT) }, { note: text(1, 500) }),
    success: { status: 201, description: 'The payment, as a ledger entry with its allocations', data: entryShape },
    errors: ['RESOURCE_NOT_FOUND', 'OVERPAYMENT', 'AMOUNT_MUST_BE_POSITIVE', 'IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
    handler: async ({ actor, params, body }) => {
      if (body.amount <= 0) {
        throw problem('AMOUNT_MUST_BE_POSITIVE', 'amount must be more than zero.', { errors: [{ field: 'amount', message: 'must be more than zero' }] });
      }
      const r = await uc.recordCreditPayment(actor!, params.id!, { amount: body.amount, method: body.method, ...(body.note ? { note: body.note } : {}) });
      if (E.isLeft(r)) {
        if (r.left._tag === 'NotFound') throw notFound();
        throw problem('OVERPAYMENT', `The customer owes ${nairaJson(r.left.balance)}; a payment cannot be more than that.`, {
          errors: [{ field: 'amount', message: `is more than the balance (${nairaJson(r.left.balance)})` }],
        });
      }
      return created('Payment recorded', entryJson({ ...r.right.entry, allocations: r.right.allocations }));
    },
  }),
  route({
    method: 'get',
    path: '/credit/aging-report',
    operationId: 'creditAgingReport',
    tag: 'Credit',
    summary: 'What customers owe, by age of debt (owner)',
    description:
      'Per customer (paged, largest total first by default) and in total, what is owed by age of the debt in Lagos days: ' +
      '0-30, 31-60, 61-90, over 90. Computed by the database over the open debts.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: listQuery('AgingReportQuery', AGING_SORTS, {}, 'total'),
    success: {
      status: 200,
      description: 'The report: a page of customers plus totals',
      data: doc('AgingReport', {
        ...pageSchema(jsonSchemaOf(agingRowShape)),
        properties: {
          ...(pageSchema(jsonSchemaOf(agingRowShape)) as { properties: Record<string, unknown> }).properties,
          as_of: { type: 'string', format: 'date', description: 'the Lagos day the ages are counted to' },
          totals: jsonSchemaOf(agingTotalsShape),
        },
        required: ['content', 'cursor', 'has_next', 'limit', 'as_of', 'totals'],
      }),
    },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('creditAgingReport', query, 'total');
      const report = await uc.agingReport(actor!, req);
      return ok('Aging report', {
        ...uc.paging.render('creditAgingReport', query, req, report.page, agingJson),
        as_of: report.asOf,
        totals: { ...bucketsJson(report.totals.buckets), total: nairaJson(report.totals.total), customers: report.totals.customers },
      });
    },
  }),
];
