import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { migrationsList } from './migrations/index.js';
import { allSchemas } from './schemas.js';

/** How long the pool waits for the database, in milliseconds (the README's DB_*_MS settings). */
export interface DbTimeouts {
  /** Opening a connection (TCP + startup). */
  readonly connectMs: number;
  /** Waiting for a free pooled connection. */
  readonly acquireMs: number;
  /** The server cancels a statement running longer (PostgreSQL `statement_timeout`); the connection stays usable. */
  readonly statementMs: number;
  /** No answer at all by then (a dead network): the query fails and its connection is destroyed (pg `query_timeout`). */
  readonly queryMs: number;
}

export const DEFAULT_DB_TIMEOUTS: DbTimeouts = { connectMs: 2000, acquireMs: 5000, statementMs: 10_000, queryMs: 15_000 };

export interface OrmOptions {
  readonly databaseUrl: string;
  readonly poolMax: number;
  readonly timeouts?: DbTimeouts;
  /** Where the ORM's own messages (migrator progress) go. */
  readonly log: (message: string) => void;
}

/** What the pool sees of a node-postgres client. */
interface PgClient {
  query(...args: unknown[]): unknown;
  end(): unknown;
  __knex__disposed?: unknown;
}

/**
 * pg's `query_timeout` fails the query but leaves the client waiting for the lost answer, and the
 * pool would hand it out again (every later query on it hangs too). On that error the client is
 * ended at once (pg destroys the socket of a client with a query in flight) and marked disposed,
 * so the pool drops it and the transaction's ROLLBACK fails fast instead of queueing behind it.
 */
const dropOnReadTimeout = (conn: PgClient, done: (err: Error | null, conn: PgClient) => void) => {
  const query = conn.query.bind(conn);
  conn.query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: Error | null, ...rest: unknown[]) => {
        if (err?.message === 'Query read timeout') {
          conn.__knex__disposed = err;
          void Promise.resolve(conn.end()).catch(() => undefined);
        }
        return (callback as (...a: unknown[]) => unknown)(err, ...rest);
      };
    }
    return query(...args);
  };
  done(null, conn);
};

/** Opens the ORM on a PostgreSQL URL (a real server or the embedded PGlite socket). */
export const openOrm = (options: OrmOptions): Promise<MikroORM> => {
  const t = options.timeouts ?? DEFAULT_DB_TIMEOUTS;
  // `?host=/dir`: a Unix socket directory (the embedded database); MikroORM reads only the URL's host name.
  const socketDir = new URL(options.databaseUrl).searchParams.get('host');
  return MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.databaseUrl,
    entities: allSchemas,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    discovery: { disableDynamicFileAccess: true, warnWhenNoEntities: false },
    pool: {
      min: 0,
      max: options.poolMax,
      acquireTimeoutMillis: t.acquireMs,
      createTimeoutMillis: t.connectMs + 1000,
      destroyTimeoutMillis: 1000,
      idleTimeoutMillis: 30_000,
      afterCreate: dropOnReadTimeout,
    },
    driverOptions: {
      connection: {
        ...(socketDir ? { host: socketDir } : {}),
        // Fail fast when the server is unreachable: the request is answered 503, not left hanging.
        connectionTimeoutMillis: t.connectMs,
        statement_timeout: t.statementMs,
        query_timeout: t.queryMs,
        // A session whose client vanished mid-transaction gives its locks back.
        idle_in_transaction_session_timeout: Math.max(60_000, t.queryMs * 2),
        // Idle pooled sockets to a server that went away are noticed by the kernel.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      },
      // knex's own warnings ("Connection Error: ..." when it drops a dead connection) go to our log.
      log: { warn: options.log, error: options.log, deprecate: options.log, debug: options.log },
    },
    allowGlobalContext: false,
    debug: ['info'],
    logger: options.log,
  });
};

export const migrate = async (orm: MikroORM): Promise<string[]> =>
  (await orm.getMigrator().up()).map((m) => m.name);

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

/** Faults that mean the database is unreachable (answered 503) rather than a bug (500). */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { name, code, message } = e as { name?: string; code?: string; message?: string };
    if (name === 'ConnectionException' || name === 'KnexTimeoutError') return true;
    if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08006', '08001', '08003', '57014'].includes(code)) return true;
    // "timeout expired": pg's own connectionTimeoutMillis firing (a server that accepts no connection);
    // "Query read timeout": no answer within query_timeout (a dead network); 57014: statement_timeout.
    if (message && /Connection terminated|Timeout acquiring a connection|connection timeout|^timeout expired$|Client has encountered a connection error|Query read timeout|Client was closed and is not queryable/i.test(message)) return true;
  }
  return false;
};

// A quoted literal anywhere; a number in the SQL that is not part of a name ("t0", $1, 1.5 inside "x1.5").
const QUOTED_LITERAL = /'(?:[^']|'')*'/g;
const NUMBER_LITERAL = /(?<![\w".$])-?\d+(?:\.\d+)?(?![\w"])/g;
// PostgreSQL quotes the offending value at the end of some messages: `...type integer: "abc"`.
const QUOTED_VALUE = /: "(?:[^"]|"")*"/g;

/**
 * A database fault as it may be logged: the statement with every value replaced by `?` (the
 * driver inlines parameters into the message, and they are phones and names), PostgreSQL's own
 * message, code, table and constraint; never `detail` (`Key (phone)=(+234...)`) nor the values.
 */
export const faultForLog = (error: unknown): Record<string, unknown> => {
  if (!(error instanceof Error)) return { message: String(error) };
  const e = error as Error & { code?: string; table?: string; constraint?: string; column?: string };
  // MikroORM appends `\n - detail: ...` (the values again); the driver puts `<sql> - ` before the message.
  const text = e.message.split('\n - detail: ')[0]!.replace(QUOTED_LITERAL, '?');
  const split = text.lastIndexOf(' - '); // the SQL may hold ` - ` itself (quantity - ?), the message seldom
  const hasSql = split > 0 && /^\s*(select|insert|update|delete|with|begin|commit|rollback|savepoint|release|set|lock|create|alter|drop)\b/i.test(text);
  const sql = hasSql ? text.slice(0, split).replace(NUMBER_LITERAL, '?') : undefined;
  const message = (hasSql ? text.slice(split + 3) : text).replace(QUOTED_VALUE, ': ?');
  return {
    type: e.name,
    message,
    ...(sql ? { sql } : {}),
    ...(e.code ? { code: e.code } : {}),
    ...(e.table ? { table: e.table } : {}),
    ...(e.constraint ? { constraint: e.constraint } : {}),
    ...(e.column ? { column: e.column } : {}),
    // the stack's first lines repeat the message (with the values): the clean message, then the frames
    ...(e.stack ? { stack: [`${e.name}: ${message}`, ...e.stack.split('\n').filter((l) => /^\s+at /.test(l))].join('\n') } : {}),
  };
};
