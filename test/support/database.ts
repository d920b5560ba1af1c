import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../adapters/persistence/mikro-orm/embedded-postgres.js';

/**
 * The test database server: TEST_DATABASE_URL when set; else a testcontainers PostgreSQL when a
 * container runtime answers; else an in-memory PGlite served over a socket. Started once per run.
 */
let server: Promise<{ url: string; kind: string; stop(): Promise<void> }> | undefined;

const containerRuntimeAnswers = async (): Promise<boolean> => {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([getContainerRuntimeClient(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000))]);
    return true;
  } catch {
    return false;
  }
};

const start = async () => {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, kind: 'TEST_DATABASE_URL', stop: async () => undefined };
  if (await containerRuntimeAnswers()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:15-alpine').start();
    return { url: container.getConnectionUri(), kind: 'testcontainers', stop: async () => void (await container.stop()) };
  }
  const embedded: EmbeddedPostgres = await startEmbeddedPostgres({ maxConnections: 40 });
  return { url: embedded.url, kind: 'embedded PGlite', stop: () => embedded.close() };
};

export const testDatabase = () => (server ??= start());

/** A clean schema for one test file: everything in `public` (and the job queue's `pgboss`) is dropped. Migrations run when the app opens. */
export const freshDatabaseUrl = async (): Promise<string> => {
  const { url } = await testDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // pgboss: the job queue's own schema (docs/adr/0029), installed again by the app that opens it
    await client.query('drop schema if exists public cascade; drop schema if exists pgboss cascade; create schema public');
  } finally {
    await client.end();
  }
  return url;
};

export const stopTestDatabase = async () => {
  if (server) await (await server).stop();
  server = undefined;
};
