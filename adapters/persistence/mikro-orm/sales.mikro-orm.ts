import type { EntityManager } from '@mikro-orm/postgresql';
import type { CustomerRepository, SaleRepository, SaleSort } from '../../../application/ports/repositories.js';
import { kobo } from '../../../domain/money.js';
import type { PaymentMethod, Sale, SaleLine, SaleStatus } from '../../../domain/sale.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.mikro-orm.js';

const SALE_COLUMNS =
  'id, business_id, branch_id, receipt_number, customer_id, payment_method, subtotal, discount, total, amount_paid, balance_due, status, note, created_by, created_at, voided_at, void_reason, voided_by';

const SALES: KeysetSource<SaleSort> = {
  select: SALE_COLUMNS,
  from: 'sales',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' }, total: { column: 'total', type: 'bigint' } },
  search: ['receipt_number'],
  dateColumn: 'created_at',
};

const saleFromRow = (r: Record<string, unknown>, lines: SaleLine[] = []): Sale => ({
  id: String(r.id),
  businessId: String(r.business_id),
  branchId: String(r.branch_id),
  receiptNumber: String(r.receipt_number),
  customerId: (r.customer_id as string | null) ?? null,
  paymentMethod: r.payment_method as PaymentMethod,
  lines,
  subtotal: kobo(Number(r.subtotal)),
  discount: kobo(Number(r.discount)),
  total: kobo(Number(r.total)),
  amountPaid: kobo(Number(r.amount_paid)),
  balanceDue: kobo(Number(r.balance_due)),
  status: r.status as SaleStatus,
  note: (r.note as string | null) ?? null,
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
  voidedAt: asOptionalDate(r.voided_at),
  voidReason: (r.void_reason as string | null) ?? null,
  voidedBy: (r.voided_by as string | null) ?? null,
});

const lineFromRow = (r: Record<string, unknown>): SaleLine => ({
  productId: String(r.product_id),
  name: String(r.name),
  sku: String(r.sku),
  quantity: Number(r.quantity),
  unitPrice: kobo(Number(r.unit_price)),
  discount: kobo(Number(r.discount)),
  lineTotal: kobo(Number(r.line_total)),
  costPrice: r.cost_price === null || r.cost_price === undefined ? null : kobo(Number(r.cost_price)),
});

/** Sales as plain rows: the sale is the hot write path (ARCHITECTURE "Hot paths stay lean"). */
export const mikroOrmSales = (em: EntityManager): SaleRepository => {
  const withLines = async (row: Record<string, unknown> | undefined): Promise<Sale | undefined> => {
    if (!row) return undefined;
    const lines = await em.execute<Record<string, unknown>[]>(
      'select product_id, name, sku, quantity, unit_price, discount, line_total, cost_price from sale_items where sale_id = ? order by position',
      [row.id],
    );
    return saleFromRow(row, lines.map(lineFromRow));
  };
  return {
    async nextReceiptNumber(businessId) {
      const rows = await em.execute<{ value: number }[]>(
        `insert into receipt_counters (business_id, value) values (?, 1)
         on conflict (business_id) do update set value = receipt_counters.value + 1 returning value`,
        [businessId],
      );
      return Number(rows[0]!.value);
    },
    async countSaleInMonth(businessId, month) {
      const rows = await em.execute<{ count: number }[]>(
        `insert into monthly_sale_counts (business_id, month, count) values (?, ?, 1)
         on conflict (business_id, month) do update set count = monthly_sale_counts.count + 1 returning count`,
        [businessId, month],
      );
      return Number(rows[0]!.count);
    },
    async add(s) {
      await em.execute(`insert into sales (${SALE_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        s.id, s.businessId, s.branchId, s.receiptNumber, s.customerId, s.paymentMethod, s.subtotal, s.discount, s.total,
        s.amountPaid, s.balanceDue, s.status, s.note, s.createdBy, s.createdAt, s.voidedAt, s.voidReason, s.voidedBy,
      ]);
      const values = s.lines.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      const params = s.lines.flatMap((l, i) => [s.id, i, s.businessId, l.productId, l.name, l.sku, l.quantity, l.unitPrice, l.discount, l.lineTotal, l.costPrice]);
      await em.execute(
        `insert into sale_items (sale_id, position, business_id, product_id, name, sku, quantity, unit_price, discount, line_total, cost_price) values ${values}`,
        params,
      );
    },
    async findById(businessId, id, options = {}) {
      const rows = await em.execute<Record<string, unknown>[]>(
        `select ${SALE_COLUMNS} from sales where business_id = ? and id = ?${options.forUpdate ? ' for update' : ''}`,
        [businessId, id],
      );
      return withLines(rows[0]);
    },
    async findByReceiptNumber(businessId, receiptNumber) {
      const rows = await em.execute<Record<string, unknown>[]>(`select ${SALE_COLUMNS} from sales where business_id = ? and receipt_number = ?`, [
        businessId,
        receiptNumber,
      ]);
      return withLines(rows[0]);
    },
    list(businessId, page, filter) {
      const conditions: SqlCondition[] = [];
      if (filter.paymentMethod) conditions.push({ sql: 'payment_method = ?', params: [filter.paymentMethod] });
      if (filter.status) conditions.push({ sql: 'status = ?', params: [filter.status] });
      if (filter.customerId) conditions.push({ sql: 'customer_id = ?', params: [filter.customerId] });
      if (filter.createdBy) conditions.push({ sql: 'created_by = ?', params: [filter.createdBy] });
      if (filter.branchId) conditions.push({ sql: 'branch_id = ?', params: [filter.branchId] });
      return keysetPage(em, SALES, businessId, page, conditions, (r) => saleFromRow(r));
    },
    async markVoided(s) {
      await em.execute('update sales set status = ?, voided_at = ?, void_reason = ?, voided_by = ? where business_id = ? and id = ?', [
        s.status, s.voidedAt, s.voidReason, s.voidedBy, s.businessId, s.id,
      ]);
    },
    async existsForBranch(businessId, branchId) {
      const rows = await em.execute<unknown[]>('select 1 from sales where business_id = ? and branch_id = ? limit 1', [businessId, branchId]);
      return rows.length > 0;
    },
  };
};

export const mikroOrmCustomers = (em: EntityManager): CustomerRepository => ({
  async exists(businessId, id) {
    const rows = await em.execute<unknown[]>('select 1 from customers where business_id = ? and id = ?', [businessId, id]);
    return rows.length > 0;
  },
});
