import { withoutSecrets, type DomainEvent } from '../../domain/events.js';
import { MessageRejected } from '../ports/message-sender.js';
import { PermanentJobFailure, type JobData, type JobQueue } from '../ports/job-queue.js';
import type { Subscriber } from '../ports/outbox.js';

/** The retry policy of the jobs an event's subscriber runs. */
export interface SubscriberJobPolicy {
  readonly retryLimit: number;
  readonly retryDelaySeconds: number;
  readonly expireInSeconds: number;
}

export const DEFAULT_SUBSCRIBER_JOB_POLICY: SubscriberJobPolicy = { retryLimit: 8, retryDelaySeconds: 2, expireInSeconds: 60 };

interface EventJob {
  readonly event: DomainEvent;
  readonly occurredAt: string;
  /** The trace of the request that recorded the event (docs/adr/0066): the job runs, and logs, in it. */
  readonly traceparent?: string;
  /** Set once the job has run: its event lost its secrets, it must not run again. */
  readonly redacted?: true;
}

const isEventJob = (data: JobData): data is JobData & EventJob => typeof data.event === 'object' && data.event !== null && typeof data.occurredAt === 'string';

/**
 * Each subscriber's events become jobs of its own queue (named after it): the dispatcher relays a
 * committed outbox entry into one job (job id = outbox id, so a repeated relay adds nothing) and a
 * worker runs the subscriber for it, with the queue's retries and dead-letter state. A
 * `MessageRejected` fails the job for good. Answers the relays, which take the subscribers' place
 * in the dispatcher's list.
 */
export const queueSubscribers = (queue: JobQueue, subscribers: readonly Subscriber[], policy: SubscriberJobPolicy = DEFAULT_SUBSCRIBER_JOB_POLICY): Subscriber[] =>
  subscribers.map((s) => {
    queue.define({
      queue: s.name,
      ...policy,
      async handle(job) {
        if (!isEventJob(job.data)) throw new PermanentJobFailure(`job ${job.id} carries no event`);
        if (job.data.redacted) return; // it ran to the end; the process died before the queue heard of it
        try {
          await s.handle(job.data.event, { id: job.id, occurredAt: new Date(job.data.occurredAt), ...(job.data.traceparent ? { traceparent: job.data.traceparent } : {}) });
        } catch (e) {
          if (e instanceof MessageRejected) throw new PermanentJobFailure(`${e.name}: ${e.message}`);
          throw e;
        }
      },
      // on PostgreSQL the queue says when the job died; in process, the dispatcher gives up the relay below
      onDead: async (job, error) => {
        if (isEventJob(job.data) && !job.data.redacted) await s.giveUp?.(job.data.event, { id: job.id, occurredAt: new Date(job.data.occurredAt), error });
      },
      redact: (data) => (isEventJob(data) ? { ...data, event: withoutSecrets(data.event), redacted: true } : data),
    });
    return {
      name: s.name,
      handles: s.handles,
      ...(s.background ? { background: true } : {}),
      ...(s.giveUp ? { giveUp: s.giveUp.bind(s) } : {}),
      handle: (event, meta) =>
        queue.enqueue(s.name, [{ id: meta.id, data: { event, occurredAt: meta.occurredAt.toISOString(), ...(meta.traceparent ? { traceparent: meta.traceparent } : {}) } satisfies EventJob }]),
    };
  });
