import type { CustomerRepositories } from '../../../application/customers/ports.js';
import { agingBucket, lagosDaysBetween, type AgingRow, type CreditEntry } from '../../../domain/credit.js';
import type { Customer } from '../../../domain/customer.js';
import { lagosDate, lagosDayStart } from '../../../domain/lagos-time.js';
import { kobo, type Kobo } from '../../../domain/money.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, after, rowKey, values } from './rows.js';
import { saleOrder, salesOf, type SaleTables } from './sales.in-memory.js';
import type { Invoice } from '../../../domain/invoice.js';

/** The customers module's tables: customers and the credit ledger. */
export interface CustomerTables {
  customers: Map<string, Customer>;
  creditEntries: Map<string, CreditEntry>;
  creditAllocations: { businessId: string; paymentId: string; saleId: string; amount: Kobo }[];
}

// Open debts are the unpaid parts of credit sales and sent invoices: the ledger reads those modules' tables, as its SQL does.
/** What the ledger reads of the invoices module's table (named by shape: that module reads the customers'). */
type InvoiceRows = { invoices: Map<string, Pick<Invoice, 'id' | 'businessId' | 'customerId' | 'type' | 'status' | 'total' | 'amountPaid' | 'dueDate'>> };
type Tables = CustomerTables & SaleTables & InvoiceRows;

/** Sent invoices (not proformas) with a balance left, oldest due date first (docs/adr/0073). */
const openInvoicesOf = (t: Tables, businessId: string) =>
  values(t.invoices)
    .filter((i) => i.businessId === businessId && (i.status === 'SENT' || i.status === 'PARTIALLY_PAID') && i.type !== 'PROFORMA' && i.total > i.amountPaid)
    .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id < b.id ? -1 : 1));

const openDebtsOf = (t: Tables, businessId: string) => salesOf(t, businessId).filter((x) => x.creditOutstanding > 0).sort(saleOrder);
const phoneTaken = (t: CustomerTables, c: Customer) =>
  c.phone !== null && values(t.customers).some((x) => x.businessId === c.businessId && x.id !== c.id && x.phone === c.phone);

/** The aging report the SQL adapter computes in the database, here over arrays. */
const agingRows = (t: Tables, businessId: string, today: string): AgingRow[] => {
  const rows = new Map<string, AgingRow>();
  // a sale ages from its Lagos day, an invoice from its due date
  const debts = [
    ...openDebtsOf(t, businessId).map((x) => ({ customerId: x.customerId!, outstanding: x.creditOutstanding, agedFrom: lagosDate(x.createdAt), since: x.createdAt })),
    ...openInvoicesOf(t, businessId).map((i) => ({ customerId: i.customerId, outstanding: kobo(i.total - i.amountPaid), agedFrom: i.dueDate, since: lagosDayStart(i.dueDate) })),
  ];
  for (const x of debts) {
    const c = t.customers.get(rowKey(businessId, x.customerId))!;
    const row = rows.get(c.id) ?? {
      customerId: c.id,
      customerName: c.name,
      customerPhone: c.phone,
      buckets: { days_0_30: kobo(0), days_31_60: kobo(0), days_61_90: kobo(0), days_over_90: kobo(0) },
      total: kobo(0),
      oldestUnpaidAt: x.since,
    };
    const bucket = agingBucket(lagosDaysBetween(x.agedFrom, today));
    rows.set(c.id, {
      ...row,
      buckets: { ...row.buckets, [bucket]: kobo(row.buckets[bucket] + x.outstanding) },
      total: kobo(row.total + x.outstanding),
      oldestUnpaidAt: x.since < row.oldestUnpaidAt ? x.since : row.oldestUnpaidAt,
    });
  }
  return [...rows.values()];
};

