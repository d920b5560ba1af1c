import type { Sql } from './sql-session.js';
import { carriesReceiptPlaceholder, withReceiptNumber } from './numbered-at-commit.js';
import type { WebhookRepositories } from '../../../application/partners/webhook-ports.js';
import type { DeliveryStatus, EndpointStatus, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../../domain/webhook.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource } from './keyset.sql.js';
import { firstRow, type Row } from './sql-helpers.js';

/** Notified when a transaction that made deliveries commits (Migration20261203320000_webhook_delivery_notices). */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

const ENDPOINT_COLUMNS = 'id, partner_id, url, description, events, secret, previous_secret, previous_secret_until, status, failing_since, last_error, created_at, updated_at';
const DELIVERY_COLUMNS = 'id, partner_id, endpoint_id, message_id, event, payload, status, attempts, next_attempt_at, last_attempt_at, response_code, duration_ms, last_error, created_at, traceparent';
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const endpointFromRow = (r: Row): WebhookEndpoint => ({
  id: String(r.id), partnerId: String(r.partner_id), url: String(r.url), description: (r.description as string | null) ?? null, events: r.events as WebhookEvent[],
  secret: String(r.secret), previousSecret: (r.previous_secret as string | null) ?? null, previousSecretUntil: asOptionalDate(r.previous_secret_until),
  status: r.status as EndpointStatus, failingSince: asOptionalDate(r.failing_since), lastError: (r.last_error as string | null) ?? null,
  createdAt: asDate(r.created_at), updatedAt: asDate(r.updated_at),
});

const deliveryFromRow = (r: Row): WebhookDelivery => ({
  id: String(r.id), partnerId: String(r.partner_id), endpointId: String(r.endpoint_id), messageId: String(r.message_id), event: String(r.event), payload: String(r.payload),
  status: r.status as DeliveryStatus, attempts: Number(r.attempts), nextAttemptAt: asOptionalDate(r.next_attempt_at), lastAttemptAt: asOptionalDate(r.last_attempt_at),
  responseCode: num(r.response_code), durationMs: num(r.duration_ms), lastError: (r.last_error as string | null) ?? null, createdAt: asDate(r.created_at),
  traceparent: (r.traceparent as string | null) ?? null,
});

const ENDPOINTS: KeysetSource<'created_at'> = {
  select: ENDPOINT_COLUMNS,
  from: 'webhook_endpoints',
  tenantColumn: 'partner_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['url', "coalesce(description, '')"],
  dateColumn: 'created_at',
};

const DELIVERIES: KeysetSource<'created_at'> = {
  select: DELIVERY_COLUMNS,
  from: 'webhook_deliveries',
  tenantColumn: 'partner_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['event'],
  dateColumn: 'created_at',
};

/** Of each endpoint not DISABLED, its oldest PENDING delivery, when due and not leased; leased here (skip locked: two workers never take one). */
const CLAIM_SQL = (only: boolean) => `
  with heads as (
    select distinct on (d.endpoint_id) d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id and e.status <> 'DISABLED'
    where d.status = 'PENDING'${only ? ' and d.endpoint_id = any(string_to_array(?, \',\')::uuid[])' : ''}
    order by d.endpoint_id, d.seq
  ),
  due as (
    select d.id from webhook_deliveries d join heads h on h.id = d.id
    where d.status = 'PENDING' and d.next_attempt_at <= ? and (d.locked_until is null or d.locked_until <= ?)
    order by d.seq limit ? for update of d skip locked
  )
  update webhook_deliveries w set locked_until = ? from due where w.id = due.id returning ${DELIVERY_COLUMNS.split(', ').map((c) => `w.${c}`).join(', ')}`;

