/** Subscription plans; a new business starts on FREE. Gates live here, one line at each use case. */
export const PLANS = ['FREE', 'STARTER', 'BUSINESS', 'PRO'] as const;
export type Plan = (typeof PLANS)[number];
export const isPlan = (s: string): s is Plan => (PLANS as readonly string[]).includes(s);
export const DEFAULT_PLAN: Plan = 'FREE';
