import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '../../../domain/events.js';
import { FIRST_ATTEMPT_GRACE_MS, type EventLog, type Outbox, type OutboxEntry } from '../../../application/ports/outbox.js';
import type { UnitOfWork } from '../../../application/ports/unit-of-work.js';
import type { EventRepositories } from '../../../application/ports/outbox.js';
import type { InMemoryModule } from './in-memory-store.js';
import { currentTraceparent } from '../../tracing/trace-context.js';

/** A row of the outbox table, as the SQL adapter keeps it. */
export interface OutboxRow {
  readonly id: string;
  readonly type: DomainEvent['_tag'];
  readonly businessId: string | null;
  payload: unknown;
  readonly occurredAt: Date;
  attempts: number;
  /** null: delivered or given up. */
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  lastError: string | null;
  deliveredTo: string[];
  readonly traceparent: string | null;
}
export type OutboxRows = Map<string, OutboxRow>;

const ROWS = Symbol('outbox rows');
type InMemoryEventLog = EventLog & { readonly [ROWS]: OutboxRows };

/** The event log over one transaction's tables: rows roll back with them. Payloads go through JSON, as in jsonb. */
export const inMemoryEventLog = (rows: OutboxRows): InMemoryEventLog => ({
  [ROWS]: rows,
  async record(at, ...events) {
    return events.map((event) => {
      const id = randomUUID();
      rows.set(id, {
        id,
        type: event._tag,
        businessId: event.businessId,
        payload: JSON.parse(JSON.stringify(event)),
        occurredAt: at,
        attempts: 0,
        nextAttemptAt: new Date(at.getTime() + FIRST_ATTEMPT_GRACE_MS),
        deliveredAt: null,
        lastError: null,
        deliveredTo: [],
        traceparent: currentTraceparent() ?? null,
      });
      return id;
    });
  },
});

const rowsOf = (events: EventLog): OutboxRows => {
  const rows = (events as Partial<InMemoryEventLog>)[ROWS];
  if (!rows) throw new Error('the in-memory outbox runs on the in-memory unit of work');
  return rows;
};

/**
 * The dispatcher's side of the in-memory outbox: each call a transaction of the in-memory unit of
 * work (run one at a time, so no entry is ever claimed twice).
 */
export const inMemoryOutbox = (uow: UnitOfWork<EventRepositories>): Outbox => ({
  claim: ({ now, leaseUntil, limit, ids }) =>
    uow.run(async (r) => {
      const open = [...rowsOf(r.events).values()].filter((x) => x.deliveredAt === null && x.nextAttemptAt !== null);
      const chosen = ids
        ? open.filter((x) => ids.includes(x.id) && x.attempts === 0)
        : open.filter((x) => x.nextAttemptAt! <= now).sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || (a.id < b.id ? -1 : 1));
      return chosen.slice(0, limit).map((x): OutboxEntry => {
        x.attempts += 1;
        x.nextAttemptAt = leaseUntil;
        return { id: x.id, event: structuredClone(x.payload) as DomainEvent, occurredAt: x.occurredAt, attempts: x.attempts, deliveredTo: [...x.deliveredTo], ...(x.traceparent ? { traceparent: x.traceparent } : {}) };
      });
    }),
  settle: (at, settlements) =>
    uow.run(async (r) => {
      const rows = rowsOf(r.events);
      for (const s of settlements) {
        const x = rows.get(s.id);
        if (!x) continue;
        if (s.outcome === 'delivered') Object.assign(x, { deliveredAt: at, nextAttemptAt: null, payload: s.payload });
        else if (s.outcome === 'retry') Object.assign(x, { nextAttemptAt: s.retryAt, lastError: s.error, deliveredTo: [...s.deliveredTo] });
        else Object.assign(x, { nextAttemptAt: null, lastError: s.error, deliveredTo: [...s.deliveredTo], payload: s.payload });
      }
    }),
});

/** Every row, for tests that look at the table. */
export const inMemoryOutboxRows = (uow: UnitOfWork<EventRepositories>): Promise<OutboxRow[]> => uow.read(async (r) => [...rowsOf(r.events).values()].map((x) => structuredClone(x)));

/** The events module in memory: the outbox table, rolled back with the rest. */
export const inMemoryEventsModule: InMemoryModule<{ outbox: OutboxRows }, EventRepositories> = {
  tables: () => ({ outbox: new Map() }),
  repositories: (t) => ({ events: inMemoryEventLog(t.outbox) }),
};
