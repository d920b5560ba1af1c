import type { ReportDayTotals } from '../../../application/reports/ports.js';
import type { Sql } from './sql-session.js';
import { lagosDaySql, lagosStartSql, type Row } from './sql-helpers.js';

// Days rolled up for the reports (docs/adr/0086; tables and trigger in Migration20261209000000_report_day_totals).

/**
 * The last Lagos day a roll-up may take, by the database's clock: one that ended an hour ago or more.
 * The trigger marks a day stale for a write that starts after the day ended; the hour is for a write
 * that started before (a sale at 23:59 committing after midnight): its transaction is long over by then.
 */
const CLOSED_THROUGH = `${lagosDaySql("(now() - interval '1 hour')")} - 1`;

/** The advisory lock class the trigger (shared) and the roll-up (exclusive) take, with the business's hash. */
const LOCK = 'pg_advisory_xact_lock(92364, hashtext(?::text))';

/** A line's revenue: its total, less its VAT when the prices held it (docs/adr/0054; 0 without VAT). i: the line, s: its sale. */
export const LINE_REVENUE = '(i.line_total - case when s.prices_include_vat then i.vat_amount else 0 end)';

/** Each day of `from`..`to` (date expressions) as `d.day`: a lateral subquery per day reads its own index range. */
const eachDay = (from: string, to: string): string => `generate_series(0, (${to}) - (${from})) as n cross join lateral (select (${from}) + n as day) d`;

/** The sums of the completed sales of the Lagos day `day` (a date expression): one row, zeros for a day without any. */
const daySumsSql = (biz: string, day: string): string => `
  select count(*) as sales, coalesce(sum(s.total - s.vat_total), 0) as revenue, coalesce(sum(s.discount + s.line_discount_total), 0) as discounts,
    coalesce(sum(s.total - s.amount_paid), 0) as credit, coalesce(sum(s.cost_of_goods), 0) as cost_of_goods
  from sales s where s.business_id = ${biz} and s.status = 'COMPLETED' and s.created_at >= ${lagosStartSql(day)} and s.created_at < ${lagosStartSql(`${day} + 1`)}`;

/**
 * The completed sales of days `from`..`to` (date expressions) of the business `biz` (a uuid expression),
 * a row per day: `day, sales, revenue` (net of VAT)`, discounts, credit` (left unpaid)`, cost_of_goods`. A day
 * rolled up and current is its sales_day_totals row; any other (today, not rolled up yet, stale) is summed
 * from its sales there and then, one index range a day.
 */
export const salesByDaySql = (biz: string, from: string, to: string): string => `
  select t.day, t.sales, t.revenue, t.discounts, t.credit, t.cost_of_goods from sales_day_totals t
  where t.business_id = ${biz} and t.day between ${from} and ${to} and not t.stale
  union all
  select d.day, x.sales, x.revenue, x.discounts, x.credit, x.cost_of_goods from ${eachDay(from, to)}
  cross join lateral (${daySumsSql(biz, 'd.day')}) x
  where not exists (select 1 from sales_day_totals t where t.business_id = ${biz} and t.day = d.day and not t.stale)`;

/**
 * The completed sales' lines of days `from`..`to` by product: `product_id, units, revenue` (net of VAT), a
 * row per rolled-up day and product, and a row per line of the other days (the same rule as salesByDaySql).
 * CTEs to write after `with`: `rolled` (the days read from the totals), `s` (the other days' sales) and
 * `sold` (the rows).
 */
export const linesByDayCtes = (biz: string, from: string, to: string): string => `
  rolled as materialized (select t.day from sales_day_totals t where t.business_id = ${biz} and t.day between ${from} and ${to} and not t.stale),
  s as materialized (
    select s.id, s.prices_include_vat from ${eachDay(from, to)}
    cross join lateral (
      select s.id, s.prices_include_vat from sales s
      where s.business_id = ${biz} and s.status = 'COMPLETED' and s.created_at >= ${lagosStartSql('d.day')} and s.created_at < ${lagosStartSql('d.day + 1')}
    ) s
    where d.day not in (select day from rolled)
  ),
  sold as (
    select p.product_id, p.units, p.revenue from rolled r join sales_day_products p on p.business_id = ${biz} and p.day = r.day
    union all -- the other days' lines by key (\`= any\`): joined, PostgreSQL hashed every line of the history (issue 37)
    select i.product_id, i.quantity, ${LINE_REVENUE} from sale_items i join s on s.id = i.sale_id
    where i.business_id = ${biz} and i.sale_id = any(array(select s.id from s))
  )`;

