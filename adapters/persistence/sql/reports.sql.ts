import { plannedEachTime, type Sql } from './sql-session.js';
import type { CategoryAmount, DaySums, MethodSum, PeriodSums, ReportQueries, ReportRepositories, StockAlertItem } from '../../../application/reports/ports.js';
import type { CreditPaymentMethod } from '../../../domain/credit.js';
import type { InvoicePaymentMethod } from '../../../domain/invoice.js';
import { lagosDayEnd, lagosDayStart } from '../../../domain/lagos-time.js';
import { kobo } from '../../../domain/money.js';
import type { DayRange } from '../../../domain/report.js';
import type { PaymentMethod } from '../../../domain/sale.js';
import type { RefundMethod } from '../../../domain/sale-return.js';
import { insertRow, type Row } from './sql-helpers.js';
import { LINE_REVENUE, linesByDayCtes, salesByDaySql, sqlReportDayTotals } from './report-day-totals.sql.js';

// Every figure is summed by PostgreSQL (GROUP BY, FILTER, GROUPING SETS, a window for shares); only
// the grouped rows come back. Sales count when COMPLETED; a line's cost is its stored cost price;
// returns count on the day they were made, net (docs/adr/0058).

const n = (v: unknown) => Number(v ?? 0);
/** A sum (numeric in PostgreSQL, read as text) as exact bigint kobo. */
const k = (v: unknown) => BigInt(String(v ?? 0));
const instants = (r: DayRange) => [lagosDayStart(r.from).toISOString(), lagosDayEnd(r.to).toISOString()];

/** A line's cost: quantity x the cost price stored when sold (none stored counts 0). Summed over joined lines, not per sale. */
const LINE_COST = 'i.quantity::numeric * coalesce(i.cost_price, 0)';
/** A returned line's revenue: its share of the line total, less its share of the VAT when the prices held it (s: its sale). */
const RETURN_LINE_REVENUE = '(i.line_amount - case when s.prices_include_vat then i.vat_amount else 0 end)';
/** An expense as the P&L counts it: net of the input VAT it holds, for a VAT-registered business (docs/adr/0054). */
const EXPENSE_COST = '(e.amount - case when bz.vat_registered then e.vat_amount else 0 end)';

/** An invoice counts in the reports once sent, unless a proforma or cancelled (docs/adr/0074; i: the invoice). */
const INVOICE_COUNTS = "i.type <> 'PROFORMA' and i.status in ('SENT', 'PARTIALLY_PAID', 'PAID')";
/** An invoice line's cost: quantity x the unit cost fixed at send (an ad-hoc line has none: 0; l: the line). */
const INVOICE_LINE_COST = 'l.quantity::numeric * coalesce(l.unit_cost, 0)';

