import { Migrator } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import { MikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';

/**
 * MikroORM keeps the schema: the migrations and their table (docs/adr/0064). It is opened for them
 * with one connection and closed again; the repositories' SQL runs on the pool of pool.ts.
 */
export interface MigrationOptions {
  readonly databaseUrl: string;
  /** Where the ORM's own messages (migrator progress) go. */
  readonly log: (message: string) => void;
  /** See PoolOptions.queryTimeoutMs: a migration's statements have the same deadline. */
  readonly queryTimeoutMs?: number;
  /** See PoolOptions.connectTimeoutMs. */
  readonly connectTimeoutMs?: number;
  /**
   * The migrations `migrate` applies, in order: the modules' manifests' (bootstrap/migrations.ts
   * MIGRATIONS, docs/adr/0062).
   */
  readonly migrations: readonly MigrationObject[];
}

/** Opens the ORM on a PostgreSQL URL (a real server or the embedded PGlite socket), one connection. */
export const openOrm = (options: MigrationOptions): Promise<MikroORM> => {
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  return MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.databaseUrl,
    // No entity mappings: every table is read and written with SQL (docs/adr/0019).
    entities: [],
    extensions: [Migrator],
    migrations: { migrationsList: [...options.migrations], transactional: true, allOrNothing: true, snapshot: false },
    discovery: { disableDynamicFileAccess: true, warnWhenNoEntities: false },
    pool: { min: 0, max: 1, acquireTimeoutMillis: 5000 },
    driverOptions: {
      connection: {
        connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
        statement_timeout: queryTimeoutMs,
        query_timeout: queryTimeoutMs + 1000,
        idle_in_transaction_session_timeout: 60_000,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      },
    },
    allowGlobalContext: false,
    debug: ['info'],
    logger: options.log,
  });
};

export const migrate = async (orm: MikroORM): Promise<string[]> =>
  (await orm.getMigrator().up()).map((m) => m.name);

/**
 * The schema brought up to date (`apply`), or only checked (`check`: refuses a database with pending
 * migrations, for a worker process); the ORM and its connection are closed before it returns.
 */
export const migrateDatabase = async (options: MigrationOptions & { readonly mode?: 'apply' | 'check' }): Promise<string[]> => {
  const orm = await openOrm(options);
  try {
    if (options.mode === 'check') {
      const pending = await orm.getMigrator().getPendingMigrations();
      if (pending.length > 0) throw new Error(`the database has ${pending.length} pending migrations: start the server or run \`npm run cli -- migrate\` first`);
      return [];
    }
    return await migrate(orm);
  } finally {
    await orm.close();
  }
};
