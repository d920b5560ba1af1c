import type { NewDelivery, WebhookRepositories } from '../../../application/partners/webhook-ports.js';
import type { WebhookEndpoint } from '../../../domain/webhook.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, values } from './rows.js';

type Stored = NewDelivery & { lockedUntil: Date | null; seq: number };

/** The webhooks' tables: endpoints, and deliveries with their lease. */
export interface WebhookTables {
  webhookEndpoints: Map<string, WebhookEndpoint>;
  /** `seq`: the order deliveries were made in (each endpoint's go out in this order). */
  webhookDeliveries: Map<string, Stored>;
}

const byCreation = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);
const bySeq = (a: Stored, b: Stored) => a.seq - b.seq;
const delivery = (d: Stored) => {
  const { outboxId: _o, lockedUntil: _l, seq: _s, ...rest } = copy(d);
  return rest;
};

/** Webhooks in memory: the same rules as the SQL adapter (unique per endpoint and outbox id, heads of queue only). */
export const inMemoryWebhooksModule: InMemoryModule<WebhookTables, WebhookRepositories> = {
  tables: () => ({ webhookEndpoints: new Map(), webhookDeliveries: new Map() }),
  repositories: (t) => {
    const own = (partnerId: string, id: string) => {
      const e = t.webhookEndpoints.get(id);
      return e && e.partnerId === partnerId ? e : undefined;
    };
    return {
      webhookEndpoints: {
        add: async (e) => void t.webhookEndpoints.set(e.id, copy(e)),
        findById: async (partnerId, id) => copy(own(partnerId, id)),
        page: async (partnerId, page) =>
          keysetPageInMemory(values(t.webhookEndpoints).filter((e) => e.partnerId === partnerId), page, {
            sortValue: (e) => e.createdAt.toISOString(),
            id: (e) => e.id,
            searchText: (e) => [e.url, e.description],
            date: (e) => e.createdAt,
          }),
        list: async (partnerId) => values(t.webhookEndpoints).filter((e) => e.partnerId === partnerId).sort(byCreation),
        save: async (e) => void (own(e.partnerId, e.id) && t.webhookEndpoints.set(e.id, copy(e))),
        remove: async (partnerId, id) => {
          if (!own(partnerId, id)) return false;
          t.webhookEndpoints.delete(id);
          for (const d of values(t.webhookDeliveries)) if (d.endpointId === id) t.webhookDeliveries.delete(d.id);
          return true;
        },
        subscribed: async (partnerId, event) => values(t.webhookEndpoints).filter((e) => e.partnerId === partnerId && e.status !== 'DISABLED' && e.events.includes(event)).sort(byCreation),
      },
      webhookDeliveries: {
        add: async (ds) => {
          for (const d of ds) {
            if (d.outboxId !== null && values(t.webhookDeliveries).some((x) => x.endpointId === d.endpointId && x.outboxId === d.outboxId)) continue;
            const seq = Math.max(0, ...values(t.webhookDeliveries).map((x) => x.seq)) + 1;
            t.webhookDeliveries.set(d.id, { ...copy(d), lockedUntil: null, seq });
          }
        },
        findById: async (partnerId, id) => {
          const d = t.webhookDeliveries.get(id);
          return d && d.partnerId === partnerId ? delivery(d) : undefined;
        },
        list: async (partnerId, endpointId, page) =>
          keysetPageInMemory(values(t.webhookDeliveries).filter((d) => d.partnerId === partnerId && d.endpointId === endpointId).map(delivery), page, {
            sortValue: (d) => d.createdAt.toISOString(),
            id: (d) => d.id,
            searchText: (d) => [d.event],
            date: (d) => d.createdAt,
          }),
        claimDue: async (now, leaseUntil, limit, endpointIds) => {
          const heads = new Map<string, Stored>();
          for (const d of values(t.webhookDeliveries).filter((x) => x.status === 'PENDING').sort(bySeq)) if (!heads.has(d.endpointId)) heads.set(d.endpointId, d);
          const due = [...heads.values()]
            .filter((d) => t.webhookEndpoints.get(d.endpointId)?.status !== 'DISABLED' && (!endpointIds || endpointIds.includes(d.endpointId)))
            .filter((d) => d.nextAttemptAt !== null && d.nextAttemptAt <= now && (d.lockedUntil === null || d.lockedUntil <= now))
            .sort(bySeq)
            .slice(0, limit);
          for (const d of due) t.webhookDeliveries.set(d.id, { ...d, lockedUntil: leaseUntil });
          return due.map(delivery);
        },
        saveAttempt: async (d) => {
          const old = t.webhookDeliveries.get(d.id);
          if (old) t.webhookDeliveries.set(d.id, { ...copy(d), outboxId: old.outboxId, lockedUntil: null, seq: old.seq });
        },
      },
    };
  },
};
