import type { agingReport, getCreditSummary, listCreditTransactions, recordCreditPayment } from '../../../application/customers/credit.js';
import type { createCustomer, CustomerFields, getCustomer, listCustomers, updateCustomer } from '../../../application/customers/manage-customers.js';
import { AGING_SORTS, CUSTOMER_SORTS } from '../../../application/customers/ports.js';
import { PAYMENT_METHODS_FOR_CREDIT } from '../../../domain/credit.js';
import type { Kobo } from '../../../domain/money.js';
import { booleanInput, doc, email, enumOf, jsonSchemaOf, money, positiveMoney, object, orNull, phone, queryFlag, shape, text } from '../codecs.js';
import { nairaJson, dateTimeJsonOrNull } from '../json-values.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { created, ok, OWNER_AND_STAFF, OWNER_ONLY, route } from '../route.js';
import { agingJson, agingRowShape, agingTotalsShape, bucketsJson, customerJson, customerShape, entryJson, entryShape, naira, nullableNaira, nullableTime } from './customers.views.js';

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

const customerFields = { phone: orNull(phone), email: orNull(email), address: orNull(text(1, 300)), notes: orNull(text(1, 1000)), credit_limit: orNull(money), notifications_opt_out: booleanInput };
type CustomerBody = { name?: string; phone?: string | null; email?: string | null; address?: string | null; notes?: string | null; credit_limit?: Kobo | null; notifications_opt_out?: boolean };
const fieldsOf = (b: CustomerBody): Partial<CustomerFields> => {
  const out = { name: b.name, phone: b.phone, email: b.email, address: b.address, notes: b.notes, creditLimit: b.credit_limit, notificationsOptOut: b.notifications_opt_out };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Partial<CustomerFields>;
};

import { CLIENT_FIELDS, CLIENT_FIELDS_DESCRIPTION, clientMade, createdOnce, REPLAYED_HEADER } from '../client-made.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

const TAG = 'Customers';

export const customerRoutes = (uc: CustomerUseCases) => [
  route({
    method: 'post',
    path: '/customers',
    operationId: 'createCustomer',
    tag: TAG,
    summary: 'Add a customer',
    description:
      'Adds a customer the business can sell to on credit. A phone (optional) is normalised to E.164 and unique in the business (409 DUPLICATE_PHONE); `credit_limit` (naira, 0 or more) caps what they may owe, none when left out or null; `notifications_opt_out` (default false): true stops credit reminders and custom messages to them (receipts still go).' + CLIENT_FIELDS_DESCRIPTION,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { name: 'Mama Chioma', phone: '+2348035556666', credit_limit: 50000 },
    body: object('CreateCustomerRequest', { name: text(1, 200) }, { ...customerFields, ...CLIENT_FIELDS }),
    success: { status: 201, description: 'The customer', data: customerShape, headers: REPLAYED_HEADER },
    failures: failuresOf<FailureOf<typeof uc.createCustomer>>({ NegativeAmount: true, DuplicatePhone: true, ClientIdConflict: true }),
    errors: [],
    handler: async ({ actor, body }) => {
      const customer = successOf(await uc.createCustomer(actor, { ...(fieldsOf(body) as CustomerFields), ...clientMade(body) }), 'customer');
      return createdOnce('Customer created', customerJson(customer), customer.replayed);
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
      const page = await uc.listCustomers(actor, req, query.has_balance ? { hasBalance: true } : {});
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
    failures: failuresOf<FailureOf<typeof uc.getCustomer>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      return ok('Customer', customerJson(successOf(await uc.getCustomer(actor, params.id), 'customer')));
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
    failures: failuresOf<FailureOf<typeof uc.updateCustomer>>({ NotFound: true, NegativeAmount: true, DuplicatePhone: true }),
    errors: [],
    handler: async ({ actor, params, body }) => {
      return ok('Customer updated', customerJson(successOf(await uc.updateCustomer(actor, params.id, fieldsOf(body)), 'customer')));
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
    failures: failuresOf<FailureOf<typeof uc.listCreditTransactions>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params, query }) => {
      const req = uc.paging.request('listCustomerTransactions', query, 'created_at');
      const entries = successOf(await uc.listCreditTransactions(actor, params.id, req), 'customer');
      return ok('Transactions', uc.paging.render('listCustomerTransactions', query, req, entries, entryJson));
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
    failures: failuresOf<FailureOf<typeof uc.getCreditSummary>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      const c = successOf(await uc.getCreditSummary(actor, params.id), 'customer');
      return ok('Credit account', {
        balance: nairaJson(c.balance),
        credit_limit: nairaJson(c.creditLimit),
        available_credit: nairaJson(c.availableCredit),
        oldest_unpaid_at: dateTimeJsonOrNull(c.oldestUnpaidAt),
        last_payment_at: dateTimeJsonOrNull(c.lastPaymentAt),
      });
    },
  }),
  route({
    method: 'post',
    path: '/customers/:id/credit/payment',
    operationId: 'recordCreditPayment',
    tag: 'Credit',
    summary: 'Record a payment toward what a customer owes',
    description: 'Allocated to the oldest open debt first. More than the balance is 422 OVERPAYMENT. Honours Idempotency-Key.' + CLIENT_FIELDS_DESCRIPTION,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { amount: 5000, payment_method: 'TRANSFER', note: 'Part payment' },
    body: object('CreditPaymentRequest', { amount: positiveMoney, payment_method: enumOf('payment_method', PAYMENT_METHODS_FOR_CREDIT) }, { note: text(1, 500), ...CLIENT_FIELDS }),
    success: { status: 201, description: 'The payment, as a ledger entry with its allocations', data: entryShape, headers: REPLAYED_HEADER },
    failures: failuresOf<FailureOf<typeof uc.recordCreditPayment>>({ NotFound: true, ClientIdConflict: true, AmountNotPositive: true, Overpayment: true }),
    errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
    handler: async ({ actor, params, body }) => {
      const paid = successOf(
        await uc.recordCreditPayment(actor, params.id, { amount: body.amount, method: body.payment_method, ...(body.note ? { note: body.note } : {}), ...clientMade(body) }),
        'customer',
      );
      return createdOnce('Payment recorded', entryJson({ ...paid.entry, allocations: paid.allocations }), paid.replayed);
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
      const report = await uc.agingReport(actor, req);
      return ok('Aging report', {
        ...uc.paging.render('creditAgingReport', query, req, report.page, agingJson),
        as_of: report.asOf,
        totals: { ...bucketsJson(report.totals.buckets), total: nairaJson(report.totals.total), customers: report.totals.customers },
      });
    },
  }),
];
