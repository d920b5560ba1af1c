import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgingSort, CreditLedger, CustomerRepository, CustomerSort, SaleRepository, SaleSort } from '../../../application/ports/repositories.js';
import type { Customer } from '../../../domain/customer.js';
import type { AgingRow, CreditEntry } from '../../../domain/credit.js';
import { kobo } from '../../../domain/money.js';
import type { PaymentMethod, Sale, SaleLine, SaleStatus } from '../../../domain/sale.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.mikro-orm.js';

const SALE_COLUMNS =
  'id, business_id, branch_id, receipt_number, customer_id, payment_method, subtotal, discount, total, amount_paid, balance_due, status, note, created_by, created_at, voided_at, void_reason, voided_by, credit_outstanding, refund_amount, amount_tendered, change_due, line_discount_total';

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
  creditOutstanding: kobo(Number(r.credit_outstanding ?? 0)),
  refundAmount: r.refund_amount === null || r.refund_amount === undefined ? null : kobo(Number(r.refund_amount)),
  amountTendered: r.amount_tendered === null || r.amount_tendered === undefined ? null : kobo(Number(r.amount_tendered)),
  changeDue: r.change_due === null || r.change_due === undefined ? null : kobo(Number(r.change_due)),
  lineDiscountTotal: kobo(Number(r.line_discount_total ?? 0)),
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

    async countSaleInMonth(businessId, month) {
      const rows = await em.execute<{ count: number }[]>(
        `insert into monthly_sale_counts (business_id, month, count) values (?, ?, 1)
         on conflict (business_id, month) do update set count = monthly_sale_counts.count + 1 returning count`,
        [businessId, month],
      );
      return Number(rows[0]!.count);
    },
    async monthlySaleCount(businessId, month) {
      const rows = await em.execute<{ count: number }[]>('select count from monthly_sale_counts where business_id = ? and month = ?', [businessId, month]);
      return Number(rows[0]?.count ?? 0);
    },
    async countCreatedBetween(businessId, from, to) {
      const rows = await em.execute<{ n: string }[]>('select count(*) as n from sales where business_id = ? and created_at >= ? and created_at < ?', [businessId, from, to]);
      return Number(rows[0]!.n);
    },
    async add(s) {
      // Lines first (their foreign key to the sale is checked at commit), so the statement that takes
      // the business's receipt counter lock is the last one before the commit.
      const values = s.lines.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      const params = s.lines.flatMap((l, i) => [s.id, i, s.businessId, l.productId, l.name, l.sku, l.quantity, l.unitPrice, l.discount, l.lineTotal, l.costPrice]);
      await em.execute(
        `insert into sale_items (sale_id, position, business_id, product_id, name, sku, quantity, unit_price, discount, line_total, cost_price) values ${values}`,
        params,
      );
      const rows = await em.execute<{ receipt_number: string }[]>(
        `with counter as (
           insert into receipt_counters (business_id, value) values (?, 1)
           on conflict (business_id) do update set value = receipt_counters.value + 1 returning value
         )
         insert into sales (${SALE_COLUMNS})
         select ?, ?, ?, 'RCP-' || lpad(counter.value::text, greatest(6, length(counter.value::text)), '0'),
           ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
         from counter returning receipt_number`,
        [
          s.businessId,
          s.id, s.businessId, s.branchId, s.customerId, s.paymentMethod, s.subtotal, s.discount, s.total, s.amountPaid, s.balanceDue,
          s.status, s.note, s.createdBy, s.createdAt, s.voidedAt, s.voidReason, s.voidedBy, s.creditOutstanding, s.refundAmount,
          s.amountTendered, s.changeDue, s.lineDiscountTotal,
        ],
      );
      return rows[0]!.receipt_number;
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
      await em.execute(
        'update sales set status = ?, voided_at = ?, void_reason = ?, voided_by = ?, refund_amount = ?, credit_outstanding = ?, balance_due = ? where business_id = ? and id = ?',
        [s.status, s.voidedAt, s.voidReason, s.voidedBy, s.refundAmount, s.creditOutstanding, s.balanceDue, s.businessId, s.id],
      );
    },
    async existsForBranch(businessId, branchId) {
      const rows = await em.execute<unknown[]>('select 1 from sales where business_id = ? and branch_id = ? limit 1', [businessId, branchId]);
      return rows.length > 0;
    },
  };
};

const CUSTOMER_COLUMNS = 'id, business_id, name, phone, email, address, notes, credit_limit, credit_balance, created_at, updated_at';

const CUSTOMERS: KeysetSource<CustomerSort> = {
  select: CUSTOMER_COLUMNS,
  from: 'customers',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: {
    created_at: { column: 'created_at', type: 'timestamptz' },
    name: { column: 'name', type: 'text' },
    credit_balance: { column: 'credit_balance', type: 'bigint' },
  },
  search: ["(name || ' ' || coalesce(phone, '') || ' ' || coalesce(email, ''))"],
  dateColumn: 'created_at',
};

