import type { InvoiceRepositories } from '../../../application/invoices/ports.js';
import { formatInvoiceNumber, type Invoice, type InvoicePayment } from '../../../domain/invoice.js';
import { lagosDayStart } from '../../../domain/lagos-time.js';
import type { CustomerTables } from './customers.in-memory.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, rowKey, values } from './rows.js';

/** An invoice as kept: without its customer's name and phone (read from the customer, as SQL joins them) nor its payments. */
export type StoredInvoice = Omit<Invoice, 'customerName' | 'customerPhone' | 'payments'>;

export interface InvoiceTables {
  invoices: Map<string, StoredInvoice>;
  invoicePayments: Map<string, InvoicePayment & { businessId: string; invoiceId: string }>;
  invoiceCounters: Map<string, number>;
  /** `business/invoice/kind` of each reminder sent. */
  invoiceReminders: Set<string>;
}

export const inMemoryInvoicesModule: InMemoryModule<InvoiceTables, InvoiceRepositories, Pick<CustomerTables, 'customers'>> = {
  tables: () => ({ invoices: new Map(), invoicePayments: new Map(), invoiceCounters: new Map(), invoiceReminders: new Set() }),
  repositories: (t) => {
    const stored = ({ customerName: _n, customerPhone: _p, payments: _ps, ...x }: Invoice): StoredInvoice => copy(x);
    const read = (x: StoredInvoice, details = true): Invoice => {
      const c = t.customers.get(rowKey(x.businessId, x.customerId))!;
      const payments = details
        ? values(t.invoicePayments)
            .filter((p) => p.businessId === x.businessId && p.invoiceId === x.id)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
            .map(({ businessId: _b, invoiceId: _i, ...p }) => p)
        : [];
      return { ...copy(x), lines: details ? copy(x.lines) : [], customerName: c.name, customerPhone: c.phone, payments };
    };
    return {
      invoices: {
        add: async (x) => void t.invoices.set(rowKey(x.businessId, x.id), stored(x)),
        save: async (x) => void t.invoices.set(rowKey(x.businessId, x.id), stored(x)),
        remove: async (businessId, id) => void t.invoices.delete(rowKey(businessId, id)),
        findById: async (businessId, id) => {
          const x = t.invoices.get(rowKey(businessId, id));
          return x && read(x);
        },
        findByToken: async (token) => {
          const x = values(t.invoices).find((i) => i.shareToken === token);
          return x && read(x);
        },
        nextNumber: async (businessId, series) => {
          const key = `${businessId}/${series}`;
          const next = (t.invoiceCounters.get(key) ?? 0) + 1;
          t.invoiceCounters.set(key, next);
          return formatInvoiceNumber(series, next);
        },
        addPayment: async (businessId, invoiceId, p) => void t.invoicePayments.set(rowKey(businessId, p.id), copy({ ...p, businessId, invoiceId })),
        list: async (businessId, page, filter) => {
          const rows = values(t.invoices)
            .filter((x) => x.businessId === businessId)
            .filter(
              (x) =>
                (!filter.status || x.status === filter.status) &&
                (!filter.type || x.type === filter.type) &&
                (!filter.customerId || x.customerId === filter.customerId) &&
                (!filter.overdueOn || ((x.status === 'SENT' || x.status === 'PARTIALLY_PAID') && x.dueDate < filter.overdueOn && x.total > x.amountPaid)),
            )
            .map((x) => read(x, false));
          return keysetPageInMemory(rows, page, {
            sortValue: (x, by) => (by === 'total' ? x.total : by === 'due_date' ? x.dueDate : x.createdAt.toISOString()),
            id: (x) => x.id,
            searchText: (x) => [x.number, x.customerName],
            date: (x) => lagosDayStart(x.issueDate),
          });
        },
        reminderCandidates: async (businessId, kind, dueDate, limit) =>
          values(t.invoices)
            .filter((x) => x.businessId === businessId && x.type !== 'PROFORMA' && (x.status === 'SENT' || x.status === 'PARTIALLY_PAID') && x.total > x.amountPaid && x.dueDate === dueDate)
            .filter((x) => !t.invoiceReminders.has(`${businessId}/${x.id}/${kind}`))
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
            .slice(0, limit)
            .map((x) => read(x, false)),
        claimReminder: async (businessId, invoiceId, kind) => {
          const key = `${businessId}/${invoiceId}/${kind}`;
          if (t.invoiceReminders.has(key)) return false;
          t.invoiceReminders.add(key);
          return true;
        },
      },
    };
  },
};