/** The day totals over SQL: the roll-up runs in the caller's transaction (it needs one for its lock). */
export const sqlReportDayTotals = (db: Sql): ReportDayTotals => ({
  async businessesToRollUp(limit, after) {
    const rows = await db.execute<{ id: string }[]>(
      `with c as (select ${CLOSED_THROUGH} as closed)
       select b.id from businesses b, c where b.id > ?::uuid and (
         exists (select 1 from sales_day_totals t where t.business_id = b.id and t.stale)
         or exists (select 1 from sales s where s.business_id = b.id and s.created_at < ${lagosStartSql('c.closed + 1')}
           and s.created_at >= coalesce((select ${lagosStartSql('max(t.day) + 1')} from sales_day_totals t where t.business_id = b.id), '-infinity'))
       ) order by b.id limit ?`,
      [after ?? '00000000-0000-0000-0000-000000000000', limit],
    );
    return rows.map((r) => r.id);
  },
  async rollUp(businessId, maxDays) {
    // the lock first, in its own statement: the sums below are read after it, so they hold every write that
    // committed before it, and a later write waits for this commit and marks its day stale
    const [state] = await db.execute<Row[]>(
      `select ${LOCK}, (${CLOSED_THROUGH})::text as closed,
         (select (max(day) + 1)::text from sales_day_totals where business_id = ?) as next,
         (select ${lagosDaySql('min(created_at)')}::text from sales where business_id = ?) as first,
         array(select day::text from sales_day_totals where business_id = ? and stale order by day limit ?) as stale`,
      [businessId, businessId, businessId, businessId, maxDays],
    );
    const days = daysToRollUp(state!, maxDays);
    if (days.length === 0) return 0;
    await db.execute(
      `insert into sales_day_totals (business_id, day, sales, revenue, discounts, credit, cost_of_goods)
       select ?::uuid, d.day, x.sales, x.revenue, x.discounts, x.credit, x.cost_of_goods from unnest(?::date[]) as d(day)
       cross join lateral (${daySumsSql('?::uuid', 'd.day')}) x
       on conflict (business_id, day) do update set sales = excluded.sales, revenue = excluded.revenue, discounts = excluded.discounts,
         credit = excluded.credit, cost_of_goods = excluded.cost_of_goods, stale = false`,
      [businessId, days, businessId],
    );
    await db.execute('delete from sales_day_products where business_id = ? and day = any(?::date[])', [businessId, days]);
    await db.execute(
      // the days' sales by their index, then their lines by key: joined, PostgreSQL scanned every line of the
      // business (650 ms a month at 2,000,000 sales); rows in day order, so a day's sit together on disk
      `with s as materialized (
         select d.day, s.id, s.prices_include_vat from unnest(?::date[]) as d(day)
         join sales s on s.business_id = ?::uuid and s.status = 'COMPLETED' and s.created_at >= ${lagosStartSql('d.day')} and s.created_at < ${lagosStartSql('d.day + 1')}
       )
       insert into sales_day_products (business_id, day, product_id, units, revenue)
       select ?::uuid, s.day, i.product_id, sum(i.quantity), sum(${LINE_REVENUE}) from sale_items i join s on s.id = i.sale_id
       where i.business_id = ?::uuid and i.sale_id = any(array(select s.id from s))
       group by s.day, i.product_id order by s.day, i.product_id`,
      [days, businessId, businessId, businessId],
    );
    return days.length;
  },
});

/** The stale days, then the days after the last one rolled up (or from the first sale's) through the last closed one: `maxDays` at most. */
const daysToRollUp = (state: Row, maxDays: number): string[] => {
  const stale = state.stale as string[];
  const closed = String(state.closed);
  const start = (state.next ?? state.first) as string | null;
  const days = [...stale];
  for (let day = start; day !== null && day <= closed && days.length < maxDays; day = nextDay(day)) days.push(day);
  return days;
};

const nextDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
