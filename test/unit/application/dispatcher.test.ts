import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { phoneIdentifier } from '../../../domain/identifier.js';
import { normalisePhone } from '../../../domain/phone.js';
import type { DomainEvent, EventType } from '../../../domain/events.js';
import { createDispatcher, retryDelay, type DispatchReport, type DispatcherOptions } from '../../../application/events/dispatcher.js';
import { sendMessages } from '../../../application/events/send-messages.js';
import { FIRST_ATTEMPT_GRACE_MS, type Subscriber } from '../../../application/ports/outbox.js';
import { rollback } from '../../../application/ports/unit-of-work.js';
import { PermanentJobFailure } from '../../../application/ports/job-queue.js';
import { deliverAfterCommit, type RecordHook } from '../../../adapters/persistence/deliver-after-commit.js';
import { inMemoryOutboxRows } from '../../../adapters/persistence/in-memory/outbox.in-memory.js';
import { inMemory, type AppRepositories } from '../../../bootstrap/persistence.js';
import { kobo } from '../../../domain/money.js';
import { recordingOutbox, testClock } from '../../support/test-app.js';

const customerCreated = (): DomainEvent => ({ _tag: 'CustomerCreated', businessId: randomUUID(), customerId: randomUUID() });
const invited = (): DomainEvent => ({
  _tag: 'MemberInvited',
  businessId: randomUUID(),
  businessName: 'Ada Stores',
  membershipId: randomUUID(),
  userId: randomUUID(),
  role: 'STAFF',
  identifier: phoneIdentifier(normalisePhone('+2348031234567')!),
});

/** A subscriber that records what it handled and throws while `failures` lasts. */
const aSubscriber = (name: string, handles: EventType[], o: { failures?: number; hang?: Promise<void> } = {}) => {
  const handled: DomainEvent[] = [];
  let failures = o.failures ?? 0;
  const subscriber: Subscriber = {
    name,
    handles,
    async handle(event) {
      await o.hang;
      if (failures-- > 0) throw new Error(`${name} is down`);
      handled.push(event);
    },
  };
  return { subscriber, handled };
};

const setup = (subscribers: Subscriber[], options: Partial<DispatcherOptions> = {}) => {
  const p = inMemory();
  const clock = testClock(new Date('2026-11-22T12:00:00Z'));
  const reports: DispatchReport[] = [];
  const dispatcher = createDispatcher({ outbox: p.outbox, clock, subscribers, report: (r) => void reports.push(r) }, options);
  const record = (...events: DomainEvent[]) => p.uow.run((r) => r.events.record(clock.now(), ...events));
  const rows = () => inMemoryOutboxRows(p.uow);
  return { p, clock, dispatcher, reports, record, rows };
};

