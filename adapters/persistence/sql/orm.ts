import { Migrator } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import { MikroORM, PostgreSqlDriver, type PoolConfig } from '@mikro-orm/postgresql';

export interface OrmOptions {
  readonly databaseUrl: string;
  readonly poolMax: number;
  /**
   * The longest a statement may take (server-side statement_timeout, and the driver's own read
   * deadline a little later, for a network that swallows the answer). Default 10 s.
   */
  readonly queryTimeoutMs?: number;
  /** How long opening a connection may take before the request is answered 503. Default 2 s. */
  readonly connectTimeoutMs?: number;
  /** Where the ORM's own messages (migrator progress) go. */
  readonly log: (message: string) => void;
  /** Every session read-only (default_transaction_read_only): the reports connection, which takes no writes. */
  readonly readOnly?: boolean;
  /** A notice any of the pool's connections hears (the embedded database's member changes, member-cache.ts). */
  readonly onNotification?: (channel: string, payload: string | undefined) => void;
  /**
   * The migrations `migrate` applies, in order: the modules' manifests' (bootstrap/migrations.ts
   * MIGRATIONS, docs/adr/0062). None for a connection that only reads (the reports replica).
   */
  readonly migrations?: readonly MigrationObject[];
}

/** Opens the ORM on a PostgreSQL URL (a real server or the embedded PGlite socket). */
/** knex hands `validate` to its pool (tarn) though MikroORM's PoolConfig type does not name it. */
const pool = (max: number, onNotification?: OrmOptions['onNotification']): PoolConfig & { validate(connection: PgClient): boolean } => ({
  min: 0,
  max,
  acquireTimeoutMillis: 5000,
  idleTimeoutMillis: 30_000,
  // A statement past its read deadline may still wait for an answer that never comes (a network that
  // dropped it): its connection is closed at once, so the server ends the session and frees its locks.
  afterCreate: (connection: PgClient, done: (error: Error | null, connection: PgClient) => void) => {
    const query = connection.query.bind(connection);
    connection.query = (config: unknown, values?: unknown, callback?: unknown) => {
      const wrap = (cb: unknown) =>
        typeof cb === 'function'
          ? (error: Error | null, result: unknown) => {
              if (error?.message === 'Query read timeout') connection.connection?.stream?.destroy();
              (cb as (e: Error | null, r: unknown) => void)(error, result);
            }
          : cb;
      return typeof values === 'function' ? query(config, wrap(values)) : query(config, values, wrap(callback));
    };
    if (onNotification) connection.on('notification', (n) => onNotification(n.channel, n.payload));
    done(null, connection);
  },
  // And never handed to the next request if it is not ready.
  validate: (connection) => {
    if (connection.readyForQuery) return true;
    connection.connection?.stream?.destroy();
    return false;
  },
});

/** The parts of a `pg` client the pool looks at to tell a usable connection from a stuck one. */
interface PgClient {
  query: (config: unknown, values?: unknown, callback?: unknown) => unknown;
  on(event: 'notification', listener: (notice: { channel: string; payload?: string }) => void): unknown;
  readonly readyForQuery?: boolean;
  readonly connection?: { readonly stream?: { destroy(): void } };
}

export const openOrm = (options: OrmOptions): Promise<MikroORM> => {
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  return MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.databaseUrl,
    // No entity mappings: every table is read and written with SQL on the transaction (docs/adr/0019).
    entities: [],
    extensions: [Migrator],
    migrations: { migrationsList: [...(options.migrations ?? [])], transactional: true, allOrNothing: true, snapshot: false },
    discovery: { disableDynamicFileAccess: true, warnWhenNoEntities: false },
    pool: pool(options.poolMax, options.onNotification),
    driverOptions: {
      connection: {
        // Fail fast when the server is unreachable: the request is answered 503, not left hanging.
        connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
        statement_timeout: queryTimeoutMs,
        query_timeout: queryTimeoutMs + 1000,
        idle_in_transaction_session_timeout: 60_000,
        // A peer that vanished without a reset is noticed by TCP, not only by the next query.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
      },
    },
    allowGlobalContext: false,
    debug: ['info'],
    logger: options.log,
  });
};

export const migrate = async (orm: MikroORM): Promise<string[]> =>
  (await orm.getMigrator().up()).map((m) => m.name);

/** True when the server is PGlite (one session behind a socket), not a PostgreSQL server. */
export const isPglite = async (orm: MikroORM): Promise<boolean> => {
  const rows = await orm.em.getConnection().execute<{ version: string }[]>('select version() as version');
  return /PGlite/.test(rows[0]?.version ?? '');
};

/** `select 1` with a deadline; false when the database does not answer in time. */
export const pingDatabase = async (orm: MikroORM, timeoutMs: number): Promise<{ up: boolean; ms: number; error?: string }> => {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      orm.em.getConnection().execute('select 1'),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))),
    ]);
    return { up: true, ms: Math.round(performance.now() - started) };
  } catch (e) {
    return { up: false, ms: Math.round(performance.now() - started), error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
};

/**
 * A database fault as it may be logged: the statement without the values the driver wrote into it
 * (phones, names), and none of the fields PostgreSQL fills with row data (detail, where).
 */
export const redactDatabaseFault = (error: unknown): unknown => {
  if (!(error instanceof Error) || !('sqlState' in error || 'routine' in error || 'severity' in error)) return error;
  const e = error as Error & { code?: string; table?: string; constraint?: string; column?: string; routine?: string };
  const message = e.message
    .replace(/'(?:[^']|'')*'/g, '?') // literals in the statement
    .replace(/(?<![\w".$])-?\d+(?:\.\d+)?(?![\w"])/g, '?') // numbers too (amounts, quantities), not $1 nor names like t0
    .replace(/: "(?:[^"]|"")*"\s*$/, ': ?') // the value a "invalid input syntax" message quotes
    .replace(/\n - detail: [\s\S]*$/, ''); // "Key (phone)=(+234...) already exists"
  const [, ...frames] = (e.stack ?? '').split('\n');
  return {
    type: e.name,
    message,
    code: e.code,
    table: e.table,
    constraint: e.constraint,
    column: e.column,
    routine: e.routine,
    stack: [`${e.name}: ${message}`, ...frames.filter((l) => l.trim().startsWith('at '))].join('\n'),
  };
};

/** Faults that mean the database is unreachable (answered 503) rather than a bug (500). */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { name, code, message } = e as { name?: string; code?: string; message?: string };
    if (name === 'ConnectionException' || name === 'KnexTimeoutError') return true;
    if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08006', '08001', '08003'].includes(code)) return true;
    // "timeout expired": pg's own connectionTimeoutMillis firing (a server that accepts no connection).
    if (message && /Connection terminated|Timeout acquiring a connection|connection timeout|^timeout expired$|Client has encountered a connection error|Query read timeout/i.test(message)) return true;
    // 57014: the statement ran past statement_timeout (a stalled or overloaded database)
    if (code === '57014') return true;
  }
  return false;
};
