import type { ClientRecordKind, SyncRepositories } from '../../../application/sync/ports.js';
import type { InMemoryModule } from './in-memory-store.js';

interface ClientRecordRow {
  readonly id: string;
  readonly businessId: string;
  readonly kind: ClientRecordKind;
  readonly fingerprint: string;
  readonly clientCreatedAt: Date | null;
  readonly createdAt: Date;
}

export interface SyncTables {
  clientRecords: Map<string, ClientRecordRow>;
}

/** The tables of other modules a client id may already name a record in (as the SQL checks). */
interface RecordTables {
  sales: Map<string, unknown>;
  customers: Map<string, unknown>;
  creditEntries: Map<string, unknown>;
  expenses: Map<string, unknown>;
  stockMovements: Map<string, unknown>;
}
const TABLES: Record<ClientRecordKind, keyof RecordTables> = {
  SALE: 'sales',
  CUSTOMER: 'customers',
  CREDIT_PAYMENT: 'creditEntries',
  EXPENSE: 'expenses',
  STOCK_ADJUSTMENT: 'stockMovements',
};

/** The offline-sync module in memory: client ids. */
export const inMemorySyncModule: InMemoryModule<SyncTables, SyncRepositories, RecordTables> = {
  tables: () => ({ clientRecords: new Map() }),
  repositories: (t) => ({
    clientIds: {
      claim: async (q) => {
        const row = t.clientRecords.get(q.id);
        if (!row) {
          if (t[TABLES[q.kind]].has(q.id)) return 'different';
          t.clientRecords.set(q.id, { id: q.id, businessId: q.businessId, kind: q.kind, fingerprint: q.fingerprint, clientCreatedAt: q.clientCreatedAt, createdAt: q.at });
          return 'claimed';
        }
        return row.businessId === q.businessId && row.kind === q.kind && row.fingerprint === q.fingerprint ? 'same' : 'different';
      },
      clientCreatedAt: async (businessId, id) => {
        const row = t.clientRecords.get(id);
        return row && row.businessId === businessId ? row.clientCreatedAt : null;
      },
    },
  }),
};
