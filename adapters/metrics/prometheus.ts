import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobReport, QueueDepth } from '../../application/ports/job-queue.js';

/**
 * What an operator scrapes (docs/adr/0065): one registry per process, in Prometheus's text format.
 * Labels are bounded sets only: a route template (never a raw path), a status, a method, a queue,
 * a limit kind, an endpoint status. Never an id, a phone or a business.
 */

/** Readings taken when a scrape asks (each answered from this process or a short query). */
export interface MetricSources {
  /** The database pool: connections in use, requests waiting for one, its size. */
  readonly pool?: () => { readonly inUse: number; readonly waiting: number; readonly max: number };
  /** Statements cut by statement_timeout (or a lost answer) since the process started. */
  readonly statementTimeouts?: () => number;
  /** Jobs waiting and dead per queue (the job queue's own count). */
  readonly queues?: () => Promise<readonly QueueDepth[]>;
  /** The oldest outbox entry not yet delivered (nor given up), when there is one. */
  readonly oldestUndeliveredEvent?: () => Promise<Date | null>;
  /** Partner webhook endpoints by status (ACTIVE, FAILING, DISABLED). */
  readonly webhookEndpoints?: () => Promise<Readonly<Record<string, number>>>;
  readonly now: () => Date;
  /** A reading that failed (the database is down): the scrape goes on without it. */
  readonly failed?: (what: string, error: unknown) => void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds: a product page takes a few ms, an export several seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface Metrics {
  readonly registry: Registry;
  /** One answered request: its route template (or a fixed word when none matched), status and time. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A request refused by a rate limit of this kind (ip, identifier, user, partner). */
  rateLimited(kind: string): void;
  /** The job queue's news: failures (to be retried) and deaths per queue. */
  jobReport(r: JobReport): void;
  /** The outbox dispatcher's news: a delivery to be retried, an event given up, the outbox unreachable. */
  dispatchReport(r: { readonly kind: 'retry' | 'given_up' | 'outbox_failed' }): void;
  /** Where the scrape-time readings come from (set once the persistence is open). */
  readFrom(sources: MetricSources): void;
  /** The scrape: every series in the text format, and its content type. */
  scrape(): Promise<{ readonly contentType: string; readonly body: string }>;
}

export const prometheusMetrics = (options: { readonly defaults?: boolean } = {}): Metrics => {
  const registry = new Registry();
  if (options.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'bizops_' });
  let sources: MetricSources | undefined;
  const registers = [registry];

