import { Rollback, type UnitOfWork } from '../../../application/ports/unit-of-work.js';
import { ambientTransaction, inAmbientTransaction, isRetryableConflict } from './ambient-transaction.js';
import type { Database, Sql, SqlTransaction } from './sql-session.js';

class RollbackSignal {
  constructor(readonly value: unknown) {}
}

/**
 * A deadlock or serialization failure is retried once, after a short random pause: the surviving
 * transaction needs only its last statements and commit, and a retry starting at once (on a busy
 * machine) can take a row back before it and deadlock with it a second time.
 */
const retryOnceOnConflict = async <A>(attempt: () => Promise<A>): Promise<A> => {
  try {
    return await attempt();
  } catch (e) {
    if (!isRetryableConflict(e)) throw e;
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 50));
    return attempt();
  }
};

/**
 * One database transaction per unit of work; inside `atomically`, a savepoint of the ambient
 * transaction instead. `repositories` builds every module's repositories over the transaction.
 */
export const sqlUnitOfWork = <R>(db: Database, repositories: (sql: Sql) => R): UnitOfWork<R> => {
  // Reads outside a transaction share one set: the repositories keep no state but their session, and
  // building every module's (a few hundred closures) for each read was a tenth of a product page's garbage.
  let pooled: R | undefined;
  return {
  async run(work) {
    const outer = ambientTransaction();
    const inTransaction = async (tx: SqlTransaction) => {
      const result = await work(repositories(tx));
      if (result instanceof Rollback) throw new RollbackSignal(result.value);
      return result;
    };
    const once = async () => {
      try {
        return outer ? await (await outer.transaction()).savepoint(inTransaction) : await db.transaction(inTransaction);
      } catch (e) {
        if (e instanceof RollbackSignal) return e.value as never;
        throw e;
      }
    };
    // Inside an ambient transaction the whole of it is retried, not this savepoint.
    return outer ? once() : retryOnceOnConflict(once);
  },
  async read(work) {
    const outer = ambientTransaction();
    return work(outer ? repositories(await outer.transaction()) : (pooled ??= repositories(db.pooled)));
  },
  async readInTurn(work) {
    const outer = ambientTransaction();
    if (outer) return work(repositories(await outer.transaction()));
    return db.inTurn((held) => work(repositories(held)));
  },
  // Inside an ambient transaction the database is held until its end: nothing to give way to.
  giveWay: async (upToMs) => (ambientTransaction() ? db.oneSession : db.giveWay(upToMs)),
  atomically: (work) => (ambientTransaction() ? work() : retryOnceOnConflict(() => inAmbientTransaction(() => db.begin(), work))),
  };
};
