import type { ClientRecordKind, NewSaleConflict, SaleConflict, SyncRepositories } from '../../../application/sync/ports.js';
import type { Product } from '../../../domain/product.js';
import type { Sale } from '../../../domain/sale.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, rowKey, values } from './rows.js';
import { inMemoryChangeFeed, type ChangeFeedTables } from './change-feed.in-memory.js';
import type { ProductStockRow } from './products.in-memory.js';

interface ClientRecordRow {
  readonly id: string;
  readonly businessId: string;
  readonly kind: ClientRecordKind;
  readonly fingerprint: string;
  readonly clientCreatedAt: Date | null;
  readonly createdAt: Date;
}

export interface SyncTables extends ChangeFeedTables {
  clientRecords: Map<string, ClientRecordRow>;
  saleConflicts: Map<string, NewSaleConflict>;
}

/** The tables of other modules a client id may already name a record in (as the SQL checks). */
interface RecordTables {
  sales: Map<string, Sale>;
  products: Map<string, Product>;
  productStock: Map<string, ProductStockRow>;
  customers: Map<string, unknown>;
  creditEntries: Map<string, unknown>;
  expenses: Map<string, unknown>;
  stockMovements: Map<string, unknown>;
  saleReturns: Map<string, unknown>;
}
const TABLES: Record<ClientRecordKind, keyof RecordTables> = {
  SALE: 'sales',
  CUSTOMER: 'customers',
  CREDIT_PAYMENT: 'creditEntries',
  EXPENSE: 'expenses',
  STOCK_ADJUSTMENT: 'stockMovements',
  RETURN: 'saleReturns',
};

/** A conflict as the SQL reads it: with its product's name and its sale's numbers. */
const withNames = (t: SyncTables & RecordTables, c: NewSaleConflict): SaleConflict => {
  const sale = t.sales.get(rowKey(c.businessId, c.saleId))!;
  return { ...copy(c), productName: t.products.get(c.productId)!.name, receiptNumber: sale.receiptNumber, provisionalReceiptNumber: sale.offline?.provisionalReceiptNumber ?? null };
};

/** The offline-sync module in memory: client ids, oversell conflicts and the change feed. */
export const inMemorySyncModule: InMemoryModule<SyncTables, SyncRepositories, RecordTables> = {
  tables: () => ({ clientRecords: new Map(), saleConflicts: new Map(), changeVersions: new Map(), changeCounter: new Map() }),
  repositories: (t) => ({
    clientIds: {
      claim: async (q) => {
        // ids are per business (docs/adr/0039): another business's record or claim is not seen
        const key = rowKey(q.businessId, q.id);
        const row = t.clientRecords.get(key);
        if (!row) {
          if (t[TABLES[q.kind]].has(key)) return 'different';
          t.clientRecords.set(key, { id: q.id, businessId: q.businessId, kind: q.kind, fingerprint: q.fingerprint, clientCreatedAt: q.clientCreatedAt, createdAt: q.at });
          return 'claimed';
        }
        return row.kind === q.kind && row.fingerprint === q.fingerprint ? 'same' : 'different';
      },
      clientCreatedAt: async (businessId, id) => {
        return t.clientRecords.get(rowKey(businessId, id))?.clientCreatedAt ?? null;
      },
    },
    saleConflicts: {
      add: async (c) => void t.saleConflicts.set(c.id, copy(c)),
      findById: async (businessId, id) => {
        const c = t.saleConflicts.get(id);
        return c && c.businessId === businessId ? withNames(t, c) : undefined;
      },
      list: async (businessId, page, filter) =>
        keysetPageInMemory(
          values(t.saleConflicts)
            .filter((c) => c.businessId === businessId && (!filter.status || c.status === filter.status))
            .map((c) => withNames(t, c)),
          page,
          { sortValue: (c) => c.createdAt.toISOString(), id: (c) => c.id, searchText: (c) => [c.productName, c.receiptNumber, c.provisionalReceiptNumber], date: (c) => c.createdAt },
        ),
      resolve: async (businessId, target, d) => {
        for (const c of values(t.saleConflicts)) {
          const named = 'conflictId' in target ? c.id === target.conflictId : c.saleId === target.saleId;
          if (c.businessId === businessId && named && c.status === 'OPEN') t.saleConflicts.set(c.id, { ...c, ...d, status: 'RESOLVED' });
        }
      },
      openOfSale: async (businessId, saleId) => values(t.saleConflicts).filter((c) => c.businessId === businessId && c.saleId === saleId && c.status === 'OPEN').length,
    },
    changeFeed: inMemoryChangeFeed(t),
  }),
};
