import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openPglite, PGDATA, startEmbeddedPostgres } from '../../adapters/persistence/sql/embedded-postgres.js';
import { migrateDatabase } from '../../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from '../../bootstrap/migrations.js';
import { openPostgres } from '../../bootstrap/persistence.js';

/**
 * The test database of this process (docs/adr/0048). mocha runs files in parallel worker processes,
 * each with a database of its own:
 * - on a PostgreSQL server (TEST_DATABASE_URL; or a testcontainers PostgreSQL the run's global
 *   setup started and put there), a database `<name>_<run>_<pid>` created on that server, next to
 *   TEST_DATABASE_URL's (the replica streams the whole cluster), dropped by the run's global teardown;
 * - else an in-memory PGlite served over a socket, in this process, gone with it, started from the
 *   run's migrated template (embeddedTemplate below) when there is one.
 * Started once per process, on first use.
 */
let server: Promise<{ url: string; kind: string }> | undefined;

/** This run's id, shared by the main mocha process and its workers (they inherit the environment). */
export const testRunId = (): string => (process.env.TEST_RUN_ID ??= `r${process.pid.toString(36)}${randomBytes(3).toString('hex')}`);

const adminQuery = async (url: string, sql: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
};

/** The database name of a postgres:// URL, and the same URL with another one. */
const databaseOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
};
/** The prefix of every database this run creates on the server of TEST_DATABASE_URL (identifiers stop at 63 bytes). */
const runPrefix = (baseUrl: string) => `${databaseOf(baseUrl).slice(0, 30).replace(/[^a-zA-Z0-9_]/g, '_')}_${testRunId()}_`;

const start = async () => {
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `${runPrefix(base)}${process.pid}`;
    await adminQuery(base, `drop database if exists "${name}" with (force)`);
    await adminQuery(base, `create database "${name}"`);
    return { url: withDatabase(base, name), kind: process.env.TEST_DATABASE_KIND ?? 'TEST_DATABASE_URL' };
  }
  const template = embeddedTemplate();
  const embedded = await startEmbeddedPostgres({ maxConnections: 40, ...(template ? { loadDataDir: new Blob([readFileSync(template.tarball)]) } : {}) });
  // The socket's directory goes with the process (workers end without running mocha's root after-all hooks).
  const socketDir = decodeURIComponent(new URL(embedded.url).hostname);
  process.once('exit', () => rmSync(socketDir, { recursive: true, force: true }));
  // Migrated already: the first file empties it instead of migrating (freshDatabaseUrl).
  if (template) standardShape = (await adminQuery(embedded.url, SCHEMA_SHAPE)).rows[0].shape as string;
  return { url: embedded.url, kind: 'embedded PGlite' };
};

export const testDatabase = () => (server ??= start());

/**
 * An empty schema: everything in `public` (and the job queue's `pgboss`) dropped, no migration applied.
 * For the tests of a migration, which apply the ones before it themselves.
 */
export const emptyDatabaseUrl = async (): Promise<string> => {
  const { url } = await testDatabase();
  // pgboss: the job queue's own schema (docs/adr/0029), installed again by the app that opens it
  await adminQuery(url, 'drop schema if exists public cascade; drop schema if exists pgboss cascade; create schema public');
  standardShape = undefined;
  return url;
};

/**
 * The shape of `public` (tables, columns, grants, constraints, triggers, functions, applied migrations)
 * as one hash: equal to the one right after the standard migrations unless a test changed the schema.
 */
const SCHEMA_SHAPE = `select md5(coalesce(string_agg(x, ',' order by x), '')) as shape from (
    select 'c:' || c.relname || ':' || c.relkind::text || ':' || coalesce(a.attname || ':' || a.atttypid::text, '') || ':' || coalesce(c.relacl::text, '') as x
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public'
    union all select 'k:' || conname || ':' || pg_get_constraintdef(k.oid) from pg_constraint k join pg_namespace n on n.oid = k.connamespace where n.nspname = 'public'
    union all select 't:' || t.tgname || ':' || t.tgenabled::text from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and not t.tgisinternal
    union all select 'f:' || p.proname || ':' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
    union all select 'm:' || name from public.mikro_orm_migrations
  ) s`;
/** The shape right after this process last applied the standard migrations to an empty schema. */
let standardShape: string | undefined;

/**
 * Empties every table of a schema that has exactly the standard migrations' shape (keeping the
 * migrations' own table), in one round trip; false when the shape differs (or is not yet known).
 */
