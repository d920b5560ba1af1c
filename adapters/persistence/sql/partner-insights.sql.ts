import type { Sql } from './sql-session.js';
import type { MerchantDetail, MerchantSummary, NetworkPeriodSums, PartnerInsights, PartnerMerchantSort } from '../../../application/partners/ports.js';
import { lagosDayEnd, lagosDayStart, lagosNextMonthStart } from '../../../domain/lagos-time.js';
import { kobo } from '../../../domain/money.js';
import type { Plan } from '../../../domain/plan.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import type { Row } from './sql-helpers.js';

// What a partner sees of its network (docs/adr/0033), summed by PostgreSQL. Every statement starts
// from partner_merchants for the partner: a business outside the network is never read. GMV is net of
// the returns made in the same window (docs/adr/0058) and of the VAT of both (a VAT-registered merchant's
// VAT is the state's, docs/adr/0054); transactions count the sales.

const DAY_MS = 86_400_000;
const n = (v: unknown) => Number(v ?? 0);
/** A sum (numeric in PostgreSQL, read as text) as exact bigint kobo. */
const k = (v: unknown) => BigInt(String(v ?? 0));

/** One row per merchant of the network: owner, plan, joined_at, last sale, and the 30 days before `now`, GMV net of returns (params: since, since, now, since, now). */
const MERCHANTS = `(
  select m.partner_id, b.id, b.name, b.plan, m.joined_at, o.owner_name, o.owner_phone,
    a.last_sale_at, coalesce(a.sales_count_30d, 0) as sales_count_30d, coalesce(a.gmv_30d, 0) - coalesce(ra.returned_30d, 0) as gmv_30d
  from partner_merchants m
  join businesses b on b.id = m.business_id
  left join lateral (
    select trim(u.first_name || ' ' || u.last_name) as owner_name, u.phone as owner_phone
    from memberships ms join users u on u.id = ms.user_id
    where ms.business_id = b.id and ms.role = 'BUSINESS_OWNER' and ms.status = 'ACTIVE' order by ms.created_at, ms.id limit 1
  ) o on true
  left join lateral (
    select max(s.created_at) as last_sale_at, count(*) filter (where s.created_at >= ?::timestamptz) as sales_count_30d,
      sum(s.total - s.vat_total) filter (where s.created_at >= ?::timestamptz) as gmv_30d
    from sales s where s.business_id = b.id and s.status = 'COMPLETED' and s.created_at <= ?::timestamptz
  ) a on true
  left join lateral (
    select sum(r.amount - r.vat_amount) as returned_30d from sale_returns r where r.business_id = b.id and r.created_at >= ?::timestamptz and r.created_at <= ?::timestamptz
  ) ra on true
) pm`;
const MERCHANT_COLUMNS = 'pm.id, pm.name, pm.plan, pm.joined_at, pm.owner_name, pm.owner_phone, pm.last_sale_at, pm.sales_count_30d, pm.gmv_30d';
const merchantParams = (now: Date) => {
  const since = new Date(now.getTime() - 30 * DAY_MS);
  return [since, since, now, since, now];
};

const SOURCE: KeysetSource<PartnerMerchantSort> = {
  select: MERCHANT_COLUMNS,
  from: MERCHANTS,
  tenantColumn: 'pm.partner_id',
  idColumn: 'pm.id',
  // names by code point, as the in-memory adapter compares them
  sort: { joined_at: { column: 'pm.joined_at', type: 'timestamptz' }, name: { column: 'pm.name collate "C"', type: 'text' }, gmv_30d: { column: 'pm.gmv_30d', type: 'numeric' } },
  search: ['pm.name', "coalesce(pm.owner_phone, '')"],
  dateColumn: 'pm.joined_at',
};

const summaryFromRow = (r: Row): MerchantSummary => ({
  businessId: String(r.id),
  name: String(r.name),
  ownerName: (r.owner_name as string | null) ?? null,
  ownerPhone: (r.owner_phone as string | null) ?? null,
  plan: r.plan as Plan,
  joinedAt: asDate(r.joined_at),
  lastSaleAt: asOptionalDate(r.last_sale_at),
  salesCount30d: n(r.sales_count_30d),
  gmv30d: k(r.gmv_30d),
});