const periodSql = `
  with b as (select ?::uuid as biz, ?::timestamptz as cf, ?::timestamptz as ct, ?::timestamptz as pf, ?::timestamptz as pt, ?::date as cdf, ?::date as cdt, ?::date as pdf, ?::date as pdt),
  s as ( -- by day: a row a day rolled up, the others summed from their sales (docs/adr/0086)
    select d.day between b.cdf and b.cdt as cur, d.day between b.pdf and b.pdt as prev, d.sales, d.revenue as total, d.discounts, d.credit, d.cost_of_goods
    from b cross join lateral (${salesByDaySql('b.biz', 'least(b.cdf, b.pdf)', 'greatest(b.cdt, b.pdt)')}) d
  ),
  p as (
    select e.created_at >= b.cf and e.created_at < b.ct as cur, e.created_at >= b.pf and e.created_at < b.pt as prev, -e.amount as amount
    from b join credit_entries e on e.business_id = b.biz and e.kind = 'PAYMENT' and e.created_at >= least(b.cf, b.pf) and e.created_at < greatest(b.ct, b.pt)
  ),
  x as (
    select e.spent_on between b.cdf and b.cdt as cur, e.spent_on between b.pdf and b.pdt as prev, ${EXPENSE_COST} as amount
    from b join businesses bz on bz.id = b.biz join expenses e on e.business_id = b.biz and e.deleted_at is null and e.spent_on between least(b.cdf, b.pdf) and greatest(b.cdt, b.pdt)
  ),
  iv as (
    -- sent invoices (not proformas, not cancelled) by their issue date, net of VAT, cost at send (docs/adr/0074)
    select i.issue_date between b.cdf and b.cdt as cur, i.issue_date between b.pdf and b.pdt as prev, i.total - i.vat_total as revenue, i.discount_total as discounts,
      (select coalesce(sum(${INVOICE_LINE_COST}), 0) from invoice_lines l where l.business_id = i.business_id and l.invoice_id = i.id) as cogs
    from b join invoices i on i.business_id = b.biz and ${INVOICE_COUNTS} and i.issue_date between least(b.cdf, b.pdf) and greatest(b.cdt, b.pdt)
  ),
  r as (
    -- what came back, net of its VAT (docs/adr/0054): revenue is net of both
    select r.created_at >= b.cf and r.created_at < b.ct as cur, r.created_at >= b.pf and r.created_at < b.pt as prev, r.amount - r.vat_amount as amount, r.cost_returned
    from b join sale_returns r on r.business_id = b.biz and r.created_at >= least(b.cf, b.pf) and r.created_at < greatest(b.ct, b.pt)
  )
  -- sums go into the JSON as text: a JSON number would be read as a double, inexact past 2^53
  select
    (select json_build_object(
      'c', json_build_object('revenue', coalesce(sum(total) filter (where cur), 0)::text, 'count', coalesce(sum(sales) filter (where cur), 0),
        'discounts', coalesce(sum(discounts) filter (where cur), 0)::text, 'credit', coalesce(sum(credit) filter (where cur), 0)::text),
      'p', json_build_object('revenue', coalesce(sum(total) filter (where prev), 0)::text, 'count', coalesce(sum(sales) filter (where prev), 0),
        'discounts', coalesce(sum(discounts) filter (where prev), 0)::text, 'credit', coalesce(sum(credit) filter (where prev), 0)::text)
    ) from s) as sales, (select coalesce(sum(cost_of_goods) filter (where cur), 0) from s) as c_cogs,
    (select coalesce(sum(cost_of_goods) filter (where prev), 0) from s) as p_cogs,
    (select coalesce(sum(amount) filter (where cur), 0) from p) as c_collected, (select coalesce(sum(amount) filter (where prev), 0) from p) as p_collected,
    (select coalesce(sum(amount) filter (where cur), 0) from x) as c_expenses, (select coalesce(sum(amount) filter (where prev), 0) from x) as p_expenses,
    (select json_build_object(
      'c', json_build_object('amount', coalesce(sum(amount) filter (where cur), 0)::text, 'count', count(*) filter (where cur), 'cost', coalesce(sum(cost_returned) filter (where cur), 0)::text),
      'p', json_build_object('amount', coalesce(sum(amount) filter (where prev), 0)::text, 'count', count(*) filter (where prev), 'cost', coalesce(sum(cost_returned) filter (where prev), 0)::text)
    ) from r) as returns,
    (select json_build_object(
      'c', json_build_object('revenue', coalesce(sum(revenue) filter (where cur), 0)::text, 'count', count(*) filter (where cur),
        'discounts', coalesce(sum(discounts) filter (where cur), 0)::text, 'cogs', coalesce(sum(cogs) filter (where cur), 0)::text),
      'p', json_build_object('revenue', coalesce(sum(revenue) filter (where prev), 0)::text, 'count', count(*) filter (where prev),
        'discounts', coalesce(sum(discounts) filter (where prev), 0)::text, 'cogs', coalesce(sum(cogs) filter (where prev), 0)::text)
    ) from iv) as invoices`;

