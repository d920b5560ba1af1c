import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../adapters/persistence/sql/embedded-postgres.js';

/**
 * The test database of this process (docs/adr/0048). mocha runs files in parallel worker processes,
 * each with a database of its own:
 * - on a PostgreSQL server (TEST_DATABASE_URL; or a testcontainers PostgreSQL the run's global
 *   setup started and put there), a database `<name>_<run>_<pid>` created on that server, next to
 *   TEST_DATABASE_URL's (the replica streams the whole cluster), dropped by the run's global teardown;
 * - else an in-memory PGlite served over a socket, in this process, gone with it.
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
  const embedded = await startEmbeddedPostgres({ maxConnections: 40 });
  // The socket's directory goes with the process (workers end without running mocha's root after-all hooks).
  const socketDir = decodeURIComponent(new URL(embedded.url).hostname);
  process.once('exit', () => rmSync(socketDir, { recursive: true, force: true }));
  return { url: embedded.url, kind: 'embedded PGlite' };
};

export const testDatabase = () => (server ??= start());

/** A clean schema for one test file: everything in `public` (and the job queue's `pgboss`) is dropped. Migrations run when the app opens. */
export const freshDatabaseUrl = async (): Promise<string> => {
  const { url } = await testDatabase();
  // pgboss: the job queue's own schema (docs/adr/0029), installed again by the app that opens it
  await adminQuery(url, 'drop schema if exists public cascade; drop schema if exists pgboss cascade; create schema public');
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
