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

/** The plan's monthly sales cap, or null when it has none. */
export const monthlySalesLimit = (plan: Plan): number | null => MONTHLY_SALES[plan] ?? null;

/** Sales recorded in the Lagos month against the plan's cap (remaining is never below 0). */
export interface MonthlySalesUsage {
  readonly count: number;
  readonly limit: number | null;
  readonly remaining: number | null;
}

export const monthlySalesUsage = (plan: Plan, count: number): MonthlySalesUsage => {
  const limit = monthlySalesLimit(plan);
  return { count, limit, remaining: limit === null ? null : Math.max(0, limit - count) };
};

/**
 * Messages sent at the platform's cost, per business and Lagos day (docs/adr/0040): MESSAGES are those
 * asked for through POST /notifications/{sms,whatsapp}, INVITATIONS the staff invitations (an SMS or e-mail each).
 */
export const DAILY_QUOTAS = ['MESSAGES', 'INVITATIONS'] as const;
export type DailyQuota = (typeof DAILY_QUOTAS)[number];
const DAILY_LIMITS: Record<DailyQuota, Record<Plan, number>> = {
  MESSAGES: { FREE: 20, STARTER: 200, BUSINESS: 1_000, PRO: 5_000 },
  INVITATIONS: { FREE: 20, STARTER: 50, BUSINESS: 100, PRO: 200 },
};

/** How many a business on `plan` may send of `quota` in one Lagos day. */
export const dailyLimit = (plan: Plan, quota: DailyQuota): number => DAILY_LIMITS[quota][plan];

export type DailyLimitExceeded = { readonly _tag: 'DailyLimitExceeded'; readonly plan: Plan; readonly quota: DailyQuota; readonly limit: number };

/** Plans whose CUSTOM messages may carry links (a link from a free sender is how phishing starts). */
export const LINK_PLANS: readonly Plan[] = ['BUSINESS', 'PRO'];
export type LinksNotAllowed = { readonly _tag: 'LinksNotAllowed'; readonly plan: Plan; readonly plans: readonly Plan[] };

/** May a business on `plan` send a CUSTOM message with a link in it? */
export const checkMessageLinks = (plan: Plan, hasLink: boolean): LinksNotAllowed | undefined =>
  hasLink && !LINK_PLANS.includes(plan) ? { _tag: 'LinksNotAllowed', plan, plans: LINK_PLANS } : undefined;

/** Features only some plans include (spec: "Business and Pro"); every other feature is on every plan. */
export const FEATURES = ['TOP_SERVICES'] as const;
export type Feature = (typeof FEATURES)[number];
const FEATURE_PLANS: Record<Feature, readonly Plan[]> = { TOP_SERVICES: ['BUSINESS', 'PRO'] };

export type FeatureNotAvailable = { readonly _tag: 'FeatureNotAvailable'; readonly plan: Plan; readonly feature: Feature; readonly plans: readonly Plan[] };

/** May a business on `plan` use `feature`? */
export const checkFeature = (plan: Plan, feature: Feature): FeatureNotAvailable | undefined =>
  FEATURE_PLANS[feature].includes(plan) ? undefined : { _tag: 'FeatureNotAvailable', plan, feature, plans: FEATURE_PLANS[feature] };

export type LoanPackPaymentRequired = { readonly _tag: 'LoanPackPaymentRequired'; readonly plan: Plan; readonly reference: string; readonly price: number };

/**
 * May a pack be downloaded (spec 7)? On Free and Starter only once it is paid; a pack that was ready
 * when made (on Business or Pro) stays ready after a change of plan, and a pack waiting for payment
 * opens once the business moves to Business or Pro.
 */
export const checkLoanPackDownload = (plan: Plan, pack: { reference: string; ready: boolean; price: number }): LoanPackPaymentRequired | undefined =>
  (plan === 'FREE' || plan === 'STARTER') && !pack.ready ? { _tag: 'LoanPackPaymentRequired', plan, reference: pack.reference, price: pack.price } : undefined;
