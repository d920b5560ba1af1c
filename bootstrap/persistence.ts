import type { JobQueue } from '../application/ports/job-queue.js';
import { pgBossJobQueue, type PgBossOptions } from '../adapters/jobs/pg-boss.job-queue.js';
import { inMemoryEventsModule } from '../adapters/persistence/in-memory/outbox.in-memory.js';
import { mikroOrmEventsModule, mikroOrmOutbox } from '../adapters/persistence/mikro-orm/outbox.mikro-orm.js';
import type { InMemoryModule } from '../adapters/persistence/in-memory/in-memory-store.js';
import { inMemoryAuthModule } from '../adapters/persistence/in-memory/auth.in-memory.js';
import { inMemoryBusinessModule } from '../adapters/persistence/in-memory/business.in-memory.js';
import { inMemoryCustomersModule } from '../adapters/persistence/in-memory/customers.in-memory.js';
import { inMemoryExpensesModule } from '../adapters/persistence/in-memory/expenses.in-memory.js';
import { inMemoryProductsModule } from '../adapters/persistence/in-memory/products.in-memory.js';
import { inMemorySalesModule } from '../adapters/persistence/in-memory/sales.in-memory.js';
import { inMemoryReportsModule } from '../adapters/persistence/in-memory/reports.in-memory.js';
import { inMemoryNotificationsModule } from '../adapters/persistence/in-memory/notifications.in-memory.js';
import { mikroOrmNotificationsModule } from '../adapters/persistence/mikro-orm/notifications.mikro-orm.js';
import { mikroOrmAuthModule } from '../adapters/persistence/mikro-orm/auth.mikro-orm.js';
import { mikroOrmBusinessModule } from '../adapters/persistence/mikro-orm/business.mikro-orm.js';
import { mikroOrmCustomersModule } from '../adapters/persistence/mikro-orm/customers.mikro-orm.js';
import { mikroOrmExpensesModule } from '../adapters/persistence/mikro-orm/expenses.mikro-orm.js';
import { mikroOrmIdempotencyStore } from '../adapters/persistence/mikro-orm/idempotency-store.mikro-orm.js';
import { mikroOrmProductsModule } from '../adapters/persistence/mikro-orm/products.mikro-orm.js';
import { mikroOrmSalesModule } from '../adapters/persistence/mikro-orm/sales.mikro-orm.js';
import { inMemoryReportExportsModule } from '../adapters/persistence/in-memory/report-exports.in-memory.js';
import { mikroOrmReportExportsModule } from '../adapters/persistence/mikro-orm/report-exports.mikro-orm.js';
import { mikroOrmReportsModule } from '../adapters/persistence/mikro-orm/reports.mikro-orm.js';
import { inMemoryLoanPacksModule } from '../adapters/persistence/in-memory/loan-packs.in-memory.js';
import { inMemorySyncModule } from '../adapters/persistence/in-memory/sync.in-memory.js';
import { mikroOrmSyncModule } from '../adapters/persistence/mikro-orm/sync.mikro-orm.js';
import { mikroOrmLoanPacksModule } from '../adapters/persistence/mikro-orm/loan-packs.mikro-orm.js';
import { inMemoryPartnersModule } from '../adapters/persistence/in-memory/partners.in-memory.js';
import { mikroOrmPartnersModule } from '../adapters/persistence/mikro-orm/partners.mikro-orm.js';
import { listenToChannel, type ChannelListener } from '../adapters/persistence/mikro-orm/channel-listener.js';
import { inMemoryWebhooksModule } from '../adapters/persistence/in-memory/webhooks.in-memory.js';
import { mikroOrmWebhooksModule } from '../adapters/persistence/mikro-orm/webhooks.mikro-orm.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../adapters/persistence/mikro-orm/embedded-postgres.js';
import { isDatabaseUnavailable, isPglite, migrate, openOrm, pingDatabase, redactDatabaseFault } from '../adapters/persistence/mikro-orm/orm.js';
import { mikroOrmUnitOfWork } from '../adapters/persistence/mikro-orm/unit-of-work.mikro-orm.js';
import { openReportsDatabase, type ReportsDatabase } from '../adapters/persistence/mikro-orm/reports-database.mikro-orm.js';
import { database, type Sql } from '../adapters/persistence/mikro-orm/sql-session.js';
import { heardOnConnection, listeningMemberCache, sessionMemberCache } from '../adapters/persistence/mikro-orm/member-cache.js';
import type { MemberCache } from '../application/ports/member-cache.js';
import type { AppRepositories, PersistenceCore } from './persistence-in-memory.js';

export { inMemory, inMemoryUnitOfWork, type AppRepositories } from './persistence-in-memory.js';

/** One module's repositories on each adapter: the same ports, in memory and over SQL. */
const persistenceModule = <R extends object>(inMemory: InMemoryModule<any, R, any>, sql: (db: Sql) => R) => ({ inMemory, sql });

/**
 * Every module's repositories on both adapters. A new module adds its line here and in
 * persistence-in-memory.ts's IN_MEMORY_MODULES, and nothing else outside its own files
 * (application/<module>/ports.ts, adapters/persistence/in-memory/<module>.in-memory.ts,
 * adapters/persistence/mikro-orm/<module>.mikro-orm.ts).
 */
