import type { Sql } from './sql-session.js';
import type { ClientIdClaim, ClientIdClaimRequest, ClientRecordKind, SyncRepositories } from '../../../application/sync/ports.js';
import { asDate } from './keyset.sql.js';
import { firstRow } from './sql-helpers.js';
import { sqlSaleConflicts } from './sale-conflicts.sql.js';
import { sqlChangeFeed } from './change-feed.sql.js';

/** The table each kind of client-made record lives in (an id the server made there is taken too). */
const TABLES: Record<ClientRecordKind, string> = {
  SALE: 'sales',
  CUSTOMER: 'customers',
  CREDIT_PAYMENT: 'credit_entries',
  EXPENSE: 'expenses',
  STOCK_ADJUSTMENT: 'stock_movements',
  RETURN: 'sale_returns',
};

const claim = async (db: Sql, q: ClientIdClaimRequest): Promise<ClientIdClaim> => {
  // Ids are per business (docs/adr/0039): only this business's records and claims can take one, so
  // another business's id answers as a new one does (no existence oracle across tenants).
  const serverMade = await firstRow(
    db,
    `select 1 as one from ${TABLES[q.kind]} where business_id = ? and id = ? and not exists (select 1 from client_records where business_id = ? and id = ?)`,
    [q.businessId, q.id, q.businessId, q.id],
    () => true,
  );
  if (serverMade) return 'different';
  // The insert waits for a concurrent claim of the same id to end, then either takes the id or sees the committed row.
  const inserted = await db.execute<{ id: string }[]>(
    'insert into client_records (id, business_id, kind, fingerprint, client_created_at, created_at) values (?, ?, ?, ?, ?, ?) on conflict (id, business_id) do nothing returning id',
    [q.id, q.businessId, q.kind, q.fingerprint, q.clientCreatedAt, q.at],
  );
  if (inserted.length > 0) return 'claimed';
  const row = await firstRow(db, 'select kind, fingerprint from client_records where id = ? and business_id = ?', [q.id, q.businessId], (r) => r);
  return row && row.kind === q.kind && row.fingerprint === q.fingerprint ? 'same' : 'different';
};

/** The offline-sync module over SQL: client ids in client_records, oversell conflicts in sale_conflicts, the change feed. */
export const sqlSyncModule = (db: Sql): SyncRepositories => ({
  clientIds: {
    claim: (q) => claim(db, q),
    clientCreatedAt: async (businessId, id) =>
      (await firstRow(db, 'select client_created_at from client_records where business_id = ? and id = ?', [businessId, id], (r) => (r.client_created_at ? asDate(r.client_created_at) : null))) ?? null,
  },
  saleConflicts: sqlSaleConflicts(db),
  changeFeed: sqlChangeFeed(db),
});