const MONTHS_SQL = `
  with m as (select to_char(d, 'YYYY-MM') as month from generate_series(?::date::timestamp, ?::date::timestamp, interval '1 month') d),
  sm as (
    select to_char(s.created_at at time zone 'Africa/Lagos', 'YYYY-MM') as month, sum(s.total - s.vat_total) as gmv, count(*) as sales_count
    from sales s where s.business_id = ? and s.status = 'COMPLETED' and s.created_at >= ? and s.created_at < ? group by 1
  ),
  rm as (
    select to_char(r.created_at at time zone 'Africa/Lagos', 'YYYY-MM') as month, sum(r.amount - r.vat_amount) as returned
    from sale_returns r where r.business_id = ? and r.created_at >= ? and r.created_at < ? group by 1
  )
  select m.month, coalesce(sm.gmv, 0) - coalesce(rm.returned, 0) as gmv, coalesce(sm.sales_count, 0) as sales_count
  from m left join sm on sm.month = m.month left join rm on rm.month = m.month order by m.month`;

/** Both periods over the merchants that had joined by each period's end (params: partner, cf, ct, pf, pt). */
const PERIODS_SQL = `
  with b as (select ?::uuid as pid, ?::timestamptz as cf, ?::timestamptz as ct, ?::timestamptz as pf, ?::timestamptz as pt),
  net as (select m.business_id, m.joined_at < b.ct as in_cur, m.joined_at < b.pt as in_prev from b join partner_merchants m on m.partner_id = b.pid),
  s as (
    select s.business_id, s.total - s.vat_total as total, net.in_cur and s.created_at >= b.cf and s.created_at < b.ct as cur, net.in_prev and s.created_at >= b.pf and s.created_at < b.pt as prev
    from b cross join net join sales s on s.business_id = net.business_id and s.status = 'COMPLETED' and s.created_at >= b.pf and s.created_at < b.ct
  ),
  r as (
    select r.amount - r.vat_amount as amount, net.in_cur and r.created_at >= b.cf and r.created_at < b.ct as cur, net.in_prev and r.created_at >= b.pf and r.created_at < b.pt as prev
    from b cross join net join sale_returns r on r.business_id = net.business_id and r.created_at >= b.pf and r.created_at < b.ct
  )
  select
    (select count(*) filter (where in_cur) from net) as c_merchants, (select count(*) filter (where in_prev) from net) as p_merchants,
    (select count(distinct business_id) filter (where cur) from s) as c_active, (select count(distinct business_id) filter (where prev) from s) as p_active,
    (select coalesce(sum(total) filter (where cur), 0) from s) - (select coalesce(sum(amount) filter (where cur), 0) from r) as c_gmv,
    (select coalesce(sum(total) filter (where prev), 0) from s) - (select coalesce(sum(amount) filter (where prev), 0) from r) as p_gmv,
    (select count(*) filter (where cur) from s) as c_tx, (select count(*) filter (where prev) from s) as p_tx`;

const DAILY_SQL = `
  with d as (select to_char(day, 'YYYY-MM-DD') as day from generate_series(?::date::timestamp, ?::date::timestamp, interval '1 day') day),
  sd as (
    select to_char(s.created_at at time zone 'Africa/Lagos', 'YYYY-MM-DD') as day, sum(s.total - s.vat_total) as gmv, count(*) as tx
    from partner_merchants m join sales s on s.business_id = m.business_id and s.status = 'COMPLETED' and s.created_at >= ? and s.created_at < ?
    where m.partner_id = ? group by 1
  ),
  rd as (
    select to_char(r.created_at at time zone 'Africa/Lagos', 'YYYY-MM-DD') as day, sum(r.amount - r.vat_amount) as returned
    from partner_merchants m join sale_returns r on r.business_id = m.business_id and r.created_at >= ? and r.created_at < ?
    where m.partner_id = ? group by 1
  )
  select d.day, coalesce(sd.gmv, 0) - coalesce(rd.returned, 0) as gmv, coalesce(sd.tx, 0) as tx from d left join sd on sd.day = d.day left join rd on rd.day = d.day order by d.day`;