  const requests = new Counter({ name: 'bizops_http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames: ['method', 'route', 'status'] as const, registers });
  const durations = new Histogram({
    name: 'bizops_http_request_duration_seconds',
    help: 'Time from a request arriving until its answer is ready to send (a streamed export goes on after), by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  // A request's two series, looked up once per (method, route, status): prom-client hashes its labels on every call otherwise.
  const children = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();

  const refusals = new Counter({ name: 'bizops_rate_limit_refusals_total', help: 'Requests refused 429 by a rate limit, by limit kind', labelNames: ['kind'] as const, registers });
  const jobFailures = new Counter({ name: 'bizops_job_failures_total', help: 'Job runs that failed in this process (retried or dead), by queue', labelNames: ['queue'] as const, registers });
  const jobsDied = new Counter({ name: 'bizops_jobs_dead_total', help: 'Jobs that ran out of retries (or failed for good) in this process, by queue', labelNames: ['queue'] as const, registers });
  const queueFaults = new Counter({ name: 'bizops_job_queue_errors_total', help: 'Faults of the job queue itself (its database unreachable)', registers });
  const outboxFailures = new Counter({
    name: 'bizops_outbox_delivery_failures_total',
    help: 'Outbox deliveries that failed in this process, by outcome (retry: tried again later; given_up: out of attempts; outbox_failed: the outbox unreachable)',
    labelNames: ['outcome'] as const,
    registers,
  });

  new Gauge({
    name: 'bizops_db_pool_connections_in_use',
    help: 'Database connections of this process in use',
    registers,
    collect() {
      const p = sources?.pool?.();
      if (p) this.set(p.inUse);
    },
  });
  new Gauge({
    name: 'bizops_db_pool_waiting',
    help: 'Requests of this process waiting for a database connection',
    registers,
    collect() {
      const p = sources?.pool?.();
      if (p) this.set(p.waiting);
    },
  });
  new Gauge({
    name: 'bizops_db_pool_max',
    help: 'The size of this process’s database pool (DB_POOL_MAX)',
    registers,
    collect() {
      const p = sources?.pool?.();
      if (p) this.set(p.max);
    },
  });
  new Counter({
    name: 'bizops_db_statement_timeouts_total',
    help: 'Statements cut by statement_timeout or a lost answer (DB_QUERY_TIMEOUT_MS) in this process',
    registers,
    collect() {
      const n = sources?.statementTimeouts?.();
      if (n === undefined) return;
      this.reset();
      this.inc(n);
    },
  });
  const reading = async <A>(what: string, read: (() => Promise<A>) | undefined): Promise<A | undefined> => {
    if (!read) return undefined;
    try {
      return await read();
    } catch (e) {
      sources?.failed?.(what, e);
      return undefined;
    }
  };
  // Readings of the database: every process reports the same value; alert on max() across instances.
  new Gauge({
    name: 'bizops_job_queue_waiting',
    help: 'Jobs waiting to run (created or waiting for a retry), by queue; the same from every process',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const depths = await reading('job queue depth', sources?.queues);
      this.reset();
      for (const d of depths ?? []) this.set({ queue: d.queue }, d.waiting);
    },
  });
  new Gauge({
    name: 'bizops_job_queue_dead',
    help: 'Dead jobs kept in each queue’s dead-letter queue (npm run cli -- jobs:dead lists them); the same from every process',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const depths = await reading('dead jobs', sources?.queues);
      this.reset();
      for (const d of depths ?? []) this.set({ queue: d.queue }, d.dead);
    },
  });
  new Gauge({
    name: 'bizops_outbox_oldest_undelivered_age_seconds',
    help: 'Age of the oldest outbox event not yet delivered (0 when none waits); the same from every process',
    registers,
    async collect() {
      if (!sources?.oldestUndeliveredEvent) return;
      const oldest = await reading('outbox age', sources.oldestUndeliveredEvent);
      if (oldest === undefined) return;
      this.set(oldest === null ? 0 : Math.max(0, (sources.now().getTime() - oldest.getTime()) / 1000));
    },
  });
  new Gauge({
    name: 'bizops_webhook_endpoints',
    help: 'Partner webhook endpoints by status (FAILING: its deliveries fail; DISABLED: failing for 72 h, no longer sent to); the same from every process',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const counts = await reading('webhook endpoints', sources?.webhookEndpoints);
      if (!counts) return;
      for (const status of ['ACTIVE', 'FAILING', 'DISABLED']) this.set({ status }, counts[status] ?? 0);
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const m = METHODS.has(method) ? method : 'OTHER';
      const key = `${m} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        const labels = { method: m, route, status: String(status) };
        child = { count: requests.labels(labels), time: durations.labels(labels) };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
    rateLimited: (kind) => refusals.inc({ kind }),
    jobReport(r) {
      if (r.kind === 'queue_failed') return queueFaults.inc();
      jobFailures.inc({ queue: r.queue });
      if (r.kind === 'dead') jobsDied.inc({ queue: r.queue });
    },
    dispatchReport: (r) => outboxFailures.inc({ outcome: r.kind }),
    readFrom(s) {
      // the two queue gauges share one query a scrape
      let last: { at: number; depths: Promise<readonly QueueDepth[]> } | undefined;
      const queues = s.queues;
      const shared = queues ? () => (last && Date.now() - last.at < 1000 ? last : (last = { at: Date.now(), depths: queues() })).depths : undefined;
      sources = { ...s, ...(shared ? { queues: shared } : {}) };
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
};
