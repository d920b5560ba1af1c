import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { DataDirectoryInUse } from '../adapters/persistence/mikro-orm/embedded-postgres.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { dbTimeouts, openPostgres } from './persistence.js';

/** Starts the server: configuration, database (migrated), app, graceful stop. */
const main = async () => {
  const started = performance.now();
  const config = loadConfig();
  const logger = createLogger(config);
  // The HTTP side loads while the database starts (PGlite compiles its WebAssembly off the main thread).
  const composing = import('./compose.js');
  const persistence = await openPostgres({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DB_POOL_MAX,
    timeouts: dbTimeouts(config),
    log: (message) => logger.debug({ component: 'mikro-orm' }, message),
  }).catch((e) => {
    if (e instanceof DataDirectoryInUse) logger.fatal(e.message);
    throw e;
  });
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error; rate limits fall back to memory'));
  const { app } = await (await composing).compose(config, persistence, logger, { redis });

  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info(
    {
      port,
      database: persistence.embedded ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL',
      ready_ms: Math.round(performance.now() - started),
      since_process_start_ms: Math.round(process.uptime() * 1000),
    },
    `listening on http://localhost:${port}/api/v1 (docs: /api/v1/swagger-ui/)`,
  );

  // Stop accepting, let in-flight requests finish, then close the pool and the embedded database.
  // The whole stop ends within SHUTDOWN_TIMEOUT_MS: requests get all but the last part of it
  // (then their connections are cut), closing gets the rest, and a close that hangs (a database
  // that stopped answering) is abandoned: the process exits 1 at the deadline.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const deadline = setTimeout(() => {
      logger.error({ timeout_ms: config.SHUTDOWN_TIMEOUT_MS }, 'stop did not finish in time; exiting anyway');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    const closeBudget = Math.min(2000, Math.floor(config.SHUTDOWN_TIMEOUT_MS / 2));
    const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS - closeBudget);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    clearTimeout(force);
    await persistence.close().catch((e: unknown) => logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'closing the database failed'));
    redis?.disconnect();
    clearTimeout(deadline);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
};

main().catch((e) => {
  // eslint-disable-next-line no-console
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
