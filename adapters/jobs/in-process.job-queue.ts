import type { DeadJob, JobQueue, JobReport, JobSpec, PeriodicTask } from '../../application/ports/job-queue.js';
import { PermanentJobFailure } from '../../application/ports/job-queue.js';
import { withTraceparent } from '../tracing/trace-context.js';

const describe = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 500);
const startOfMinute = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000);

/**
 * The job queue without a database of its own (the in-memory adapters, the embedding example, the
 * application tests): `enqueue` runs the job at once, in this process, and throws its failure, so
 * the outbox dispatcher that relayed it retries it with its own backoff and gives it up after its
 * last attempt (docs/adr/0024): the same retry-then-dead life as on PostgreSQL, with the outbox as
 * the store. Periodic tasks run once a minute while started with workers (one process: once); a run
 * that throws is run again for its minute after the task's retry delay, doubling, `retryLimit` times.
 */
export const inProcessJobQueue = (options: { readonly now?: () => Date; readonly report?: (r: JobReport) => void } = {}): JobQueue => {
  const now = options.now ?? (() => new Date());
  const specs = new Map<string, JobSpec>();
  const tasks: PeriodicTask[] = [];
  const dead: DeadJob[] = [];
  const running = new Set<Promise<unknown>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const retries = new Set<ReturnType<typeof setTimeout>>();
  let lastMinute = 0;

  const track = <A>(work: Promise<A>): Promise<A> => {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  };
  const runTask = (t: PeriodicTask, minute: Date, attempt: number) =>
    void track(t.run(minute)).catch((e) => {
      const retryLimit = t.retryLimit ?? 0;
      const final = attempt > retryLimit || timer === undefined; // stopped: no retry
      options.report?.({ kind: final ? 'dead' : 'retry', queue: t.name, id: minute.toISOString(), attempt, error: describe(e) });
      if (final) return;
      const delayMs = (t.retryDelaySeconds ?? 0) * 1000 * 2 ** (attempt - 1) * (1 + Math.random());
      const retry = setTimeout(() => {
        retries.delete(retry);
        runTask(t, minute, attempt + 1);
      }, delayMs);
      retries.add(retry);
    });
  const tick = () => {
    const minute = startOfMinute(now());
    if (minute.getTime() !== lastMinute) {
      lastMinute = minute.getTime();
      for (const t of tasks) runTask(t, minute, 1);
    }
    timer = setTimeout(tick, 60_000 - (now().getTime() % 60_000) + 5);
  };

  return {
    define(spec) {
      specs.set(spec.queue, spec);
    },
    every(task) {
      tasks.push(task);
    },
    async enqueue(queue, jobs) {
      const spec = specs.get(queue);
      if (!spec) throw new Error(`no queue ${queue}`);
      for (const job of jobs) {
        try {
          // in the trace of the request that caused it (docs/adr/0066)
          const traceparent = typeof job.data.traceparent === 'string' ? job.data.traceparent : undefined;
          await track(withTraceparent(traceparent, () => spec.handle({ id: job.id, data: job.data, attempt: 1 })));
        } catch (e) {
          if (e instanceof PermanentJobFailure) dead.unshift({ queue, id: job.id, data: spec.redact?.(job.data) ?? job.data, error: describe(e), diedAt: now() });
          throw e;
        }
      }
    },
    async start({ workers }) {
      if (workers && tasks.length > 0 && timer === undefined) {
        lastMinute = startOfMinute(now()).getTime(); // the first run is at the next minute, as with cron
        timer = setTimeout(tick, 60_000 - (now().getTime() % 60_000) + 5);
      }
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      retries.forEach(clearTimeout);
      retries.clear();
      await Promise.allSettled([...running]);
    },
    dead: async (limit) => dead.slice(0, limit),
    // Nothing waits here: a job runs as it is enqueued (its retries are the outbox's, counted there).
    depths: async () => [...specs.keys(), ...tasks.map((t) => t.name)].map((queue) => ({ queue, waiting: 0, dead: dead.filter((j) => j.queue === queue).length })),
  };
};
