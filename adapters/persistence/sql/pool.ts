import pg from 'pg';

/**
 * The connections the repositories' SQL runs on (sql-session.ts): a `pg.Pool` of our own, with the
 * settings MikroORM's pool had (docs/adr/0064). MikroORM only migrates (orm.ts).
 */
export interface PoolOptions {
  readonly databaseUrl: string;
  readonly poolMax: number;
  /**
   * The longest a statement may take (server-side statement_timeout, and the driver's own read
   * deadline a little later, for a network that swallows the answer). Default 10 s.
   */
  readonly queryTimeoutMs?: number;
  /** How long opening a connection may take before the request is answered 503. Default 2 s. */
  readonly connectTimeoutMs?: number;
  /** Every session read-only (default_transaction_read_only): the reports connection, which takes no writes. */
  readonly readOnly?: boolean;
  /** A notice any of the pool's connections hears (the embedded database's member changes, member-cache.ts). */
  readonly onNotification?: (channel: string, payload: string | undefined) => void;
  /** A connection lost while idle or held (the pool drops it and opens another when asked). */
  readonly log?: (message: string) => void;
}

/** How long a request waits for a free connection (or a new one) before it is answered 503. */
const ACQUIRE_TIMEOUT_MS = 5000;
const IDLE_TIMEOUT_MS = 30_000;

/** The parts of a `pg` client the session and the pool use (readyForQuery and connection are pg's, not in its types). */
export interface PoolConnection {
  query(config: { text: string; values?: unknown[]; name?: string }, callback: (error: Error | null, result: PgResult | PgResult[]) => void): void;
  /** pg's pipeline mode: a statement is sent without waiting for the one before to answer. */
  pipeline?: boolean;
  readonly readyForQuery?: boolean;
  readonly connection?: { readonly stream?: { cork?(): void; uncork?(): void; destroy(): void } };
}
export interface PgResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

export interface DatabasePool {
  /** A connection ready for a statement; refused ("timeout exceeded when trying to connect") after 5 s. */
  acquire(): Promise<PoolConnection>;
  release(connection: PoolConnection): void;
  /** A connection handed out or being opened, or a request waiting for one. */
  busy(): boolean;
  /** Connections handed out (or being opened), and requests waiting for one: the metrics' (docs/adr/0065). */
  use(): { readonly inUse: number; readonly waiting: number };
  /** Every connection closed once given back. */
  close(): Promise<void>;
}

/**
 * MikroORM's types, kept: dates, times and intervals come back as the text PostgreSQL sent (the
 * repositories read them so), not as pg's `Date`s in the process's time zone.
 */
const types = new pg.TypeOverrides();
for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, (text: string) => text);
const parseArray = (pg.types.getTypeParser as (oid: number) => (text: string) => unknown)(1009); // text[]: the elements' text
for (const oid of [1182, 1115, 1185, 1187]) types.setTypeParser(oid, (text: string) => parseArray(text));

type Client = PoolConnection & { release(error?: Error): void };
/** A client as its `query` is wrapped (any of pg's call forms). */
type Wrapped = Omit<pg.PoolClient, 'query'> & { query: (config: unknown, values?: unknown, callback?: unknown) => unknown; readonly connection?: { readonly stream?: { destroy(): void } } };

export const openPool = (options: PoolOptions): DatabasePool => {
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const log = options.log ?? (() => undefined);
  // pg.Pool's connectionTimeoutMillis bounds both the wait for a free connection and the opening of
  // a new one; the client's own is the shorter connect deadline (PGlite's may be longer: then 5 s).
  class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    Client: BoundedClient,
    max: options.poolMax,
    min: 0,
    connectionTimeoutMillis: ACQUIRE_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    types,
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + 1000,
    idle_in_transaction_session_timeout: 60_000,
    // A peer that vanished without a reset is noticed by TCP, not only by the next query.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // No JIT: a report's generic estimates (a lateral scan a day) priced a 15 ms statement past jit_above_cost,
    // and LLVM then spent 240 ms compiling it (docs/adr/0086); nothing here runs long enough to pay it back.
    options: `-c jit=off${options.readOnly ? ' -c default_transaction_read_only=on' : ''}`,
  });
  // An idle connection the server closed: pg.Pool drops it; unheard, the event would end the process.
  pool.on('error', (e) => log(`an idle database connection was lost: ${e.message}`));
  pool.on('connect', (client) => {
    const c = client as Wrapped;
    // A held connection that fails between statements says so here (the next statement fails too).
    c.on('error', (e) => log(`a database connection was lost: ${e.message}`));
    // A statement past its read deadline may still wait for an answer that never comes (a network that
    // dropped it): its connection is closed at once, so the server ends the session and frees its locks.
    const query = c.query.bind(c);
    c.query = (config: unknown, values?: unknown, callback?: unknown) => {
      const wrap = (cb: unknown) =>
        typeof cb === 'function'
          ? (error: Error | null, result: unknown) => {
              if (error?.message === 'Query read timeout') c.connection?.stream?.destroy();
              (cb as (e: Error | null, r: unknown) => void)(error, result);
            }
          : cb;
      return typeof values === 'function' ? query(config, wrap(values)) : query(config, values, wrap(callback));
    };
    if (options.onNotification) c.on('notification', (n) => options.onNotification!(n.channel, n.payload));
  });
  return {
    async acquire() {
      for (;;) {
        const client = (await pool.connect()) as unknown as Client;
        if (client.readyForQuery) return client;
        // Never handed to the next request if it is not ready (a statement still unanswered).
        client.connection?.stream?.destroy();
        client.release(new Error('not ready for a statement'));
      }
    },
    release: (connection) => (connection as Client).release(),
    busy: () => pool.totalCount > pool.idleCount || pool.waitingCount > 0,
    use: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
};

/** One statement on a pool connection, given back after. */
const select = async <R>(pool: DatabasePool, text: string): Promise<R[]> => {
  const connection = await pool.acquire();
  try {
    return await new Promise<R[]>((resolve, reject) =>
      connection.query({ text }, (error, result) => (error ? reject(error) : resolve((Array.isArray(result) ? result[0]!.rows : result.rows) as R[]))),
    );
  } finally {
    pool.release(connection);
  }
};

/** True when the server is PGlite (one session behind a socket), not a PostgreSQL server. */
export const isPglite = async (pool: DatabasePool): Promise<boolean> => {
  const rows = await select<{ version: string }>(pool, 'select version() as version');
  return /PGlite/.test(rows[0]?.version ?? '');
};

/** `select 1` with a deadline; false when the database does not answer in time. */
export const pingDatabase = async (pool: DatabasePool, timeoutMs: number): Promise<{ up: boolean; ms: number; error?: string }> => {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      select(pool, 'select 1'),
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
 * A database fault as it may be logged: the statement without the values written into it
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
    // MikroORM's and knex's (migrations at start)
    if (name === 'ConnectionException' || name === 'KnexTimeoutError') return true;
    if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08006', '08001', '08003'].includes(code)) return true;
    // "timeout exceeded when trying to connect": pg.Pool found no free connection in time (or could
    // not open one); "timeout expired" and "... due to connection timeout": the client's connect deadline.
    if (message && /Connection terminated|timeout exceeded when trying to connect|Timeout acquiring a connection|connection timeout|^timeout expired$|Client has encountered a connection error|Query read timeout|Client was closed and is not queryable/i.test(message)) return true;
    // 57014: the statement ran past statement_timeout (a stalled or overloaded database)
    if (code === '57014') return true;
  }
  return false;
};
