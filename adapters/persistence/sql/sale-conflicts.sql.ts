import type { Sql } from './sql-session.js';
import type { ConflictResolution, ConflictSort, SaleConflict, SaleConflictRepository } from '../../../application/sync/ports.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import { firstRow, insertRow, type Row } from './sql-helpers.js';

const COLUMNS = 'id, business_id, sale_id, product_id, branch_id, requested, available, shortfall, status, resolution, quantity_change, note, resolved_by, resolved_at, created_at';
const SELECT =
  'c.id, c.business_id, c.sale_id, c.product_id, c.branch_id, c.requested, c.available, c.shortfall, c.status, c.resolution, c.quantity_change, c.note, ' +
  'c.resolved_by, c.resolved_at, c.created_at, p.name as product_name, s.receipt_number, s.provisional_receipt_number';
const FROM = 'sale_conflicts c join products p on p.business_id = c.business_id and p.id = c.product_id join sales s on s.business_id = c.business_id and s.id = c.sale_id';

const CONFLICTS: KeysetSource<ConflictSort> = {
  select: SELECT,
  from: FROM,
  tenantColumn: 'c.business_id',
  idColumn: 'c.id',
  sort: { created_at: { column: 'c.created_at', type: 'timestamptz' } },
  search: ['p.name', 's.receipt_number', "coalesce(s.provisional_receipt_number, '')"],
  dateColumn: 'c.created_at',
};

const fromRow = (r: Row): SaleConflict => ({
  id: String(r.id),
  businessId: String(r.business_id),
  saleId: String(r.sale_id),
  productId: String(r.product_id),
  branchId: String(r.branch_id),
  requested: Number(r.requested),
  available: Number(r.available),
  shortfall: Number(r.shortfall),
  status: r.status as SaleConflict['status'],
  resolution: (r.resolution as ConflictResolution | null) ?? null,
  quantityChange: r.quantity_change === null || r.quantity_change === undefined ? null : Number(r.quantity_change),
  note: (r.note as string | null) ?? null,
  resolvedBy: (r.resolved_by as string | null) ?? null,
  resolvedAt: asOptionalDate(r.resolved_at),
  createdAt: asDate(r.created_at),
  productName: String(r.product_name),
  receiptNumber: String(r.receipt_number),
  provisionalReceiptNumber: (r.provisional_receipt_number as string | null) ?? null,
});

/** Oversell conflicts as plain rows, read with their product's name and sale's numbers. */
export const sqlSaleConflicts = (db: Sql): SaleConflictRepository => ({
  async add(c) {
    await insertRow(db, 'sale_conflicts', COLUMNS, [
      c.id, c.businessId, c.saleId, c.productId, c.branchId, c.requested, c.available, c.shortfall, c.status, c.resolution, c.quantityChange, c.note, c.resolvedBy, c.resolvedAt, c.createdAt,
    ]);
  },
  findById: (businessId, id, options = {}) =>
    firstRow(db, `select ${SELECT} from ${FROM} where c.business_id = ? and c.id = ?${options.forUpdate ? ' for update of c' : ''}`, [businessId, id], fromRow),
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = filter.status ? [{ sql: 'c.status = ?', params: [filter.status] }] : [];
    return keysetPage(db, CONFLICTS, businessId, page, conditions, fromRow);
  },
  async resolve(businessId, target, d) {
    const [column, value] = 'conflictId' in target ? ['id', target.conflictId] : ['sale_id', target.saleId];
    await db.execute(
      `update sale_conflicts set status = 'RESOLVED', resolution = ?, quantity_change = ?, note = ?, resolved_by = ?, resolved_at = ?
       where business_id = ? and ${column} = ? and status = 'OPEN'`,
      [d.resolution, d.quantityChange, d.note, d.resolvedBy, d.resolvedAt, businessId, value],
    );
  },
  async openOfSale(businessId, saleId) {
    const rows = await db.execute<{ n: string }[]>("select count(*) as n from sale_conflicts where business_id = ? and sale_id = ? and status = 'OPEN'", [businessId, saleId]);
    return Number(rows[0]!.n);
  },
});