const customerFromRow = (r: Record<string, unknown>): Customer => ({
  id: String(r.id),
  businessId: String(r.business_id),
  name: String(r.name),
  phone: (r.phone as string | null) ?? null,
  email: (r.email as string | null) ?? null,
  address: (r.address as string | null) ?? null,
  notes: (r.notes as string | null) ?? null,
  creditLimit: r.credit_limit === null || r.credit_limit === undefined ? null : kobo(Number(r.credit_limit)),
  creditBalance: kobo(Number(r.credit_balance)),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

export const mikroOrmCustomers = (em: EntityManager): CustomerRepository => ({
  async exists(businessId, id) {
    const rows = await em.execute<unknown[]>('select 1 from customers where business_id = ? and id = ?', [businessId, id]);
    return rows.length > 0;
  },
  async findById(businessId, id, options = {}) {
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${CUSTOMER_COLUMNS} from customers where business_id = ? and id = ?${options.forUpdate ? ' for update' : ''}`,
      [businessId, id],
    );
    return rows[0] ? customerFromRow(rows[0]) : undefined;
  },
  list(businessId, page, filter) {
    return keysetPage(em, CUSTOMERS, businessId, page, filter.hasBalance ? [{ sql: 'credit_balance > 0', params: [] }] : [], customerFromRow);
  },
  async add(c) {
    const rows = await em.execute<unknown[]>(
      `insert into customers (${CUSTOMER_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (business_id, phone) where phone is not null do nothing returning id`,
      [c.id, c.businessId, c.name, c.phone, c.email, c.address, c.notes, c.creditLimit, c.creditBalance, c.createdAt, c.updatedAt],
    );
    return rows.length === 1 ? 'added' : 'duplicate_phone';
  },
  async save(c) {
    try {
      await em.execute('savepoint customer_save');
      await em.execute(
        'update customers set name = ?, phone = ?, email = ?, address = ?, notes = ?, credit_limit = ?, updated_at = ? where business_id = ? and id = ?',
        [c.name, c.phone, c.email, c.address, c.notes, c.creditLimit, c.updatedAt, c.businessId, c.id],
      );
      await em.execute('release savepoint customer_save');
      return 'saved';
    } catch (e) {
      if ((e as { code?: string }).code !== '23505' && (e as { name?: string }).name !== 'UniqueConstraintViolationException') throw e;
      await em.execute('rollback to savepoint customer_save');
      return 'duplicate_phone';
    }
  },
  async totalOwedExceeds(businessId, limit) {
    // sum() of bigint is numeric in PostgreSQL: it cannot overflow, and the comparison is exact
    const rows = await em.execute<{ over: boolean }[]>('select coalesce(sum(credit_balance), 0) > ?::numeric as over from customers where business_id = ?', [
      String(limit),
      businessId,
    ]);
    return rows[0]!.over === true;
  },
  async setBalance(businessId, id, balance, at) {
    await em.execute('update customers set credit_balance = ?, updated_at = ? where business_id = ? and id = ?', [balance, at, businessId, id]);
  },
});

const ENTRY_COLUMNS = 'id, business_id, customer_id, kind, amount, balance_after, sale_id, method, note, created_by, created_at';

const entryFromRow = (r: Record<string, unknown>): CreditEntry => ({
  id: String(r.id),
  businessId: String(r.business_id),
  customerId: String(r.customer_id),
  kind: r.kind as CreditEntry['kind'],
  amount: Number(r.amount),
  balanceAfter: kobo(Number(r.balance_after)),
  saleId: (r.sale_id as string | null) ?? null,
  method: (r.method as CreditEntry['method']) ?? null,
  note: (r.note as string | null) ?? null,
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
});

/** Lagos day of a timestamp in SQL: Lagos is UTC+1 all year (no time zone database needed). */
const LAGOS_DAY = "((s.created_at at time zone 'UTC') + interval '1 hour')::date";

/** What each customer owes, by age bucket, summed by the database over the open debts only. */
const AGING_SELECT = `
  select s.business_id, s.customer_id, min(c.name) as name, min(c.phone) as phone,
    sum(s.credit_outstanding) filter (where ?::date - ${LAGOS_DAY} <= 30) as days_0_30,
    sum(s.credit_outstanding) filter (where ?::date - ${LAGOS_DAY} between 31 and 60) as days_31_60,
    sum(s.credit_outstanding) filter (where ?::date - ${LAGOS_DAY} between 61 and 90) as days_61_90,
    sum(s.credit_outstanding) filter (where ?::date - ${LAGOS_DAY} > 90) as days_over_90,
    sum(s.credit_outstanding) as total, min(s.created_at) as oldest
  from sales s join customers c on c.business_id = s.business_id and c.id = s.customer_id
  where s.business_id = ? and s.credit_outstanding > 0
  group by s.business_id, s.customer_id`;

const agingFromRow = (r: Record<string, unknown>): AgingRow => ({
  customerId: String(r.customer_id),
  customerName: String(r.name),
  customerPhone: (r.phone as string | null) ?? null,
  buckets: {
    days_0_30: kobo(Number(r.days_0_30 ?? 0)),
    days_31_60: kobo(Number(r.days_31_60 ?? 0)),
    days_61_90: kobo(Number(r.days_61_90 ?? 0)),
    days_over_90: kobo(Number(r.days_over_90 ?? 0)),
  },
  total: kobo(Number(r.total)),
  oldestUnpaidAt: asDate(r.oldest),
});

export const mikroOrmCreditLedger = (em: EntityManager): CreditLedger => ({
  async add(e) {
    // The customer's row is locked by the caller, so the previous entry's time is settled.
    const rows = await em.execute<{ created_at: unknown }[]>(
      `insert into credit_entries (${ENTRY_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
         greatest(?::timestamptz, (select max(created_at) + interval '1 millisecond' from credit_entries where business_id = ? and customer_id = ?)))
       returning created_at`,
      [e.id, e.businessId, e.customerId, e.kind, e.amount, e.balanceAfter, e.saleId, e.method, e.note, e.createdBy, e.createdAt, e.businessId, e.customerId],
    );
    return asDate(rows[0]!.created_at);
  },
  async addAllocations(paymentId, allocations) {
    if (allocations.length === 0) return;
    await em.execute(
      `insert into credit_allocations (payment_id, sale_id, amount) values ${allocations.map(() => '(?, ?, ?)').join(', ')}`,
      allocations.flatMap((a) => [paymentId, a.saleId, a.amount]),
    );
  },
  async allocationsOf(businessId, paymentId) {
    const rows = await em.execute<{ sale_id: string; amount: string }[]>(
      `select a.sale_id, a.amount from credit_allocations a join credit_entries e on e.id = a.payment_id
       join sales s on s.id = a.sale_id where e.business_id = ? and a.payment_id = ? order by s.created_at, s.id`,
      [businessId, paymentId],
    );
    return rows.map((r) => ({ saleId: r.sale_id, amount: kobo(Number(r.amount)) }));
  },
  list(businessId, customerId, page) {
    const source: KeysetSource<'created_at'> = {
      select: ENTRY_COLUMNS,
      from: 'credit_entries',
      tenantColumn: 'business_id',
      idColumn: 'id',
      sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
      search: ['note'],
      dateColumn: 'created_at',
    };
    return keysetPage(em, source, businessId, page, [{ sql: 'customer_id = ?', params: [customerId] }], entryFromRow);
  },
  async lastPaymentAt(businessId, customerId) {
    const rows = await em.execute<{ at: unknown }[]>(
      "select max(created_at) as at from credit_entries where business_id = ? and customer_id = ? and kind = 'PAYMENT'",
      [businessId, customerId],
    );
    return rows[0]?.at ? asDate(rows[0].at) : undefined;
  },
  async openDebts(businessId, customerId, options = {}) {
    const rows = await em.execute<{ id: string; credit_outstanding: string; created_at: unknown }[]>(
      `select id, credit_outstanding, created_at from sales where business_id = ? and customer_id = ? and credit_outstanding > 0
       order by created_at, id${options.forUpdate ? ' for update' : ''}`,
      [businessId, customerId],
    );
    return rows.map((r) => ({ saleId: r.id, outstanding: kobo(Number(r.credit_outstanding)), createdAt: asDate(r.created_at) }));
  },
  async reduceOutstanding(businessId, saleId, amount) {
    await em.execute('update sales set credit_outstanding = credit_outstanding - ? where business_id = ? and id = ?', [amount, businessId, saleId]);
  },
  aging(businessId, today, page) {
    const source: KeysetSource<AgingSort> = {
      select: 'customer_id, name, phone, days_0_30, days_31_60, days_61_90, days_over_90, total, oldest',
      from: `(${AGING_SELECT}) aging`,
      tenantColumn: 'business_id',
      idColumn: 'customer_id',
      sort: { total: { column: 'total', type: 'bigint' }, name: { column: 'name', type: 'text' } },
      search: ['name', "coalesce(phone, '')"],
      dateColumn: 'oldest',
    };
    return keysetPage(em, source, businessId, page, [], agingFromRow, [today, today, today, today, businessId]);
  },
  async agingTotals(businessId, today) {
    const rows = await em.execute<Record<string, unknown>[]>(
      `select count(*) as customers, sum(days_0_30) as days_0_30, sum(days_31_60) as days_31_60, sum(days_61_90) as days_61_90,
       sum(days_over_90) as days_over_90, sum(total) as total from (${AGING_SELECT}) aging`,
      [today, today, today, today, businessId],
    );
    const r = rows[0] ?? {};
    return {
      customers: Number(r.customers ?? 0),
      total: kobo(Number(r.total ?? 0)),
      buckets: {
        days_0_30: kobo(Number(r.days_0_30 ?? 0)),
        days_31_60: kobo(Number(r.days_31_60 ?? 0)),
        days_61_90: kobo(Number(r.days_61_90 ?? 0)),
        days_over_90: kobo(Number(r.days_over_90 ?? 0)),
      },
    };
  },
});
