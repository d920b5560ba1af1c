import type { MigrationObject } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';

/**
 * MikroORM keeps the schema: the migrations and their table (docs/adr/0064). It is opened for them
 * with one connection and closed again; the repositories' SQL runs on the pool of pool.ts.
 *
 * MikroORM and the migrations' classes are loaded only when a migration is pending (docs/adr/0080):
 * a start on an up-to-date database asks the migrations' table which names it holds and goes on,
 * without the ~700 modules (MikroORM, knex, umzug) that were most of a process's start.
 */

/** A migration by its name, its class loaded only when it has to run. */
export interface ListedMigration {
  readonly name: string;
  readonly load: () => Promise<MigrationObject['class']>;
}
/** MikroORM's table of applied migrations (its default name). */
const APPLIED_TABLE = 'mikro_orm_migrations';

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
  readonly migrations: readonly ListedMigration[];
}

/** Opens the ORM on a PostgreSQL URL (a real server or the embedded PGlite socket), one connection. */
export const openOrm = async (options: MigrationOptions): Promise<MikroORM> => {
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  const [{ MikroORM, PostgreSqlDriver }, { Migrator }, migrationsList] = await Promise.all([
    import('@mikro-orm/postgresql'),
    import('@mikro-orm/migrations'),
    Promise.all(options.migrations.map(async (m): Promise<MigrationObject> => ({ name: m.name, class: await m.load() }))),
  ]);
  return MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: options.databaseUrl,
    // No entity mappings: every table is read and written with SQL (docs/adr/0019).
    entities: [],
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false },
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
/**
 * The listed migrations the database has not applied, by name; all of them when it has no migrations'
 * table yet. One connection, one statement.
 */
export const pendingMigrations = async (options: MigrationOptions): Promise<string[]> => {
  const client = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: options.connectTimeoutMs ?? 2000, statement_timeout: options.queryTimeoutMs ?? 10_000 });
  await client.connect();
  try {
    const table = await client.query<{ exists: boolean }>(`select to_regclass('public.${APPLIED_TABLE}') is not null as exists`);
    const applied = new Set(table.rows[0]?.exists ? (await client.query<{ name: string }>(`select name from public.${APPLIED_TABLE}`)).rows.map((r) => r.name) : []);
    return options.migrations.map((m) => m.name).filter((n) => !applied.has(n));
  } finally {
    await client.end();
  }
};

export const migrateDatabase = async (options: MigrationOptions & { readonly mode?: 'apply' | 'check' }): Promise<string[]> => {
  const pending = await pendingMigrations(options);
  // nothing pending: MikroORM is not loaded at all; `check` refuses from the same answer
  if (pending.length === 0) return [];
  if (options.mode === 'check') throw new Error(`the database has ${pending.length} pending migrations: start the server or run \`npm run cli -- migrate\` first`);
  const orm = await openOrm(options);
  try {
    return await migrate(orm);
  } finally {
    await orm.close();
  }
};
