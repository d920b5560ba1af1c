import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from '../adapters/metrics/prometheus.js';
import type { RateLimits } from '../adapters/http/rate-limit.js';
import type { Clock } from '../application/ports/clock.js';
import type { JobQueue } from '../application/ports/job-queue.js';
import type { UnitOfWork } from '../application/ports/unit-of-work.js';
import type { AppRepositories, Persistence } from './persistence-in-memory.js';

/**
 * The metrics' readings: the pool from the persistence, the queues from the job queue, the outbox
 * and webhook gauges from the housekeeping repository (docs/adr/0065).
 */
export const readMetricsFrom = (metrics: Metrics, d: { persistence: Persistence; uow: UnitOfWork<AppRepositories>; jobs: JobQueue; clock: Clock; logger: Logger }) => {
  const stats = d.persistence.poolStats;
  metrics.readFrom({
    ...(stats ? { pool: stats, statementTimeouts: () => stats().statementTimeouts } : {}),
    queues: () => d.jobs.depths(),
    oldestUndeliveredEvent: () => d.uow.read((r) => r.housekeeping.oldestUndeliveredEvent()),
    webhookEndpoints: () => d.uow.read((r) => r.housekeeping.webhookEndpointCounts()),
    now: () => d.clock.now(),
    failed: (what, e) => d.logger.warn({ component: 'metrics', err: d.persistence.redact(e) }, `metrics: ${what} not read`),
  });
};

/** Rate limits whose refusals are counted. */
export const countingRefusals = (limits: RateLimits, metrics: Pick<Metrics, 'rateLimited'>): RateLimits => ({
  async consume(kind, key) {
    const d = await limits.consume(kind, key);
    if (!d.allowed) metrics.rateLimited(kind);
    return d;
  },
});

/**
 * GET /metrics on a listener of its own (METRICS_PORT), never the API's: what it shows is for the
 * operator's Prometheus, so the API's port can face the internet while this one does not.
 */
export const serveMetrics = async (metrics: Metrics, o: { port: number; host: string; logger: Logger }): Promise<{ port: number; close(): Promise<void> }> => {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(path === '/metrics' ? 'GET only\n' : 'GET /metrics\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      (e: unknown) => {
        o.logger.error({ component: 'metrics', err: e }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
