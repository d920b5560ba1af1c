// Partners' webhooks (docs/adr/0033): endpoints, the events they take, deliveries and their retries.

export const WEBHOOK_EVENTS = ['merchant.joined', 'merchant.left', 'sale.created', 'sale.voided', 'sale.returned', 'credit.payment_received', 'loan_pack.paid', 'invoice.sent', 'invoice.paid'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent only by POST /partner/webhooks/{id}/test, to every endpoint whatever its events. */
export const TEST_EVENT = 'webhook.test';

export const ENDPOINT_STATUSES = ['ACTIVE', 'FAILING', 'DISABLED'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];
export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** `whsec_` + 32 random bytes base64 (the Standard Webhooks secret format). */
export const SECRET_PREFIX = 'whsec_';
const HOUR_MS = 3_600_000;
/** After a rotation, deliveries carry the old secret's signature too for this long. */
export const SECRET_GRACE_MS = 24 * HOUR_MS;
/** A delivery is retried until this long after it was made; then it has FAILED. */
export const RETRY_FOR_MS = 72 * HOUR_MS;
/** An endpoint failing without a success for this long is DISABLED (no more deliveries until updated). */
export const DISABLE_AFTER_MS = 24 * HOUR_MS;
/** A receiver answering slower than this has failed the attempt. */
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface WebhookEndpoint {
  readonly id: string;
  readonly partnerId: string;
  url: string;
  description: string | null;
  events: readonly WebhookEvent[];
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  status: EndpointStatus;
  /** When the current run of failures began (null after a success). */
  failingSince: Date | null;
  /** Why the last attempt failed, for the partner to see; null after a success. */
  lastError: string | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDelivery {
  readonly id: string;
  readonly partnerId: string;
  readonly endpointId: string;
  /** `webhook-id`: the same on every attempt and on a redelivery, so a receiver can drop duplicates. */
  readonly messageId: string;
  readonly event: string;
  /** The exact body sent (and signed). */
  readonly payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  responseCode: number | null;
  durationMs: number | null;
  lastError: string | null;
  readonly createdAt: Date;
  /** The W3C traceparent of the request that caused it (sent as the POST's `traceparent`), or null (docs/adr/0066). */
  readonly traceparent: string | null;
}

/** The pause before attempt `attempts + 1`: 1 min, 2, 4, ... doubling, at most 6 h. */
export const retryDelayMs = (attempts: number): number => Math.min(6 * HOUR_MS, 60_000 * 2 ** Math.max(0, attempts - 1));

/** The endpoint after an attempt: a success heals it; failures make it FAILING, then DISABLED after a day. */
export const afterAttempt = (e: WebhookEndpoint, ok: boolean, error: string | null, now: Date): WebhookEndpoint => {
  if (ok) return { ...e, status: 'ACTIVE', failingSince: null, lastError: null };
  const since = e.failingSince ?? now;
  return { ...e, failingSince: since, lastError: error, status: now.getTime() - since.getTime() >= DISABLE_AFTER_MS ? 'DISABLED' : 'FAILING' };
};