describe('outbox dispatcher (in memory)', () => {
  it('delivers each entry to the subscribers of its type; an entry nobody subscribes to is settled too', async () => {
    const customers = aSubscriber('customers', ['CustomerCreated']);
    const staff = aSubscriber('staff', ['MemberInvited', 'CustomerCreated']);
    const { clock, dispatcher, record, rows } = setup([customers.subscriber, staff.subscriber]);
    const [a, b] = [customerCreated(), invited()];
    await record(a, b, { _tag: 'SaleVoided', businessId: randomUUID(), saleId: randomUUID(), receiptNumber: 'R-1', branchId: randomUUID(), customerId: null, total: kobo(0), refundAmount: kobo(0), reason: null, voidedBy: randomUUID(), returned: [] });
    expect(await dispatcher.runDue(), 'a fresh entry waits for its own request first').to.equal(0);
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    expect(await dispatcher.runDue()).to.equal(3);
    expect(customers.handled).to.deep.equal([a]);
    expect(staff.handled).to.have.deep.members([a, b]);
    expect((await rows()).map((r) => r.deliveredAt)).to.deep.equal([clock.now(), clock.now(), clock.now()]);
    expect(await dispatcher.runDue()).to.equal(0);
  });

  it('calls giveUp of the subscribers that failed the last attempt, once, with the error; those that succeeded are not told', async () => {
    const down = aSubscriber('down', ['MemberInvited'], { failures: 99 });
    const fine = aSubscriber('fine', ['MemberInvited']);
    const gaveUp: { id: string; error: string }[] = [];
    const failing: Subscriber = { ...down.subscriber, giveUp: async (_event, meta) => void gaveUp.push({ id: meta.id, error: meta.error }) };
    const { clock, dispatcher, record, reports } = setup([failing, { ...fine.subscriber, giveUp: async () => expect.fail('fine was delivered') }], { maxAttempts: 2 });
    const [id] = await record(invited());
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    await dispatcher.runDue();
    expect(gaveUp).to.deep.equal([]);
    clock.advance(60_000);
    await dispatcher.runDue();
    expect(gaveUp).to.deep.equal([{ id, error: 'Error: down is down' }]);
    expect(reports.map((r) => r.kind)).to.deep.equal(['retry', 'given_up']);
    clock.advance(600_000);
    expect(await dispatcher.runDue()).to.equal(0);
    expect(gaveUp).to.have.length(1);
  });

  it('a request does not wait for background subscribers: their types are not attempted at once', () => {
    const urgent = aSubscriber('urgent', ['MemberInvited']);
    const background = aSubscriber('background', ['CustomerCreated', 'MemberInvited']);
    const { dispatcher } = setup([urgent.subscriber, { ...background.subscriber, background: true }]);
    expect(dispatcher.subscribes('MemberInvited')).to.equal(true);
    expect(dispatcher.subscribes('CustomerCreated')).to.equal(false);
  });

  it('retries a failure with doubling pauses, counting attempts and keeping the last error, then delivers once', async () => {
    const flaky = aSubscriber('messages', ['MemberInvited'], { failures: 3 });
    const { clock, dispatcher, reports, record, rows } = setup([flaky.subscriber]);
    await record(invited());
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    for (const [attempt, pause] of [[1, 1_000], [2, 2_000], [3, 4_000]] as const) {
      expect(await dispatcher.runDue()).to.equal(1);
      const [row] = await rows();
      expect(row).to.deep.include({ attempts: attempt, lastError: 'messages: Error: messages is down', deliveredAt: null });
      expect(row!.nextAttemptAt).to.deep.equal(new Date(clock.now().getTime() + pause));
      clock.advance(pause - 1);
      expect(await dispatcher.runDue(), 'not before its time').to.equal(0);
      clock.advance(1);
    }
    expect(await dispatcher.runDue()).to.equal(1);
    expect(flaky.handled).to.have.length(1);
    expect((await rows())[0]).to.deep.include({ attempts: 4, nextAttemptAt: null, deliveredAt: clock.now() });
    expect(reports.map((r) => r.kind)).to.deep.equal(['retry', 'retry', 'retry']);
    expect(JSON.stringify(reports)).to.not.include('+2348031234567');
    expect(retryDelay(30, { retryBaseMs: 1_000, retryMaxMs: 300_000 })).to.equal(300_000);
  });

  it('runs a subscriber once per entry: one that succeeded is skipped when the entry is retried for another', async () => {
    const steady = aSubscriber('webhooks', ['CustomerCreated']);
    const flaky = aSubscriber('jobs', ['CustomerCreated'], { failures: 1 });
    const { clock, dispatcher, record, rows } = setup([steady.subscriber, flaky.subscriber]);
    await record(customerCreated());
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    await dispatcher.runDue();
    expect((await rows())[0]!.deliveredTo).to.deep.equal(['webhooks']);
    clock.advance(1_000);
    await dispatcher.runDue();
    expect(steady.handled).to.have.length(1);
    expect(flaky.handled).to.have.length(1);
  });

  it('two dispatchers on one outbox deliver each entry once', async () => {
    const seen = aSubscriber('count', ['CustomerCreated']);
    const { p, clock, dispatcher, record } = setup([seen.subscriber], { batchSize: 3 });
    const second = createDispatcher({ outbox: p.outbox, clock, subscribers: [seen.subscriber] }, { batchSize: 3 });
    for (let i = 0; i < 10; i++) await record(customerCreated());
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    while ((await Promise.all([dispatcher.runDue(), second.runDue()])).some((n) => n > 0));
    expect(seen.handled).to.have.length(10);
    expect(new Set(seen.handled.map((e) => (e as { customerId: string }).customerId)).size).to.equal(10);
  });

  it('gives up after maxAttempts: the entry keeps its error but no longer its code', async () => {
    const down = aSubscriber('messages', ['SignInCodeIssued'], { failures: 99 });
    const { clock, dispatcher, reports, record, rows } = setup([down.subscriber], { maxAttempts: 2 });
    await record({ _tag: 'SignInCodeIssued', businessId: null, identifier: phoneIdentifier(normalisePhone('+2348031234567')!), code: '654321', expiresAt: '2026-11-22T12:10:00.000Z' });
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    await dispatcher.runDue();
    clock.advance(1_000);
    await dispatcher.runDue();
    const [row] = await rows();
    expect(row).to.deep.include({ attempts: 2, nextAttemptAt: null, deliveredAt: null, lastError: 'messages: Error: messages is down' });
    expect(JSON.stringify(row!.payload)).to.not.include('654321');
    expect(reports.map((r) => r.kind)).to.deep.equal(['retry', 'given_up']);
  });

  it('gives up at once on a PermanentJobFailure (a refused message), without waiting for maxAttempts', async () => {
    const refusing: Subscriber = { name: 'messages', handles: ['CustomerCreated'], handle: async () => Promise.reject(new PermanentJobFailure('MessageRejected: not a mobile number')) };
    const { clock, dispatcher, reports, record, rows } = setup([refusing], { maxAttempts: 5 });
    await record(customerCreated());
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    await dispatcher.runDue();
    const [row] = await rows();
    expect(row).to.deep.include({ attempts: 1, nextAttemptAt: null, deliveredAt: null });
    expect(reports.map((r) => r.kind)).to.deep.equal(['given_up']);
  });

  it('deliverNow waits for a slow first attempt no longer than firstAttemptWaitMs; stop waits for it to end', async () => {
    let release!: () => void;
    const slow = aSubscriber('slow', ['CustomerCreated'], { hang: new Promise((r) => (release = r)) });
    const { dispatcher, record } = setup([slow.subscriber], { firstAttemptWaitMs: 50 });
    const ids = await record(customerCreated());
    const started = Date.now();
    await dispatcher.deliverNow(ids);
    expect(Date.now() - started).to.be.within(40, 1_000);
    expect(slow.handled).to.have.length(0);
    const stopping = dispatcher.stop();
    release();
    await stopping;
    expect(slow.handled).to.have.length(1);
  });
});

