/** Subscription plans; a new business starts on FREE. Gates live here, one line at each use case. */
export const PLANS = ['FREE', 'STARTER', 'BUSINESS', 'PRO'] as const;
export type Plan = (typeof PLANS)[number];
export const isPlan = (s: string): s is Plan => (PLANS as readonly string[]).includes(s);
export const DEFAULT_PLAN: Plan = 'FREE';

/** Sales a plan may record in one Lagos calendar month (voided sales count too); undefined = no limit. */
const MONTHLY_SALES: Record<Plan, number | undefined> = { FREE: 50, STARTER: undefined, BUSINESS: undefined, PRO: undefined };

export type PlanGate = { readonly _tag: 'PlanLimitExceeded'; readonly plan: Plan; readonly limit: number };

/** Does the plan cap sales a month (so they must be counted)? */
export const limitsMonthlySales = (plan: Plan): boolean => MONTHLY_SALES[plan] !== undefined;

/** May the `n`th sale of the month be recorded? */
export const checkMonthlySale = (plan: Plan, n: number): PlanGate | undefined => {
  const limit = MONTHLY_SALES[plan];
  return limit !== undefined && n > limit ? { _tag: 'PlanLimitExceeded', plan, limit } : undefined;
};
