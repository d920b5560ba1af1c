import { plannedEachTime, type Sql } from './sql-session.js';
import type { AgingSort, CreditLedger } from '../../../application/customers/ports.js';
import type { AgingRow, CreditEntry } from '../../../domain/credit.js';
import { kobo } from '../../../domain/money.js';
import { asDate, keysetPage, type KeysetSource } from './keyset.sql.js';
import { firstRow, lagosDaySql, lagosStartSql, type Row } from './sql-helpers.js';

const ENTRY_COLUMNS = 'id, business_id, customer_id, kind, amount, balance_after, sale_id, invoice_id, method, note, created_by, created_at';

const entryFromRow = (r: Row): CreditEntry => ({
  id: String(r.id),
  businessId: String(r.business_id),
  customerId: String(r.customer_id),
  kind: r.kind as CreditEntry['kind'],
  amount: Number(r.amount),
  balanceAfter: kobo(Number(r.balance_after)),
  saleId: (r.sale_id as string | null) ?? null,
  invoiceId: (r.invoice_id as string | null) ?? null,
  method: (r.method as CreditEntry['method']) ?? null,
  note: (r.note as string | null) ?? null,
  createdBy: String(r.created_by),
  createdAt: asDate(r.created_at),
});

/**
 * The open debts the aging report sums: the unpaid parts of credit sales, aged from their Lagos day, and the
 * balances of sent invoices (not proformas), aged from their due date (docs/adr/0073).
 */
const OPEN_DEBTS = `
  select s.business_id, s.customer_id, s.credit_outstanding as outstanding, ${lagosDaySql('s.created_at')} as aged_from, s.created_at as since
  from sales s where s.business_id = ? and s.credit_outstanding > 0
  union all
  select i.business_id, i.customer_id, i.total - i.amount_paid, i.due_date, ${lagosStartSql('i.due_date')}
  from invoices i where i.business_id = ? and i.status in ('SENT', 'PARTIALLY_PAID') and i.type <> 'PROFORMA' and i.total > i.amount_paid`;

/**
 * What each customer owes, by age bucket, summed by the database over the open debts only. Summed per
 * customer before the customers are joined, and the sales' side from the open debts' index alone (it holds
 * the amount): 267 -> 65 ms over 111,000 open debts (docs/adr/0086).
 */
const AGING_SELECT = `
  select a.business_id, a.customer_id, c.name, c.phone, a.days_0_30, a.days_31_60, a.days_61_90, a.days_over_90, a.total, a.oldest
  from (
    select d.business_id, d.customer_id,
      sum(d.outstanding) filter (where ?::date - d.aged_from <= 30) as days_0_30,
      sum(d.outstanding) filter (where ?::date - d.aged_from between 31 and 60) as days_31_60,
      sum(d.outstanding) filter (where ?::date - d.aged_from between 61 and 90) as days_61_90,
      sum(d.outstanding) filter (where ?::date - d.aged_from > 90) as days_over_90,
      sum(d.outstanding) as total, min(d.since) as oldest
    from (${OPEN_DEBTS}) d group by d.business_id, d.customer_id
  ) a join customers c on c.business_id = a.business_id and c.id = a.customer_id`;

const agingFromRow = (r: Row): AgingRow => ({
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

/** The credit ledger as plain rows; open debts are the `credit_outstanding` of the sales. */
export const sqlCreditLedger = (db: Sql): CreditLedger => ({
  async add(e) {
    // The customer's row is locked by the caller, so the previous entry's time is settled.
    const rows = await db.execute<{ created_at: unknown }[]>(
      `insert into credit_entries (${ENTRY_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
         greatest(?::timestamptz, (select max(created_at) + interval '1 millisecond' from credit_entries where business_id = ? and customer_id = ?)))
       returning created_at`,
      [e.id, e.businessId, e.customerId, e.kind, e.amount, e.balanceAfter, e.saleId, e.invoiceId, e.method, e.note, e.createdBy, e.createdAt, e.businessId, e.customerId],
    );
    return asDate(rows[0]!.created_at);
  },
  async addAllocations(businessId, paymentId, allocations) {
    if (allocations.length === 0) return;
    await db.execute(
      // the row lives beside its payment and sale (docs/adr/0035)
      `insert into credit_allocations (business_id, payment_id, sale_id, amount)
       values ${allocations.map(() => '(?, ?, ?, ?)').join(', ')}`,
      allocations.flatMap((a) => [businessId, paymentId, a.saleId, a.amount]),
    );
  },
  async entryById(businessId, entryId) {
    return firstRow(db, `select ${ENTRY_COLUMNS} from credit_entries where business_id = ? and id = ?`, [businessId, entryId], entryFromRow);
  },
  async allocationsOf(businessId, paymentId) {
    const rows = await db.execute<{ sale_id: string; amount: string }[]>(
      `select a.sale_id, a.amount from credit_allocations a join credit_entries e on e.business_id = a.business_id and e.id = a.payment_id
       join sales s on s.business_id = a.business_id and s.id = a.sale_id where e.business_id = ? and a.payment_id = ? order by s.created_at, s.id`,
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
    return keysetPage(db, source, businessId, page, [{ sql: 'customer_id = ?', params: [customerId] }], entryFromRow);
  },
  async lastPaymentAt(businessId, customerId) {
    const rows = await db.execute<{ at: unknown }[]>(
      "select max(created_at) as at from credit_entries where business_id = ? and customer_id = ? and kind in ('PAYMENT', 'INVOICE_PAYMENT')",
      [businessId, customerId],
    );
    return rows[0]?.at ? asDate(rows[0].at) : undefined;
  },
  async openDebts(businessId, customerId, options = {}) {
    const rows = await db.execute<{ id: string; credit_outstanding: string; created_at: unknown }[]>(
      `select id, credit_outstanding, created_at from sales where business_id = ? and customer_id = ? and credit_outstanding > 0
       order by created_at, id${options.forUpdate ? ' for update' : ''}`,
      [businessId, customerId],
    );
    return rows.map((r) => ({ saleId: r.id, outstanding: kobo(Number(r.credit_outstanding)), createdAt: asDate(r.created_at) }));
  },
  async openInvoices(businessId, customerId) {
    const rows = await db.execute<Row[]>(
      `select id, total - amount_paid as outstanding, to_char(due_date, 'YYYY-MM-DD') as due_date from invoices
       where business_id = ? and customer_id = ? and status in ('SENT', 'PARTIALLY_PAID') and type <> 'PROFORMA' and total > amount_paid order by due_date, id`,
      [businessId, customerId],
    );
    return rows.map((r) => ({ invoiceId: String(r.id), outstanding: kobo(Number(r.outstanding)), dueDate: String(r.due_date) }));
  },
  async reduceOutstanding(businessId, saleId, amount) {
    await db.execute('update sales set credit_outstanding = credit_outstanding - ? where business_id = ? and id = ?', [amount, businessId, saleId]);
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
    return keysetPage(plannedEachTime(db), source, businessId, page, [], agingFromRow, [today, today, today, today, businessId, businessId]); // a report: planned each time
  },
  async agingTotals(businessId, today) {
    const rows = await plannedEachTime(db).execute<Row[]>( // a report: planned for its values
      `select count(*) as customers, sum(days_0_30) as days_0_30, sum(days_31_60) as days_31_60, sum(days_61_90) as days_61_90,
       sum(days_over_90) as days_over_90, sum(total) as total from (${AGING_SELECT}) aging`,
      [today, today, today, today, businessId, businessId],
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
