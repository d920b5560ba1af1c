/** Subscription plans; a new business starts on FREE. Gates live here, one line at each use case. */
export const PLANS = ['FREE', 'STARTER', 'BUSINESS', 'PRO'] as const;
export type Plan = (typeof PLANS)[number];
export const isPlan = (s: string): s is Plan => (PLANS as readonly string[]).includes(s);
export const DEFAULT_PLAN: Plan = 'FREE';

/** Sales a plan may record in one Lagos calendar month (voided sales count too); undefined = no limit. */
const MONTHLY_SALES: Record<Plan, number | undefined> = { FREE: 50, STARTER: undefined, BUSINESS: undefined, PRO: undefined };

export type PlanGate = { readonly _tag: 'PlanLimitExceeded'; readonly plan: Plan; readonly limit: number };

/** The plan's monthly sales cap; undefined = no limit. */
export const monthlySalesLimit = (plan: Plan): number | undefined => MONTHLY_SALES[plan];

/** A capped plan's month so far, for a client to warn before the 402 (e.g. at 45 of 50). */
export interface MonthlySalesUsage {
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
}
export const monthlySalesUsage = (plan: Plan, used: number): MonthlySalesUsage | undefined => {
  const limit = MONTHLY_SALES[plan];
  return limit === undefined ? undefined : { limit, used, remaining: Math.max(0, limit - used) };
};

/** Does the plan cap sales a month (so they must be counted)? */
export const limitsMonthlySales = (plan: Plan): boolean => MONTHLY_SALES[plan] !== undefined;

/** May the `n`th sale of the month be recorded? */
export const checkMonthlySale = (plan: Plan, n: number): PlanGate | undefined => {
  const limit = MONTHLY_SALES[plan];
  return limit !== undefined && n > limit ? { _tag: 'PlanLimitExceeded', plan, limit } : undefined;
};
