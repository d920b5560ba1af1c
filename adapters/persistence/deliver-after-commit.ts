import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dispatcher } from '../../application/events/dispatcher.js';
import type { EventRepositories } from '../../application/ports/outbox.js';
import { Rollback, type UnitOfWork } from '../../application/ports/unit-of-work.js';

/** Entries committed (or released to the open `atomically`) and waiting for its commit. */
const pendingOfAtomically = new AsyncLocalStorage<string[]>();

/**
 * The unit of work, plus: once a transaction that recorded events with a subscriber has committed,
 * their first delivery attempt, awaited (bounded by the dispatcher) so a request answers after its
 * code was handed to the provider. Inside `atomically` the attempt waits for the outer commit: until
 * then the rows are not visible, and on PGlite another connection would wait for that very
 * transaction. A rolled-back or failed transaction delivers nothing (its rows are gone).
 */
export const deliverAfterCommit = <R extends EventRepositories>(inner: UnitOfWork<R>, dispatcher: Dispatcher): UnitOfWork<R> => {
  // Object.create, not a spread: the SQL adapter's repositories are getters of a prototype (bootstrap/persistence.ts).
  const recording = (repos: R, into: string[]): R => {
    const events: R['events'] = {
      async record(at, ...events) {
        const ids = await repos.events.record(at, ...events);
        ids.forEach((id, i) => dispatcher.subscribes(events[i]!._tag) && into.push(id));
        return ids;
      },
    };
    return Object.create(repos, { events: { value: events, enumerable: true } });
  };
  return {
    async run(work) {
      let recorded: string[] = [];
      const result = await inner.run(async (repos) => {
        const attempt: string[] = []; // a transaction retried after a deadlock records afresh
        const value = await work(recording(repos, attempt));
        recorded = value instanceof Rollback ? [] : attempt;
        return value;
      });
      const pending = pendingOfAtomically.getStore();
      if (pending) pending.push(...recorded);
      else await dispatcher.deliverNow(recorded);
      return result;
    },
    read: (work) => inner.read(work),
    readInTurn: (work) => inner.readInTurn(work),
    giveWay: (upToMs) => inner.giveWay(upToMs),
    async atomically(work) {
      if (pendingOfAtomically.getStore()) return inner.atomically(work);
      let pending: string[] = [];
      const result = await inner.atomically(() => {
        pending = [];
        return pendingOfAtomically.run(pending, work);
      });
      await dispatcher.deliverNow(pending);
      return result;
    },
  };
};
