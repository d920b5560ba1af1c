import { AGING_BUCKETS, CREDIT_ENTRY_KINDS, PAYMENT_METHODS_FOR_CREDIT, type AgingRow, type Allocation, type CreditEntry } from '../../../domain/credit.js';
import type { Customer } from '../../../domain/customer.js';
import type { Kobo } from '../../../domain/money.js';
import { bool, dateTime, doc, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { nairaJson, nairaSchema, dateTimeJson } from '../json-values.js';

// The JSON views of a customer, their credit ledger and the aging report, and the shapes the OpenAPI document gives them.

export const naira = doc('naira', nairaSchema());
export const nullableNaira = doc('naira or null', nairaSchema({ type: ['number', 'null'] }));
export const nullableTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });

export const customerJson = (c: Customer) => ({
  id: c.id,
  name: c.name,
  phone: c.phone,
  email: c.email,
  address: c.address,
  notes: c.notes,
  credit_limit: nairaJson(c.creditLimit),
  credit_balance: nairaJson(c.creditBalance),
  notifications_opt_out: c.notificationsOptOut,
  created_at: dateTimeJson(c.createdAt),
  updated_at: dateTimeJson(c.updatedAt),
});
export const customerShape = shape(
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
    notifications_opt_out: bool,
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    credit_balance:
      'what the customer owes (read-only: the sum of their credit ledger); below zero when they hold a credit note from a return (refund_method CREDIT_NOTE) not used yet: their next credit sales use it first',
    notifications_opt_out: 'true: the customer gets no credit reminders or custom messages, only receipts',
  },
);

const allocationJson = (a: Allocation) => ({ sale_id: a.saleId, amount: nairaJson(a.amount) });
const allocationSchema = jsonSchemaOf(shape('Allocation', { sale_id: uuid, amount: naira }));

export const entryJson = (e: CreditEntry & { allocations: Allocation[] }) => ({
  id: e.id,
  type: e.kind,
  amount: nairaJson(Math.abs(e.amount)),
  balance_after: nairaJson(e.balanceAfter),
  sale_id: e.saleId,
  invoice_id: e.invoiceId,
  payment_method: e.method,
  note: e.note,
  allocations: e.allocations.map(allocationJson),
  created_by: e.createdBy,
  created_at: dateTimeJson(e.createdAt),
});
export const entryShape = shape(
  'CreditTransaction',
  {
    id: uuid,
    type: doc('type', { type: 'string', enum: [...CREDIT_ENTRY_KINDS] }),
    amount: doc('naira', nairaSchema({ minimum: 0 })),
    balance_after: naira,
    sale_id: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }),
    invoice_id: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }),
    payment_method: doc('payment_method or null', { type: ['string', 'null'], enum: [...PAYMENT_METHODS_FOR_CREDIT, 'ONLINE', null] }),
    note: nullableStr,
    allocations: doc('allocations', { type: 'array', items: allocationSchema }),
    created_by: uuid,
    created_at: dateTime,
  },
  {
    type: 'SALE and INVOICE (a sent invoice\'s total) add amount to what the customer owes; PAYMENT, VOID and RETURN take it off (a RETURN: what it cleared of the sale\'s debt, plus a CREDIT_NOTE refund, which may take the balance below zero), INVOICE_PAYMENT (a payment on that invoice) and INVOICE_CANCEL (its balance when cancelled) too',
    invoice_id: 'the invoice an INVOICE, INVOICE_PAYMENT or INVOICE_CANCEL entry is keyed to (note: its number); null on the other types',
    amount: 'how much, never negative: type says which way it moved the balance',
    balance_after: 'running balance after this entry',
    payment_method: 'how a PAYMENT or INVOICE_PAYMENT was paid (the sale methods but CREDIT; ONLINE only on an invoice); null on the other types',
    allocations: 'the sales a PAYMENT or a RETURN paid down, and how much of each',
  },
);

export const bucketsJson = (b: Record<string, Kobo>) => Object.fromEntries(AGING_BUCKETS.map((k) => [k, nairaJson(b[k]!)]));
const agingNaira = doc('naira', nairaSchema({ minimum: 0 }));
const bucketShapes = Object.fromEntries(AGING_BUCKETS.map((k) => [k, agingNaira]));
/** One customer's row of the aging report. */
export const agingRowShape = shape('AgingRow', {
  customer_id: uuid,
  name: str,
  phone: nullableStr,
  ...bucketShapes,
  total: agingNaira,
  oldest_unpaid_at: dateTime,
});
/** The aging report's totals over every customer who owes (not only this page). */
export const agingTotalsShape = shape('AgingTotals', { ...bucketShapes, total: agingNaira, customers: int });
export const agingJson = (a: AgingRow) => ({
  customer_id: a.customerId,
  name: a.customerName,
  phone: a.customerPhone,
  ...bucketsJson(a.buckets),
  total: nairaJson(a.total),
  oldest_unpaid_at: dateTimeJson(a.oldestUnpaidAt),
});
