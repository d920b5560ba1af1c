import type { Logger } from 'pino';

/**
 * On SIGTERM or SIGINT, once: runs `stop` and exits 0, or exits 1 when it has not finished within
 * `timeoutMs` (whatever hangs, a request on a dead database or a pool that cannot close, the process
 * ends in time). The server's and the worker's way out.
 */
export const stopOnSignals = (logger: Logger, timeoutMs: number, stop: () => Promise<void>): void => {
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    setTimeout(() => {
      logger.error({ timeout_ms: timeoutMs }, 'stop did not finish in time; exiting');
      process.exit(1);
    }, timeoutMs).unref();
    await stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void onSignal('SIGTERM'));
  process.on('SIGINT', () => void onSignal('SIGINT'));
};
