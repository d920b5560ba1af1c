import { plannedEachTime, type Sql } from './sql-session.js';
import type { CashFlowDay, ReportExportRepositories, SaleExportRow } from '../../../application/report-exports/ports.js';
import { lagosDayEnd, lagosDayStart } from '../../../domain/lagos-time.js';
import { kobo } from '../../../domain/money.js';
import type { PaymentMethod, SaleStatus, Tender } from '../../../domain/sale.js';
import { asDate } from './keyset.sql.js';
import { lagosDaySql, type Row } from './sql-helpers.js';

// Plain rows, no entities (ARCHITECTURE "Hot paths stay lean").

const SALES_BATCH = `
  select s.id, s.receipt_number, s.created_at, s.payment_method, s.status, s.subtotal, s.discount, s.total, s.amount_paid, s.balance_due, s.credit_outstanding,
    s.vat_total, (select string_agg(p.method || ' ' || p.amount::text, ' ' order by p.position) from sale_payments p
      where p.business_id = s.business_id and p.sale_id = s.id) as payments,
    trim(u.first_name || ' ' || u.last_name) as cashier, c.name as customer,
    (select coalesce(sum(r.amount), 0) from sale_returns r where r.business_id = s.business_id and r.sale_id = s.id) as returned
  from sales s
  left join users u on u.id = s.created_by
  left join customers c on c.business_id = s.business_id and c.id = s.customer_id
  where s.business_id = ? and s.created_at >= ? and s.created_at < ?`;