describe('deliverAfterCommit (in memory)', () => {
  it('a committed unit of work delivers before it answers; a rolled-back one records and delivers nothing', async () => {
    const seen = aSubscriber('seen', ['CustomerCreated']);
    const { p, clock, dispatcher, rows } = setup([seen.subscriber]);
    const uow = deliverAfterCommit(p.uow, dispatcher);
    await uow.run((r) => r.events.record(clock.now(), customerCreated()));
    expect(seen.handled).to.have.length(1);
    const undone = await uow.run(async (r) => rollback(await r.events.record(clock.now(), customerCreated())));
    expect(undone).to.have.length(1);
    await uow.run(async (r) => {
      await r.events.record(clock.now(), customerCreated());
      throw new Error('fault');
    }).catch(() => undefined);
    expect(seen.handled).to.have.length(1);
    expect(await rows()).to.have.length(1);
  });

  it('inside atomically, delivers after the outer commit, and nothing when it fails', async () => {
    const seen = aSubscriber('seen', ['CustomerCreated']);
    const { p, clock, dispatcher } = setup([seen.subscriber]);
    const uow = deliverAfterCommit(p.uow, dispatcher);
    await uow.atomically(async () => {
      await uow.run((r) => r.events.record(clock.now(), customerCreated()));
      expect(seen.handled, 'not before the outer commit').to.have.length(0);
    });
    expect(seen.handled).to.have.length(1);
    await uow.atomically(async () => {
      await uow.run((r) => r.events.record(clock.now(), customerCreated()));
      throw new Error('the idempotent answer could not be stored');
    }).catch(() => undefined);
    clock.advance(FIRST_ATTEMPT_GRACE_MS);
    await dispatcher.runDue();
    expect(seen.handled).to.have.length(1);
  });
});

