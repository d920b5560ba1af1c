import { pgBossJobQueue, type PgBossOptions } from '../adapters/jobs/pg-boss.job-queue.js';
import { inMemoryEventsModule } from '../adapters/persistence/in-memory/outbox.in-memory.js';
import { sqlEventsModule, sqlOutbox } from '../adapters/persistence/sql/outbox.sql.js';
import { sqlIdempotencyStore } from '../adapters/persistence/sql/idempotency-store.sql.js';
import { listenToChannel, type ChannelListener } from '../adapters/persistence/sql/channel-listener.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../adapters/persistence/sql/embedded-postgres.js';
import { migrateDatabase } from '../adapters/persistence/sql/orm.js';
import { isDatabaseUnavailable, isPglite, openPool, pingDatabase, redactDatabaseFault } from '../adapters/persistence/sql/pool.js';
import { sqlUnitOfWork } from '../adapters/persistence/sql/unit-of-work.sql.js';
import { openReportsDatabase } from '../adapters/persistence/sql/reports-database.sql.js';
import { database, statementTimeoutCount, type Sql } from '../adapters/persistence/sql/sql-session.js';
import { heardOnConnection, listeningMemberCache, sessionMemberCache } from '../adapters/persistence/sql/member-cache.js';
import type { AppRepositories, Persistence } from './persistence-in-memory.js';
import type { ListedMigration } from '../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from './migrations.js';
import { MODULES } from './modules/index.js';
import { repositories } from './modules/module.js';

export { inMemory, inMemoryUnitOfWork, type AppRepositories, type Persistence } from './persistence-in-memory.js';

/**
 * Every module's repositories on both adapters: the outbox's (every module records events) and the
 * ones each module's manifest declares (bootstrap/modules/, docs/adr/0052). persistence-in-memory.ts
 * lists the in-memory halves for the embedder, which loads no manifest; test/unit/bootstrap/modules.test.ts
 * checks that it lists exactly these.
 */
type ModuleRepositories = (typeof MODULES)[number]['repositories'][number];
export const PERSISTENCE_MODULES = [repositories(inMemoryEventsModule, sqlEventsModule), ...MODULES.flatMap((m): readonly ModuleRepositories[] => m.repositories)];

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The SQL modules hand out exactly the repositories the in-memory list does (a module missing from either list fails here). */
type SqlRepositories = Intersection<ReturnType<(typeof PERSISTENCE_MODULES)[number]['sql']>>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameRepositories: Same<SqlRepositories, AppRepositories> = true;
void sameRepositories;

/** Refuses every statement: only to learn which repositories each module builds. */
const noSql: Sql = {
  execute: () => Promise.reject(new Error('not a database')),
  afterCommit: () => undefined,
  beforeCommit: () => Promise.reject(new Error('not a database')),
};
const SESSION = Symbol('session');
const BUILT = Symbol('built');
interface LazyRepositories {
  readonly [SESSION]: Sql;
  readonly [BUILT]: (object | undefined)[];
}
/**
 * Every module's repositories over `db`, each module built when one of its repositories is first
 * used: a transaction uses a few of the fourteen, and building all of them (a few hundred closures)
 * cost about 40 µs a transaction. The repositories are getters of one prototype, so a copy made by
 * spreading (`{ ...repos }`) would have none: derive with `Object.create(repos, …)`.
 */
const lazyPrototype: object = {};
PERSISTENCE_MODULES.forEach((m, i) => {
  for (const key of Object.keys(m.sql(noSql))) {
    Object.defineProperty(lazyPrototype, key, {
      enumerable: true,
      get(this: LazyRepositories) {
        const built = (this[BUILT][i] ??= m.sql(this[SESSION])) as Record<string, unknown>;
        return built[key];
      },
    });
  }
});
const sqlRepositories = (db: Sql): AppRepositories => Object.create(lazyPrototype, { [SESSION]: { value: db }, [BUILT]: { value: new Array(PERSISTENCE_MODULES.length) } });

/**
 * PostgreSQL on our `pg` pool: the server at `databaseUrl`, or, without one, PGlite in `dataDir`
 * served over a loopback socket to the same driver. Migrations (MikroORM, one connection, closed
 * again) run before the pool opens.
 */
