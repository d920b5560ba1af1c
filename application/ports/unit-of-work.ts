import type { Repositories } from './repositories.js';

/**
 * Runs work in one transaction: it commits when the work returns and rolls back when it throws.
 * A use case that must undo its writes while answering with a business failure returns
 * `rollback(value)`: the transaction is rolled back and `value` is returned.
 */
export interface UnitOfWork {
  run<A>(work: (repos: Repositories) => Promise<A | Rollback<A>>): Promise<A>;
  /** Runs reads outside a transaction (no BEGIN/COMMIT round trips): lists, lookups, the per-request actor check. */
  read<A>(work: (repos: Repositories) => Promise<A>): Promise<A>;
  /**
   * Runs `work` so that every unit of work, read and idempotent answer inside it commits together,
   * or not at all. A deadlock or serialization failure runs `work` once more.
   */
  atomically<A>(work: () => Promise<A>): Promise<A>;
}

export class Rollback<A> {
  constructor(readonly value: A) {}
}
export const rollback = <A>(value: A): Rollback<A> => new Rollback(value);
