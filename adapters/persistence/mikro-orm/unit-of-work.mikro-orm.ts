import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Rollback, type UnitOfWork } from '../../../application/ports/unit-of-work.js';
import { mikroOrmRepositories } from './repositories.mikro-orm.js';

class RollbackSignal {
  constructor(readonly value: unknown) {}
}

/**
 * The transaction a request runs in, when it runs in one (an idempotent request: its writes and its
 * stored answer commit together). Units of work started inside join it as savepoints, and reads use
 * it too (on the embedded database a second connection would wait for this one's commit).
 */
const ambient = new AsyncLocalStorage<EntityManager>();

/** Runs `work` in one transaction that every unit of work started inside joins. */
export const inOneTransaction = <A>(orm: MikroORM, work: (em: EntityManager) => Promise<A>): Promise<A> =>
  orm.em.fork().transactional((em) => ambient.run(em, () => work(em)));

/** A deadlock (40P01) or serialization failure (40001): the transaction was undone and may simply run again. */
export const isRetryableConflict = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { code, name } = e as { code?: string; name?: string };
    if (code === '40P01' || code === '40001' || name === 'DeadlockException') return true;
  }
  return false;
};

/**
 * One forked EntityManager and one database transaction per unit of work (a savepoint inside a
 * request's transaction). A transaction chosen as a deadlock victim runs once more: every stock
 * change locks rows in id order, so a second deadlock is unlikely, and the caller gets the fault then.
 */
export const mikroOrmUnitOfWork = (orm: MikroORM): UnitOfWork => ({
  async run(work) {
    const attempt = () =>
      (ambient.getStore() ?? orm.em.fork()).transactional((em) =>
        ambient.run(em, async () => {
          const result = await work(mikroOrmRepositories(em));
          if (result instanceof Rollback) throw new RollbackSignal(result.value);
          return result;
        }),
      );
    try {
      try {
        return await attempt();
      } catch (e) {
        if (!isRetryableConflict(e)) throw e;
        return await attempt();
      }
    } catch (e) {
      if (e instanceof RollbackSignal) return e.value as never;
      throw e;
    }
  },
  read: (work) => work(mikroOrmRepositories(ambient.getStore() ?? orm.em.fork())),
});
