import { loadConfig } from './config.js';
import { stopOnSignals } from './stop-on-signals.js';
import { createLogger } from './logger.js';
import { composeJobs, jobQueueOptions } from './jobs.js';
import { openPostgres } from './persistence.js';
import { nodeCrypto, secretFromDataDir } from '../adapters/crypto/node-crypto.js';
import { messageSender } from './messaging.js';
import { MODULES } from './modules/index.js';

/**
 * `npm run worker`: the job workers and the once-a-minute tasks with no HTTP, for operators who run
 * them apart from the servers (those then run with WORKERS=off). It relays the outbox too. It does
 * not migrate: it refuses a database the server has not migrated yet.
 */
const main = async () => {
  const config = loadConfig();
  const logger = createLogger(config).child({ process: 'worker' });
  const persistence = await openPostgres({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DB_POOL_MAX, // the outbox relay and the tasks' own work
    queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS,
    log: (message) => logger.debug({ component: 'database' }, message),
    jobs: jobQueueOptions(config, logger),
    migrations: 'check',
  });
  const clock = { now: () => new Date() };
  const messages = messageSender(config, logger).sender;
  const otpSecret = config.OTP_SECRET ? Buffer.from(config.OTP_SECRET, 'base64') : secretFromDataDir(config.DATA_DIR, 'otp-secret');
  const { dispatcher, jobs } = composeJobs(config, persistence, logger, { messages, clock, crypto: nodeCrypto(otpSecret) }, { modules: MODULES });
  await jobs.start({ workers: true });
  dispatcher.start();
  logger.info({ database: persistence.embedded ? `embedded PGlite in ${config.DATA_DIR}` : 'PostgreSQL' }, 'worker started');

  stopOnSignals(logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
    await dispatcher.stop();
    await jobs.stop(); // the jobs running finish, or go back to be retried (never run twice at once)
    await persistence.close();
  });
};

main().catch((e) => {
  // eslint-disable-next-line no-console
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
