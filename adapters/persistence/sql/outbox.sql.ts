import type { EventRepositories } from '../../../application/ports/outbox.js';
import { randomUUID } from 'node:crypto';
import type { Sql } from './sql-session.js';
import type { DomainEvent } from '../../../domain/events.js';
import { FIRST_ATTEMPT_GRACE_MS, type EventLog, type Outbox, type OutboxEntry } from '../../../application/ports/outbox.js';
import { asDate } from './keyset.sql.js';
import { currentTraceparent } from '../../tracing/trace-context.js';
import { carriesReceiptPlaceholder, withReceiptNumber } from './numbered-at-commit.js';

/**
 * The INSERT of a transaction's outbox rows (id, type, business, payload, occurred, next attempt, trace
 * each); `late[i]`: row i's payload holds the placeholder of a sale numbered in this write (sales.sql.ts).
 * Also run by the bench's pgbench pass.
 */
export const outboxInsertSql = (late: readonly boolean[]): string =>
  `insert into outbox (id, type, business_id, payload, occurred_at, next_attempt_at, traceparent) values ${late
    .map((l) => (l ? `(?, ?, ?, ${withReceiptNumber('?')}::jsonb, ?, ?, ?)` : '(?, ?, ?, ?::jsonb, ?, ?, ?)'))
    .join(', ')}`;

/**
 * The event log inside the unit of work's transaction: the events a transaction records go to the
 * outbox in one INSERT sent with its COMMIT (a sale's stock events and its SaleRecorded: one
 * statement, not two, and no round trip of its own); outside a transaction, at once.
 */
export const sqlEventLog = (db: Sql): EventLog => {
  let pending: unknown[][] | undefined;
  return {
    async record(at, ...events) {
      if (events.length === 0) return [];
      const ids = events.map(() => randomUUID());
      const nextAttempt = new Date(at.getTime() + FIRST_ATTEMPT_GRACE_MS);
      // the request's trace, when it brought one, travels with its events (docs/adr/0066)
      const traceparent = currentTraceparent() ?? null;
      const rows = events.map((e, i) => [ids[i], e._tag, e.businessId, JSON.stringify(e), at, nextAttempt, traceparent]);
      if (pending) {
        pending.push(...rows);
        return ids;
      }
      pending = rows;
      await db.beforeCommit(() => {
        const all = pending!;
        pending = undefined;
        return { sql: outboxInsertSql(all.map((row) => carriesReceiptPlaceholder(row[3] as string))), params: all.flat() };
      });
      return ids;
    },
  };
};

const entryFromRow = (r: Record<string, unknown>): OutboxEntry => ({
  id: String(r.id),
  event: r.payload as DomainEvent,
  occurredAt: asDate(r.occurred_at),
  attempts: Number(r.attempts),
  deliveredTo: (r.delivered_to as string[] | null) ?? [],
  ...(r.traceparent ? { traceparent: String(r.traceparent) } : {}),
});

/*
 * A claim is one statement, committed at once: the rows are locked only while it runs (SKIP LOCKED,
 * so two dispatchers never wait on or take the same row) and the lease it writes keeps them off
 * the others while this one delivers, with no transaction held open across a provider's call.
 */
const claimSql = (chosen: string) => `
  with chosen as (${chosen} for update skip locked)
  update outbox o set attempts = o.attempts + 1, next_attempt_at = ?
  from chosen where o.id = chosen.id
  returning o.id, o.payload, o.occurred_at, o.attempts, o.delivered_to, o.traceparent`;

/** The dispatcher's side of the outbox, each call on its own connection (never a request's transaction). */
export const sqlOutbox = (pooled: Sql): Outbox => ({
  async claim({ now, leaseUntil, limit, ids }) {
    if (ids && ids.length === 0) return [];
    const rows = ids
      ? await pooled.execute<Record<string, unknown>[]>(
          claimSql(`select id from outbox where id in (${ids.map(() => '?').join(', ')}) and attempts = 0 and delivered_at is null and next_attempt_at is not null limit ?`),
          [...ids, limit, leaseUntil],
        )
      : await pooled.execute<Record<string, unknown>[]>(
          claimSql('select id from outbox where next_attempt_at <= ? and delivered_at is null order by next_attempt_at, id limit ?'),
          [now, limit, leaseUntil],
        );
    return rows.map(entryFromRow);
  },
  // Every settlement in one UPDATE: delivered and given-up rows lose their next attempt (and their secrets).
  async settle(at, settlements) {
    if (settlements.length === 0) return;
    const records = settlements.map((s) => ({
      id: s.id,
      delivered: s.outcome === 'delivered',
      retry_at: s.outcome === 'retry' ? s.retryAt.toISOString() : null,
      payload: s.outcome === 'retry' ? null : s.payload,
      error: s.outcome === 'delivered' ? null : s.error,
      delivered_to: s.outcome === 'delivered' ? null : s.deliveredTo,
    }));
    await pooled.execute(
      `update outbox o set
         delivered_at = case when d.delivered then ?::timestamptz else null end,
         next_attempt_at = d.retry_at,
         payload = coalesce(d.payload, o.payload),
         last_error = coalesce(d.error, o.last_error),
         delivered_to = case when d.delivered_to is null then o.delivered_to else array(select jsonb_array_elements_text(d.delivered_to)) end
       from jsonb_to_recordset(?::jsonb) as d(id uuid, delivered boolean, retry_at timestamptz, payload jsonb, error text, delivered_to jsonb)
       where o.id = d.id`,
      [at, JSON.stringify(records)],
    );
  },
});

/** The events module over SQL: the outbox table, written in the unit of work's transaction. */
export const sqlEventsModule = (db: Sql): EventRepositories => ({ events: sqlEventLog(db) });
