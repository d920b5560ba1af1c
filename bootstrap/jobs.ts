import type { Logger } from 'pino';
import type { Clock } from '../application/ports/clock.js';
import type { JobQueue, JobReport, PeriodicTask } from '../application/ports/job-queue.js';
import type { MessageSender } from '../application/ports/message-sender.js';
import type { Subscriber } from '../application/ports/outbox.js';
import type { UnitOfWork } from '../application/ports/unit-of-work.js';
import { createDispatcher, type DispatcherOptions, type DispatchReport } from '../application/events/dispatcher.js';
import { pollLoop } from '../application/events/poll-loop.js';
import { queueSubscribers } from '../application/events/queued-subscribers.js';
import { sendMessages } from '../application/events/send-messages.js';
import { runDueNotifications } from '../application/notifications/automatic-notifications.js';
import type { Crypto } from '../application/ports/crypto.js';
import { deliverAfterCommit, type RecordHook } from '../adapters/persistence/deliver-after-commit.js';
import { inProcessJobQueue } from '../adapters/jobs/in-process.job-queue.js';
import { deliverDueWebhooks, PASSES_AT_ONCE, recordWebhookDeliveries } from '../application/partners/deliver-webhooks.js';
import type { WebhookPoster, WebhookSigner } from '../application/ports/webhooks.js';
import { httpWebhookPoster, standardWebhooksSigner } from '../adapters/webhooks/http-poster.js';
import type { ChannelListener } from '../adapters/persistence/sql/channel-listener.js';
import { currentAttribution } from '../adapters/http/attribution.js';
import { recordAuditEntries } from '../application/audit/record-audit-entries.js';
import type { Attribution } from '../application/audit/ports.js';
import { WEBHOOK_DELIVERIES_CHANNEL } from '../adapters/persistence/sql/webhooks.sql.js';
import type { Config } from './config.js';
import type { AppRepositories, Persistence } from './persistence-in-memory.js';

/** What subscribers and periodic tasks are built from. */
export interface JobDeps {
  /** Delivers the events a subscriber's own change records right after its commit (a queued notification). */
  readonly uow: UnitOfWork<AppRepositories>;
  readonly messages: MessageSender;
  readonly clock: Clock;
  readonly crypto: Crypto;
  /** Partners' webhooks: signed, and POSTed to their URLs (docs/adr/0033). */
  readonly signer: WebhookSigner;
  readonly poster: WebhookPoster;
  readonly leaseMs: number;
}

/** What a module's manifest adds to the jobs (bootstrap/modules/module.ts): its subscribers and periodic tasks. */
export interface JobModule {
  /** Its subscribers of the domain events, each one's events a job queue of its own. */
  readonly subscribers?: (d: JobDeps) => readonly Subscriber[];
  /** Its work run once a minute across all workers; `retry` is the message jobs' policy, for a task that sends. */
  readonly periodicTasks?: (d: JobDeps, retry: Pick<PeriodicTask, 'retryLimit' | 'retryDelaySeconds'>) => readonly PeriodicTask[];
}

/** A webhook delivery's claim outlasts its POST by this much. */
const LEASE_MARGIN_MS = 5_000;

/**
 * The subscribers of the domain events: each one's events become jobs of its own queue, run by the
 * workers with retries (docs/adr/0029). The outbox's message sender (every module queues messages),
 * then each manifest's `subscribers`, in list order (docs/adr/0062).
 */
const subscribers = (modules: readonly JobModule[], d: JobDeps): Subscriber[] => [sendMessages(d), ...modules.flatMap((m) => m.subscribers?.(d) ?? [])];

/**
 * Work run once a minute across all workers, with the minute it is for: each manifest's `periodicTasks`.
 * `retry`: the message jobs' policy, for a task that sends (a fault, e.g. a database timeout, is retried, not dropped).
 */
const periodicTasks = (modules: readonly JobModule[], d: JobDeps, retry: Pick<PeriodicTask, 'retryLimit' | 'retryDelaySeconds'>): PeriodicTask[] =>
  modules.flatMap((m) => m.periodicTasks?.(d, retry) ?? []);

/**
 * The audit log's entries, made from the events a transaction records, in that transaction (docs/adr/0069),
 * attributed to whoever the work under way is for (`attribution`: the request's member, partner key or till).
 */
export const auditEntries = (d: Pick<JobDeps, 'crypto'>, attribution: () => Attribution | undefined): RecordHook<AppRepositories> => {
  const record = recordAuditEntries(d);
  return {
    recorded: async (repos, at, events) => (await record(repos, at, events, attribution()), false),
    committed: () => undefined,
  };
};

/** The dispatcher's news in the log: ids, types and errors, never a payload (a code). */
const logDispatch = (logger: Logger) => (r: DispatchReport) => {
  if (r.kind === 'outbox_failed') logger.warn({ component: 'outbox', err: r.error }, 'outbox unavailable; will try again');
  else if (r.kind === 'retry') logger.warn({ component: 'outbox', event_id: r.id, type: r.type, attempts: r.attempts, err: r.error, retry_at: r.retryAt }, 'event delivery failed; will retry');
  else logger.error({ component: 'outbox', event_id: r.id, type: r.type, attempts: r.attempts, err: r.error }, 'event delivery given up');
};

/** The job queue's news in the log: a dead job is an error an operator looks at (`npm run cli -- jobs:dead`). */
export const logJobs = (logger: Logger) => (r: JobReport) => {
  if (r.kind === 'queue_failed') logger.warn({ component: 'jobs', err: r.error }, 'job queue error; will try again');
  else if (r.kind === 'retry') logger.warn({ component: 'jobs', queue: r.queue, job_id: r.id, attempt: r.attempt, err: r.error }, 'job failed; will retry');
  else logger.error({ component: 'jobs', queue: r.queue, job_id: r.id, attempt: r.attempt, err: r.error }, 'job dead: no retries left');
};

