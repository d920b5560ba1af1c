import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dispatcher } from '../../application/events/dispatcher.js';
import type { DomainEvent } from '../../domain/events.js';
import type { EventRepositories } from '../../application/ports/outbox.js';
import { Rollback, type UnitOfWork } from '../../application/ports/unit-of-work.js';
import { currentTraceparent } from '../tracing/trace-context.js';

/**
 * Work done with the events a transaction records, in that transaction (e.g. the webhook deliveries
 * they make, docs/adr/0043), and a nudge once it has committed.
 */
export interface RecordHook<R> {
  /**
   * Runs in the recording transaction, beside the write of the events' rows (its reads need not wait
   * for it: the statements go out together); `ids` are their outbox ids, in order. Answers whether to
   * nudge after the commit.
   */
  recorded(repos: R, at: Date, events: readonly DomainEvent[], ids: Promise<readonly string[]>, traceparent: string | undefined): Promise<boolean>;
  /** After the commit of a transaction `recorded` answered true for; not awaited, must not throw. */
  committed(): void;
}

/** What a transaction leaves for after its commit: entries to attempt and hooks to nudge. */
interface Pending<R> {
  readonly ids: string[];
  readonly hooks: Set<RecordHook<R>>;
}
const pending = <R>(): Pending<R> => ({ ids: [], hooks: new Set() });

/** Entries committed (or released to the open `atomically`) and waiting for its commit. */
const pendingOfAtomically = new AsyncLocalStorage<Pending<never>>();

/**
 * The unit of work, plus: once a transaction that recorded events with a subscriber has committed,
 * their first delivery attempt, awaited (bounded by the dispatcher) so a request answers after its
 * code was handed to the provider. Inside `atomically` the attempt waits for the outer commit: until
 * then the rows are not visible, and on PGlite another connection would wait for that very
 * transaction. A rolled-back or failed transaction delivers nothing (its rows are gone). `hooks` run
 * in the transaction that records events and are nudged after its commit, the same way.
 */
export const deliverAfterCommit = <R extends EventRepositories>(inner: UnitOfWork<R>, dispatcher: Dispatcher, hooks: readonly RecordHook<R>[] = []): UnitOfWork<R> => {
  // Object.create, not a spread: the SQL adapter's repositories are getters of a prototype (bootstrap/persistence.ts).
  const recording = (repos: R, into: Pending<R>): R => {
    const events: R['events'] = {
      async record(at, ...events) {
        const written = repos.events.record(at, ...events);
        const traceparent = currentTraceparent(); // the request's trace, when it brought one (docs/adr/0066)
        const [ids, nudges] = await Promise.all([written, Promise.all(hooks.map((hook) => hook.recorded(repos, at, events, written, traceparent)))]);
        ids.forEach((id, i) => dispatcher.subscribes(events[i]!._tag) && into.ids.push(id));
        hooks.forEach((hook, i) => nudges[i] && into.hooks.add(hook));
        return ids;
      },
    };
    return Object.create(repos, { events: { value: events, enumerable: true } });
  };
  const afterCommit = async (done: Pending<R>) => {
    for (const hook of done.hooks) hook.committed();
    await dispatcher.deliverNow(done.ids);
  };
  return {
    async run(work) {
      let recorded = pending<R>();
      const result = await inner.run(async (repos) => {
        const attempt = pending<R>(); // a transaction retried after a deadlock records afresh
        const value = await work(recording(repos, attempt));
        recorded = value instanceof Rollback ? pending<R>() : attempt;
        return value;
      });
      const outer = pendingOfAtomically.getStore() as Pending<R> | undefined;
      if (outer) {
        outer.ids.push(...recorded.ids);
        for (const hook of recorded.hooks) outer.hooks.add(hook);
      } else await afterCommit(recorded);
      return result;
    },
    read: (work) => inner.read(work),
    readInTurn: (work) => inner.readInTurn(work),
    giveWay: (upToMs) => inner.giveWay(upToMs),
    async atomically(work) {
      if (pendingOfAtomically.getStore()) return inner.atomically(work);
      let outer = pending<R>();
      const result = await inner.atomically(() => {
        outer = pending<R>();
        return pendingOfAtomically.run(outer as Pending<never>, work);
      });
      await afterCommit(outer);
      return result;
    },
  };
};