/** `CASH 300000 TRANSFER 200000` (method and kobo, in order) as tenders. */
const tendersOfText = (v: unknown): Tender[] => {
  const parts = String(v ?? '').split(' ').filter((x) => x !== '');
  const out: Tender[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push({ method: parts[i] as PaymentMethod, amount: kobo(Number(parts[i + 1])) });
  return out;
};

const saleRow = (r: Row): SaleExportRow => ({
  id: String(r.id),
  receiptNumber: String(r.receipt_number),
  createdAt: asDate(r.created_at),
  cashier: String(r.cashier ?? ''),
  customer: (r.customer as string | null) ?? null,
  paymentMethod: r.payment_method as PaymentMethod,
  payments: tendersOfText(r.payments),
  status: r.status as SaleStatus,
  subtotal: kobo(Number(r.subtotal)),
  discount: kobo(Number(r.discount)),
  total: kobo(Number(r.total)),
  vatTotal: kobo(Number(r.vat_total ?? 0)),
  amountPaid: kobo(Number(r.amount_paid)),
  balanceDue: kobo(Number(r.balance_due)),
  outstanding: kobo(Number(r.credit_outstanding)),
  returned: kobo(Number(r.returned)),
});

/**
 * Per Lagos day of the period: sums by method in grouped reads (sales, credit payments, invoice payments, expenses, refunds)
 * joined to the calendar, and the running balance as a window sum over the days.
 */
const CASH_FLOW = `
  with days as (
    select d::date as day from generate_series(?::date, ?::date, interval '1 day') as d
  ), s as (
    -- by tender (docs/adr/0055): a CREDIT tender is owed, not money in
    select ${lagosDaySql('s.created_at')} as day, sum(p.amount) filter (where p.method <> 'CREDIT') as paid,
      sum(p.amount) filter (where p.method = 'CASH') as cash,
      sum(p.amount) filter (where p.method = 'TRANSFER') as transfer,
      sum(p.amount) filter (where p.method = 'CARD') as card,
      sum(p.amount) filter (where p.method = 'POS') as pos
    from sales s join sale_payments p on p.business_id = s.business_id and p.sale_id = s.id
    where s.business_id = ? and s.status <> 'VOIDED' and s.created_at >= ? and s.created_at < ? group by 1
  ), c as (
    select ${lagosDaySql('created_at')} as day, -sum(amount) as collected,
      -sum(amount) filter (where method = 'CASH') as cash,
      -sum(amount) filter (where method = 'TRANSFER') as transfer,
      -sum(amount) filter (where method = 'CARD') as card,
      -sum(amount) filter (where method = 'POS') as pos,
      -sum(amount) filter (where method is null or method not in ('CASH', 'TRANSFER', 'CARD', 'POS')) as other
    from credit_entries where business_id = ? and kind = 'PAYMENT' and created_at >= ? and created_at < ? group by 1
  ), ip as (
    -- invoice payments on their paid_at day (docs/adr/0074); their INVOICE_PAYMENT ledger entries are not in c
    select ${lagosDaySql('paid_at')} as day, sum(amount) as paid,
      sum(amount) filter (where method = 'CASH') as cash,
      sum(amount) filter (where method = 'TRANSFER') as transfer,
      sum(amount) filter (where method = 'CARD') as card,
      sum(amount) filter (where method = 'POS') as pos,
      sum(amount) filter (where method not in ('CASH', 'TRANSFER', 'CARD', 'POS')) as other
    from invoice_payments where business_id = ? and paid_at >= ? and paid_at < ? group by 1
  ), e as (
    select spent_on as day, sum(amount) as spent,
      sum(amount) filter (where payment_method = 'CASH') as cash,
      sum(amount) filter (where payment_method = 'TRANSFER') as transfer,
      sum(amount) filter (where payment_method = 'CARD') as card,
      sum(amount) filter (where payment_method = 'POS') as pos,
      sum(amount) filter (where payment_method = 'OTHER') as other
    from expenses where business_id = ? and deleted_at is null and spent_on between ?::date and ?::date group by 1
  ), rf as (
    -- refunds of returned goods are money out by their method; a credit note moves none (docs/adr/0058)
    select ${lagosDaySql('created_at')} as day, sum(refund_amount) filter (where refund_method <> 'CREDIT_NOTE') as refunded,
      sum(refund_amount) filter (where refund_method = 'CASH') as cash,
      sum(refund_amount) filter (where refund_method = 'TRANSFER') as transfer,
      sum(refund_amount) filter (where refund_method = 'CARD') as card,
      sum(refund_amount) filter (where refund_method = 'POS') as pos
    from sale_returns where business_id = ? and created_at >= ? and created_at < ? group by 1
  ), flow as (
    select to_char(days.day, 'YYYY-MM-DD') as day,
      coalesce(s.paid, 0) as sales_paid, coalesce(c.collected, 0) as credit_collected, coalesce(ip.paid, 0) as invoices_paid,
      coalesce(s.cash, 0) + coalesce(c.cash, 0) + coalesce(ip.cash, 0) as in_cash,
      coalesce(s.transfer, 0) + coalesce(c.transfer, 0) + coalesce(ip.transfer, 0) as in_transfer,
      coalesce(s.card, 0) + coalesce(c.card, 0) + coalesce(ip.card, 0) as in_card,
      coalesce(s.pos, 0) + coalesce(c.pos, 0) + coalesce(ip.pos, 0) as in_pos,
      coalesce(c.other, 0) + coalesce(ip.other, 0) as in_other,
      coalesce(s.paid, 0) + coalesce(c.collected, 0) + coalesce(ip.paid, 0) as money_in,
      coalesce(rf.refunded, 0) as refunds,
      coalesce(e.cash, 0) + coalesce(rf.cash, 0) as out_cash, coalesce(e.transfer, 0) + coalesce(rf.transfer, 0) as out_transfer,
      coalesce(e.card, 0) + coalesce(rf.card, 0) as out_card, coalesce(e.pos, 0) + coalesce(rf.pos, 0) as out_pos, coalesce(e.other, 0) as out_other,
      coalesce(e.spent, 0) + coalesce(rf.refunded, 0) as money_out
    from days left join s on s.day = days.day left join c on c.day = days.day left join ip on ip.day = days.day left join e on e.day = days.day left join rf on rf.day = days.day
  )
  select flow.*, money_in - money_out as net, sum(money_in - money_out) over (order by day) as running_balance
  from flow order by day`;

const cashFlowDay = (r: Row): CashFlowDay => {
  const k = (c: string) => BigInt(String(r[c])); // numeric sums, read exactly
  return {
    day: String(r.day),
    salesPaid: k('sales_paid'),
    creditCollected: k('credit_collected'),
    invoicesPaid: k('invoices_paid'),
    inCash: k('in_cash'),
    inTransfer: k('in_transfer'),
    inCard: k('in_card'),
    inPos: k('in_pos'),
    inOther: k('in_other'),
    moneyIn: k('money_in'),
    refunds: k('refunds'),
    outCash: k('out_cash'),
    outTransfer: k('out_transfer'),
    outCard: k('out_card'),
    outPos: k('out_pos'),
    outOther: k('out_other'),
    moneyOut: k('money_out'),
    net: k('net'),
    runningBalance: k('running_balance'),
  };
};

/**
 * PostgreSQL has no year 0: the first Lagos day of year 1 starts at 23:00 UTC on 31 December of year 0,
 * so an instant before year 1 is read as its first instant (no row can be older).
 */
const YEAR_ONE = Date.parse('0001-01-01T00:00:00.000Z');
const sqlInstant = (d: Date) => (d.getTime() < YEAR_ONE ? new Date(YEAR_ONE) : d);

/** The report-exports module over one Sql (each call one statement): batches over a date range, every statement planned for its values (docs/adr/0036). */
export const sqlReportExportsModule = (session: Sql): ReportExportRepositories => reportExportsOver(plannedEachTime(session));

const reportExportsOver = (db: Sql): ReportExportRepositories => ({
  reportExports: {
    async salesBatch(businessId, range, after, limit) {
      const [from, to] = [sqlInstant(range.from), sqlInstant(range.to)];
      const rows = after
        ? await db.execute<Row[]>(`${SALES_BATCH} and (s.created_at, s.id) > (?, ?) order by s.created_at, s.id limit ?`, [businessId, from, to, after.createdAt, after.id, limit])
        : await db.execute<Row[]>(`${SALES_BATCH} order by s.created_at, s.id limit ?`, [businessId, from, to, limit]);
      return rows.map(saleRow);
    },
    async cashFlow(businessId, start, end) {
      const from = sqlInstant(lagosDayStart(start));
      const to = lagosDayEnd(end);
      const rows = await db.execute<Row[]>(CASH_FLOW, [start, end, businessId, from, to, businessId, from, to, businessId, from, to, businessId, start, end, businessId, from, to]);
      return rows.map(cashFlowDay);
    },
  },
});
