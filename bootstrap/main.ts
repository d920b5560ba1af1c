import { answerClientErrorsAsProblems } from '../adapters/http/client-error.js';
import { createServer } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { DataDirectoryInUse } from '../adapters/persistence/sql/embedded-postgres.js';
import { loadConfig } from './config.js';
import { stopOnSignals } from './stop-on-signals.js';
import { createLogger } from './logger.js';
import { jobQueueOptions } from './jobs.js';
import { openPostgres } from './persistence.js';
import { serveMetrics } from './metrics.js';

/** Starts the server: configuration, database (migrated), app, graceful stop. */
const main = async () => {
  const started = performance.now();
  const config = loadConfig();
  const logger = createLogger(config);
  // Full collections sooner: streamed exports otherwise leave 80-120 MB of garbage before one (docs/performance.md).
  if (config.HEAP_GROWING_PERCENT > 0) setFlagsFromString(`--heap-growing-percent=${config.HEAP_GROWING_PERCENT}`);
  // No pretenuring: under 32 requests in flight V8 judged the sites of a request's objects (rows, JSON
  // views) long-lived and allocated them straight in the old space, which then took a full collection
  // every second. Off, a sales page costs a third less CPU (docs/performance.md, the sixth session).
  setFlagsFromString('--no-allocation-site-pretenuring');
  // The HTTP side loads while the database starts (PGlite compiles its WebAssembly off the main thread).
  const composing = import('./compose.js');
  // METRICS_PORT set: a registry for this process, served on its own port once the API listens (docs/adr/0065).
  const metrics = config.METRICS_PORT !== undefined ? (await import('../adapters/metrics/prometheus.js')).prometheusMetrics() : undefined;
  const persistence = await openPostgres({
    databaseUrl: config.DATABASE_URL,
    ...(config.REPORTS_DATABASE_URL ? { reportsDatabaseUrl: config.REPORTS_DATABASE_URL } : {}),
    dataDir: config.DATA_DIR,
    poolMax: config.DB_POOL_MAX,
    idempotencyLeaseMs: config.IDEMPOTENCY_LEASE_MS,
    queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS,
    log: (message) => logger.debug({ component: 'database' }, message),
    jobs: jobQueueOptions(config, logger, metrics),
  }).catch((e) => {
    if (e instanceof DataDirectoryInUse) logger.fatal(e.message);
    throw e;
  });
  // ioredis is loaded only when a Redis is configured.
  const redis = config.REDIS_URL ? new (await import('ioredis')).Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error; rate limits fall back to memory'));
  const { app, dispatcher, jobs } = await (await composing).compose(config, persistence, logger, { redis, ...(metrics ? { metrics } : {}) });

  const server = createServer(app.callback());
  answerClientErrorsAsProblems(server, config.ERROR_TYPE_BASE);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  // The job queue starts once the API answers (docs/adr/0081): a request meanwhile commits its events to
  // the outbox as always, and the relay below sends them once the queue is there. WORKERS=off: this
  // process only enqueues; `npm run worker` processes run the jobs (docs/adr/0029).
  const queueStarted = performance.now();
  const queue = jobs.start({ workers: config.WORKERS === 'on' }).then(() => {
    // Events committed before a stop or a crash, or while the queue started, are in the outbox: the loop relays them now.
    dispatcher.start();
    logger.info({ ms: Math.round(performance.now() - queueStarted) }, 'job queue started');
  });
  queue.catch((e: unknown) => {
    logger.fatal({ err: e }, 'the job queue did not start');
    process.exit(1);
  });
  const metricsServer = metrics && config.METRICS_PORT !== undefined ? await serveMetrics(metrics, { port: config.METRICS_PORT, host: config.HOST, logger }) : undefined;
  logger.info(
    {
      port,
      database: persistence.embedded ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL',
      workers: config.WORKERS,
      ...(metricsServer ? { metrics_port: metricsServer.port } : {}),
      ready_ms: Math.round(performance.now() - started),
      since_process_start_ms: Math.round(process.uptime() * 1000),
    },
    `listening on http://localhost:${port}/api/v1 (docs: /api/v1/swagger-ui/)`,
  );

  // Stop accepting, let in-flight requests and deliveries finish, then close the pool and the embedded database.
  stopOnSignals(logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
    const force = setTimeout(() => server.closeAllConnections(), Math.floor(config.SHUTDOWN_TIMEOUT_MS * 0.7));
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    clearTimeout(force);
    await metricsServer?.close();
    await queue.catch(() => undefined); // a stop while the queue starts lets it finish starting, then stops it
    await dispatcher.stop(); // the relays under way finish (an event cut short is relayed again after its lease)
    await jobs.stop(); // the jobs running finish, or go back to be retried (never run twice at once)
    await persistence.close();
    redis?.disconnect();
  });
};

main().catch((e) => {
  // eslint-disable-next-line no-console
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
