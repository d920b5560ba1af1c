import * as t from 'io-ts';
import { DELIVERY_STATUSES, ENDPOINT_STATUSES, WEBHOOK_EVENTS, type WebhookDelivery, type WebhookEndpoint, type WebhookEvent } from '../../../domain/webhook.js';
import { dateTime, doc, Documented, int, nullableStr, shape, str, uuid } from '../codecs.js';
import { dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';

// The JSON views of partners' webhooks (docs/adr/0033). A secret is shown only when made or rotated.

const nullableDateTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });
const nullableInt = doc('integer or null', { type: ['integer', 'null'] });

/** A URL to POST to; which URLs are allowed (https, no internal address) is the use case's rule (422). */
export const webhookUrlInput = new Documented<string>('webhook url', { type: 'string', format: 'uri', maxLength: 2000, examples: ['https://hooks.partner.example/bizops'] }, (u, c) => {
  if (typeof u !== 'string' || u.length > 2000 || u.includes('\u0000')) return t.failure(u, c, 'must be a URL of at most 2000 characters');
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? t.success(url.toString()) : t.failure(u, c, 'must be an https URL');
  } catch {
    return t.failure(u, c, 'must be a URL');
  }
});

export const webhookEventsInput = new Documented<WebhookEvent[]>(
  'webhook events',
  { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] }, minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true },
  (u, c) =>
    Array.isArray(u) && u.length >= 1 && u.length <= WEBHOOK_EVENTS.length && u.every((e) => (WEBHOOK_EVENTS as readonly unknown[]).includes(e)) && new Set(u).size === u.length
      ? t.success(u as WebhookEvent[])
      : t.failure(u, c, `must be a list of distinct events among ${WEBHOOK_EVENTS.join(', ')}`),
);

const endpointProps = {
  id: uuid,
  url: str,
  description: nullableStr,
  events: doc('webhook event list', { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } }),
  status: doc('webhook endpoint status', { type: 'string', enum: [...ENDPOINT_STATUSES] }),
  failing_since: nullableDateTime,
  last_error: nullableStr,
  previous_secret_expires_at: nullableDateTime,
  created_at: dateTime,
  updated_at: dateTime,
};
const endpointDocs = {
  status: 'ACTIVE; FAILING after a failed attempt; DISABLED after failing for a day without a success (no deliveries until the endpoint is updated)',
  failing_since: 'when the current run of failures began; null after a success',
  last_error: 'why the last attempt failed, null after a success',
  previous_secret_expires_at: 'after a rotation: until then each delivery also carries the old secret\'s signature',
};
export const endpointShape = shape('WebhookEndpoint', endpointProps, endpointDocs);
export const endpointWithSecretShape = shape(
  'WebhookEndpointWithSecret',
  { ...endpointProps, secret: doc('webhook secret', { type: 'string', pattern: '^whsec_' }) },
  { ...endpointDocs, secret: 'the signing secret (whsec_...), shown this once' },
);

export const endpointJson = (e: WebhookEndpoint, now: Date) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: [...e.events],
  status: e.status,
  failing_since: dateTimeJsonOrNull(e.failingSince),
  last_error: e.lastError,
  previous_secret_expires_at: e.previousSecretUntil && e.previousSecretUntil > now ? dateTimeJson(e.previousSecretUntil) : null,
  created_at: dateTimeJson(e.createdAt),
  updated_at: dateTimeJson(e.updatedAt),
});

export const deliveryShape = shape(
  'WebhookDelivery',
  {
    id: uuid,
    endpoint_id: uuid,
    message_id: str,
    event: str,
    status: doc('webhook delivery status', { type: 'string', enum: [...DELIVERY_STATUSES] }),
    attempts: int,
    response_code: nullableInt,
    duration_ms: nullableInt,
    last_error: nullableStr,
    next_attempt_at: nullableDateTime,
    last_attempt_at: nullableDateTime,
    created_at: dateTime,
  },
  {
    message_id: 'the webhook-id header: the same on every attempt and on a redelivery',
    status: 'PENDING (waiting for its turn or a retry), SUCCEEDED (a 2xx answer), FAILED (no success within 72 hours)',
    response_code: 'of the last attempt; null when no answer came (timeout, refused connection)',
    duration_ms: 'of the last attempt',
  },
);
export const deliveryJson = (d: WebhookDelivery) => ({
  id: d.id,
  endpoint_id: d.endpointId,
  message_id: d.messageId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  response_code: d.responseCode,
  duration_ms: d.durationMs,
  last_error: d.lastError,
  next_attempt_at: dateTimeJsonOrNull(d.nextAttemptAt),
  last_attempt_at: dateTimeJsonOrNull(d.lastAttemptAt),
  created_at: dateTimeJson(d.createdAt),
});
