import { lagosDate } from './lagos-time.js';
import { kobo, type Kobo, type KoboSum } from './money.js';

// Report periods (Lagos calendar days, both ends inclusive) and the figures derived from the sums
// the database computes: one implementation for every adapter.

/** Lagos calendar days from `from` to `to`, both inclusive (YYYY-MM-DD). */
export interface DayRange {
  readonly from: string;
  readonly to: string;
}

export const DASHBOARD_PERIODS = ['today', 'yesterday', '7d', '30d', 'month', 'custom'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** The longest range a report covers, in days (a year, leap years included). */
export const MAX_REPORT_DAYS = 366;

export type InvalidReportRange = { readonly _tag: 'InvalidReportRange'; readonly field: string; readonly reason: string };

const DAY_MS = 86_400_000;
const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
export const addDays = (d: string, n: number): string => dayOf(dayNumber(d) + n);
export const daysIn = (r: DayRange): number => dayNumber(r.to) - dayNumber(r.from) + 1;

/** A range given by the caller: start not after end, at most MAX_REPORT_DAYS long. */
export const checkRange = (from: string, to: string): DayRange | InvalidReportRange => {
  if (dayNumber(to) < dayNumber(from)) return { _tag: 'InvalidReportRange', field: 'end_date', reason: 'is before start_date' };
  if (dayNumber(to) - dayNumber(from) + 1 > MAX_REPORT_DAYS) return { _tag: 'InvalidReportRange', field: 'end_date', reason: `makes a range longer than ${MAX_REPORT_DAYS} days` };
  return { from, to };
};

export const isInvalidRange = (r: DayRange | InvalidReportRange): r is InvalidReportRange => '_tag' in r;

/** The same number of days just before the range (the dashboard's `previous`). */
export const previousRange = (r: DayRange): DayRange => ({ from: addDays(r.from, -daysIn(r)), to: addDays(r.from, -1) });

/**
 * The dashboard's period at `now`: today, yesterday, the last 7 or 30 Lagos days including today,
 * the Lagos month to date, or custom (start_date and end_date, and only then).
 */
export const dashboardRange = (period: DashboardPeriod, now: Date, custom: { start?: string; end?: string }): DayRange | InvalidReportRange => {
  const today = lagosDate(now);
  if (period !== 'custom' && (custom.start || custom.end)) {
    return { _tag: 'InvalidReportRange', field: custom.start ? 'start_date' : 'end_date', reason: 'is only taken with period=custom' };
  }
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday':
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'custom':
      if (!custom.start || !custom.end) return { _tag: 'InvalidReportRange', field: custom.start ? 'end_date' : 'start_date', reason: 'is required with period=custom' };
      return checkRange(custom.start, custom.end);
  }
};

/**
 * `part` of `whole` in per cent with 2 decimals (half up), null when `whole` is 0. Integer arithmetic,
 * in bigint so sums past 2^53 kobo neither throw nor lose the rounding (docs/adr/0038).
 */
export const percentOf = (part: number | bigint, whole: number | bigint): number | null => {
  if (typeof part === 'number' && typeof whole === 'number') {
    // counts and rates (a rate may have decimals): the number arithmetic, exact for them
    if (whole === 0) return null;
    const sign = Math.sign(part) * Math.sign(whole);
    return (sign * Math.floor((Math.abs(part) * 10_000 * 2 + Math.abs(whole)) / (2 * Math.abs(whole)))) / 100;
  }
  const p = BigInt(part);
  const w = BigInt(whole);
  if (w === 0n) return null;
  const negative = p < 0n !== w < 0n && p !== 0n;
  const [ap, aw] = [p < 0n ? -p : p, w < 0n ? -w : w];
  const basisPoints = (ap * 20_000n + aw) / (2n * aw);
  return (negative ? -Number(basisPoints) : Number(basisPoints)) / 100;
};

/** Change from `previous` to `value` in per cent (2 decimals), null when previous is 0. */
export const changePct = (value: number | bigint, previous: number | bigint): number | null =>
  typeof value === 'number' && typeof previous === 'number' ? percentOf(value - previous, previous) : percentOf(BigInt(value) - BigInt(previous), previous);

/** The average sale in kobo, rounded half up; 0 without sales. At most the largest sale, so a Kobo. */
export const averageOf = (total: number | KoboSum, count: number): Kobo => {
  if (count === 0) return kobo(0);
  const n = BigInt(count);
  return kobo(Number((BigInt(total) * 2n + n) / (2n * n)));
};
