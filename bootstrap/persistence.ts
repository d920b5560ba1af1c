import type { UnitOfWork } from '../application/ports/unit-of-work.js';
import type { IdempotencyStore } from '../application/ports/idempotency-store.js';
import { inMemoryIdempotencyStore } from '../adapters/persistence/in-memory/idempotency-store.in-memory.js';
import { mikroOrmIdempotencyStore } from '../adapters/persistence/mikro-orm/products.mikro-orm.js';
import { inMemoryUnitOfWork } from '../adapters/persistence/in-memory/in-memory-store.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../adapters/persistence/mikro-orm/embedded-postgres.js';
import { faultForLog, isDatabaseUnavailable, migrate, openOrm, pingDatabase, type DbTimeouts } from '../adapters/persistence/mikro-orm/orm.js';
import type { Config } from './config.js';
import { mikroOrmUnitOfWork } from '../adapters/persistence/mikro-orm/unit-of-work.mikro-orm.js';

/** The pool's timeouts as the configuration names them. */
export const dbTimeouts = (config: Pick<Config, 'DB_CONNECT_TIMEOUT_MS' | 'DB_ACQUIRE_TIMEOUT_MS' | 'DB_STATEMENT_TIMEOUT_MS' | 'DB_QUERY_TIMEOUT_MS'>): DbTimeouts => ({
  connectMs: config.DB_CONNECT_TIMEOUT_MS,
  acquireMs: config.DB_ACQUIRE_TIMEOUT_MS,
  statementMs: config.DB_STATEMENT_TIMEOUT_MS,
  queryMs: config.DB_QUERY_TIMEOUT_MS,
});

/** The persistence the application runs on, whichever adapter provides it. */
export interface Persistence {
  readonly uow: UnitOfWork;
  readonly idempotency: IdempotencyStore;
  ping(timeoutMs: number): Promise<{ up: boolean; ms: number; error?: string }>;
  isUnavailable(error: unknown): boolean;
  /** A thrown fault as it may be logged (a database error without the values in its SQL). */
  describeFault(error: unknown): unknown;
  close(): Promise<void>;
}

/**
 * PostgreSQL through MikroORM: the server at `databaseUrl`, or, without one, PGlite in `dataDir`
 * served over a loopback socket to the same driver. Migrations run before it is handed out.
 */
export const openPostgres = async (options: {
  databaseUrl?: string;
  dataDir: string;
  poolMax: number;
  timeouts?: DbTimeouts;
  log: (message: string) => void;
}): Promise<Persistence & { readonly embedded: boolean }> => {
  let embedded: EmbeddedPostgres | undefined;
  if (!options.databaseUrl) embedded = await startEmbeddedPostgres({ dataDir: options.dataDir, maxConnections: options.poolMax + 2 });
  try {
    const orm = await openOrm({ databaseUrl: options.databaseUrl ?? embedded!.url, poolMax: options.poolMax, ...(options.timeouts ? { timeouts: options.timeouts } : {}), log: options.log });
    try {
      await migrate(orm);
    } catch (e) {
      await orm.close();
      throw e;
    }
    return {
      embedded: embedded !== undefined,
      uow: mikroOrmUnitOfWork(orm),
      idempotency: mikroOrmIdempotencyStore(() => orm.em.fork()),
      ping: (timeoutMs) => pingDatabase(orm, timeoutMs),
      isUnavailable: isDatabaseUnavailable,
      describeFault: faultForLog,
      async close() {
        await orm.close();
        await embedded?.close();
      },
    };
  } catch (e) {
    await embedded?.close();
    throw e;
  }
};

export const inMemory = (): Persistence => ({
  uow: inMemoryUnitOfWork(),
  idempotency: inMemoryIdempotencyStore(),
  ping: async () => ({ up: true, ms: 0 }),
  isUnavailable: () => false,
  describeFault: (error) => error,
  close: async () => undefined,
});
