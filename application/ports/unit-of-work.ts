/**
 * Runs work in one transaction: it commits when the work returns and rolls back when it throws.
 * A use case that must undo its writes while answering with a business failure returns
 * `rollback(value)`: the transaction is rolled back and `value` is returned.
 *
 * `R` is the repositories the work is handed: each use case names only those it uses (e.g.
 * `UnitOfWork<Pick<ProductRepositories, 'products'>>`); the adapters hand out every module's, so one
 * unit of work serves every use case. Inside one unit of work a repository reads its own writes.
 */
export interface UnitOfWork<R = unknown> {
  run<A>(work: (repos: R) => Promise<A | Rollback<A>>): Promise<A>;
  /** Runs reads outside a transaction (no BEGIN/COMMIT round trips): lists, lookups, the per-request actor check. */
  read<A>(work: (repos: R) => Promise<A>): Promise<A>;
  /**
   * Like `read`, for reads that follow one another (a page, then its products' stock): the adapter
   * may run them on one connection, so a later read does not wait again for a free one. `work` runs
   * its reads one at a time and opens no unit of work of its own.
   */
  readInTurn<A>(work: (repos: R) => Promise<A>): Promise<A>;
  /**
   * Runs `work` so that every unit of work, read and idempotent answer inside it commits together,
   * or not at all. A deadlock or serialization failure runs `work` once more. A value an adapter
   * takes only with the COMMIT (a sale's receipt number, `SaleRepository.addNumberedAtCommit`) is a
   * placeholder inside `work`; in the strings of what `atomically` returns (plain objects and arrays),
   * it is the value.
   */
  atomically<A>(work: () => Promise<A>): Promise<A>;
  /**
   * Called by a long job between its units of work (an import's chunks, docs/adr/0041): lets the
   * requests waiting for the database go first, waiting at most `upToMs`. Where one transaction holds
   * up every other (the embedded PGlite) it waits until nothing else is using or asking for the
   * database; where transactions run side by side (PostgreSQL), and inside `atomically`, at once.
   * Answers whether a transaction here holds up every other (then a job keeps its transactions short).
   */
  giveWay(upToMs: number): Promise<boolean>;
}

export class Rollback<A> {
  constructor(readonly value: A) {}
}
export const rollback = <A>(value: A): Rollback<A> => new Rollback(value);
