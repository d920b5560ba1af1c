import type { UnitOfWork } from '../application/ports/unit-of-work.js';
import type { IdempotencyStore } from '../application/ports/idempotency-store.js';
import { inMemoryIdempotencyStore } from '../adapters/persistence/in-memory/idempotency-store.in-memory.js';
import { mikroOrmIdempotencyStore } from '../adapters/persistence/mikro-orm/idempotency-store.mikro-orm.js';
import { inMemoryUnitOfWork } from '../adapters/persistence/in-memory/in-memory-store.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../adapters/persistence/mikro-orm/embedded-postgres.js';
import { isDatabaseUnavailable, migrate, openOrm, pingDatabase } from '../adapters/persistence/mikro-orm/orm.js';
import { mikroOrmUnitOfWork } from '../adapters/persistence/mikro-orm/unit-of-work.mikro-orm.js';

/** The persistence the application runs on, whichever adapter provides it. */
export interface Persistence {
  readonly uow: UnitOfWork;
  readonly idempotency: IdempotencyStore;
  ping(timeoutMs: number): Promise<{ up: boolean; ms: number; error?: string }>;
  isUnavailable(error: unknown): boolean;
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
  log: (message: string) => void;
}): Promise<Persistence & { readonly embedded: boolean }> => {
  let embedded: EmbeddedPostgres | undefined;
  if (!options.databaseUrl) embedded = await startEmbeddedPostgres({ dataDir: options.dataDir, maxConnections: options.poolMax + 2 });
  try {
    const orm = await openOrm({ databaseUrl: options.databaseUrl ?? embedded!.url, poolMax: options.poolMax, log: options.log });
    try {
      await migrate(orm);
    } catch (e) {
      await orm.close();
      throw e;
    }
    return {
      embedded: embedded !== undefined,
      uow: mikroOrmUnitOfWork(orm),
      idempotency: mikroOrmIdempotencyStore(orm),
      ping: (timeoutMs) => pingDatabase(orm, timeoutMs),
      isUnavailable: isDatabaseUnavailable,
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
  close: async () => undefined,
});
