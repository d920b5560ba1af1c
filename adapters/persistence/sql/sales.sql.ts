import type { Sql } from './sql-session.js';
import type { SaleRepositories, SaleRepository, SaleSort } from '../../../application/sales/ports.js';
import { kobo } from '../../../domain/money.js';
import { costOfGoods, type PaymentMethod, type Sale, type SaleDraft, type SaleLine, type SaleStatus, type Tender } from '../../../domain/sale.js';
import { ambientTransaction } from './ambient-transaction.js';
import { RECEIPT_AT_COMMIT, RECEIPT_SETTING } from './numbered-at-commit.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import { optionalKobo, type Row } from './sql-helpers.js';

const SALE_COLUMNS =
  'id, business_id, branch_id, receipt_number, customer_id, payment_method, subtotal, discount, total, amount_paid, balance_due, status, note, created_by, created_at, voided_at, void_reason, voided_by, credit_outstanding, refund_amount, amount_tendered, change_due, line_discount_total, device_id, provisional_receipt_number, client_created_at, needs_review, vat_total, prices_include_vat';
/** The sale's columns and its tenders (docs/adr/0055), in one statement: a sale is never read without them. */
const SALE_SELECT = `${SALE_COLUMNS}, (select json_agg(json_build_object('method', p.method, 'amount', p.amount::text) order by p.position)
  from sale_payments p where p.business_id = sales.business_id and p.sale_id = sales.id) as payments`;

const SALES: KeysetSource<SaleSort> = {
  select: SALE_SELECT,
  from: 'sales',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' }, total: { column: 'total', type: 'bigint' } },
  search: ['receipt_number', "coalesce(provisional_receipt_number, '')"],
  dateColumn: 'created_at',
};

const paymentsFromRow = (v: unknown): Tender[] =>
  ((typeof v === 'string' ? JSON.parse(v) : (v ?? [])) as { method: string; amount: string }[]).map((p) => ({ method: p.method as PaymentMethod, amount: kobo(Number(p.amount)) }));

const saleFromRow = (r: Row, lines: SaleLine[] = []): Sale => ({
  id: String(r.id),
  businessId: String(r.business_id),
  branchId: String(r.branch_id),
  receiptNumber: String(r.receipt_number),
  customerId: (r.customer_id as string | null) ?? null,
  paymentMethod: r.payment_method as PaymentMethod,
  payments: paymentsFromRow(r.payments),
  lines,
  subtotal: kobo(Number(r.subtotal)),
  discount: kobo(Number(r.discount)),
  total: kobo(Number(r.total)),
  ...(r.prices_include_vat === null || r.prices_include_vat === undefined ? {} : { vat: { pricesIncludeVat: r.prices_include_vat === true, total: kobo(Number(r.vat_total)) } }),
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
  refundAmount: optionalKobo(r.refund_amount),
  amountTendered: optionalKobo(r.amount_tendered),
  changeDue: optionalKobo(r.change_due),
  lineDiscountTotal: kobo(Number(r.line_discount_total ?? 0)),
  ...(r.device_id
    ? { offline: { deviceId: String(r.device_id), provisionalReceiptNumber: (r.provisional_receipt_number as string | null) ?? null, clientCreatedAt: asOptionalDate(r.client_created_at), needsReview: r.needs_review === true } }
    : {}),
});

const lineFromRow = (r: Row): SaleLine => ({
  productId: String(r.product_id),
  name: String(r.name),
  sku: String(r.sku),
  quantity: Number(r.quantity),
  unitPrice: kobo(Number(r.unit_price)),
  discount: kobo(Number(r.discount)),
  lineTotal: kobo(Number(r.line_total)),
  costPrice: optionalKobo(r.cost_price),
  ...(r.vat_rate === null || r.vat_rate === undefined ? {} : { vat: { rate: Number(r.vat_rate), amount: kobo(Number(r.vat_amount)), net: kobo(Number(r.vat_net)) } }),
});

