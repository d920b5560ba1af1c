import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { migrationsList } from './migrations/index.js';
import { allSchemas } from './schemas.js';

export interface OrmOptions {
  readonly databaseUrl: string;
  readonly poolMax: number;
  /** Where the ORM's own messages (migrator progress) go. */
  readonly log: (message: string) => void;
}

/** Opens the ORM on a PostgreSQL URL (a real server or the embedded PGlite socket). */
export const openOrm = (options: OrmOptions): Promise<MikroORM> =>
  MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.databaseUrl,
    entities: allSchemas,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
    discovery: { disableDynamicFileAccess: true, warnWhenNoEntities: false },
    pool: { min: 0, max: options.poolMax, acquireTimeoutMillis: 5000, idleTimeoutMillis: 30_000 },
    // Fail fast when the server is unreachable: the request is answered 503, not left hanging.
    driverOptions: { connection: { connectionTimeoutMillis: 2000 } },
    allowGlobalContext: false,
    debug: ['info'],
    logger: options.log,
  });

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
    if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08006', '08001', '08003'].includes(code)) return true;
    // "timeout expired": pg's own connectionTimeoutMillis firing (a server that accepts no connection).
    if (message && /Connection terminated|Timeout acquiring a connection|connection timeout|^timeout expired$|Client has encountered a connection error/i.test(message)) return true;
  }
  return false;
};
