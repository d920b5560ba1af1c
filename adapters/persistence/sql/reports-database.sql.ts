import type { UnitOfWork } from '../../../application/ports/unit-of-work.js';
import { openPool } from './pool.js';
import { database, type Sql } from './sql-session.js';

/** The reports' own connection (REPORTS_DATABASE_URL, typically a streaming replica; docs/adr/0035). */
export interface ReportsDatabase<R> {
  /** Reads only: `run` and `atomically` refuse, and every session is read-only as well. */
  readonly uow: UnitOfWork<R>;
  /**
   * On a replica, the commit time of the last transaction it replayed: the report's figures hold at
   * least everything committed up to then (asked before the report's queries, so it is a lower
   * bound). Null on a primary. On an idle primary it stays old though nothing is missing.
   */
  dataAsOf(): Promise<Date | null>;
  close(): Promise<void>;
}

const refuse = async (): Promise<never> => {
  throw new Error('the reports database takes no writes (REPORTS_DATABASE_URL)');
};

export const openReportsDatabase = async <R>(options: {
  databaseUrl: string;
  poolMax: number;
  queryTimeoutMs?: number;
  log: (message: string) => void;
  repositories: (sql: Sql) => R;
  /** See DatabaseOptions.prepare (default true: a replica is a PostgreSQL server). */
  prepare?: boolean;
}): Promise<ReportsDatabase<R>> => {
  const pool = openPool({
    databaseUrl: options.databaseUrl,
    poolMax: options.poolMax,
    log: options.log,
    readOnly: true,
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
  });
  const db = database(pool, { prepare: options.prepare ?? true });
  let repositories: R | undefined; // stateless but for their session: built once
  return {
    uow: { run: refuse, atomically: refuse, read: (work) => work((repositories ??= options.repositories(db.pooled))), readInTurn: (work) => db.inTurn((held) => work(options.repositories(held))), giveWay: async () => false },
    async dataAsOf() {
      const rows = await db.pooled.execute<{ recovery: boolean; replayed: Date | string | null }[]>(
        'select pg_is_in_recovery() as recovery, pg_last_xact_replay_timestamp() as replayed',
      );
      const row = rows[0]!;
      return row.recovery && row.replayed !== null ? new Date(row.replayed) : null;
    },
    close: () => pool.close(),
  };
};
