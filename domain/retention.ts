/**
 * How long rows are kept once they are of no more use (docs/adr/0068). Each age has a floor below
 * which pruning would break a promise: an idempotency key is replayed for 24 h, the hourly cap on
 * sign-in codes counts the last hour's, a webhook delivery is retried for 72 h. The audit log has no
 * age: it is never pruned.
 */
export interface RetentionAges {
  /** Outbox events, counted from their delivery. */
  readonly deliveredEventsHours: number;
  /** Sessions, counted from when they expired or were signed out (with their refresh tokens). */
  readonly endedSessionsHours: number;
  /** Sign-in codes, counted from when they were made. */
  readonly otpHours: number;
  /** Idempotency keys, counted from their first request. */
  readonly idempotencyKeyHours: number;
  /** Webhook deliveries that succeeded or failed for good, counted from when they were made. */
  readonly webhookDeliveriesHours: number;
}

export const RETENTION_FLOORS: RetentionAges = {
  deliveredEventsHours: 1,
  endedSessionsHours: 1,
  otpHours: 1,
  idempotencyKeyHours: 24,
  webhookDeliveriesHours: 72,
};

export const DEFAULT_RETENTION: RetentionAges = {
  deliveredEventsHours: 7 * 24,
  endedSessionsHours: 7 * 24,
  otpHours: 24,
  idempotencyKeyHours: 24,
  webhookDeliveriesHours: 30 * 24,
};

export type RetentionCutoffs = { readonly [K in keyof RetentionAges]: Date };

const HOUR_MS = 3_600_000;

/** The instant before which each kind of row goes: `now` less its age, never less than its floor. */
export const retentionCutoffs = (now: Date, ages: RetentionAges): RetentionCutoffs =>
  Object.fromEntries(
    (Object.keys(RETENTION_FLOORS) as (keyof RetentionAges)[]).map((k) => [k, new Date(now.getTime() - Math.max(ages[k], RETENTION_FLOORS[k]) * HOUR_MS)]),
  ) as RetentionCutoffs;
