import type { ReturnRepositories } from '../../../application/returns/ports.js';
import { formatReturnNumber, type SaleReturn, type SaleReturnDraft } from '../../../domain/sale-return.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, rowKey, values } from './rows.js';
import type { SaleTables } from './sales.in-memory.js';

/** A return as kept: the draft and its number (the sale's receipt number is read from the sale, as SQL joins it). */
export type StoredReturn = SaleReturnDraft & { readonly returnNumber: string };

/** The returns module's tables. */
export interface ReturnTables {
  saleReturns: Map<string, StoredReturn>;
  returnCounters: Map<string, number>;
}

/** The business's returns, oldest first (ties by return number). */
export const returnsOf = (t: ReturnTables, businessId: string): StoredReturn[] =>
  values(t.saleReturns)
    .filter((x) => x.businessId === businessId)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.returnNumber < b.returnNumber ? -1 : 1));

/** The returns module in memory. */
export const inMemoryReturnsModule: InMemoryModule<ReturnTables, ReturnRepositories, SaleTables> = {
  tables: () => ({ saleReturns: new Map(), returnCounters: new Map() }),
  repositories: (t) => {
    const withSale = (x: StoredReturn): SaleReturn => ({ ...x, receiptNumber: t.sales.get(rowKey(x.businessId, x.saleId))!.receiptNumber });
    const ofSale = (businessId: string, saleId: string) => returnsOf(t, businessId).filter((x) => x.saleId === saleId);
    return {
      saleReturns: {
        add: async (draft) => {
          const next = (t.returnCounters.get(draft.businessId) ?? 0) + 1;
          t.returnCounters.set(draft.businessId, next);
          const returnNumber = formatReturnNumber(next);
          t.saleReturns.set(rowKey(draft.businessId, draft.id), copy({ ...draft, returnNumber }));
          return returnNumber;
        },
        findById: async (businessId, id) => {
          const x = t.saleReturns.get(rowKey(businessId, id));
          return x && withSale(copy(x));
        },
        returnedUnits: async (businessId, saleId) => {
          const units = new Map<number, number>();
          for (const x of ofSale(businessId, saleId)) for (const l of x.lines) units.set(l.position, (units.get(l.position) ?? 0) + l.quantity);
          return units;
        },
        ofSale: async (businessId, saleId) => ofSale(businessId, saleId).map((x) => withSale({ ...x, lines: [] })),
        countOfSale: async (businessId, saleId) => ofSale(businessId, saleId).length,
        list: async (businessId, page, filter) => {
          const page_ = keysetPageInMemory(
            returnsOf(t, businessId).filter(
              (x) =>
                (!filter.branchId || x.branchId === filter.branchId) &&
                (!filter.createdBy || x.createdBy === filter.createdBy) &&
                (!filter.saleId || x.saleId === filter.saleId) &&
                (!filter.refundMethod || x.refundMethod === filter.refundMethod),
            ),
            page,
            {
              sortValue: (x, by) => (by === 'amount' ? x.amount : x.createdAt.toISOString()),
              id: (x) => x.id,
              searchText: (x) => [x.returnNumber, t.sales.get(rowKey(x.businessId, x.saleId))?.receiptNumber ?? null, x.reason],
              date: (x) => x.createdAt,
            },
          );
          return { ...page_, items: page_.items.map((x) => withSale({ ...x, lines: [] })) }; // list items carry no lines, as in SQL
        },
      },
    };
  },
};