/** Webhook endpoints and deliveries over SQL; events travel as a comma-joined string (the driver spreads arrays). */
export const sqlWebhooksModule = (db: Sql): WebhookRepositories => ({
  webhookEndpoints: {
    async add(e) {
      await db.execute(
        `insert into webhook_endpoints (${ENDPOINT_COLUMNS}) values (?, ?, ?, ?, string_to_array(?, ','), ?, ?, ?, ?, ?, ?, ?, ?)`,
        [e.id, e.partnerId, e.url, e.description, e.events.join(','), e.secret, e.previousSecret, e.previousSecretUntil, e.status, e.failingSince, e.lastError, e.createdAt, e.updatedAt],
      );
    },
    findById: (partnerId, id) => firstRow(db, `select ${ENDPOINT_COLUMNS} from webhook_endpoints where partner_id = ? and id = ?`, [partnerId, id], endpointFromRow),
    list: async (partnerId) => (await db.execute<Row[]>(`select ${ENDPOINT_COLUMNS} from webhook_endpoints where partner_id = ? order by created_at, id`, [partnerId])).map(endpointFromRow),
    page: (partnerId, page) => keysetPage(db, ENDPOINTS, partnerId, page, [], endpointFromRow),
    async save(e) {
      await db.execute(
        `update webhook_endpoints set url = ?, description = ?, events = string_to_array(?, ','), secret = ?, previous_secret = ?, previous_secret_until = ?, status = ?,
           failing_since = ?, last_error = ?, updated_at = ? where partner_id = ? and id = ?`,
        [e.url, e.description, e.events.join(','), e.secret, e.previousSecret, e.previousSecretUntil, e.status, e.failingSince, e.lastError, e.updatedAt, e.partnerId, e.id],
      );
    },
    remove: async (partnerId, id) => (await db.execute<Row[]>('delete from webhook_endpoints where partner_id = ? and id = ? returning id', [partnerId, id])).length > 0,
    subscribed: async (partnerId, event) =>
      (await db.execute<Row[]>(`select ${ENDPOINT_COLUMNS} from webhook_endpoints where partner_id = ? and status <> 'DISABLED' and ? = any(events) order by created_at, id`, [partnerId, event])).map(endpointFromRow),
  },
  webhookDeliveries: {
    async add(ds) {
      for (const d of ds) {
        // a delivery about a sale numbered with the COMMIT (sales.sql.ts) goes in that write, with the number
        const late = carriesReceiptPlaceholder(d.payload);
        const values = [...DELIVERY_COLUMNS.split(', '), 'outbox_id'].map((c) => (late && c === 'payload' ? withReceiptNumber('?') : '?'));
        const sql = `insert into webhook_deliveries (${DELIVERY_COLUMNS}, outbox_id) values (${values.join(', ')}) on conflict (endpoint_id, outbox_id) do nothing`;
        const params = [d.id, d.partnerId, d.endpointId, d.messageId, d.event, d.payload, d.status, d.attempts, d.nextAttemptAt, d.lastAttemptAt, d.responseCode, d.durationMs, d.lastError, d.createdAt, d.traceparent, d.outboxId];
        if (late) await db.beforeCommit(() => ({ sql, params }));
        else await db.execute(sql, params);
      }
    },
    findById: (partnerId, id) => firstRow(db, `select ${DELIVERY_COLUMNS} from webhook_deliveries where partner_id = ? and id = ?`, [partnerId, id], deliveryFromRow),
    list: (partnerId, endpointId, page) => keysetPage(db, DELIVERIES, partnerId, page, [{ sql: 'endpoint_id = ?', params: [endpointId] }], deliveryFromRow),
    async claimDue(now, leaseUntil, limit, endpointIds) {
      const only = endpointIds !== undefined;
      if (only && endpointIds.length === 0) return [];
      const rows = await db.execute<Row[]>(CLAIM_SQL(only), [...(only ? [endpointIds.join(',')] : []), now, now, limit, leaseUntil]);
      return rows.map(deliveryFromRow);
    },
    async saveAttempt(d) {
      await db.execute(
        `update webhook_deliveries set status = ?, attempts = ?, next_attempt_at = ?, last_attempt_at = ?, response_code = ?, duration_ms = ?, last_error = ?, locked_until = null
         where partner_id = ? and id = ?`,
        [d.status, d.attempts, d.nextAttemptAt, d.lastAttemptAt, d.responseCode, d.durationMs, d.lastError, d.partnerId, d.id],
      );
    },
  },
});
