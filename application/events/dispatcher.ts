import { withoutSecrets, type EventType } from '../../domain/events.js';
import type { Clock } from '../ports/clock.js';
import { PermanentJobFailure } from '../ports/job-queue.js';
import type { Outbox, OutboxEntry, Settlement, Subscriber } from '../ports/outbox.js';
import { pollLoop } from './poll-loop.js';

export interface DispatcherOptions {
  /** Pause between two looks at the outbox when the last one found nothing more to do. */
  readonly pollMs: number;
  readonly batchSize: number;
  /** How long a claim keeps other dispatchers off an entry (a dispatcher that dies mid-delivery). */
  readonly leaseMs: number;
  /** The pause after the first failure; it doubles after each one, up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** After this many attempts an entry is given up (kept, with its last error, for a person to look at). */
  readonly maxAttempts: number;
  /** The longest a request waits for the first attempt of its own events (docs/adr/0024). */
  readonly firstAttemptWaitMs: number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  pollMs: 1_000,
  batchSize: 50,
  leaseMs: 60_000,
  retryBaseMs: 1_000,
  retryMaxMs: 5 * 60_000,
  maxAttempts: 12,
  firstAttemptWaitMs: 2_000,
};

/** What a dispatcher tells its operator. Never the event's payload: a message's text holds a code. */
export type DispatchReport =
  | { readonly kind: 'retry'; readonly id: string; readonly type: EventType; readonly attempts: number; readonly error: string; readonly retryAt: Date; readonly traceparent?: string }
  | { readonly kind: 'given_up'; readonly id: string; readonly type: EventType; readonly attempts: number; readonly error: string; readonly traceparent?: string }
  | { readonly kind: 'outbox_failed'; readonly error: string };

export interface Dispatcher {
  /** The types some subscriber not in the background handles (others are delivered by the loop, after the grace). */
  subscribes(type: EventType): boolean;
  /**
   * The first attempt of just-committed entries. Resolves when it is over or after
   * `firstAttemptWaitMs`, whichever is first; never rejects (the loop retries what failed).
   */
  deliverNow(ids: readonly string[]): Promise<void>;
  /** One pass over the due entries; answers how many it handled. */
  runDue(): Promise<number>;
  /** Runs `runDue` every `pollMs` until `stop`. */
  start(): void;
  /** Stops the loop and waits for the deliveries under way. */
  stop(): Promise<void>;
}

/** The pause before attempt `attempts + 1`. */
export const retryDelay = (attempts: number, o: Pick<DispatcherOptions, 'retryBaseMs' | 'retryMaxMs'>): number =>
  Math.min(o.retryMaxMs, o.retryBaseMs * 2 ** Math.max(0, attempts - 1));

const describe = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 500);

/**
 * Delivers outbox entries to the subscribers of their type, after the commit that wrote them: each
 * subscriber once per entry (those done are remembered when another fails), failures retried with
 * exponential backoff. Delivery is at least once: a dispatcher that dies between a subscriber's
 * success and the settle runs it again after the lease.
 */
export const createDispatcher = (
  deps: { readonly outbox: Outbox; readonly clock: Clock; readonly subscribers: readonly Subscriber[]; readonly report?: (r: DispatchReport) => void },
  options: Partial<DispatcherOptions> = {},
): Dispatcher => {
  const o = { ...DEFAULT_DISPATCHER_OPTIONS, ...options };
  const report = deps.report ?? (() => undefined);
  const byType = new Map<EventType, Subscriber[]>();
  for (const s of deps.subscribers) for (const t of s.handles) byType.set(t, [...(byType.get(t) ?? []), s]);
  // types a request attempts at once: those with a subscriber that is not in the background
  const urgent = new Set(deps.subscribers.filter((s) => !s.background).flatMap((s) => s.handles));
  const inFlight = new Set<Promise<unknown>>();
  const track = <A>(work: Promise<A>): Promise<A> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };

  /** The entry's settlement, and what to report once it is stored. */
  const deliver = async (entry: OutboxEntry): Promise<[Settlement, DispatchReport?]> => {
    const done = [...entry.deliveredTo];
    let error: string | undefined;
    const failed: [Subscriber, string][] = [];
    let permanent = false;
    const meta = { id: entry.id, occurredAt: entry.occurredAt, ...(entry.traceparent ? { traceparent: entry.traceparent } : {}) };
    for (const s of byType.get(entry.event._tag) ?? []) {
      if (done.includes(s.name)) continue;
      try {
        await s.handle(entry.event, meta);
        done.push(s.name);
      } catch (e) {
        failed.push([s, describe(e)]);
        error ??= `${s.name}: ${describe(e)}`;
        permanent ||= e instanceof PermanentJobFailure; // retrying cannot mend it (a refused message)
      }
    }
    if (error === undefined) return [{ id: entry.id, outcome: 'delivered', payload: withoutSecrets(entry.event) }];
    const base = { id: entry.id, type: entry.event._tag, attempts: entry.attempts, error, ...(entry.traceparent ? { traceparent: entry.traceparent } : {}) };
    if (permanent || entry.attempts >= o.maxAttempts) {
      // the subscribers that failed the last attempt record it (a notification becomes FAILED); a fault there is logged, not retried
      for (const [s, why] of failed) await s.giveUp?.(entry.event, { ...meta, error: why }).catch((e) => report({ kind: 'outbox_failed', error: `${s.name}.giveUp: ${describe(e)}` }));
      return [{ id: entry.id, outcome: 'given_up', error, deliveredTo: done, payload: withoutSecrets(entry.event) }, { kind: 'given_up', ...base }];
    }
    const retryAt = new Date(deps.clock.now().getTime() + retryDelay(entry.attempts, o));
    return [{ id: entry.id, outcome: 'retry', error, retryAt, deliveredTo: done }, { kind: 'retry', ...base, retryAt }];
  };

  const claimAndDeliver = async (ids?: readonly string[]): Promise<number> => {
    const now = deps.clock.now();
    const entries = await deps.outbox.claim({ now, leaseUntil: new Date(now.getTime() + o.leaseMs), limit: ids?.length ?? o.batchSize, ...(ids ? { ids } : {}) });
    if (entries.length === 0) return 0;
    const outcomes = await Promise.all(entries.map(deliver));
    await deps.outbox.settle(deps.clock.now(), outcomes.map(([settlement]) => settlement));
    for (const [, news] of outcomes) if (news) report(news);
    return entries.length;
  };

  const guarded = (work: Promise<number>): Promise<number> =>
    track(work).catch((e) => {
      report({ kind: 'outbox_failed', error: describe(e) });
      return 0;
    });

  // A full batch means there may be more: go on at once, else rest until the next poll. `guarded`
  // reports a fault itself, so the loop's own report never hears one.
  const loop = pollLoop(
    o.pollMs,
    async (running) => {
      while (running() && (await guarded(claimAndDeliver())) === o.batchSize);
    },
    () => undefined,
  );

  return {
    subscribes: (type) => urgent.has(type),
    async deliverNow(ids) {
      if (ids.length === 0) return;
      let wait: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([guarded(claimAndDeliver(ids)), new Promise((resolve) => (wait = setTimeout(resolve, o.firstAttemptWaitMs)))]);
      clearTimeout(wait);
    },
    runDue: () => guarded(claimAndDeliver()),
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
};
