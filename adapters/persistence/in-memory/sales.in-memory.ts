import type { SaleRepositories } from '../../../application/sales/ports.js';
import { formatReceiptNumber, type Sale, type SaleDraft } from '../../../domain/sale.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, rowKey, values } from './rows.js';

/** The sales module's tables. */
export interface SaleTables {
  sales: Map<string, Sale>;
  receiptCounters: Map<string, number>;
  monthlySaleCounts: Map<string, number>;
}

export const salesOf = (t: SaleTables, businessId: string) => values(t.sales).filter((x) => x.businessId === businessId);
/** Oldest first, ties by id: the order open debts are settled in. */
export const saleOrder = (a: Sale, b: Sale) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

/** The sale under the business's next receipt number, which it answers. */
const addSale = async (t: SaleTables, draft: SaleDraft): Promise<string> => {
  const next = (t.receiptCounters.get(draft.businessId) ?? 0) + 1;
  t.receiptCounters.set(draft.businessId, next);
  const receiptNumber = formatReceiptNumber(next);
  t.sales.set(rowKey(draft.businessId, draft.id), copy({ ...draft, receiptNumber }));
  return receiptNumber;
};

/** The sales module in memory. */
export const inMemorySalesModule: InMemoryModule<SaleTables, SaleRepositories> = {
  tables: () => ({ sales: new Map(), receiptCounters: new Map(), monthlySaleCounts: new Map() }),
  repositories: (t) => ({
    sales: {
      countSaleInMonth: async (businessId, month) => {
        const key = `${businessId}\n${month}`;
        const next = (t.monthlySaleCounts.get(key) ?? 0) + 1;
        t.monthlySaleCounts.set(key, next);
        return next;
      },
      monthlySaleCount: async (businessId, month) => t.monthlySaleCounts.get(`${businessId}\n${month}`) ?? 0,
      countCreatedBetween: async (businessId, from, to) => salesOf(t, businessId).filter((x) => x.createdAt >= from && x.createdAt < to).length,
      add: async (draft) => addSale(t, draft),
      // one transaction at a time: the number is known at once
      addNumberedAtCommit: async (draft) => ({ receiptNumber: await addSale(t, draft) }),
      clearNeedsReview: async (businessId, saleId) => {
        const s = t.sales.get(rowKey(businessId, saleId));
        if (s && s.offline) t.sales.set(rowKey(businessId, saleId), { ...s, offline: { ...s.offline, needsReview: false } });
      },
      findById: async (businessId, id) => salesOf(t, businessId).find((x) => x.id === id),
      findByReceiptNumber: async (businessId, receiptNumber) => salesOf(t, businessId).find((x) => x.receiptNumber === receiptNumber || x.offline?.provisionalReceiptNumber === receiptNumber),
      list: async (businessId, page, filter) => {
        const page_ = keysetPageInMemory(
          salesOf(t, businessId).filter(
            (x) =>
              (!filter.paymentMethod || x.paymentMethod === filter.paymentMethod) &&
              (!filter.status || x.status === filter.status) &&
              (!filter.customerId || x.customerId === filter.customerId) &&
              (!filter.createdBy || x.createdBy === filter.createdBy) &&
              (!filter.branchId || x.branchId === filter.branchId),
          ),
          page,
          { sortValue: (x, by) => (by === 'total' ? x.total : x.createdAt.toISOString()), id: (x) => x.id, searchText: (x) => [x.receiptNumber, x.offline?.provisionalReceiptNumber ?? ''], date: (x) => x.createdAt },
        );
        return { ...page_, items: page_.items.map((x) => ({ ...x, lines: [] })) }; // list items carry no lines, as in SQL
      },
      markVoided: async (sale) => {
        const stored = t.sales.get(rowKey(sale.businessId, sale.id));
        if (stored) {
          const { status, voidedAt, voidReason, voidedBy, refundAmount, creditOutstanding, balanceDue } = sale;
          Object.assign(stored, { status, voidedAt, voidReason, voidedBy, refundAmount, creditOutstanding, balanceDue });
        }
      },
      existsForBranch: async (businessId, branchId) => salesOf(t, businessId).some((x) => x.branchId === branchId),
      lastSyncedAt: async (businessId, deviceId, before) =>
        salesOf(t, businessId)
          .filter((x) => x.offline?.deviceId === deviceId && x.createdAt < before)
          .reduce<Date | null>((latest, x) => (latest && latest >= x.createdAt ? latest : new Date(x.createdAt)), null),
    },
  }),
};