/** The customers module in memory: customers and the credit ledger. */
export const inMemoryCustomersModule: InMemoryModule<CustomerTables, CustomerRepositories, SaleTables & InvoiceRows> = {
  tables: () => ({ customers: new Map(), creditEntries: new Map(), creditAllocations: [] }),
  repositories: (t) => ({
    customers: {
      exists: async (businessId, id) => t.customers.has(rowKey(businessId, id)),
      findById: async (businessId, id) => copy(t.customers.get(rowKey(businessId, id))),
      list: async (businessId, page, filter) =>
        keysetPageInMemory(
          values(t.customers).filter((c) => c.businessId === businessId && (!filter.hasBalance || c.creditBalance > 0)),
          page,
          {
            sortValue: (c, by) => (by === 'name' ? c.name : by === 'credit_balance' ? c.creditBalance : c.createdAt.toISOString()),
            id: (c) => c.id,
            searchText: (c) => [`${c.name} ${c.phone ?? ''} ${c.email ?? ''}`],
            date: (c) => c.createdAt,
          },
        ),
      add: async (c) => {
        if (phoneTaken(t, c)) return 'duplicate_phone';
        t.customers.set(rowKey(c.businessId, c.id), copy(c));
        return 'added';
      },
      save: async (c) => {
        if (phoneTaken(t, c)) return 'duplicate_phone';
        const stored = t.customers.get(rowKey(c.businessId, c.id));
        if (stored) t.customers.set(rowKey(c.businessId, c.id), { ...copy(c), creditBalance: stored.creditBalance });
        return 'saved';
      },
      totalOwedExceeds: async (businessId, limit) =>
        values(t.customers).reduce((sum, c) => (c.businessId === businessId ? sum + BigInt(Math.max(c.creditBalance, 0)) : sum), 0n) > BigInt(limit),
      // a balance may go below zero: a credit note not used yet (docs/adr/0059)
      setBalance: async (businessId, id, balance, at) => {
        const c = t.customers.get(rowKey(businessId, id));
        if (c) Object.assign(c, { creditBalance: balance, updatedAt: at });
      },
    },
    credit: {
      add: async (e) => {
        const createdAt = after(values(t.creditEntries).filter((x) => x.businessId === e.businessId && x.customerId === e.customerId), e.createdAt);
        t.creditEntries.set(rowKey(e.businessId, e.id), copy({ ...e, createdAt }));
        return createdAt;
      },
      addAllocations: async (businessId, paymentId, allocations) => {
        for (const a of allocations) t.creditAllocations.push({ businessId, paymentId, saleId: a.saleId, amount: a.amount });
      },
      entryById: async (businessId, entryId) => {
        const e = t.creditEntries.get(rowKey(businessId, entryId));
        return e ? copy(e) : undefined;
      },
      allocationsOf: async (businessId, paymentId) =>
        t.creditAllocations
          .filter((a) => a.businessId === businessId && a.paymentId === paymentId)
          .map((a) => ({ saleId: a.saleId, amount: a.amount }))
          .sort((a, b) => saleOrder(t.sales.get(rowKey(businessId, a.saleId))!, t.sales.get(rowKey(businessId, b.saleId))!)),
      list: async (businessId, customerId, page) =>
        keysetPageInMemory(
          values(t.creditEntries).filter((e) => e.businessId === businessId && e.customerId === customerId),
          page,
          { sortValue: (e) => e.createdAt.toISOString(), id: (e) => e.id, searchText: (e) => [e.note], date: (e) => e.createdAt },
        ),
      lastPaymentAt: async (businessId, customerId) => {
        const times = values(t.creditEntries)
          .filter((e) => e.businessId === businessId && e.customerId === customerId && (e.kind === 'PAYMENT' || e.kind === 'INVOICE_PAYMENT'))
          .map((e) => e.createdAt.getTime());
        return times.length > 0 ? new Date(Math.max(...times)) : undefined;
      },
      openDebts: async (businessId, customerId) =>
        openDebtsOf(t, businessId)
          .filter((x) => x.customerId === customerId)
          .map((x) => ({ saleId: x.id, outstanding: x.creditOutstanding, createdAt: x.createdAt })),
      openInvoices: async (businessId, customerId) =>
        openInvoicesOf(t, businessId)
          .filter((i) => i.customerId === customerId)
          .map((i) => ({ invoiceId: i.id, outstanding: kobo(i.total - i.amountPaid), dueDate: i.dueDate })),
      reduceOutstanding: async (businessId, saleId, amount) => {
        const x = t.sales.get(rowKey(businessId, saleId));
        if (x) {
          if (x.creditOutstanding - amount < 0) throw new Error('check violation: credit_outstanding >= 0');
          x.creditOutstanding = kobo(x.creditOutstanding - amount);
        }
      },
      aging: async (businessId, today, page) =>
        keysetPageInMemory(agingRows(t, businessId, today), page, {
          sortValue: (a, by) => (by === 'name' ? a.customerName : a.total),
          id: (a) => a.customerId,
          searchText: (a) => [a.customerName, a.customerPhone],
          date: (a) => a.oldestUnpaidAt,
        }),
      agingTotals: async (businessId, today) => {
        const rows = agingRows(t, businessId, today);
        const sum = (f: (a: AgingRow) => number) => kobo(rows.reduce((n, a) => n + f(a), 0));
        return {
          customers: rows.length,
          total: sum((a) => a.total),
          buckets: {
            days_0_30: sum((a) => a.buckets.days_0_30),
            days_31_60: sum((a) => a.buckets.days_31_60),
            days_61_90: sum((a) => a.buckets.days_61_90),
            days_over_90: sum((a) => a.buckets.days_over_90),
          },
        };
      },
    },
  }),
};
