// Loaded by `start`, not with this module: a server answers before the queue's code is read (docs/adr/0081).
import type PgBoss from 'pg-boss';
import type { DeadJob, JobData, JobQueue, JobReport, JobSpec, PeriodicTask } from '../../application/ports/job-queue.js';
import { PermanentJobFailure } from '../../application/ports/job-queue.js';
import { withTraceparent } from '../tracing/trace-context.js';

export interface PgBossOptions {
  readonly connectionString: string;
  /** pg-boss's own pool (on PGlite the socket server must accept it on top of the ORM's). */
  readonly poolMax: number;
  /** How often an idle worker looks for jobs (a job enqueued by this process wakes its workers at once). */
  readonly pollingIntervalSeconds: number;
  /** Jobs of each queue run at the same time in one process. */
  readonly concurrency: number;
  /** How often expired runs (a worker that died) are failed to be retried, among pg-boss's upkeep. */
  readonly maintenanceIntervalSeconds: number;
  /** The longest a stop waits for the jobs running; those still running then expire and are retried. */
  readonly stopTimeoutMs: number;
  /** How often one process checks the schedules (default 30 s: a minute's run starts within it). */
  readonly cronMonitorIntervalSeconds?: number;
  readonly report?: (r: JobReport) => void;
}

export const SCHEMA = 'pgboss';
const deadQueue = (queue: string) => `${queue}_dead`;
const describe = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 500);
/** The error as pg-boss keeps it in the job's output (what `dead` shows). */
const output = (e: unknown) => ({ name: e instanceof Error ? e.name : 'Error', message: (e instanceof Error ? e.message : String(e)).slice(0, 500) });
const traceparentOf = (data: JobData): string | undefined => (typeof data.traceparent === 'string' ? data.traceparent : undefined);
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

/*
 * A periodic task's run is claimed for its minute before it runs. pg-boss sends one job a minute of the
 * database's clock, but the job is made when its send-it job is worked (up to cronWorkerIntervalSeconds
 * later), and the minute a run is for is read from when the job was made: a send-it of the last
 * seconds of one minute and the next minute's own both land in the next minute (seen at start-up).
 * The claim runs that minute once, by the job that claimed it: that job's retries (a run that threw,
 * or expired with its worker) claim it again. Claims older than a day are pruned as new ones are made.
 */
const PERIODIC_RUNS = `${SCHEMA}.periodic_run`;
const createPeriodicRunsSql = `create table if not exists ${PERIODIC_RUNS} (name text not null, minute timestamptz not null, primary key (name, minute))`;
const addClaimingJobSql = `alter table ${PERIODIC_RUNS} add column if not exists job_id uuid`;
const claimMinuteSql = `with claimed as (insert into ${PERIODIC_RUNS} (name, minute, job_id) values ($1, $2, $3::uuid)
    on conflict (name, minute) do update set job_id = excluded.job_id where ${PERIODIC_RUNS}.job_id = excluded.job_id returning 1),
  pruned as (delete from ${PERIODIC_RUNS} where name = $1 and minute < $2::timestamptz - interval '1 day')
  select count(*)::int as claimed from claimed`;

/** Runs `create`, again after a moment when another process creating the same thing at once got in its way. */
const createIfMissing = async (create: () => Promise<unknown>) => {
  for (let attempt = 1; ; attempt++) {
    try {
      await create();
      return;
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (attempt >= 5 || !['40P01', '23505', '42P07'].includes(code ?? '')) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200));
    }
  }
};

/**
 * Creates the queue unless it exists. Two processes starting together on a fresh database may both
 * create it (a partition table each): one gets a deadlock or a duplicate, waits a moment and finds it.
 */