export const openPostgres = async (options: {
  databaseUrl?: string;
  dataDir: string;
  poolMax: number;
  /** How long an unanswered Idempotency-Key claim holds (default 30 s). */
  idempotencyLeaseMs?: number;
  /** See PoolOptions.queryTimeoutMs. */
  queryTimeoutMs?: number;
  log: (message: string) => void;
  /** A job queue (pg-boss) on the same database, with its own small pool. */
  jobs?: Omit<PgBossOptions, 'connectionString'>;
  /** `check`: refuse to start on a database with pending migrations instead of applying them (a worker process). */
  migrations?: 'apply' | 'check';
  /** The migrations to apply or check: every manifest's (MIGRATIONS) unless given (a test's scratch module). */
  migrationList?: readonly ListedMigration[];
  /** Reports and exports read here (a streaming replica), never write. */
  reportsDatabaseUrl?: string;
}): Promise<Persistence & { readonly embedded: boolean }> => {
  if (options.reportsDatabaseUrl && !options.databaseUrl) throw new Error('REPORTS_DATABASE_URL needs DATABASE_URL (an embedded database has no replica)');
  let embedded: EmbeddedPostgres | undefined;
  // The socket server resets connections beyond its maximum: room for both pools and a spare (the
  // migrations' one connection is closed before the pool opens).
  const maxConnections = options.poolMax + (options.jobs?.poolMax ?? 0) + 2;
  if (!options.databaseUrl) embedded = await startEmbeddedPostgres({ dataDir: options.dataDir, maxConnections });
  try {
    const url = options.databaseUrl ?? embedded!.url;
    // PGlite answers a new connection's handshake in turn with other work: busy is not unreachable.
    const connectTimeoutMs = embedded ? { connectTimeoutMs: 10_000 } : {};
    const queryTimeoutMs = options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {};
    await migrateDatabase({ databaseUrl: url, log: options.log, mode: options.migrations ?? 'apply', migrations: options.migrationList ?? MIGRATIONS, ...connectTimeoutMs, ...queryTimeoutMs });
    const pool = openPool({
      databaseUrl: url,
      poolMax: options.poolMax,
      log: options.log,
      ...queryTimeoutMs,
      ...connectTimeoutMs,
      // Its one session's notices come back on the connection that committed (member-cache.ts).
      ...(embedded ? { onNotification: heardOnConnection } : {}),
    });
    // PGlite (ours, or one served at a URL, as the tests' is) serves every connection from one session:
    // a statement name one connection prepares is taken for the others, and a notice reaches whichever
    // connection is running a statement, not the one that listens.
    const oneSession = embedded !== undefined || (await isPglite(pool).catch(async (e) => {
      await pool.close();
      throw e;
    }));
    const db = database(pool, { prepare: !oneSession });
    const reports = options.reportsDatabaseUrl
      ? await openReportsDatabase({ ...options, databaseUrl: options.reportsDatabaseUrl, repositories: sqlRepositories }).catch(async (e) => {
          await pool.close();
          throw e;
        })
      : undefined;
    const jobs = options.jobs ? pgBossJobQueue({ ...options.jobs, connectionString: url }) : undefined;
    // Our own PGlite: only this process's connections reach its session, and each hears its commits'
    // notices. A PGlite served at a URL (the tests') may have writers elsewhere: not remembered there.
    const memberCache = embedded
      ? sessionMemberCache({ execute: (sql) => db.pooled.execute(sql) })
      : oneSession
        ? undefined
        : listeningMemberCache({ connectionString: url, log: (message, error) => options.log(`${message}: ${error instanceof Error ? error.message : String(error)}`) });
    await memberCache?.ready;
    const listeners = new Set<ChannelListener>();
    const listen = (channel: string, heard: () => void): ChannelListener => {
      const l = listenToChannel({ connectionString: url, channel, heard, log: (message, error) => options.log(`${message}: ${error instanceof Error ? error.message : String(error)}`) });
      listeners.add(l);
      return {
        ready: l.ready,
        async close() {
          listeners.delete(l);
          await l.close();
        },
      };
    };
    return {
      ...(oneSession ? {} : { listen }),
      ...(memberCache ? { memberCache } : {}),
      embedded: embedded !== undefined,
      ...(jobs ? { jobs } : {}),
      ...(reports ? { reports } : {}),
      poolStats: () => ({ ...pool.use(), max: options.poolMax, statementTimeouts: statementTimeoutCount() }),
      uow: sqlUnitOfWork(db, sqlRepositories),
      idempotency: sqlIdempotencyStore(db.pooled, { leaseMs: options.idempotencyLeaseMs ?? 30_000 }),
      outbox: sqlOutbox(db.pooled),
      ping: async (timeoutMs) => {
        const answer = await pingDatabase(pool, timeoutMs);
        // PGlite runs in this process and one statement at a time: a ping queued behind another
        // tenant's work is a busy database, not a down one (it cannot lose its network).
        return embedded && !answer.up && answer.error?.startsWith('no answer within') ? { up: true, ms: answer.ms, busy: true } : answer;
      },
      isUnavailable: isDatabaseUnavailable,
      redact: redactDatabaseFault,
      async close() {
        for (const l of listeners) await l.close();
        await memberCache?.close();
        await jobs?.stop();
        await reports?.close();
        await pool.close();
        await embedded?.close();
      },
    };
  } catch (e) {
    await embedded?.close();
    throw e;
  }
};