type SalesJson = Record<'c' | 'p', { revenue: unknown; count: unknown; discounts: unknown; credit: unknown }>;
type ReturnsJson = Record<'c' | 'p', { amount: unknown; count: unknown; cost: unknown }>;
type InvoicesJson = Record<'c' | 'p', { revenue: unknown; count: unknown; discounts: unknown; cogs: unknown }>;
/** A JSON column: node-postgres parses it, PGlite over the socket may hand it over as text. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const periodOf = (s: SalesJson['c'], r: ReturnsJson['c'], i: InvoicesJson['c'], cogs: unknown, collected: unknown, expenses: unknown): PeriodSums => ({
  revenue: k(s.revenue) + k(i.revenue) - k(r.amount), returns: k(r.amount), returnsCount: n(r.count), salesCount: n(s.count), invoiceCount: n(i.count), invoiceRevenue: k(i.revenue),
  discounts: k(s.discounts) + k(i.discounts), costOfGoods: k(cogs) + k(i.cogs) - k(r.cost),
  creditGiven: k(s.credit), creditCollected: k(collected), expenses: k(expenses),
});

const profitLossSql = `
  with m as (select to_char(d, 'YYYY-MM') as month from generate_series(date_trunc('month', ?::date::timestamp), ?::date::timestamp, interval '1 month') d),
  sm as ( -- by day: a row a day rolled up, the others summed from their sales (docs/adr/0086)
    select to_char(d.day, 'YYYY-MM') as month, sum(d.revenue) as revenue, sum(d.discounts) as discounts, sum(d.cost_of_goods) as cogs
    from (select ?::uuid as biz, ?::date as df, ?::date as dt) b cross join lateral (${salesByDaySql('b.biz', 'b.df', 'b.dt')}) d group by 1
  ),
  db as (
    select to_char(e.spent_on, 'YYYY-MM') as month, sum(${EXPENSE_COST}) as expenses from expenses e join businesses bz on bz.id = e.business_id
    where e.business_id = ? and e.deleted_at is null and e.spent_on between ?::date and ?::date group by 1
  ),
  rm as (
    select to_char(date_trunc('month', r.created_at at time zone 'Africa/Lagos'), 'YYYY-MM') as month, sum(r.amount - r.vat_amount) as returns, sum(r.cost_returned) as cost_back
    from sale_returns r where r.business_id = ? and r.created_at >= ? and r.created_at < ? group by 1
  ),
  im as (
    select to_char(i.issue_date, 'YYYY-MM') as month, sum(i.total - i.vat_total) as revenue, sum(i.discount_total) as discounts,
      sum((select coalesce(sum(${INVOICE_LINE_COST}), 0) from invoice_lines l where l.business_id = i.business_id and l.invoice_id = i.id)) as cogs
    from invoices i where i.business_id = ? and ${INVOICE_COUNTS} and i.issue_date between ?::date and ?::date group by 1
  )
  select m.month, coalesce(sum(sm.revenue), 0) + coalesce(sum(im.revenue), 0) - coalesce(sum(rm.returns), 0) as revenue, coalesce(sum(rm.returns), 0) as returns,
    coalesce(sum(sm.discounts), 0) + coalesce(sum(im.discounts), 0) as discounts,
    coalesce(sum(sm.cogs), 0) + coalesce(sum(im.cogs), 0) - coalesce(sum(rm.cost_back), 0) as cogs, coalesce(sum(db.expenses), 0) as expenses
  from m left join sm on sm.month = m.month left join db on db.month = m.month left join rm on rm.month = m.month left join im on im.month = m.month
  group by grouping sets ((m.month), ()) order by grouping(m.month), m.month`;

const expensesByCategorySql = `
  with e as (
    select to_char(e.spent_on, 'YYYY-MM') as month, c.id, c.name, ${EXPENSE_COST} as amount from expenses e
    join expense_categories c on c.business_id = e.business_id and c.id = e.category_id join businesses bz on bz.id = e.business_id
    where e.business_id = ? and e.deleted_at is null and e.spent_on between ?::date and ?::date
  )
  select month, id, name, sum(amount) as amount, grouping(month) as whole_range from e
  group by grouping sets ((month, id, name), (id, name)) order by amount desc, name, id`;

/**
 * Per Lagos month of the range (empty ones too): completed sales (revenue net of VAT), voids, the TRANSFER
 * and CARD (with POS) tenders, and days with a sale.
 */
