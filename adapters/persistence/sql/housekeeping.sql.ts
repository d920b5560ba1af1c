import type { HousekeepingRepositories } from '../../../application/housekeeping/ports.js';
import { ENDPOINT_STATUSES, type EndpointStatus } from '../../../domain/webhook.js';
import { asOptionalDate } from './keyset.sql.js';
import type { RunResult, Sql } from './sql-session.js';

/**
 * Deletes the rows `chosen` selects (ids, `limit ?` last), taking only rows no one holds: a request
 * updating one (a session being refreshed) keeps it and this batch takes the others.
 */
const prune = async (db: Sql, table: string, chosen: string, params: readonly unknown[]): Promise<number> =>
  (await db.execute<RunResult>(`delete from ${table} where id in (${chosen} for update skip locked)`, params, 'run')).affectedRows;

/** Pruning and readings over SQL (docs/adr/0068). Each batch is one autocommitted statement; indexes in Migration20261204000000_retention. */
export const sqlHousekeepingModule = (db: Sql): HousekeepingRepositories => ({
  housekeeping: {
    pruneDeliveredEvents: (before, limit) => prune(db, 'outbox', 'select id from outbox where delivered_at < ? limit ?', [before, limit]),
    async pruneEndedSessions(before, limit) {
      // the tokens and their session in one statement (the foreign key is checked at commit)
      const r = await db.execute<RunResult>(
        `with ended as (select id from sessions where expires_at < ? or revoked_at < ? limit ? for update skip locked),
              tokens as (delete from refresh_tokens where family_id in (select id from ended))
         delete from sessions where id in (select id from ended)`,
        [before, before, limit],
        'run',
      );
      return r.affectedRows;
    },
    pruneOldOtps: (before, limit) => prune(db, 'otp_codes', 'select id from otp_codes where created_at < ? limit ?', [before, limit]),
    pruneSettledWebhookDeliveries: (before, limit) =>
      prune(db, 'webhook_deliveries', "select id from webhook_deliveries where status <> 'PENDING' and created_at < ? limit ?", [before, limit]),
    async oldestUndeliveredEvent() {
      const [row] = await db.execute<{ oldest: unknown }[]>('select min(occurred_at) as oldest from outbox where next_attempt_at is not null and delivered_at is null');
      return asOptionalDate(row?.oldest ?? null);
    },
    async webhookEndpointCounts() {
      const rows = await db.execute<{ status: EndpointStatus; n: number }[]>('select status, count(*)::int as n from webhook_endpoints group by status');
      const counts = Object.fromEntries(ENDPOINT_STATUSES.map((s) => [s, 0])) as Record<EndpointStatus, number>;
      for (const r of rows) counts[r.status] = Number(r.n);
      return counts;
    },
  },
});
