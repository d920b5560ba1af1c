import type { MerchantSummary, NetworkMembership, NetworkPeriodSums, PartnerInsights } from '../../../application/partners/ports.js';
import { lagosDate, lagosDayEnd, lagosDayStart, lagosNextMonthStart } from '../../../domain/lagos-time.js';
import { kobo, type KoboSum } from '../../../domain/money.js';
import { addDays, type DayRange } from '../../../domain/report.js';
import { netOfVat, type Sale } from '../../../domain/sale.js';
import type { AuthTables } from './auth.in-memory.js';
import type { BusinessTables } from './business.in-memory.js';
import type { CustomerTables } from './customers.in-memory.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { values } from './rows.js';
import type { SaleTables } from './sales.in-memory.js';
import { returnsOf, type ReturnTables } from './returns.in-memory.js';

// The partner's view of its network over the in-memory tables: the same figures as the SQL adapter's
// statements (partner-insights.sql.ts), always starting from the partner's memberships. GMV is net of
// the returns made in the same window (docs/adr/0058).

/** The partners module's memberships (its own table) and the tables of other modules the figures read. */
export type InsightTables = { partnerMerchants: Map<string, NetworkMembership> } & BusinessTables & Pick<AuthTables, 'users'> & SaleTables & ReturnTables & Pick<CustomerTables, 'customers'>;

const DAY_MS = 86_400_000;
/** Exact, as PostgreSQL's numeric sum. */
const sum = (sales: readonly Sale[]): KoboSum => sales.reduce((t, s) => t + BigInt(netOfVat(s)), 0n);

export const inMemoryPartnerInsights = (t: InsightTables): PartnerInsights => {
  const completed = (businessId: string) => values(t.sales).filter((s) => s.businessId === businessId && s.status === 'COMPLETED');
  const owner = (businessId: string) => {
    const m = values(t.memberships)
      .filter((x) => x.businessId === businessId && x.role === 'BUSINESS_OWNER' && x.status === 'ACTIVE')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))[0];
    return m ? t.users.get(m.userId) : undefined;
  };
  const network = (partnerId: string) => values(t.partnerMerchants).filter((m) => m.partnerId === partnerId);
  /** What the business's returns made in [from, to) (or up to and including `through`) were sold for. */
  const returned = (businessId: string, inWindow: (at: Date) => boolean): KoboSum =>
    returnsOf(t, businessId).filter((x) => inWindow(x.createdAt)).reduce((n, x) => n + BigInt(x.amount - x.vatAmount), 0n);
  const lastSale = (businessId: string) => completed(businessId).reduce<Date | null>((d, s) => (d === null || s.createdAt > d ? s.createdAt : d), null);

  const summary = (businessId: string, joinedAt: Date, now: Date): MerchantSummary => {
    const b = t.businesses.get(businessId)!;
    const u = owner(businessId);
    const since = new Date(now.getTime() - 30 * DAY_MS);
    const upToNow = completed(businessId).filter((s) => s.createdAt <= now);
    const recent = upToNow.filter((s) => s.createdAt >= since);
    return {
      businessId,
      name: b.name,
      ownerName: u ? `${u.firstName} ${u.lastName}`.trim() : null,
      ownerPhone: u?.phone ?? null,
      plan: b.plan,
      joinedAt,
      lastSaleAt: upToNow.reduce<Date | null>((d, s) => (d === null || s.createdAt > d ? s.createdAt : d), null),
      salesCount30d: recent.length,
      gmv30d: sum(recent) - returned(businessId, (at) => at >= since && at <= now),
    };
  };

  const period = (partnerId: string, r: DayRange): NetworkPeriodSums => {
    const from = lagosDayStart(r.from);
    const to = lagosDayEnd(r.to);
    const members = network(partnerId).filter((m) => m.joinedAt < to);
    const sales = members.flatMap((m) => completed(m.businessId).filter((s) => s.createdAt >= from && s.createdAt < to));
    const back = members.reduce((n, m) => n + returned(m.businessId, (at) => at >= from && at < to), 0n);
    return { merchants: members.length, activeMerchants: new Set(sales.map((s) => s.businessId)).size, gmv: sum(sales) - back, transactions: sales.length };
  };

  return {
    async merchants(partnerId, page, filter, now) {
      const rows = network(partnerId)
        .map((m) => summary(m.businessId, m.joinedAt, now))
        .filter((m) => !filter.plan || m.plan === filter.plan)
        .filter((m) => !filter.activity || (filter.activity === 'ACTIVE') === m.salesCount30d > 0);
      return keysetPageInMemory(rows, page, {
        // a sum as zero-padded digits: compared as text in the order of the numbers, and a cursor can hold it
        sortValue: (m, by) => (by === 'joined_at' ? m.joinedAt.toISOString() : by === 'name' ? m.name : m.gmv30d.toString().padStart(40, '0')),
        id: (m) => m.businessId,
        searchText: (m) => [m.name, m.ownerPhone],
        date: (m) => m.joinedAt,
      });
    },
    async merchant(partnerId, businessId, now, months) {
      const m = network(partnerId).find((x) => x.businessId === businessId);
      if (!m) return undefined;
      const sales = completed(businessId);
      const list: { month: string; gmv: KoboSum; salesCount: number }[] = [];
      for (let start = lagosDayStart(`${months.from}-01`); lagosDate(start).slice(0, 7) <= months.to; start = lagosNextMonthStart(start)) {
        const end = lagosNextMonthStart(start);
        const inMonth = sales.filter((s) => s.createdAt >= start && s.createdAt < end);
        list.push({ month: lagosDate(start).slice(0, 7), gmv: sum(inMonth) - returned(businessId, (at) => at >= start && at < end), salesCount: inMonth.length });
      }
      return {
        ...summary(businessId, m.joinedAt, now),
        months: list,
        creditOutstanding: kobo(values(t.customers).filter((c) => c.businessId === businessId).reduce((n, c) => n + Math.max(c.creditBalance, 0), 0)),
        staffCount: values(t.memberships).filter((x) => x.businessId === businessId && x.role === 'STAFF' && x.status === 'ACTIVE').length,
      };
    },
    async analytics(partnerId, current, previous, riskSince, riskLimit) {
      const members = network(partnerId);
      const daily: { day: string; gmv: KoboSum; transactions: number }[] = [];
      for (let day = current.from; day <= current.to; day = addDays(day, 1)) {
        const sales = members.flatMap((m) => completed(m.businessId).filter((s) => lagosDate(s.createdAt) === day));
        const back = members.reduce((n, m) => n + returned(m.businessId, (at) => lagosDate(at) === day), 0n);
        daily.push({ day, gmv: sum(sales) - back, transactions: sales.length });
      }
      const lapsed = members
        .map((m) => ({ businessId: m.businessId, lastSaleAt: lastSale(m.businessId) }))
        .filter((x): x is { businessId: string; lastSaleAt: Date } => x.lastSaleAt !== null && x.lastSaleAt <= riskSince)
        .sort((a, b) => b.lastSaleAt.getTime() - a.lastSaleAt.getTime() || (a.businessId < b.businessId ? -1 : 1));
      return {
        current: period(partnerId, current),
        previous: period(partnerId, previous),
        daily,
        atRisk: lapsed.slice(0, riskLimit).map((x) => ({ ...x, name: t.businesses.get(x.businessId)!.name, ownerPhone: owner(x.businessId)?.phone ?? null })),
        atRiskCount: lapsed.length,
      };
    },
  };
};
