import type { Sql } from './sql-session.js';
import type { ReturnRepositories, ReturnSort, SaleReturnRepository } from '../../../application/returns/ports.js';
import { kobo } from '../../../domain/money.js';
import type { RefundMethod, ReturnLine, SaleReturn } from '../../../domain/sale-return.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import { optionalKobo, type Row } from './sql-helpers.js';

// Returns of sales as plain rows (docs/adr/0058); the sale's receipt number is joined in.

const RETURN_COLUMNS =
  'r.id, r.business_id, r.sale_id, r.branch_id, r.return_number, r.customer_id, r.restock, r.refund_method, r.reason, r.amount, r.vat_amount, r.debt_reduced, r.refund_amount, r.cost_returned, r.created_by, r.created_at, r.device_id, r.client_created_at, s.receipt_number';
const FROM = 'sale_returns r join sales s on s.business_id = r.business_id and s.id = r.sale_id';

const RETURNS: KeysetSource<ReturnSort> = {
  select: RETURN_COLUMNS,
  from: FROM,
  tenantColumn: 'r.business_id',
  idColumn: 'r.id',
  sort: { created_at: { column: 'r.created_at', type: 'timestamptz' }, amount: { column: 'r.amount', type: 'bigint' } },
  search: ['r.return_number', 's.receipt_number', 'r.reason'],
  dateColumn: 'r.created_at',
};

const returnFromRow = (r: Row, lines: ReturnLine[] = []): SaleReturn => ({
  id: String(r.id),
  businessId: String(r.business_id),
  saleId: String(r.sale_id),
  receiptNumber: String(r.receipt_number),
  returnNumber: String(r.return_number),
  branchId: String(r.branch_id),
  customerId: (r.customer_id as string | null) ?? null,
  lines,
  restock: r.restock === true,
  refundMethod: r.refund_method as RefundMethod,
  reason: String(r.reason),
  amount: kobo(Number(r.amount)),
  vatAmount: kobo(Number(r.vat_amount)),
  debtReduced: kobo(Number(r.debt_reduced)),
  refundAmount: kobo(Number(r.refund_amount)),
  costReturned: kobo(Number(r.cost_returned)),
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
  ...(r.device_id ? { offline: { deviceId: String(r.device_id), clientCreatedAt: asOptionalDate(r.client_created_at) } } : {}),
});

const lineFromRow = (r: Row): ReturnLine => ({
  position: Number(r.sale_position),
  productId: String(r.product_id),
  name: String(r.name),
  sku: String(r.sku),
  quantity: Number(r.quantity),
  amount: kobo(Number(r.amount)),
  lineAmount: kobo(Number(r.line_amount)),
  vatAmount: kobo(Number(r.vat_amount)),
  unitCost: optionalKobo(r.unit_cost),
  costReturned: kobo(Number(r.cost_returned)),
});

export const sqlSaleReturns = (db: Sql): SaleReturnRepository => ({
  async add(x) {
    // Lines first (their foreign key to the return is checked at commit), so the statement that takes the
    // business's return counter lock is the last one before the commit; both sent side by side.
    const values = x.lines.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const params = x.lines.flatMap((l, i) => [
      x.id, i, x.businessId, x.saleId, l.position, l.productId, l.name, l.sku, l.quantity, l.amount, l.lineAmount, l.vatAmount, l.unitCost, l.costReturned,
    ]);
    const [, rows] = await Promise.all([
      db.execute(
        `insert into sale_return_items (return_id, position, business_id, sale_id, sale_position, product_id, name, sku, quantity, amount, line_amount, vat_amount, unit_cost, cost_returned) values ${values}`,
        params,
      ),
      db.execute<{ return_number: string }[]>(
        `with counter as (
           insert into return_counters (business_id, value) values (?, 1)
           on conflict (business_id) do update set value = return_counters.value + 1 returning value
         )
         insert into sale_returns (id, business_id, sale_id, branch_id, return_number, customer_id, restock, refund_method, reason, amount, vat_amount,
           debt_reduced, refund_amount, cost_returned, created_by, created_at, device_id, client_created_at)
         select ?, ?, ?, ?, 'RTN-' || lpad(counter.value::text, greatest(6, length(counter.value::text)), '0'), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
         from counter returning return_number`,
        [
          x.businessId,
          x.id, x.businessId, x.saleId, x.branchId, x.customerId, x.restock, x.refundMethod, x.reason, x.amount, x.vatAmount,
          x.debtReduced, x.refundAmount, x.costReturned, x.createdBy, x.createdAt, x.offline?.deviceId ?? null, x.offline?.clientCreatedAt ?? null,
        ],
      ),
    ]);
    return rows[0]!.return_number;
  },
  async findById(businessId, id) {
    const [row] = await db.execute<Row[]>(`select ${RETURN_COLUMNS} from ${FROM} where r.business_id = ? and r.id = ?`, [businessId, id]);
    if (!row) return undefined;
    const lines = await db.execute<Row[]>(
      'select sale_position, product_id, name, sku, quantity, amount, line_amount, vat_amount, unit_cost, cost_returned from sale_return_items where business_id = ? and return_id = ? order by position',
      [businessId, id],
    );
    return returnFromRow(row, lines.map(lineFromRow));
  },
  async returnedUnits(businessId, saleId) {
    const rows = await db.execute<{ sale_position: number; units: string }[]>(
      'select sale_position, sum(quantity) as units from sale_return_items where business_id = ? and sale_id = ? group by sale_position',
      [businessId, saleId],
    );
    return new Map(rows.map((r) => [Number(r.sale_position), Number(r.units)]));
  },
  async ofSale(businessId, saleId) {
    const rows = await db.execute<Row[]>(`select ${RETURN_COLUMNS} from ${FROM} where r.business_id = ? and r.sale_id = ? order by r.created_at, r.return_number`, [businessId, saleId]);
    return rows.map((r) => returnFromRow(r));
  },
  async countOfSale(businessId, saleId) {
    const [row] = await db.execute<{ n: string }[]>('select count(*) as n from sale_returns where business_id = ? and sale_id = ?', [businessId, saleId]);
    return Number(row!.n);
  },
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = [];
    if (filter.branchId) conditions.push({ sql: 'r.branch_id = ?', params: [filter.branchId] });
    if (filter.createdBy) conditions.push({ sql: 'r.created_by = ?', params: [filter.createdBy] });
    if (filter.saleId) conditions.push({ sql: 'r.sale_id = ?', params: [filter.saleId] });
    if (filter.refundMethod) conditions.push({ sql: 'r.refund_method = ?', params: [filter.refundMethod] });
    return keysetPage(db, RETURNS, businessId, page, conditions, (r) => returnFromRow(r));
  },
});

/** The returns module over one transaction's Sql. */
export const sqlReturnsModule = (db: Sql): ReturnRepositories => ({ saleReturns: sqlSaleReturns(db) });
