/** A job's data: JSON, stored as jsonb by the PostgreSQL queue. */
export type JobData = { readonly [key: string]: unknown };

/** A job as a worker runs it. */
export interface Job {
  /** Stable across retries; the outbox entry's id for an event's job. */
  readonly id: string;
  readonly data: JobData;
  /** 1 on the first run, 2 on the first retry… */
  readonly attempt: number;
}

/** A kind of job: its queue, its retry policy and what runs it (docs/adr/0029). */
export interface JobSpec {
  /** Letters, digits, '-' and '_'. A queue `<name>_dead` keeps its jobs that ran out of retries. */
  readonly queue: string;
  /** Runs after the first that failed; then the job is dead. */
  readonly retryLimit: number;
  /** The pause before the first retry; it doubles (with jitter) before each next one. */
  readonly retryDelaySeconds: number;
  /** A run still going after this long is failed (and retried): keep the handler's own timeouts below it. */
  readonly expireInSeconds: number;
  /** Throws to have the job retried; throws `PermanentJobFailure` to make it dead at once. */
  handle(job: Job): Promise<void>;
  /** Told once when the job dies (its last retry failed, or it failed for good): a notification becomes FAILED. */
  readonly onDead?: (job: Job, error: string) => Promise<void>;
  /** What is kept of the data once the job has succeeded or died (a code is not kept after its message went). */
  readonly redact?: (data: JobData) => JobData;
}

/** A failure retrying cannot mend (a provider refused the message for good): the job dies at once. */
export class PermanentJobFailure extends Error {
  override readonly name = 'PermanentJobFailure';
}

/** Work done once a minute across every worker process together (not once per process). */
export interface PeriodicTask {
  /** Stable and unique: it names the task's queue. Letters, digits, '-' and '_'. */
  readonly name: string;
  /** `minute`: the start of the minute this run is for (a run delayed by a busy worker still knows). Throw to have it retried. */
  run(minute: Date): Promise<void>;
  /**
   * Retries of a run that threw, with the minute it was for (backing off as a JobSpec's); then it is dead.
   * 0 (the default): a failed run is dead at once. A retried run must be safe to run again.
   */
  readonly retryLimit?: number;
  /** The pause before the first retry; it doubles (with jitter) before each next one. */
  readonly retryDelaySeconds?: number;
}

/** A job that ran out of retries (or failed for good), as an operator lists it. */
export interface DeadJob {
  readonly queue: string;
  readonly id: string;
  readonly data: JobData;
  readonly error: string;
  readonly diedAt: Date;
}

/** One queue as an operator's metrics see it (docs/adr/0065). */
export interface QueueDepth {
  readonly queue: string;
  /** Jobs waiting to run: new, or waiting for a retry. */
  readonly waiting: number;
  /** Jobs that ran out of retries (or failed for good), kept for a person to look at. */
  readonly dead: number;
}

/**
 * A queue of jobs with retries, a dead-letter state and workers. Queues and periodic tasks are
 * declared before `start`. `enqueue` is idempotent by job id: a job whose id is already queued (or
 * done, or dead) is not added again, so a relay repeated after a crash does not send twice.
 */
export interface JobQueue {
  define(spec: JobSpec): void;
  every(task: PeriodicTask): void;
  enqueue(queue: string, jobs: readonly { readonly id: string; readonly data: JobData }[]): Promise<void>;
  /** `workers: false`: this process only enqueues (another process, `npm run worker`, runs the jobs). */
  start(options: { readonly workers: boolean }): Promise<void>;
  /** Takes no new job; the ones running finish (or, past the timeout, go back to be retried). */
  stop(): Promise<void>;
  /** The newest dead jobs first. */
  dead(limit: number): Promise<DeadJob[]>;
  /** Every queue declared here (and any other the store holds), with its waiting and dead jobs. */
  depths(): Promise<readonly QueueDepth[]>;
}

/** What a job queue tells its operator. Never the job's data: a message's job holds a code. */
export type JobReport =
  | { readonly kind: 'retry' | 'dead'; readonly queue: string; readonly id: string; readonly attempt: number; readonly error: string }
  | { readonly kind: 'queue_failed'; readonly error: string };