const monthActivitySql = `
  with m as (select to_char(d, 'YYYY-MM') as month from generate_series(date_trunc('month', ?::date::timestamp), ?::date::timestamp, interval '1 month') d),
  s as (
    select to_char(s.created_at at time zone 'Africa/Lagos', 'YYYY-MM') as month, (s.created_at at time zone 'Africa/Lagos')::date as day,
      s.status, s.total, s.vat_total,
      (select sum(p.amount) from sale_payments p where p.business_id = s.business_id and p.sale_id = s.id and p.method = 'TRANSFER') as transfer,
      (select sum(p.amount) from sale_payments p where p.business_id = s.business_id and p.sale_id = s.id and p.method in ('CARD', 'POS')) as card
    from sales s where s.business_id = ? and s.created_at >= ? and s.created_at < ?
  ),
  a as (
    select month, count(*) filter (where status = 'COMPLETED') as sales, sum(total - vat_total) filter (where status = 'COMPLETED') as sales_total,
      sum(total) filter (where status = 'COMPLETED') as tendered_total,
      count(*) filter (where status = 'VOIDED') as voided,
      count(*) filter (where status = 'COMPLETED' and transfer > 0) as transfers,
      sum(transfer) filter (where status = 'COMPLETED') as transfer_total,
      count(*) filter (where status = 'COMPLETED' and card > 0) as cards,
      sum(card) filter (where status = 'COMPLETED') as card_total,
      count(distinct day) filter (where status = 'COMPLETED') as days
    from s group by month
  ),
  r as (
    -- a return counts against its sale's (first) method, as charged; revenue net of its VAT
    select to_char(r.created_at at time zone 'Africa/Lagos', 'YYYY-MM') as month, sum(r.amount) as returned, sum(r.amount - r.vat_amount) as returned_net,
      sum(r.amount) filter (where s.payment_method = 'TRANSFER') as transfer_returned, sum(r.amount) filter (where s.payment_method in ('CARD', 'POS')) as card_returned
    from sale_returns r join sales s on s.business_id = r.business_id and s.id = r.sale_id
    where r.business_id = ? and r.created_at >= ? and r.created_at < ? group by 1
  )
  select m.month, coalesce(a.sales, 0) as sales, coalesce(a.sales_total, 0) - coalesce(r.returned_net, 0) as sales_total,
    coalesce(a.tendered_total, 0) - coalesce(r.returned, 0) as tendered_total, coalesce(a.voided, 0) as voided,
    coalesce(a.transfers, 0) as transfers, coalesce(a.transfer_total, 0) - coalesce(r.transfer_returned, 0) as transfer_total, coalesce(a.cards, 0) as cards,
    coalesce(a.card_total, 0) - coalesce(r.card_returned, 0) as card_total, coalesce(a.days, 0) as days
  from m left join a on a.month = m.month left join r on r.month = m.month order by m.month`;

const ALERT_COLUMNS = 'id, name, sku, category, quantity, low_stock_threshold';
const GOODS = `business_id = ? and type = 'PRODUCT' and archived_at is null`;
const alertItem = (r: Row): StockAlertItem => ({
  productId: String(r.id), name: String(r.name), sku: String(r.sku), category: (r.category as string | null) ?? null,
  quantity: n(r.quantity), lowStockThreshold: r.low_stock_threshold === null ? null : n(r.low_stock_threshold),
});
const methodSum = <M extends string>(r: Row): MethodSum<M> => ({ method: r.method as M, count: n(r.count), total: k(r.total) });

