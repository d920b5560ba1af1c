import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { pollLoop } from '../../../application/events/poll-loop.js';
import { createDispatcher } from '../../../application/events/dispatcher.js';
import type { Subscriber } from '../../../application/ports/outbox.js';
import { inMemory } from '../../../bootstrap/persistence-in-memory.js';
import type { DomainEvent } from '../../../domain/events.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The one poll loop of the dispatcher and the webhook deliveries (docs/adr/0050). */
describe('poll loop (application/events/poll-loop.ts)', () => {
  it('runs at once on start, then `ms` after each run ended; stop ends it and waits for the run under way', async () => {
    const runs: { start: number; end: number; runningAfter?: boolean }[] = [];
    const loop = pollLoop(
      40,
      async (running) => {
        const run: (typeof runs)[number] = { start: Date.now(), end: 0 };
        runs.push(run);
        await sleep(20);
        run.end = Date.now();
        run.runningAfter = running();
      },
      () => expect.fail('no fault'),
    );
    const started = Date.now();
    loop.start();
    loop.start(); // a second start changes nothing
    await sleep(300);
    await loop.stop();
    const count = runs.length;
    expect(runs[0]!.start - started).to.be.below(100);
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.start - runs[i - 1]!.end).to.be.at.least(38);
    expect(count).to.be.within(2, 6);
    expect(runs.at(-1)!.end).to.be.above(0); // stop waited for it
    await sleep(100);
    expect(runs).to.have.length(count);
  });

  it('a run is told when the loop stopped, so a long run ends early', async () => {
    let passes = 0;
    const loop = pollLoop(
      1_000,
      async (running) => {
        while (running()) {
          passes++;
          await sleep(5);
        }
      },
      () => undefined,
    );
    loop.start();
    await sleep(50);
    await loop.stop();
    const after = passes;
    await sleep(30);
    expect(after).to.be.above(1);
    expect(passes).to.equal(after);
  });

  it('wake runs at once, and a wake during a run is followed by one more run; not started, a wake does nothing', async () => {
    let runs = 0;
    const loop = pollLoop(
      10_000,
      async () => {
        runs++;
        await sleep(20);
      },
      () => undefined,
    );
    loop.wake();
    await sleep(30);
    expect(runs).to.equal(0);
    loop.start();
    await sleep(5);
    loop.wake(); // during the first run
    loop.wake();
    await sleep(150);
    expect(runs).to.equal(2);
    loop.wake(); // resting: at once, not after 10 s
    await sleep(5);
    expect(runs).to.equal(3);
    await loop.stop();
  });

  it('a fault is reported and the loop goes on', async () => {
    const faults: unknown[] = [];
    let runs = 0;
    const loop = pollLoop(
      10,
      async () => {
        if (++runs === 1) throw new Error('database down');
      },
      (e) => faults.push(e),
    );
    loop.start();
    await sleep(60);
    await loop.stop();
    expect(faults.map((e) => (e as Error).message)).to.deep.equal(['database down']);
    expect(runs).to.be.above(1);
  });

  it("the dispatcher's loop: full batches one after another at once, then a rest of pollMs", async () => {
    const p = inMemory();
    const handled: string[] = [];
    const subscriber: Subscriber = { name: 's', handles: ['CustomerCreated'], handle: async (e) => void handled.push((e as Extract<DomainEvent, { _tag: 'CustomerCreated' }>).customerId) };
    const dispatcher = createDispatcher({ outbox: p.outbox, clock: { now: () => new Date() }, subscribers: [subscriber] }, { batchSize: 2, pollMs: 1_000 });
    const event = (): DomainEvent => ({ _tag: 'CustomerCreated', businessId: randomUUID(), customerId: randomUUID() });
    await p.uow.run((r) => r.events.record(new Date(Date.now() - 60_000), event(), event(), event(), event(), event()));
    dispatcher.start();
    await sleep(300);
    expect(handled).to.have.length(5); // 2 + 2 + 1, without waiting 1 s between full batches
    await p.uow.run((r) => r.events.record(new Date(Date.now() - 60_000), event()));
    await sleep(100);
    expect(handled).to.have.length(5); // resting after a pass that was not full
    await sleep(900);
    expect(handled).to.have.length(6);
    await dispatcher.stop();
  });
});
