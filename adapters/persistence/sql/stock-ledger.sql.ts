import type { MovementSort, StockLedger } from '../../../application/products/ports.js';
import type { MovementReason, StockMovement } from '../../../domain/product.js';
import { asDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import type { Sql } from './sql-session.js';
import { optionalKobo, type Row } from './sql-helpers.js';

// The stock ledger: one row a movement of a product's stock at a branch, read and written as plain rows.

const MOVEMENT_COLUMNS =
  'id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, sale_id, branch_id, transfer_id';

const MOVEMENTS: KeysetSource<MovementSort> = {
  select: MOVEMENT_COLUMNS,
  from: 'stock_movements',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['note'],
  dateColumn: 'created_at',
};

const movementFromRow = (r: Row): StockMovement => ({
  id: String(r.id),
  businessId: String(r.business_id),
  productId: String(r.product_id),
  quantityChange: Number(r.quantity_change),
  quantityBefore: Number(r.quantity_before),
  quantityAfter: Number(r.quantity_after),
  reason: r.reason as MovementReason,
  note: (r.note as string | null) ?? null,
  unitCost: optionalKobo(r.unit_cost),
  createdBy: (r.created_by as string | null) ?? null,
  createdAt: asDate(r.created_at),
  saleId: (r.sale_id as string | null) ?? null,
  branchId: String(r.branch_id),
  transferId: (r.transfer_id as string | null) ?? null,
});

/** Movements as columns of arrays (unnest), in MOVEMENT_COLUMNS' order; also run by the bench's pgbench pass. */
export const INSERT_MOVEMENTS = `insert into stock_movements (${MOVEMENT_COLUMNS})
     select m.id, m.business_id, m.product_id, m.quantity_change, m.quantity_before, m.quantity_after, m.reason, m.note, m.unit_cost, m.created_by,
       greatest(m.created_at, (select max(created_at) + interval '1 millisecond' from stock_movements x where x.business_id = m.business_id and x.product_id = m.product_id)),
       m.sale_id, m.branch_id, m.transfer_id
     from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::integer[], ?::integer[], ?::integer[], ?::text[], ?::text[], ?::bigint[], ?::uuid[], ?::timestamptz[], ?::uuid[], ?::uuid[], ?::uuid[])
       as m(id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, sale_id, branch_id, transfer_id)
     returning id, created_at`;

/**
 * StockLedger.addMany (and add, a set of one). The product's row is locked by the caller (its quantity
 * just moved) in an earlier statement, so this statement's snapshot sees every earlier movement of it,
 * and each time follows its product's chain (1 ms after its last when the clock has not passed it).
 */
const addMovements = async (db: Sql, movements: readonly StockMovement[]): Promise<Date[]> => {
  if (new Set(movements.map((m) => m.productId)).size !== movements.length) throw new Error('addMany takes each product once');
  if (movements.length === 0) return [];
  const column = <K extends keyof StockMovement>(k: K) => movements.map((m) => m[k] ?? null);
  const rows = await db.execute<{ id: string; created_at: unknown }[]>(
    INSERT_MOVEMENTS,
    [
      column('id'), column('businessId'), column('productId'), column('quantityChange'), column('quantityBefore'), column('quantityAfter'), column('reason'),
      column('note'), column('unitCost'), column('createdBy'), column('createdAt'), column('saleId'), column('branchId'), column('transferId'),
    ],
  );
  const times = new Map(rows.map((r) => [String(r.id), asDate(r.created_at)]));
  return movements.map((m) => times.get(m.id)!);
};

export const sqlStockLedger = (db: Sql): StockLedger => ({
  async add(m) {
    return (await addMovements(db, [m]))[0]!;
  },
  addMany: (movements) => addMovements(db, movements),
  async findById(businessId, id) {
    const rows = await db.execute<Row[]>(`select ${MOVEMENT_COLUMNS} from stock_movements where business_id = ? and id = ?`, [businessId, id]);
    return rows[0] ? movementFromRow(rows[0]) : undefined;
  },
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = [];
    if (filter.productId) conditions.push({ sql: 'product_id = ?', params: [filter.productId] });
    if (filter.reason) conditions.push({ sql: 'reason = ?', params: [filter.reason] });
    if (filter.branchId) conditions.push({ sql: 'branch_id = ?', params: [filter.branchId] });
    return keysetPage(db, MOVEMENTS, businessId, page, conditions, movementFromRow);
  },
  async forSale(businessId, saleId) {
    const rows = await db.execute<Row[]>(
      `select ${MOVEMENT_COLUMNS} from stock_movements where business_id = ? and sale_id = ? order by product_id`,
      [businessId, saleId],
    );
    return rows.map(movementFromRow);
  },
});