describe('deliverAfterCommit record hooks (issue 32)', () => {
  /** A hook that writes an event of its own in the recording transaction and counts its nudges. */
  const aHook = () => {
    const nudges: number[] = [];
    const hook: RecordHook<AppRepositories> = {
      async recorded(repos, at, events, ids) {
        if (!events.some((e) => e._tag === 'CustomerCreated')) return false;
        expect(await ids).to.have.length(events.length);
        await repos.events.record(at, invited()); // in the same transaction: gone with a rollback
        return true;
      },
      committed: () => void nudges.push(1),
    };
    return { hook, nudges };
  };

  it('runs in the recording transaction and is nudged after its commit; a rollback or a fault keeps nothing and nudges nothing', async () => {
    const { p, clock, dispatcher, rows } = setup([]);
    const { hook, nudges } = aHook();
    const uow = deliverAfterCommit(p.uow, dispatcher, [hook]);
    await uow.run(async (r) => {
      await r.events.record(clock.now(), customerCreated());
      expect(nudges, 'not before the commit').to.have.length(0);
    });
    expect(nudges).to.have.length(1);
    expect((await rows()).map((x) => x.type).sort()).to.deep.equal(['CustomerCreated', 'MemberInvited']);
    await uow.run(async (r) => rollback(await r.events.record(clock.now(), customerCreated())));
    await uow.run(async (r) => {
      await r.events.record(clock.now(), customerCreated());
      throw new Error('fault');
    }).catch(() => undefined);
    expect(nudges).to.have.length(1);
    expect(await rows()).to.have.length(2);
  });

  it('inside atomically, is nudged after the outer commit, and not at all when it fails', async () => {
    const { p, clock, dispatcher } = setup([]);
    const { hook, nudges } = aHook();
    const uow = deliverAfterCommit(p.uow, dispatcher, [hook]);
    await uow.atomically(async () => {
      await uow.run((r) => r.events.record(clock.now(), customerCreated()));
      expect(nudges, 'not before the outer commit').to.have.length(0);
    });
    expect(nudges).to.have.length(1);
    await uow.atomically(async () => {
      await uow.run((r) => r.events.record(clock.now(), customerCreated()));
      throw new Error('the idempotent answer could not be stored');
    }).catch(() => undefined);
    expect(nudges).to.have.length(1);
  });
});

describe('sendMessages', () => {
  it('sends codes and invitations; a code that expired while it waited is not sent', async () => {
    const messages = recordingOutbox();
    const clock = testClock(new Date('2026-11-22T12:00:00Z'));
    const subscriber = sendMessages({ messages, clock });
    const code = { _tag: 'VerificationCodeIssued', businessId: null, identifier: { kind: 'email', value: 'ada@example.com' }, code: '112233', expiresAt: '2026-11-22T12:10:00.000Z' } as const;
    await subscriber.handle(code, { id: randomUUID(), occurredAt: clock.now() });
    await subscriber.handle(invited(), { id: randomUUID(), occurredAt: clock.now() });
    expect(messages.sent).to.deep.equal([
      { channel: 'email', to: 'ada@example.com', purpose: 'CODE', text: 'Your verification code is 112233. It expires in 10 minutes. Do not share it.' },
      { channel: 'sms', to: '+2348031234567', purpose: 'INVITATION', text: 'Ada Stores has invited you to join their team on BizOps. Sign in with this phone number to accept.' },
    ]);
    clock.advance(10 * 60_000);
    await subscriber.handle(code, { id: randomUUID(), occurredAt: clock.now() });
    expect(messages.sent).to.have.length(2);
  });
});