const ensureQueue = (b: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'>) =>
  createIfMissing(async () => {
    if (!(await b.getQueue(name))) await b.createQueue(name, { name, ...options });
  });

/** One queue's handler as the worker loops run it. */
interface Runner {
  readonly queue: string;
  run(job: PgBoss.JobWithMetadata<JobData>): Promise<void>;
}

/**
 * The job queue on PostgreSQL (or the embedded PGlite) through pg-boss, in its own schema of the
 * application's database. Each queue has a dead-letter queue `<queue>_dead`; retries back off
 * exponentially (pg-boss's retryBackoff, with jitter). Periodic tasks are pg-boss schedules: its
 * cron monitor sends one job per minute across all the processes sharing the database.
 *
 * The workers are our loops over pg-boss's fetch/complete/fail rather than its `work`: `work` waits
 * a whole polling interval after each job (a backlog drains at one job per interval), does not
 * await its completion write (a database fault there is an unhandled rejection) and, on a stop
 * past its timeout, fails the running jobs so they may be retried while still running here.
 */
export const pgBossJobQueue = (o: PgBossOptions): JobQueue & { readonly boss: () => PgBoss } => {
  const specs = new Map<string, JobSpec>();
  const tasks: PeriodicTask[] = [];
  const report = o.report ?? (() => undefined);
  const wakers = new Map<string, Set<() => void>>();
  const loops = new Set<Promise<void>>();
  let boss: PgBoss | undefined;
  let starting: Promise<void> | undefined;
  let stopping = false;

  const started = (): PgBoss => {
    if (!boss) throw new Error('the job queue is not started');
    return boss;
  };
  const wake = (queue: string) => [...(wakers.get(queue) ?? [])].forEach((w) => w());
  type Turn = { rows: { name: string; id: string; data: JobData }[]; queues: Set<string>; waiting: { resolve(): void; reject(e: unknown): void }[] };
  let turn: Turn | undefined;
  const pause = (queue: string, ms: number) =>
    new Promise<void>((resolve) => {
      const set = wakers.get(queue) ?? new Set();
      wakers.set(queue, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });

  const jobRunner = (spec: JobSpec): Runner => ({
    queue: spec.queue,
    // in the trace of the request that caused it, when it had one: its log lines carry the trace id (docs/adr/0066)
    run: (job) => withTraceparent(traceparentOf(job.data), () => runJob(spec, job)),
  });
  const runJob = async (spec: JobSpec, job: PgBoss.JobWithMetadata<JobData>) => {
    const b = started();
    const settle = (permanent: boolean, data: JobData | null) => b.getDb().executeSql(settleSql, [spec.queue, job.id, permanent, data === null ? null : JSON.stringify(data)]);
    try {
      await spec.handle({ id: job.id, data: job.data, attempt: job.retryCount + 1 });
    } catch (e) {
      const permanent = e instanceof PermanentJobFailure;
      const final = permanent || job.retryCount >= job.retryLimit;
      if (final && spec.onDead) {
        await spec.onDead({ id: job.id, data: job.data, attempt: job.retryCount + 1 }, describe(e)).catch((f) => report({ kind: 'queue_failed', error: `${spec.queue} onDead: ${describe(f)}` }));
      }
      if (permanent || (final && spec.redact)) await settle(permanent, final && spec.redact ? spec.redact(job.data) : null);
      await b.fail(spec.queue, job.id, output(e));
      report({ kind: final ? 'dead' : 'retry', queue: spec.queue, id: job.id, attempt: job.retryCount + 1, error: describe(e) });
      return;
    }
    if (spec.redact) await settle(false, spec.redact(job.data));
    await b.complete(spec.queue, job.id);
  };

  const taskRunner = (task: PeriodicTask): Runner => ({
    queue: task.name,
    async run(job) {
      const minute = startOfMinute(job.createdOn); // a retry keeps the job, so its minute
      try {
        const { rows } = await started().getDb().executeSql(claimMinuteSql, [task.name, minute.toISOString(), job.id]);
        if (Number(rows[0]?.claimed) === 1) await task.run(minute);
      } catch (e) {
        await started().fail(task.name, job.id, output(e));
        report({ kind: job.retryCount >= job.retryLimit ? 'dead' : 'retry', queue: task.name, id: job.id, attempt: job.retryCount + 1, error: describe(e) });
        return;
      }
      await started().complete(task.name, job.id);
    },
  });

  /** Takes the queue's jobs one at a time until the stop; rests `pollingIntervalSeconds` when there is none. */
  const loop = async (r: Runner) => {
    while (!stopping) {
      let job: PgBoss.JobWithMetadata<JobData> | undefined;
      try {
        [job] = await started().fetch<JobData>(r.queue, { batchSize: 1, includeMetadata: true });
        // A fault after the fetch leaves the job active: it expires and is retried (at least once).
        if (job) await r.run(job);
      } catch (e) {
        report({ kind: 'queue_failed', error: `${r.queue}: ${describe(e)}` });
        job = undefined;
      }
      if (!job && !stopping) await pause(r.queue, o.pollingIntervalSeconds * 1000);
    }
  };

  return {
    boss: started,
    define(spec) {
      specs.set(spec.queue, spec);
    },
    every(task) {
      tasks.push(task);
    },
    enqueue(queue, jobs) {
      if (jobs.length === 0) return Promise.resolve();
      // pg-boss inserts with ON CONFLICT DO NOTHING on (queue, id): a job already there is not added again.
      // The id rides in the data too: pg-boss's dead-letter copy gets an id of its own.
      const rows = jobs.map((j) => ({ name: queue, id: j.id, data: { ...j.data, jobId: j.id } }));
      // What is enqueued in one turn of the event loop (the dispatcher relays a batch of events at
      // once, one job per event and subscriber) goes in one INSERT, not one statement a job.
      if (!turn) {
        const batch: Turn = (turn = { rows: [], queues: new Set(), waiting: [] });
        setImmediate(() => {
          turn = undefined;
          Promise.resolve()
            .then(() => starting) // a start under way finishes first (its queues made)
            .then(() => started().insert(batch.rows))
            .then(() => {
              batch.queues.forEach(wake);
              batch.waiting.forEach((w) => w.resolve());
            })
            .catch((e: unknown) => batch.waiting.forEach((w) => w.reject(e)));
        });
      }
      turn.rows.push(...rows);
      turn.queues.add(queue);
      return new Promise<void>((resolve, reject) => turn!.waiting.push({ resolve, reject }));
    },
    // One start at a time; what is enqueued meanwhile waits for it (a server starts its queue after it
    // answers, and the relay may hand it events before it is up, docs/adr/0081).
    start({ workers }) {
      return (starting ??= (async () => {
        if (boss) return;
        const { default: PgBossQueue } = await import('pg-boss');
        const b = new PgBossQueue({
          connectionString: o.connectionString,
          max: o.poolMax,
          schema: SCHEMA,
          migrate: true, // pg-boss installs and upgrades its schema itself, under an advisory lock
          supervise: workers,
          schedule: workers,
          maintenanceIntervalSeconds: o.maintenanceIntervalSeconds,
          cronWorkerIntervalSeconds: 5,
          cronMonitorIntervalSeconds: o.cronMonitorIntervalSeconds ?? 30,
        });
        b.on('error', (e) => report({ kind: 'queue_failed', error: describe(e) }));
        await b.start();
        boss = b;
        stopping = false;
        const queues = [...specs.values()].map((s) => ({ ...s, retryBackoff: true }));
        const periodic = tasks.map((t) => ({ queue: t.name, retryLimit: t.retryLimit ?? 0, retryDelaySeconds: t.retryDelaySeconds ?? 0, retryBackoff: (t.retryLimit ?? 0) > 0, expireInSeconds: 55 }));
        for (const q of [...queues, ...periodic]) {
          const options = { retryLimit: q.retryLimit, retryDelay: q.retryDelaySeconds, retryBackoff: q.retryBackoff, expireInSeconds: q.expireInSeconds, deadLetter: deadQueue(q.queue) };
          await ensureQueue(b, deadQueue(q.queue), {});
          await ensureQueue(b, q.queue, options);
          await b.updateQueue(q.queue, { name: q.queue, ...options }); // a changed policy reaches a queue made earlier
        }
        if (!workers) return;
        if (tasks.length > 0) {
          await createIfMissing(() => b.getDb().executeSql(createPeriodicRunsSql, []));
          await createIfMissing(() => b.getDb().executeSql(addClaimingJobSql, []));
        }
        for (const t of tasks) await b.schedule(t.name, '* * * * *');
        const runners = [...[...specs.values()].flatMap((s) => Array.from({ length: o.concurrency }, () => jobRunner(s))), ...tasks.map(taskRunner)];
        for (const r of runners) {
          const running: Promise<void> = loop(r).finally(() => loops.delete(running));
          loops.add(running);
        }
      })().catch((e: unknown) => {
        starting = undefined; // a failed start may be tried again
        throw e;
      }));
    },
    async stop() {
      const b = boss;
      if (!b) return;
      stopping = true;
      for (const queue of wakers.keys()) wake(queue);
      // The jobs running finish; one still running at the timeout is left active: it expires and is
      // retried then, never while it may still run here.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled([...loops]), new Promise((resolve) => (timer = setTimeout(resolve, o.stopTimeoutMs)))]);
      clearTimeout(timer);
      await b.stop({ graceful: false, close: true });
      boss = undefined;
      starting = undefined;
    },
    async depths() {
      // state < 'active' (created, retry) is the partial index pg-boss keeps for fetching: no scan of finished jobs.
      const { rows } = await started().getDb().executeSql(`select name, count(*)::int as n from ${SCHEMA}.job where state < 'active' group by name`, []);
      const counts = new Map<string, { waiting: number; dead: number }>();
      const of = (queue: string) => counts.get(queue) ?? (counts.set(queue, { waiting: 0, dead: 0 }), counts.get(queue)!);
      for (const q of [...specs.keys(), ...tasks.map((t) => t.name)]) of(q);
      for (const r of rows as { name: string; n: number }[]) {
        // a dead-letter copy is a job `created` in `<queue>_dead` that no worker fetches
        if (r.name.endsWith('_dead')) of(r.name.slice(0, -'_dead'.length)).dead += r.n;
        else of(r.name).waiting += r.n;
      }
      return [...counts].map(([queue, c]) => ({ queue, ...c }));
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