/** A sale's lines and tenders, one statement (a data-modifying WITH); their foreign key to the sale is checked at commit. */
const linesStatement = (s: SaleDraft): [string, unknown[]] => {
  const tenderParams = s.payments.flatMap((p, i) => [s.businessId, s.id, i, p.method, p.amount]);
  const params = s.lines.flatMap((l, i) => [
    s.id, i, s.businessId, l.productId, l.name, l.sku, l.quantity, l.unitPrice, l.discount, l.lineTotal, l.costPrice, l.vat?.rate ?? null, l.vat?.amount ?? 0, l.vat?.net ?? null,
  ]);
  return [saleLinesSql(s.payments.length, s.lines.length), [...tenderParams, ...params]];
};

/** The text of linesStatement for so many tenders and lines (also run by the bench's pgbench pass). */
export const saleLinesSql = (tenders: number, lines: number): string =>
  `with tenders as (insert into sale_payments (business_id, sale_id, position, method, amount) values ${Array.from({ length: tenders }, () => '(?, ?, ?, ?, ?)').join(', ')})
   insert into sale_items (sale_id, position, business_id, product_id, name, sku, quantity, unit_price, discount, line_total, cost_price, vat_rate, vat_amount, vat_net) values ${Array.from({ length: lines }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;

/**
 * The business's receipt counter, one up, and the sale under its number; `setting`: the number is also
 * kept in RECEIPT_SETTING for the rest of the transaction (the outbox rows sent after it take it there).
 */
const numberedStatement = (s: SaleDraft, setting: boolean): [string, unknown[]] => [
  numberedSaleSql(setting),
  [
    s.businessId,
    s.id, s.businessId, s.branchId, s.customerId, s.paymentMethod, s.subtotal, s.discount, s.total, s.amountPaid, s.balanceDue,
    s.status, s.note, s.createdBy, s.createdAt, s.voidedAt, s.voidReason, s.voidedBy, s.creditOutstanding, s.refundAmount,
    s.amountTendered, s.changeDue, s.lineDiscountTotal,
    s.offline?.deviceId ?? null, s.offline?.provisionalReceiptNumber ?? null, s.offline?.clientCreatedAt ?? null, s.offline?.needsReview ?? false,
    s.vat?.total ?? 0, s.vat ? s.vat.pricesIncludeVat : null,
    costOfGoods(s.lines),
  ],
];

/** The text of numberedStatement (also run by the bench's pgbench pass). */
export const numberedSaleSql = (setting: boolean): string =>
  `with counter as (
     insert into receipt_counters (business_id, value) values (?, 1)
     on conflict (business_id) do update set value = receipt_counters.value + 1 returning value
   ),
   sale as (
     insert into sales (${SALE_COLUMNS}, cost_of_goods)
     select ?, ?, ?, 'RCP-' || lpad(counter.value::text, greatest(6, length(counter.value::text)), '0'),
       ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     from counter returning receipt_number
   )
   select receipt_number${setting ? `, set_config('${RECEIPT_SETTING}', receipt_number, true)` : ''} from sale`;

/** The transactions (their `Sql`) with a sale numbered at their COMMIT. */
const numberedAtCommit = new WeakSet<Sql>();

/** Sales as plain rows: the sale is the hot write path (ARCHITECTURE "Hot paths stay lean"). */
export const sqlSales = (db: Sql): SaleRepository => {
  const withLines = async (row: Row | undefined): Promise<Sale | undefined> => {
    if (!row) return undefined;
    const lines = await db.execute<Row[]>(
      'select product_id, name, sku, quantity, unit_price, discount, line_total, cost_price, vat_rate, vat_amount, vat_net from sale_items where business_id = ? and sale_id = ? order by position',
      [row.business_id, row.id],
    );
    return saleFromRow(row, lines.map(lineFromRow));
  };
  return {
    async countSaleInMonth(businessId, month) {
      const rows = await db.execute<{ count: number }[]>(
        `insert into monthly_sale_counts (business_id, month, count) values (?, ?, 1)
         on conflict (business_id, month) do update set count = monthly_sale_counts.count + 1 returning count`,
        [businessId, month],
      );
      return Number(rows[0]!.count);
    },
    async monthlySaleCount(businessId, month) {
      const rows = await db.execute<{ count: number }[]>('select count from monthly_sale_counts where business_id = ? and month = ?', [businessId, month]);
      return Number(rows[0]?.count ?? 0);
    },
    async countCreatedBetween(businessId, from, to) {
      const rows = await db.execute<{ n: string }[]>('select count(*) as n from sales where business_id = ? and created_at >= ? and created_at < ?', [businessId, from, to]);
      return Number(rows[0]!.n);
    },
    async add(s) {
      // The lines and the counter's statement sent side by side: on PostgreSQL in one round trip (a
      // failure of the first fails the second). The counter's row lock is held from here to the COMMIT.
      const [, rows] = await Promise.all([db.execute(...linesStatement(s)), db.execute<{ receipt_number: string }[]>(...numberedStatement(s, false))]);
      return rows[0]!.receipt_number;
    },
    async addNumberedAtCommit(s) {
      // one sale a transaction takes its number with the COMMIT (one placeholder, one setting)
      if (numberedAtCommit.has(db)) return { receiptNumber: await this.add(s) };
      numberedAtCommit.add(db);
      await db.execute(...linesStatement(s));
      let receiptNumber: string | undefined;
      const ambient = ambientTransaction();
      // The counter's statement goes first of those sent with the COMMIT, in its write: its lock is held
      // for no round trip of ours (docs/adr/0084). It sets RECEIPT_SETTING for the statements after it.
      const [sql, params] = numberedStatement(s, true);
      const answered = (rows: Row[]) => {
        receiptNumber = String(rows[0]!.receipt_number);
        ambient?.takenAtCommit.set(RECEIPT_AT_COMMIT, receiptNumber);
      };
      await db.beforeCommit(() => ({ sql, params, answered }), { first: true });
      // Inside `atomically` the COMMIT comes after the work has answered: the number replaces the
      // placeholder in what `atomically` returns (ambient-transaction.ts) instead.
      if (ambient) return { receiptNumber: RECEIPT_AT_COMMIT };
      return { receiptNumber: RECEIPT_AT_COMMIT, committed: new Promise<string>((resolve) => db.afterCommit(() => resolve(receiptNumber!))) };
    },
    async clearNeedsReview(businessId, saleId) {
      await db.execute('update sales set needs_review = false where business_id = ? and id = ? and needs_review', [businessId, saleId]);
    },
    async findById(businessId, id, options = {}) {
      const rows = await db.execute<Row[]>(
        `select ${SALE_SELECT} from sales where business_id = ? and id = ?${options.forUpdate ? ' for update' : ''}`,
        [businessId, id],
      );
      return withLines(rows[0]);
    },
    async findByReceiptNumber(businessId, receiptNumber) {
      const rows = await db.execute<Row[]>(`select ${SALE_SELECT} from sales where business_id = ? and (receipt_number = ? or provisional_receipt_number = ?)`, [
        businessId,
        receiptNumber,
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
      return keysetPage(db, SALES, businessId, page, conditions, (r) => saleFromRow(r));
    },
    async markVoided(s) {
      await db.execute(
        'update sales set status = ?, voided_at = ?, void_reason = ?, voided_by = ?, refund_amount = ?, credit_outstanding = ?, balance_due = ? where business_id = ? and id = ?',
        [s.status, s.voidedAt, s.voidReason, s.voidedBy, s.refundAmount, s.creditOutstanding, s.balanceDue, s.businessId, s.id],
      );
    },
    async existsForBranch(businessId, branchId) {
      const rows = await db.execute<unknown[]>('select 1 from sales where business_id = ? and branch_id = ? limit 1', [businessId, branchId]);
      return rows.length > 0;
    },
    async lastSyncedAt(businessId, deviceId, before) {
      const rows = await db.execute<{ at: unknown }[]>('select max(created_at) as at from sales where business_id = ? and device_id = ? and created_at < ?', [businessId, deviceId, before]);
      return asOptionalDate(rows[0]?.at ?? null);
    },
  };
};

/** The sales module over one transaction's Sql. */
export const sqlSalesModule = (db: Sql): SaleRepositories => ({ sales: sqlSales(db) });
