import type { HousekeepingRepositories } from '../../../application/housekeeping/ports.js';
import { ENDPOINT_STATUSES, type EndpointStatus } from '../../../domain/webhook.js';
import type { AuthTables } from './auth.in-memory.js';
import type { InMemoryModule } from './in-memory-store.js';
import type { OutboxRows } from './outbox.in-memory.js';
import type { WebhookTables } from './webhooks.in-memory.js';

type Reads = { outbox: OutboxRows } & Pick<AuthTables, 'sessions' | 'refreshTokens' | 'otps'> & WebhookTables;

/** Deletes at most `limit` entries of `table` that `old` picks; answers how many. */
const prune = <V>(table: Map<string, V>, old: (v: V) => boolean, limit: number): number => {
  let n = 0;
  for (const [id, v] of table) {
    if (n >= limit) break;
    if (!old(v)) continue;
    table.delete(id);
    n++;
  }
  return n;
};

/** Pruning and readings in memory, over the other modules' tables (the same rules as the SQL adapter). */
export const inMemoryHousekeepingModule: InMemoryModule<{}, HousekeepingRepositories, Reads> = {
  tables: () => ({}),
  repositories: (t) => ({
    housekeeping: {
      pruneDeliveredEvents: async (before, limit) => prune(t.outbox, (e) => e.deliveredAt !== null && e.deliveredAt < before, limit),
      async pruneEndedSessions(before, limit) {
        const ended = [...t.sessions.values()].filter((s) => s.expiresAt < before || (s.revokedAt !== null && s.revokedAt < before)).slice(0, limit);
        for (const s of ended) {
          t.sessions.delete(s.id);
          for (const [id, token] of t.refreshTokens) if (token.familyId === s.id) t.refreshTokens.delete(id);
        }
        return ended.length;
      },
      pruneOldOtps: async (before, limit) => prune(t.otps, (c) => c.createdAt < before, limit),
      pruneSettledWebhookDeliveries: async (before, limit) => prune(t.webhookDeliveries, (d) => d.status !== 'PENDING' && d.createdAt < before, limit),
      async oldestUndeliveredEvent() {
        const waiting = [...t.outbox.values()].filter((e) => e.deliveredAt === null && e.nextAttemptAt !== null).map((e) => e.occurredAt.getTime());
        return waiting.length === 0 ? null : new Date(Math.min(...waiting));
      },
      async webhookEndpointCounts() {
        const counts = Object.fromEntries(ENDPOINT_STATUSES.map((s) => [s, 0])) as Record<EndpointStatus, number>;
        for (const e of t.webhookEndpoints.values()) counts[e.status] += 1;
        return counts;
      },
    },
  }),
};