/** The report queries over SQL. */
export const sqlReports = (db: Sql): ReportQueries => ({
  async periodSums(businessId, current, previous) {
    const [row] = await db.execute<Row[]>(periodSql, [businessId, ...instants(current), ...instants(previous), current.from, current.to, previous.from, previous.to]);
    const sales = json<SalesJson>(row!.sales);
    const returns = json<ReturnsJson>(row!.returns);
    const invoices = json<InvoicesJson>(row!.invoices);
    return {
      current: periodOf(sales.c, returns.c, invoices.c, row!.c_cogs, row!.c_collected, row!.c_expenses),
      previous: periodOf(sales.p, returns.p, invoices.p, row!.p_cogs, row!.p_collected, row!.p_expenses),
    };
  },
  async receivables(businessId, range, today) {
    const [row] = await db.execute<Row[]>(
      `select
         (select coalesce(sum(i.total), 0) from invoices i where i.business_id = ? and ${INVOICE_COUNTS} and i.issue_date between ?::date and ?::date) as invoiced,
         (select coalesce(sum(i.total - i.amount_paid), 0) from invoices i where i.business_id = ? and ${INVOICE_COUNTS} and i.issue_date between ?::date and ?::date) as outstanding,
         (select coalesce(sum(i.total - i.amount_paid), 0) from invoices i
           where i.business_id = ? and ${INVOICE_COUNTS} and i.issue_date between ?::date and ?::date and i.due_date < ?::date) as overdue,
         (select coalesce(sum(p.amount), 0) from invoice_payments p where p.business_id = ? and p.paid_at >= ? and p.paid_at < ?) as collected`,
      [businessId, range.from, range.to, businessId, range.from, range.to, businessId, range.from, range.to, today, businessId, ...instants(range)],
    );
    return { invoiced: k(row!.invoiced), collected: k(row!.collected), outstanding: k(row!.outstanding), overdue: k(row!.overdue) };
  },
  async creditOutstanding(businessId) {
    // a credit note a customer holds (a balance below zero, docs/adr/0059) is not taken off what others owe
    const [row] = await db.execute<Row[]>('select coalesce(sum(greatest(credit_balance, 0)), 0) as owed from customers where business_id = ?', [businessId]);
    return kobo(Number(row!.owed ?? 0)); // at most MAX_SAFE_INTEGER: the business credit cap (docs/adr/0017)
  },
  async topProducts(businessId, range, type, limit) {
    const rows = await db.execute<Row[]>(
      // Lines are summed per product first and only the leaders (ties kept) are joined to products for
      // their names: joining every line of the period to products first cost ~70 ms at 30,000 sales. Days
      // rolled up are a row per product; the others' lines are read by key (docs/adr/0086, issue 37).
      `with b as (select ?::uuid as biz, ?::date as df, ?::date as dt),
       ${linesByDayCtes('(select biz from b)', '(select df from b)', '(select dt from b)')},
       l as (
         select sold.product_id, sold.units, sold.revenue from sold
         union all -- the range's returns, net (docs/adr/0058), their VAT off with them
         select i.product_id, -i.quantity, -${RETURN_LINE_REVENUE}
         from sale_returns r join sale_return_items i on i.return_id = r.id and i.business_id = r.business_id
         join sales s on s.business_id = r.business_id and s.id = r.sale_id
         where r.business_id = ? and r.created_at >= ? and r.created_at < ?
       ), t as (
         select l.product_id, sum(l.units) as units, sum(l.revenue) as revenue from l
         ${type ? 'where exists (select 1 from products p where p.business_id = ? and p.id = l.product_id and p.type = ?)' : ''}
         group by l.product_id order by revenue desc fetch first ? rows with ties
       )
       -- each leader's name by key (a scalar subquery is never flattened): joined, a misestimate had PostgreSQL
       -- scan the business's products for each leader (40 ms at 100,000 products)
       select t.product_id, (select p.name from products p where p.business_id = ? and p.id = t.product_id) as name, t.units, t.revenue from t
       order by t.revenue desc, name, t.product_id limit ?`,
      [businessId, range.from, range.to, businessId, ...instants(range), ...(type ? [businessId, type] : []), limit, businessId, limit],
    );
    return rows.map((r) => ({ productId: String(r.product_id), name: String(r.name), units: n(r.units), revenue: k(r.revenue) }));
  },
  async profitLoss(businessId, range) {
    const [from, to] = instants(range);
    const lines = await db.execute<Row[]>(profitLossSql, [range.from, range.to, businessId, range.from, range.to, businessId, range.from, range.to, businessId, from, to, businessId, range.from, range.to]);
    const byCategory = await db.execute<Row[]>(expensesByCategorySql, [businessId, range.from, range.to]);
    const expensesOf = (month: string | null): CategoryAmount[] =>
      byCategory
        .filter((r) => (month === null ? n(r.whole_range) === 1 : n(r.whole_range) === 0 && r.month === month))
        .map((r) => ({ categoryId: String(r.id), category: String(r.name), amount: k(r.amount) }));
    return lines.map((r) => {
      const month = (r.month as string | null) ?? null;
      return { month, revenue: k(r.revenue), returns: k(r.returns), discounts: k(r.discounts), costOfGoods: k(r.cogs), expenses: expensesOf(month), totalExpenses: k(r.expenses) };
    });
  },
  async stockValue(businessId) {
    const rows = await db.execute<Row[]>(
      `select category, count(*) as products, coalesce(sum(quantity), 0) as units,
         sum(quantity::numeric * coalesce(cost_price, 0)) as at_cost, sum(quantity::numeric * price) as at_price
       from products where ${GOODS} group by category order by category nulls last`,
      [businessId],
    );
    return rows.map((r) => ({ category: (r.category as string | null) ?? null, products: n(r.products), units: n(r.units), atCost: k(r.at_cost), atPrice: k(r.at_price) }));
  },
  async stockAlerts(businessId, limit) {
    if (limit === 0) {
      // the counts alone (the dashboard's)
      const [counts] = await db.execute<Row[]>(
        `select count(*) filter (where quantity <= low_stock_threshold) as low, count(*) filter (where quantity = 0) as out from products where ${GOODS}`,
        [businessId],
      );
      return { lowStockCount: n(counts!.low), outOfStockCount: n(counts!.out), lowStock: [], outOfStock: [] };
    }
    // One pass over the business's goods, then both lists from what it kept: no index on quantity to walk
    // (products has none, so that a sale's update of a product is a HOT update, docs/adr/0087), and the
    // counts read every product anyway. 36-40 -> 26-31 ms at 100,000 products, 8,000 of them low.
    const [row] = await db.execute<Row[]>(
      `with g as materialized (select ${ALERT_COLUMNS} from products where ${GOODS} and (quantity <= low_stock_threshold or quantity = 0))
       select (select count(*) from g where quantity <= low_stock_threshold) as low, (select count(*) from g where quantity = 0) as out,
         (select json_agg(x order by x.quantity, x.name, x.id) from (select * from g where quantity <= low_stock_threshold order by quantity, name, id limit ?) x) as low_rows,
         (select json_agg(x order by x.name, x.id) from (select * from g where quantity = 0 order by name, id limit ?) x) as out_rows`,
      [businessId, limit, limit],
    );
    return {
      lowStockCount: n(row!.low),
      outOfStockCount: n(row!.out),
      lowStock: json<Row[] | null>(row!.low_rows)?.map(alertItem) ?? [],
      outOfStock: json<Row[] | null>(row!.out_rows)?.map(alertItem) ?? [],
    };
  },
  async daySums(businessId, day) {
    const [from, to] = instants({ from: day, to: day });
    const [day_] = await db.execute<Row[]>(
      `select count(*) filter (where status = 'COMPLETED') as count, coalesce(sum(total) filter (where status = 'COMPLETED'), 0) as total,
         coalesce(sum(vat_total) filter (where status = 'COMPLETED'), 0) as vat,
         count(*) filter (where status = 'VOIDED') as voids, coalesce(sum(total) filter (where status = 'VOIDED'), 0) as voided,
         coalesce(sum(discount + line_discount_total) filter (where status = 'COMPLETED'), 0) as discounts,
         coalesce(sum(total - amount_paid) filter (where status = 'COMPLETED'), 0) as credit
       from sales where business_id = ? and created_at >= ? and created_at < ?`,
      [businessId, from, to],
    );
    // money by tender, not by the sale's first method (docs/adr/0055)
    const tenders = await db.execute<Row[]>(
      // the day's sales by their index, then their tenders by key: joined, PostgreSQL hashed every tender of the
      // business's history (37 ms at 320,000, growing with it); this is 4 ms, growing with the day
      `select p.method, count(*) as count, sum(p.amount) as total from sale_payments p
       where p.business_id = ? and p.sale_id = any(array(select s.id from sales s where s.business_id = ? and s.status = 'COMPLETED' and s.created_at >= ? and s.created_at < ?))
       group by p.method order by p.method`,
      [businessId, businessId, from, to],
    );
    const expenses = await db.execute<Row[]>(
      `select payment_method as method, count(*) as count, sum(amount) as total from expenses
       where business_id = ? and deleted_at is null and spent_on = ?::date group by payment_method order by payment_method`,
      [businessId, day],
    );
    const collected = await db.execute<Row[]>(
      `select method, count(*) as count, -sum(amount) as total from credit_entries
       where business_id = ? and kind = 'PAYMENT' and created_at >= ? and created_at < ? group by method order by method`,
      [businessId, from, to],
    );
    const refunds = await db.execute<Row[]>(
      `select refund_method as method, count(*) as count, sum(refund_amount) as total, sum(amount) as returned, sum(vat_amount) as vat from sale_returns
       where business_id = ? and created_at >= ? and created_at < ? group by refund_method order by refund_method`,
      [businessId, from, to],
    );
    // invoice payments on their paid_at day (docs/adr/0074); only invoices that count take payments
    const invoicePaid = await db.execute<Row[]>(
      `select method, count(*) as count, sum(amount) as total from invoice_payments
       where business_id = ? and paid_at >= ? and paid_at < ? group by method order by method`,
      [businessId, from, to],
    );
    const sales = tenders.map((r) => methodSum<PaymentMethod>(r));
    const returnedVat = refunds.reduce((t, r) => t + k(r.vat), 0n);
    const returned = refunds.reduce((t, r) => t + k(r.returned), 0n);
    return {
      sales,
      salesCount: n(day_!.count),
      // net of VAT and of the day's returns (their VAT given back too)
      revenue: k(day_!.total) - k(day_!.vat) - (returned - returnedVat),
      vat: k(day_!.vat) - returnedVat,
      voids: { count: n(day_!.voids), total: k(day_!.voided) },
      returns: { count: refunds.reduce((c, r) => c + n(r.count), 0), total: returned },
      refunds: refunds.map((r) => methodSum<RefundMethod>(r)),
      discounts: k(day_!.discounts),
      expenses: expenses.map((r) => methodSum<string>(r)),
      creditGiven: k(day_!.credit),
      creditCollected: collected.map((r) => methodSum<CreditPaymentMethod>(r)),
      invoicePayments: invoicePaid.map((r) => methodSum<InvoicePaymentMethod>(r)),
      cashSalesReceived: sales.find((x) => x.method === 'CASH')?.total ?? 0n,
    } satisfies DaySums;
  },
  async salesByCategory(businessId, range) {
    const rows = await db.execute<Row[]>(
      `with l as (
         select i.product_id, ${LINE_REVENUE} as revenue, i.quantity as units, ${LINE_COST} as cogs
         from sales s join sale_items i on i.sale_id = s.id and i.business_id = s.business_id
         where s.business_id = ? and s.status = 'COMPLETED' and s.created_at >= ? and s.created_at < ?
         union all -- the range's returns, net: restocked units give their cost back (docs/adr/0058), their VAT off with them
         select i.product_id, -${RETURN_LINE_REVENUE}, -i.quantity, -i.cost_returned
         from sale_returns r join sale_return_items i on i.return_id = r.id and i.business_id = r.business_id
         join sales s on s.business_id = r.business_id and s.id = r.sale_id
         where r.business_id = ? and r.created_at >= ? and r.created_at < ?
       )
       select p.category, sum(l.revenue) as revenue, sum(l.units) as units, sum(l.cogs) as cogs, sum(l.revenue) - sum(l.cogs) as gross,
         round(sum(l.revenue) * 100.0 / nullif(sum(sum(l.revenue)) over (), 0), 2) as share
       from l join products p on p.id = l.product_id and p.business_id = ?
       group by p.category order by revenue desc, p.category nulls last`,
      [businessId, ...instants(range), businessId, ...instants(range), businessId],
    );
    return rows.map((r) => ({
      category: (r.category as string | null) ?? null, revenue: k(r.revenue), units: n(r.units), costOfGoods: k(r.cogs), grossProfit: k(r.gross),
      sharePct: r.share === null ? null : Number(r.share),
    }));
  },
  async vatSums(businessId, range) {
    const rates = await db.execute<Row[]>(
      `select i.vat_rate as rate, sum(i.vat_net) as net, sum(i.vat_amount) as vat, count(distinct s.id) as sales
       from sales s join sale_items i on i.sale_id = s.id and i.business_id = s.business_id
       where s.business_id = ? and s.status = 'COMPLETED' and s.prices_include_vat is not null and s.created_at >= ? and s.created_at < ?
       group by grouping sets ((i.vat_rate), ()) order by grouping(i.vat_rate), i.vat_rate desc`,
      [businessId, ...instants(range)],
    );
    const [input] = await db.execute<Row[]>(
      `select count(*) as count, coalesce(sum(amount), 0) as amount, coalesce(sum(vat_amount), 0) as vat from expenses
       where business_id = ? and deleted_at is null and vat_amount > 0 and spent_on between ?::date and ?::date`,
      [businessId, range.from, range.to],
    );
    // the range's returns of sales that carried VAT, by the returned line's rate: what came back (VAT included) less its VAT
    const returned = await db.execute<Row[]>(
      `select si.vat_rate as rate, sum(i.amount - i.vat_amount) as net, sum(i.vat_amount) as vat, count(distinct r.id) as returns
       from sale_returns r join sale_return_items i on i.return_id = r.id and i.business_id = r.business_id
       join sale_items si on si.business_id = i.business_id and si.sale_id = i.sale_id and si.position = i.sale_position
       where r.business_id = ? and r.created_at >= ? and r.created_at < ? and si.vat_rate is not null
       group by grouping sets ((si.vat_rate), ()) order by grouping(si.vat_rate), si.vat_rate desc`,
      [businessId, ...instants(range)],
    );
    // invoices that count, by issue date and their lines' rate, only those that carried VAT (docs/adr/0074)
    const invoiced = await db.execute<Row[]>(
      `select l.vat_rate as rate, sum(l.line_total - case when i.prices_include_vat then l.vat_amount else 0 end) as net, sum(l.vat_amount) as vat,
         count(distinct i.id) as invoices
       from invoices i join invoice_lines l on l.business_id = i.business_id and l.invoice_id = i.id
       where i.business_id = ? and ${INVOICE_COUNTS} and i.prices_include_vat is not null and i.issue_date between ?::date and ?::date
       group by grouping sets ((l.vat_rate), ()) order by grouping(l.vat_rate), l.vat_rate desc`,
      [businessId, range.from, range.to],
    );
    const byRate = rates.filter((r) => r.rate !== null);
    return {
      sales: byRate.map((r) => ({ rate: n(r.rate), net: k(r.net), vat: k(r.vat) })),
      salesCount: n(rates.find((r) => r.rate === null)?.sales),
      returns: returned.filter((r) => r.rate !== null).map((r) => ({ rate: n(r.rate), net: k(r.net), vat: k(r.vat) })),
      returnsCount: n(returned.find((r) => r.rate === null)?.returns),
      invoices: invoiced.filter((r) => r.rate !== null).map((r) => ({ rate: n(r.rate), net: k(r.net), vat: k(r.vat) })),
      invoicesCount: n(invoiced.find((r) => r.rate === null)?.invoices),
      expensesCount: n(input!.count),
      expensesAmount: k(input!.amount),
      inputVat: k(input!.vat),
    };
  },
  async monthActivity(businessId, range) {
    const rows = await db.execute<Row[]>(monthActivitySql, [range.from, range.to, businessId, ...instants(range), businessId, ...instants(range)]);
    return rows.map((r) => ({
      month: String(r.month), salesCount: n(r.sales), salesTotal: k(r.sales_total), tenderedTotal: k(r.tendered_total), voidedCount: n(r.voided),
      transferCount: n(r.transfers), transferTotal: k(r.transfer_total), cardCount: n(r.cards), cardTotal: k(r.card_total), daysWithSales: n(r.days),
    }));
  },
});

// Reports aggregate over date ranges: every statement planned for its values (docs/adr/0036).
export const sqlReportsModule = (db: Sql): ReportRepositories => ({ reports: sqlReports(plannedEachTime(db)), reportDayTotals: sqlReportDayTotals(db) });