/** Merchants whose last completed sale is at or before the threshold; the count with every row (a window). */
const AT_RISK_SQL = `
  select b.id, b.name, o.phone as owner_phone, l.last_sale_at, count(*) over () as total
  from partner_merchants m
  join businesses b on b.id = m.business_id
  join lateral (select max(s.created_at) as last_sale_at from sales s where s.business_id = m.business_id and s.status = 'COMPLETED') l on l.last_sale_at <= ?
  left join lateral (
    select u.phone from memberships ms join users u on u.id = ms.user_id
    where ms.business_id = b.id and ms.role = 'BUSINESS_OWNER' and ms.status = 'ACTIVE' order by ms.created_at, ms.id limit 1
  ) o on true
  where m.partner_id = ?
  order by l.last_sale_at desc, b.id limit ?`;

const sums = (r: Row, p: 'c' | 'p'): NetworkPeriodSums => ({ merchants: n(r[`${p}_merchants`]), activeMerchants: n(r[`${p}_active`]), gmv: k(r[`${p}_gmv`]), transactions: n(r[`${p}_tx`]) });

export const sqlPartnerInsights = (db: Sql): PartnerInsights => ({
  merchants(partnerId, page, filter, now) {
    const conditions: SqlCondition[] = [];
    if (filter.plan) conditions.push({ sql: 'pm.plan = ?', params: [filter.plan] });
    if (filter.activity) conditions.push({ sql: filter.activity === 'ACTIVE' ? 'pm.sales_count_30d > 0' : 'pm.sales_count_30d = 0', params: [] });
    return keysetPage(db, SOURCE, partnerId, page, conditions, summaryFromRow, merchantParams(now));
  },
  async merchant(partnerId, businessId, now, months) {
    const [row] = await db.execute<Row[]>(
      `select ${MERCHANT_COLUMNS},
         (select coalesce(sum(greatest(c.credit_balance, 0)), 0) from customers c where c.business_id = pm.id) as credit_outstanding,
         (select count(*) from memberships ms where ms.business_id = pm.id and ms.role = 'STAFF' and ms.status = 'ACTIVE') as staff_count
       from ${MERCHANTS} where pm.partner_id = ? and pm.id = ?`,
      [...merchantParams(now), partnerId, businessId],
    );
    if (!row) return undefined;
    const start = lagosDayStart(`${months.from}-01`);
    const end = lagosNextMonthStart(lagosDayStart(`${months.to}-01`));
    const monthRows = await db.execute<Row[]>(MONTHS_SQL, [`${months.from}-01`, `${months.to}-01`, businessId, start, end, businessId, start, end]);
    const detail: MerchantDetail = {
      ...summaryFromRow(row),
      months: monthRows.map((m) => ({ month: String(m.month), gmv: k(m.gmv), salesCount: n(m.sales_count) })),
      creditOutstanding: kobo(Number(row.credit_outstanding ?? 0)), // within the business credit cap (docs/adr/0017)
      staffCount: n(row.staff_count),
    };
    return detail;
  },
  async analytics(partnerId, current, previous, riskSince, riskLimit) {
    const [periods] = await db.execute<Row[]>(PERIODS_SQL, [
      partnerId, lagosDayStart(current.from), lagosDayEnd(current.to), lagosDayStart(previous.from), lagosDayEnd(previous.to),
    ]);
    const daily = await db.execute<Row[]>(DAILY_SQL, [
      current.from, current.to, lagosDayStart(current.from), lagosDayEnd(current.to), partnerId, lagosDayStart(current.from), lagosDayEnd(current.to), partnerId,
    ]);
    const risk = await db.execute<Row[]>(AT_RISK_SQL, [riskSince, partnerId, riskLimit]);
    return {
      current: sums(periods!, 'c'),
      previous: sums(periods!, 'p'),
      daily: daily.map((d) => ({ day: String(d.day), gmv: k(d.gmv), transactions: n(d.tx) })),
      atRisk: risk.map((r) => ({ businessId: String(r.id), name: String(r.name), ownerPhone: (r.owner_phone as string | null) ?? null, lastSaleAt: asDate(r.last_sale_at) })),
      atRiskCount: risk.length > 0 ? n(risk[0]!.total) : 0,
    };
  },
});
