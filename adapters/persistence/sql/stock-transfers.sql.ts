import type { Sql } from './sql-session.js';
import type { StockTransferRepository, TransferSort } from '../../../application/products/ports.js';
import type { StockTransfer } from '../../../domain/product.js';
import { asDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import type { Row } from './sql-helpers.js';

// Transfers between branches: a header row; the lines are read from the TRANSFER_OUT ledger rows.

const TRANSFER_COLUMNS = 'id, business_id, from_branch_id, to_branch_id, note, created_by, created_at';

const TRANSFERS: KeysetSource<TransferSort> = {
  select: TRANSFER_COLUMNS,
  from: 'stock_transfers',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['note'],
  dateColumn: 'created_at',
};

type Header = Omit<StockTransfer, 'items'>;

const headerFromRow = (r: Row): Header => ({
  id: String(r.id),
  businessId: String(r.business_id),
  fromBranchId: String(r.from_branch_id),
  toBranchId: String(r.to_branch_id),
  note: (r.note as string | null) ?? null,
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
});

export const sqlStockTransfers = (db: Sql): StockTransferRepository => {
  /** The headers with their lines, in one query for all of them. */
  const withItems = async (businessId: string, headers: Header[]): Promise<StockTransfer[]> => {
    if (headers.length === 0) return [];
    const rows = await db.execute<Row[]>(
      `select transfer_id, product_id, -quantity_change as quantity from stock_movements
       where business_id = ? and reason = 'TRANSFER_OUT' and transfer_id in (${headers.map(() => '?').join(', ')}) order by product_id`,
      [businessId, ...headers.map((h) => h.id)],
    );
    return headers.map((h) => ({
      ...h,
      items: rows.filter((r) => r.transfer_id === h.id).map((r) => ({ productId: String(r.product_id), quantity: Number(r.quantity) })),
    }));
  };
  return {
    async add(t) {
      await db.execute(`insert into stock_transfers (${TRANSFER_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?)`, [
        t.id, t.businessId, t.fromBranchId, t.toBranchId, t.note, t.createdBy, t.createdAt,
      ]);
    },
    async findById(businessId, id) {
      const rows = await db.execute<Row[]>(`select ${TRANSFER_COLUMNS} from stock_transfers where business_id = ? and id = ?`, [businessId, id]);
      return rows[0] ? (await withItems(businessId, [headerFromRow(rows[0])]))[0] : undefined;
    },
    async list(businessId, page, filter) {
      const conditions: SqlCondition[] = [];
      if (filter.branchId) conditions.push({ sql: '(from_branch_id = ? or to_branch_id = ?)', params: [filter.branchId, filter.branchId] });
      const headers = await keysetPage(db, TRANSFERS, businessId, page, conditions, headerFromRow);
      return { ...headers, items: await withItems(businessId, headers.items) };
    },
  };
};
