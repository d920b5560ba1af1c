import * as E from 'fp-ts/lib/Either.js';
import { lagosDate } from '../../domain/lagos-time.js';
import type { KoboSum } from '../../domain/money.js';
import type { PartnerActor, PartnerBranding } from '../../domain/partner.js';
import { addDays, averageOf, changePct, percentOf, previousRange, type DayRange } from '../../domain/report.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { Clock } from '../ports/clock.js';
import type { PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { MerchantAtRisk, MerchantDetail, MerchantFilter, NetworkPeriodSums, PartnerMerchantSort, PartnerRepositories } from './ports.js';

// The partner's read side and its branding (docs/adr/0033): its merchants, one merchant's figures,
// the network's analytics. The sums come from the database; the rates and changes are derived here.

type Deps = { uow: UnitOfWork<PartnerRepositories>; clock: Clock };

export const NETWORK_PERIODS = ['7d', '30d', '90d'] as const;
export type NetworkPeriod = (typeof NETWORK_PERIODS)[number];
const PERIOD_DAYS: Record<NetworkPeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };
/** A merchant is at risk once its last sale is this old. */
export const AT_RISK_AFTER_DAYS = 14;
/** At most this many merchants at risk are listed (the count covers all). */
export const AT_RISK_LISTED = 100;
/** The detail's monthly figures: this many Lagos months, the current one last. */
export const DETAIL_MONTHS = 12;
const DAY_MS = 86_400_000;

export const listNetworkMerchants =
  (deps: Deps) =>
  async (partner: PartnerActor, page: PageRequest<PartnerMerchantSort>, filter: MerchantFilter) =>
    deps.uow.read((r) => r.partnerInsights.merchants(partner.partnerId, page, filter, deps.clock.now()));

/** One merchant of the network with its monthly figures; any other business is 404, as if it did not exist. */
export const getNetworkMerchant =
  (deps: Deps) =>
  async (partner: PartnerActor, businessId: string): Promise<E.Either<NotFound, MerchantDetail>> => {
    const now = deps.clock.now();
    const month = lagosDate(now).slice(0, 7);
    const [y, m] = month.split('-').map(Number) as [number, number];
    const first = new Date(Date.UTC(y, m - DETAIL_MONTHS, 1)).toISOString().slice(0, 7);
    const d = await deps.uow.read((r) => r.partnerInsights.merchant(partner.partnerId, businessId, now, { from: first, to: month }));
    return d ? E.right(d) : E.left(notFound);
  };

export interface NetworkCompared<T> {
  readonly value: T;
  readonly previous: T;
  /** Per cent, 2 decimals; null when the previous value is 0. */
  readonly changePct: number | null;
}
const compared = <T extends number | KoboSum>(value: T, previous: T): NetworkCompared<T> => ({ value, previous, changePct: changePct(value, previous) });

export interface NetworkReport {
  readonly period: NetworkPeriod;
  readonly current: DayRange;
  readonly previous: DayRange;
  readonly merchantsTotal: NetworkCompared<number>;
  readonly merchantsActive: NetworkCompared<number>;
  /** Active of total, per cent with 2 decimals (0 when there are no merchants). */
  readonly activeRatePct: NetworkCompared<number>;
  readonly gmv: NetworkCompared<KoboSum>;
  readonly transactions: NetworkCompared<number>;
  readonly averageTicket: NetworkCompared<KoboSum>;
  readonly daily: readonly { readonly day: string; readonly gmv: KoboSum; readonly transactions: number }[];
  readonly atRisk: readonly MerchantAtRisk[];
  readonly atRiskCount: number;
}

const rate = (p: NetworkPeriodSums) => percentOf(p.activeMerchants, p.merchants) ?? 0;

/** The network over the last 7, 30 or 90 Lagos days (today included) against the as many days before. */
export const networkAnalytics =
  (deps: Deps) =>
  async (partner: PartnerActor, period: NetworkPeriod): Promise<NetworkReport> => {
    const now = deps.clock.now();
    const today = lagosDate(now);
    const current = { from: addDays(today, -(PERIOD_DAYS[period] - 1)), to: today };
    const previous = previousRange(current);
    const riskSince = new Date(now.getTime() - AT_RISK_AFTER_DAYS * DAY_MS);
    const a = await deps.uow.read((r) => r.partnerInsights.analytics(partner.partnerId, current, previous, riskSince, AT_RISK_LISTED));
    return {
      period,
      current,
      previous,
      merchantsTotal: compared(a.current.merchants, a.previous.merchants),
      merchantsActive: compared(a.current.activeMerchants, a.previous.activeMerchants),
      activeRatePct: compared(rate(a.current), rate(a.previous)),
      gmv: compared(a.current.gmv, a.previous.gmv),
      transactions: compared(a.current.transactions, a.previous.transactions),
      averageTicket: compared(BigInt(averageOf(a.current.gmv, a.current.transactions)), BigInt(averageOf(a.previous.gmv, a.previous.transactions))),
      daily: a.daily,
      atRisk: a.atRisk,
      atRiskCount: a.atRiskCount,
    };
  };

/** Replaces the partner's branding (every field; one left out is cleared), shown to its merchants from the next request. */
export const setPartnerBranding =
  (deps: Deps) =>
  async (partner: PartnerActor, branding: PartnerBranding): Promise<E.Either<NotFound, PartnerBranding>> =>
    deps.uow.run(async (r) => {
      const p = await r.partners.findById(partner.partnerId);
      if (!p) return E.left(notFound);
      p.branding = branding;
      p.updatedAt = deps.clock.now();
      await r.partners.save(p);
      return E.right(branding);
    });