const emptyStandardSchema = async (url: string): Promise<boolean> => {
  if (!standardShape) return false;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const shape = await client.query<{ shape: string }>(SCHEMA_SHAPE).then((r) => r.rows[0]!.shape, () => undefined);
    if (shape !== standardShape) return false;
    const { rows } = await client.query<{ name: string }>(
      `select quote_ident(tablename) as name from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations'`,
    );
    // DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE gives each table and index new files
    // (88 ms against 4 on PGlite). replica: no trigger fires and no foreign key is checked, so the order does
    // not matter and the audit log's refusal (docs/adr/0069) does not apply; tests connect as a superuser,
    // the API never does. The sequences start again as TRUNCATE's RESTART IDENTITY would have them.
    await client.query(
      `set session_replication_role = replica; ${rows.map((r) => `delete from ${r.name}`).join('; ')}; set session_replication_role = origin;
       select setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false) from pg_sequences where schemaname = 'public' and sequencename <> 'mikro_orm_migrations_id_seq';
       drop schema if exists pgboss cascade`,
    );
    return true;
  } finally {
    await client.end();
  }
};

/**
 * A clean database for one test file, with every migration applied and no rows. The first call of a
 * process migrates an empty schema; later ones empty the tables instead (a fraction of the cost,
 * docs/adr/0079), unless the schema is not the standard one any more (a migration test, a scratch
 * module's table), when it is dropped and migrated again.
 */
export const freshDatabaseUrl = async (): Promise<string> => {
  const { url } = await testDatabase();
  if (await emptyStandardSchema(url)) return url;
  await emptyDatabaseUrl();
  await migrateDatabase({ databaseUrl: url, log: () => undefined, migrations: MIGRATIONS });
  standardShape = (await adminQuery(url, SCHEMA_SHAPE)).rows[0].shape as string;
  return url;
};

/**
 * TEST_REPLICA_DATABASE_URL (a streaming replica of TEST_DATABASE_URL's cluster) pointed at this
 * process's database, once the replica has received it; undefined when there is no replica.
 */
export const replicaDatabaseUrl = async (): Promise<string | undefined> => {
  const replica = process.env.TEST_REPLICA_DATABASE_URL;
  if (!replica || !process.env.TEST_DATABASE_URL) return undefined;
  const url = withDatabase(replica, databaseOf((await testDatabase()).url));
  for (let i = 0; ; i++) {
    try {
      await adminQuery(url, 'select 1');
      return url;
    } catch (e) {
      if (i >= 100) throw new Error(`the replica did not receive ${databaseOf(url)} within 20 s: ${(e as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
};

/**
 * Once per run (the main mocha process's global setup, in the run's own directory `dir`): an embedded
 * data directory with every migration applied, and the same as a tarball. Each worker's in-memory
 * database starts from the tarball and each server a test starts on an empty DATA_DIR from a copy of
 * the directory, instead of each creating a cluster (initdb, seconds of CPU on PGlite) and migrating
 * it (docs/adr/0079). Creating one from nothing is still tested (test/bootstrap/cli.test.ts `migrate`).
 */
export const makeEmbeddedTemplate = async (dir: string) => {
  const dataDir = join(dir, 'embedded-template');
  const persistence = await openPostgres({ dataDir, poolMax: 2, log: () => undefined });
  await persistence.close();
  const db = await openPglite(dataDir);
  const tarball = await db.dumpDataDir('none');
  await db.close();
  writeFileSync(`${dataDir}.tar`, Buffer.from(await tarball.arrayBuffer()));
  process.env.TEST_EMBEDDED_TEMPLATE = dataDir;
};
/** The run's template (makeEmbeddedTemplate): its PGlite data directory and tarball; undefined outside a run's workers. */
export const embeddedTemplate = () => {
  const dir = process.env.TEST_EMBEDDED_TEMPLATE;
  return dir ? { pgdata: join(dir, PGDATA), tarball: `${dir}.tar` } : undefined;
};

/**
 * Before the run (the main mocha process, once): a PostgreSQL in a container when no TEST_DATABASE_URL
 * is set and a container runtime answers; the workers inherit its URL.
 */
let container: { stop(): Promise<unknown> } | undefined;
const containerRuntimeAnswers = async (): Promise<boolean> => {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([getContainerRuntimeClient(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000))]);
    return true;
  } catch {
    return false;
  }
};
export const setUpTestDatabaseServer = async () => {
  testRunId();
  if (process.env.TEST_DATABASE_URL || process.env.TEST_EMBEDDED === '1' || !(await containerRuntimeAnswers())) return;
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const started = await new PostgreSqlContainer('postgres:15-alpine').start();
  container = started;
  process.env.TEST_DATABASE_URL = started.getConnectionUri();
  process.env.TEST_DATABASE_KIND = 'testcontainers';
};

/** After the run (the main process): every database this run created is dropped, and the container stopped. */
export const tearDownTestDatabaseServer = async () => {
  const base = process.env.TEST_DATABASE_URL;
  if (base && !container) {
    const prefix = runPrefix(base);
    const { rows } = await adminQuery(base, `select datname from pg_database where starts_with(datname, '${prefix.replace(/'/g, "''")}')`);
    for (const { datname } of rows as { datname: string }[]) await adminQuery(base, `drop database if exists "${datname}" with (force)`);
  }
  await container?.stop();
  container = undefined;
};
