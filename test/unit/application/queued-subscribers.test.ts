import { expect } from 'chai';
import type { DomainEvent } from '../../../domain/events.js';
import { queueSubscribers } from '../../../application/events/queued-subscribers.js';
import type { JobQueue, JobSpec } from '../../../application/ports/job-queue.js';
import type { Subscriber } from '../../../application/ports/outbox.js';

/** A queue that only keeps what it is given, so the test can play the worker's part. */
const recordingQueue = () => {
  const specs = new Map<string, JobSpec>();
  const enqueued: { queue: string; id: string }[] = [];
  const data: Record<string, unknown>[] = [];
  const queue: JobQueue = {
    define: (spec) => void specs.set(spec.queue, spec),
    every: () => undefined,
    enqueue: async (q, jobs) => {
      enqueued.push(...jobs.map((j) => ({ queue: q, id: j.id })));
      data.push(...jobs.map((j) => ({ ...j.data })));
    },
    start: async () => undefined,
    stop: async () => undefined,
    dead: async () => [],
    depths: async () => [],
  };
  return { queue, specs, enqueued, data };
};

const event = { _tag: 'NotificationRequested', notificationId: 'n-1', businessId: 'b-1' } as unknown as DomainEvent;

describe('queueSubscribers: a subscriber behind the job queue', () => {
  const givenUp: { id: string; error: string }[] = [];
  const subscriber: Subscriber = {
    name: 'notifications',
    handles: ['NotificationRequested'],
    background: true,
    handle: async () => undefined,
    giveUp: async (_e, meta) => void givenUp.push({ id: meta.id, error: meta.error }),
  };

  it('the relay keeps the subscriber\'s name, types and background flag, and enqueues one job per event with the outbox id', async () => {
    const q = recordingQueue();
    const [relay] = queueSubscribers(q.queue, [subscriber]);
    expect(relay).to.include({ name: 'notifications', background: true });
    await relay!.handle(event, { id: 'outbox-1', occurredAt: new Date('2026-11-24T10:00:00Z') });
    expect(q.enqueued).to.deep.equal([{ queue: 'notifications', id: 'outbox-1' }]);
  });

  it('gives the event up to the subscriber once: when its job dies on the queue, or when the dispatcher gives up the relay', async () => {
    givenUp.length = 0;
    const q = recordingQueue();
    const [relay] = queueSubscribers(q.queue, [subscriber]);
    await q.specs.get('notifications')!.onDead!({ id: 'outbox-2', attempt: 9, data: { event, occurredAt: '2026-11-24T10:00:00.000Z' } }, 'provider answered 500');
    await relay!.giveUp!(event, { id: 'outbox-3', occurredAt: new Date(), error: 'queue unreachable' });
    expect(givenUp).to.deep.equal([{ id: 'outbox-2', error: 'provider answered 500' }, { id: 'outbox-3', error: 'queue unreachable' }]);
  });

  it('a job that already ran to the end (its data redacted) is not given up again', async () => {
    givenUp.length = 0;
    const q = recordingQueue();
    queueSubscribers(q.queue, [subscriber]);
    await q.specs.get('notifications')!.onDead!({ id: 'outbox-4', attempt: 2, data: { event, occurredAt: '2026-11-24T10:00:00.000Z', redacted: true } }, 'late');
    expect(givenUp).to.deep.equal([]);
  });

  it('the event’s trace rides in the job and reaches the subscriber (docs/adr/0066)', async () => {
    const heard: (string | undefined)[] = [];
    const q = recordingQueue();
    const [relay] = queueSubscribers(q.queue, [{ ...subscriber, handle: async (_e, meta) => void heard.push(meta.traceparent) }]);
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await relay!.handle(event, { id: 'outbox-5', occurredAt: new Date('2026-11-24T10:00:00Z'), traceparent });
    await relay!.handle(event, { id: 'outbox-6', occurredAt: new Date('2026-11-24T10:00:00Z') });
    expect(q.data.map((d) => d.traceparent)).to.deep.equal([traceparent, undefined]);
    for (const [i, d] of q.data.entries()) await q.specs.get('notifications')!.handle({ id: `outbox-${5 + i}`, attempt: 1, data: d });
    expect(heard).to.deep.equal([traceparent, undefined]);
  });
});