const MODULES = [
  persistenceModule(inMemoryAuthModule, mikroOrmAuthModule),
  persistenceModule(inMemoryBusinessModule, mikroOrmBusinessModule),
  persistenceModule(inMemoryProductsModule, mikroOrmProductsModule),
  persistenceModule(inMemorySalesModule, mikroOrmSalesModule),
  persistenceModule(inMemoryCustomersModule, mikroOrmCustomersModule),
  persistenceModule(inMemoryExpensesModule, mikroOrmExpensesModule),
  persistenceModule(inMemoryEventsModule, mikroOrmEventsModule),
  persistenceModule(inMemoryReportExportsModule, mikroOrmReportExportsModule),
  persistenceModule(inMemoryReportsModule, mikroOrmReportsModule),
  persistenceModule(inMemoryNotificationsModule, mikroOrmNotificationsModule),
  persistenceModule(inMemoryLoanPacksModule, mikroOrmLoanPacksModule),
  persistenceModule(inMemorySyncModule, mikroOrmSyncModule),
  persistenceModule(inMemoryPartnersModule, mikroOrmPartnersModule),
  persistenceModule(inMemoryWebhooksModule, mikroOrmWebhooksModule),
];

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The SQL modules hand out exactly the repositories the in-memory list does (a module missing from either list fails here). */
type SqlRepositories = Intersection<ReturnType<(typeof MODULES)[number]['sql']>>;
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
MODULES.forEach((m, i) => {
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
const sqlRepositories = (db: Sql): AppRepositories => Object.create(lazyPrototype, { [SESSION]: { value: db }, [BUILT]: { value: new Array(MODULES.length) } });

/** The persistence the application runs on, whichever adapter provides it. */
export interface Persistence extends PersistenceCore {
  /** The job queue on this database (pg-boss), when asked for; without one, jobs run in process (docs/adr/0029). */
  readonly jobs?: JobQueue;
  /** The member check's reads remembered while changes are heard (docs/adr/0036): a PostgreSQL server, or the embedded database. */
  readonly memberCache?: MemberCache;
  /** Where report and export reads go when REPORTS_DATABASE_URL is set (docs/adr/0035); unset, the primary. */
  readonly reports?: Pick<ReportsDatabase<AppRepositories>, 'uow' | 'dataAsOf'>;
  /**
   * Calls `heard` for each notice on `channel` from any process (LISTEN, its own connection): only on a
   * PostgreSQL server. Embedded, one process writes, and it wakes its own loops (docs/adr/0043).
   */
  readonly listen?: (channel: string, heard: () => void) => ChannelListener;
}

/**
 * PostgreSQL through MikroORM: the server at `databaseUrl`, or, without one, PGlite in `dataDir`
 * served over a loopback socket to the same driver. Migrations run before it is handed out.
 */
export const openPostgres = async (options: {
  databaseUrl?: string;
  dataDir: string;
  poolMax: number;
  /** How long an unanswered Idempotency-Key claim holds (default 30 s). */
  idempotencyLeaseMs?: number;
  /** See OrmOptions.queryTimeoutMs. */
  queryTimeoutMs?: number;
  log: (message: string) => void;
  /** A job queue (pg-boss) on the same database, with its own small pool. */
  jobs?: Omit<PgBossOptions, 'connectionString'>;
  /** `check`: refuse to start on a database with pending migrations instead of applying them (a worker process). */
  migrations?: 'apply' | 'check';
  /** Reports and exports read here (a streaming replica), never write. */
  reportsDatabaseUrl?: string;
}): Promise<Persistence & { readonly embedded: boolean }> => {
  if (options.reportsDatabaseUrl && !options.databaseUrl) throw new Error('REPORTS_DATABASE_URL needs DATABASE_URL (an embedded database has no replica)');
  let embedded: EmbeddedPostgres | undefined;
  // The socket server resets connections beyond its maximum: room for both pools and a spare.
  const maxConnections = options.poolMax + (options.jobs?.poolMax ?? 0) + 2;
  if (!options.databaseUrl) embedded = await startEmbeddedPostgres({ dataDir: options.dataDir, maxConnections });
  try {
    const orm = await openOrm({
      databaseUrl: options.databaseUrl ?? embedded!.url,
      poolMax: options.poolMax,
      log: options.log,
      ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
      // PGlite answers a new connection's handshake in turn with other work: busy is not unreachable.
      // Its one session's notices come back on the connection that committed (member-cache.ts).
      ...(embedded ? { connectTimeoutMs: 10_000, onNotification: heardOnConnection } : {}),
    });
    try {
      if (options.migrations === 'check') {
        const pending = await orm.getMigrator().getPendingMigrations();
        if (pending.length > 0) throw new Error(`the database has ${pending.length} pending migrations: start the server or run \`npm run cli -- migrate\` first`);
      } else await migrate(orm);
    } catch (e) {
      await orm.close();
      throw e;
    }
    const url = options.databaseUrl ?? embedded!.url;
    // PGlite (ours, or one served at a URL, as the tests' is) serves every connection from one session:
    // a statement name one connection prepares is taken for the others, and a notice reaches whichever
    // connection is running a statement, not the one that listens.
    const oneSession = embedded !== undefined || (await isPglite(orm));
    const db = database(orm, { prepare: !oneSession });
    const reports = options.reportsDatabaseUrl
      ? await openReportsDatabase({ ...options, databaseUrl: options.reportsDatabaseUrl, repositories: sqlRepositories }).catch(async (e) => {
          await orm.close();
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
      uow: mikroOrmUnitOfWork(db, sqlRepositories),
      idempotency: mikroOrmIdempotencyStore(db.pooled, { leaseMs: options.idempotencyLeaseMs ?? 30_000 }),
      outbox: mikroOrmOutbox(db.pooled),
      ping: async (timeoutMs) => {
        const answer = await pingDatabase(orm, timeoutMs);
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
        await orm.close();
        await embedded?.close();
      },
    };
  } catch (e) {
    await embedded?.close();
    throw e;
  }
};