/**
 * The outbox's dispatcher, relaying committed events into the job queue: the persistence's (pg-boss)
 * when it has one, else the in-process queue (jobs run at once, retried by the dispatcher).
 */
export const composeJobs = (
  config: Config,
  persistence: Persistence,
  logger: Logger,
  deps: Omit<JobDeps, 'uow' | 'signer' | 'poster' | 'leaseMs'>,
  /** `modules`: whose subscribers and periodic tasks run (MODULES; the list is handed in, as the manifests import this file's types). */
  overrides: { readonly dispatcher?: Partial<DispatcherOptions>; readonly jobs?: JobQueue; readonly modules: readonly JobModule[] },
) => {
  const { modules } = overrides;
  const jobs = overrides.jobs ?? persistence.jobs ?? inProcessJobQueue({ now: () => deps.clock.now(), report: logJobs(logger) });
  // The subscribers get the unit of work that hands events to the dispatcher they are given to: bound late.
  let afterCommit: UnitOfWork<AppRepositories> | undefined;
  const uow: UnitOfWork<AppRepositories> = { run: (work) => afterCommit!.run(work), read: (work) => afterCommit!.read(work), readInTurn: (work) => afterCommit!.readInTurn(work), atomically: (work) => afterCommit!.atomically(work), giveWay: (upToMs) => afterCommit!.giveWay(upToMs) };
  const poster = httpWebhookPoster({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE });
  const d: JobDeps = { ...deps, uow, signer: standardWebhooksSigner, poster, leaseMs: config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS };
  const relays = queueSubscribers(jobs, subscribers(modules, d), {
    retryLimit: config.JOBS_RETRY_LIMIT,
    retryDelaySeconds: config.JOBS_RETRY_DELAY_SECONDS,
    expireInSeconds: config.JOBS_EXPIRE_SECONDS,
  });
  for (const task of periodicTasks(modules, d, { retryLimit: config.JOBS_RETRY_LIMIT, retryDelaySeconds: config.JOBS_RETRY_DELAY_SECONDS })) jobs.every(task);
  const dispatcher = createDispatcher(
    { outbox: persistence.outbox, clock: deps.clock, subscribers: relays, report: logDispatch(logger) },
    { pollMs: config.OUTBOX_POLL_MS, ...overrides.dispatcher },
  );
  /** The scheduled notifications of a minute, as the periodic task runs them (tests call it with their clock). */
  const runScheduledNotifications = runDueNotifications(d);
  /** The webhook deliveries due now, as the workers' loop attempts them (tests call it after moving the clock). */
  const runWebhookDeliveries = deliverDueWebhooks(d);
  // Where the workers run, so does the webhook loop: woken by the commit of new deliveries, polling for
  // retries and for deliveries a crashed process had claimed (docs/adr/0043).
  // A turn goes on while passes find deliveries due (a burst is not left to the next poll), until a stop.
  const webhookTurn = async (running: () => boolean) => {
    while (running() && (await runWebhookDeliveries(undefined, PASSES_AT_ONCE)) > 0);
  };
  const webhookLoop = pollLoop(config.WEBHOOK_POLL_MS, webhookTurn, (e) => logger.warn({ component: 'webhooks', err: e }, 'webhook deliveries failed; will try again'));
  // A transaction recording events makes their webhook deliveries itself (the partners of that moment).
  const makeDeliveries = recordWebhookDeliveries(d);
  const webhookDeliveries: RecordHook<AppRepositories> = {
    recorded: async (repos, at, events, ids) => (await makeDeliveries(repos, at, events, ids)).length > 0,
    committed: () => webhookLoop.wake(),
  };
  afterCommit = deliverAfterCommit(persistence.uow, dispatcher, [webhookDeliveries, auditEntries(d, currentAttribution)]);
  let webhookWakeups: ChannelListener | undefined;
  const withWebhooks: JobQueue = {
    define: (spec) => jobs.define(spec),
    every: (task) => jobs.every(task),
    enqueue: (queue, list) => jobs.enqueue(queue, list),
    dead: (limit) => jobs.dead(limit),
    async start(options) {
      await jobs.start(options);
      if (!options.workers) return;
      webhookLoop.start();
      // deliveries committed by another process (a server with WORKERS=off) wake this one's loop too
      webhookWakeups ??= persistence.listen?.(WEBHOOK_DELIVERIES_CHANNEL, () => webhookLoop.wake());
      await webhookWakeups?.ready;
    },
    async stop() {
      await webhookWakeups?.close();
      webhookWakeups = undefined;
      await webhookLoop.stop();
      await jobs.stop();
    },
  };
  return { dispatcher, jobs: withWebhooks, uow, runScheduledNotifications, runWebhookDeliveries, webhooks: { signer: standardWebhooksSigner, poster, leaseMs: d.leaseMs } };
};

/** The pg-boss settings of a process, from its configuration (the server's and the worker's). */
export const jobQueueOptions = (config: Config, logger: Logger) => ({
  poolMax: config.JOBS_POOL_MAX,
  pollingIntervalSeconds: config.JOBS_POLL_SECONDS,
  concurrency: config.JOBS_CONCURRENCY,
  maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_SECONDS,
  stopTimeoutMs: Math.floor(config.SHUTDOWN_TIMEOUT_MS * 0.3), // the rest is for the HTTP side and the pools
  report: logJobs(logger),
});
