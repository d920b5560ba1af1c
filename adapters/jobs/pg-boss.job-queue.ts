import PgBoss from 'pg-boss';
import type { DeadJob, JobData, JobQueue, JobReport, JobSpec, PeriodicTask } from '../../application/ports/job-queue.js';
import { PermanentJobFailure } from '../../application/ports/job-queue.js';

export interface PgBossOptions {
  readonly connectionString: string;
  /** pg-boss's own pool (on PGlite the socket server must accept it on top of the ORM's). */
  readonly poolMax: number;
  /** How often an idle worker looks for jobs (a job enqueued by this process wakes its worker at once). */
  readonly pollingIntervalSeconds: number;
  /** Jobs of each queue run at the same time in one process. */
  readonly concurrency: number;
  /** How often expired runs (a worker that died) are failed to be retried, among pg-boss's upkeep. */
  readonly maintenanceIntervalSeconds: number;
  /** The longest a stop waits for the jobs running before they go back to be retried. */
  readonly stopTimeoutMs: number;
  readonly report?: (r: JobReport) => void;
}

export const SCHEMA = 'pgboss';
const deadQueue = (queue: string) => `${queue}_dead`;
const describe = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 500);
const startOfMinute = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000);

/*
 * Two writes on pg-boss 10's own job table, which its API has no call for: a permanent failure sets
 * the job's retry limit to the retries it has had (pg-boss then fails it for good and copies it to
 * the dead-letter queue), and a job that has run keeps only its redacted data (no code).
 */
const settleSql = `update ${SCHEMA}.job set
    retry_limit = case when $3::boolean then retry_count else retry_limit end,
    data = coalesce($4::jsonb, data)
  where name = $1 and id = $2::uuid`;

/**
 * The job queue on PostgreSQL (or the embedded PGlite) through pg-boss, in its own schema of the
 * application's database. Each queue has a dead-letter queue `<queue>_dead`; retries back off
 * exponentially (pg-boss's retryBackoff, with jitter). Periodic tasks are pg-boss schedules: its
 * cron monitor sends one job per minute across all the processes sharing the database.
 */
export const pgBossJobQueue = (o: PgBossOptions): JobQueue & { readonly boss: () => PgBoss } => {
  const specs = new Map<string, JobSpec>();
  const tasks: PeriodicTask[] = [];
  const workerIds = new Map<string, string[]>();
  const report = o.report ?? (() => undefined);
  let boss: PgBoss | undefined;

  const started = (): PgBoss => {
    if (!boss) throw new Error('the job queue is not started');
    return boss;
  };

  const runJob = (spec: JobSpec) => async ([job]: PgBoss.JobWithMetadata<JobData>[]) => {
    const b = started();
    const settle = (permanent: boolean, data: JobData | null) => b.getDb().executeSql(settleSql, [spec.queue, job!.id, permanent, data === null ? null : JSON.stringify(data)]);
    try {
      await spec.handle({ id: job!.id, data: job!.data, attempt: job!.retryCount + 1 });
    } catch (e) {
      const permanent = e instanceof PermanentJobFailure;
      const final = permanent || job!.retryCount >= job!.retryLimit;
      if (permanent || (final && spec.redact)) await settle(permanent, final && spec.redact ? spec.redact(job!.data) : null);
      report({ kind: final ? 'dead' : 'retry', queue: spec.queue, id: job!.id, attempt: job!.retryCount + 1, error: describe(e) });
      throw e;
    }
    if (spec.redact) await settle(false, spec.redact(job!.data));
  };

  return {
    boss: started,
    define(spec) {
      specs.set(spec.queue, spec);
    },
    every(task) {
      tasks.push(task);
    },
    async enqueue(queue, jobs) {
      if (jobs.length === 0) return;
      // pg-boss inserts with ON CONFLICT DO NOTHING on (queue, id): a job already there is not added again.
      // The id rides in the data too: pg-boss's dead-letter copy gets an id of its own.
      await started().insert(jobs.map((j) => ({ name: queue, id: j.id, data: { ...j.data, jobId: j.id } })));
      for (const id of workerIds.get(queue) ?? []) started().notifyWorker(id);
    },
    async start({ workers }) {
      if (boss) return;
      const b = new PgBoss({
        connectionString: o.connectionString,
        max: o.poolMax,
        schema: SCHEMA,
        migrate: true, // pg-boss installs and upgrades its schema itself, under an advisory lock
        supervise: workers,
        schedule: workers,
        maintenanceIntervalSeconds: o.maintenanceIntervalSeconds,
        cronWorkerIntervalSeconds: 5,
      });
      b.on('error', (e) => report({ kind: 'queue_failed', error: describe(e) }));
      await b.start();
      boss = b;
      const queues = [...specs.values()].map((s) => ({ ...s, retryBackoff: true }));
      const periodic = tasks.map((t) => ({ queue: t.name, retryLimit: 0, retryDelaySeconds: 0, retryBackoff: false, expireInSeconds: 55 }));
      for (const q of [...queues, ...periodic]) {
        const options = { retryLimit: q.retryLimit, retryDelay: q.retryDelaySeconds, retryBackoff: q.retryBackoff, expireInSeconds: q.expireInSeconds, deadLetter: deadQueue(q.queue) };
        await b.createQueue(deadQueue(q.queue));
        await b.createQueue(q.queue, { name: q.queue, ...options });
        await b.updateQueue(q.queue, { name: q.queue, ...options }); // a changed policy reaches a queue made earlier
      }
      if (!workers) return;
      const workOptions = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: o.pollingIntervalSeconds };
      for (const spec of specs.values()) {
        const ids = await Promise.all(Array.from({ length: o.concurrency }, () => b.work<JobData>(spec.queue, workOptions, runJob(spec))));
        workerIds.set(spec.queue, ids);
      }
      for (const t of tasks) {
        await b.schedule(t.name, '* * * * *');
        await b.work<JobData>(t.name, workOptions, async ([job]) => {
          try {
            await t.run(startOfMinute(job!.createdOn));
          } catch (e) {
            report({ kind: 'dead', queue: t.name, id: job!.id, attempt: 1, error: describe(e) });
            throw e;
          }
        });
      }
    },
    async stop() {
      const b = boss;
      if (!b) return;
      // The jobs running finish; past the timeout pg-boss fails them, to be retried after their backoff.
      await b.stop({ graceful: true, wait: true, timeout: o.stopTimeoutMs });
      boss = undefined;
      workerIds.clear();
    },
    async dead(limit) {
      // every dead-letter queue, those of queues this process does not define included (the CLI defines none)
      const { rows } = await started()
        .getDb()
        .executeSql(`select name, id, data, output, created_on from ${SCHEMA}.job where name like '%\\_dead' and state = 'created' order by created_on desc limit $1`, [limit]);
      return rows.map(
        (r): DeadJob => ({
          queue: String(r.name).replace(/_dead$/, ''),
          id: String(r.data?.jobId ?? r.id),
          data: (r.data ?? {}) as JobData,
          error: typeof r.output?.message === 'string' ? `${r.output.name ?? 'Error'}: ${r.output.message}` : JSON.stringify(r.output ?? null),
          diedAt: new Date(r.created_on),
        }),
      );
    },
  };
};
