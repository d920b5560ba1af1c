import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pino from 'pino';
import { phoneIdentifier } from '../../domain/identifier.js';
import { normalisePhone } from '../../domain/phone.js';
import type { DomainEvent } from '../../domain/events.js';
import { MessageRejected, type OutgoingMessage } from '../../application/ports/message-sender.js';
import { PermanentJobFailure, type JobQueue, type JobReport, type PeriodicTask } from '../../application/ports/job-queue.js';
import { inProcessJobQueue } from '../../adapters/jobs/in-process.job-queue.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import { pgBossJobQueue } from '../../adapters/jobs/pg-boss.job-queue.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { loadConfig } from '../../bootstrap/config.js';
import { composeJobs, logJobs } from '../../bootstrap/jobs.js';
import { MODULES } from '../../bootstrap/modules/index.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl, testDatabase } from '../support/database.js';

const until = async <A>(what: string, probe: () => A | undefined | Promise<A | undefined>, ms = 20_000): Promise<A> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    const found = await probe();
    if (found !== undefined) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let phones = 0;
const codeIssued = (): DomainEvent => ({
  _tag: 'SignInCodeIssued',
  businessId: null,
  identifier: phoneIdentifier(normalisePhone(`+23480312${String(10_000 + phones++).slice(1)}`)!),
  code: '123456',
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
});

/** A provider the test steers: each send runs `behaviour` first (throw: the provider failed). */
const provider = () => {
  const sent: OutgoingMessage[] = [];
  let calls = 0;
  let behaviour: (m: OutgoingMessage) => Promise<void> = async () => undefined;
  return {
    sent,
    calls: () => calls,
    set: (b: typeof behaviour) => void (behaviour = b),
    send: async (m: OutgoingMessage) => {
      calls += 1;
      await behaviour(m);
      sent.push(m);
      return {};
    },
  };
};

const config = loadConfig({ JOBS_RETRY_LIMIT: '2', JOBS_RETRY_DELAY_SECONDS: '1', JOBS_POLL_SECONDS: '1', JOBS_EXPIRE_SECONDS: '30', OUTBOX_POLL_MS: '100' });

const logLines: string[] = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });

const setUp = (p: Persistence) => {
  const messages = provider();
  const { dispatcher, jobs, uow } = composeJobs(config, p, logger, { messages, clock: { now: () => new Date() }, crypto: nodeCrypto(randomBytes(32)) }, { modules: MODULES });
  /** Records the event in a committed transaction (its relay is attempted right after, as a request's is). */
  const commit = async (event: DomainEvent) => (await uow.run((r) => r.events.record(new Date(), event)))[0]!;
  return { logLines, messages, dispatcher, jobs, uow, commit };
};

describe('jobs: events become jobs of the PostgreSQL queue (pg-boss)', function () {
  this.timeout(90_000);
  let p: Persistence;
  let t: ReturnType<typeof setUp>;
  const boss = () => (p.jobs as ReturnType<typeof pgBossJobQueue>).boss();
  const jobRows = async (id: string) =>
    (await boss().getDb().executeSql('select name, state, retry_count, data from pgboss.job where id = $1::uuid or data->>$2 = $3 order by created_on', [id, 'jobId', id])).rows;

  before(async () => {
    const options = { poolMax: 2, pollingIntervalSeconds: 1, concurrency: 2, maintenanceIntervalSeconds: 1, stopTimeoutMs: 5_000, report: logJobs(logger) };
    p = await openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/nonexistent', poolMax: 3, log: () => undefined, jobs: options });
    t = setUp(p);
    await t.jobs.start({ workers: true });
  });
  after(async () => {
    await t.dispatcher.stop();
    await p.close();
  });

  it('a committed event is relayed into one job and sent; relaying it again adds no second job', async () => {
    const event = codeIssued();
    const id = await t.commit(event);
    await until('the message', () => t.messages.sent.find((m) => m.text.includes('123456') && m.to === (event as { identifier: { value: string } }).identifier.value));
    await t.jobs.enqueue('messages', [{ id, data: { event, occurredAt: new Date().toISOString() } }]); // a relay repeated after a crash
    await sleep(2_500);
    expect(t.messages.sent.filter((m) => m.to === (event as { identifier: { value: string } }).identifier.value)).to.have.length(1);
    const rows = await jobRows(id);
    expect(rows.map((r) => [r.name, r.state])).to.deep.equal([['messages', 'completed']]);
    expect(JSON.stringify(rows[0].data), 'the code is not kept once sent').to.not.include('123456');
  });

  it('a rolled-back change enqueues nothing', async () => {
    const ids = await t.uow.run(async (r) => rollback(await r.events.record(new Date(), codeIssued())));
    await sleep(1_500);
    expect(ids).to.have.length(1);
    expect(await jobRows(ids[0]!)).to.deep.equal([]);
  });

  it('a provider failing once: the job is retried with backoff, then sent once', async () => {
    let failures = 1;
    t.messages.set(async () => {
      if (failures-- > 0) throw new Error('provider answered 500');
    });
    const id = await t.commit(codeIssued());
    await until('the retried message', () => (t.messages.sent.length > 0 && failures < 0 ? true : undefined));
    await until('the job completed', async () => ((await jobRows(id))[0]?.state === 'completed' ? true : undefined));
    const [row] = await jobRows(id);
    expect(row.retry_count).to.equal(1);
    expect(t.logLines.some((l) => l.includes('job failed; will retry') && l.includes(id))).to.equal(true);
    t.messages.set(async () => undefined);
  });

  it('a provider answering 500 every time: retried JOBS_RETRY_LIMIT times, then FAILED and dead-lettered', async () => {
    const before = t.messages.calls();
    t.messages.set(async () => {
      throw new Error('provider answered 500');
    });
    const id = await t.commit(codeIssued());
    await until('the job dead', async () => ((await jobRows(id)).some((r) => r.state === 'failed') ? true : undefined), 30_000);
    const rows = await jobRows(id);
    expect(rows.map((r) => [r.name, r.state])).to.deep.equal([['messages', 'failed'], ['messages_dead', 'created']]);
    expect(t.messages.calls() - before, 'the first run and 2 retries').to.equal(3);
    const dead = await t.jobs.dead(10);
    expect(dead[0]).to.include({ queue: 'messages', id });
    expect(dead[0]!.error).to.include('provider answered 500');
    expect(JSON.stringify(dead[0]!.data), 'the dead job keeps no code').to.not.include('123456');
    expect(t.logLines.some((l) => l.includes('job dead: no retries left') && l.includes(id))).to.equal(true);
    t.messages.set(async () => undefined);
  });

  it('a MessageRejected fails the job at once, without retries', async () => {
    const before = t.messages.calls();
    t.messages.set(async () => {
      throw new MessageRejected('not a mobile number');
    });
    const id = await t.commit(codeIssued());
    await until('the job dead', async () => ((await jobRows(id)).some((r) => r.state === 'failed') ? true : undefined));
    await sleep(2_500);
    expect(t.messages.calls() - before).to.equal(1);
    expect((await jobRows(id)).map((r) => [r.name, r.state])).to.deep.equal([['messages', 'failed'], ['messages_dead', 'created']]);
    expect((await t.jobs.dead(1))[0]!.error).to.include('not a mobile number');
    t.messages.set(async () => undefined);
  });

  it('jobs enqueued in one turn of the event loop go in one INSERT, to their own queues; a refused batch fails every caller', async () => {
    const q = pgBossJobQueue({ connectionString: (await testDatabase()).url, poolMax: 1, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 1, stopTimeoutMs: 1_000 });
    for (const queue of ['turn-a', 'turn-b']) q.define({ queue, retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 30, handle: async () => undefined });
    await q.start({ workers: false });
    try {
      const insert = q.boss().insert.bind(q.boss());
      let inserts = 0;
      q.boss().insert = (async (jobs: Parameters<typeof insert>[0]) => (inserts++, insert(jobs))) as typeof insert;
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      await Promise.all([q.enqueue('turn-a', [{ id: ids[0]!, data: {} }]), q.enqueue('turn-b', [{ id: ids[1]!, data: {} }]), q.enqueue('turn-a', [{ id: ids[2]!, data: {} }])]);
      expect(inserts).to.equal(1);
      const rows = (await q.boss().getDb().executeSql('select id::text, name from pgboss.job where id = any($1::uuid[]) order by name, id', [ids])).rows;
      expect(rows.map((r: { id: string; name: string }) => `${r.name} ${r.id}`).sort()).to.deep.equal([`turn-a ${ids[0]}`, `turn-a ${ids[2]}`, `turn-b ${ids[1]}`].sort());
      const outcomes = await Promise.allSettled([q.enqueue('turn-a', [{ id: randomUUID(), data: {} }]), q.enqueue('turn-b', [{ id: 'not-a-uuid', data: {} }])]);
      expect(inserts).to.equal(2);
      expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
    } finally {
      await q.stop();
    }
  });

  it('a job enqueued while the queue starts waits for the start and is kept; before any start it is refused (docs/adr/0081)', async () => {
    const q = pgBossJobQueue({ connectionString: (await testDatabase()).url, poolMax: 1, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 1, stopTimeoutMs: 1_000 });
    q.define({ queue: 'early', retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 30, handle: async () => undefined });
    const before = await q.enqueue('early', [{ id: randomUUID(), data: {} }]).then(() => 'kept', (e: Error) => e.message);
    expect(before).to.equal('the job queue is not started');
    const id = randomUUID();
    const starting = q.start({ workers: false });
    try {
      await q.enqueue('early', [{ id, data: {} }]); // the queue is not up yet: this waits for it
      await starting;
      const rows = (await q.boss().getDb().executeSql('select name from pgboss.job where id = $1::uuid', [id])).rows;
      expect(rows).to.deep.equal([{ name: 'early' }]);
    } finally {
      await starting.catch(() => undefined);
      await q.stop();
    }
  });

  it('a dead job is told to its queue once (onDead): after the last retry, and at once for a permanent failure', async () => {
    const q = pgBossJobQueue({ connectionString: (await testDatabase()).url, poolMax: 1, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 1, stopTimeoutMs: 1_000 });
    const runs = new Map<string, number>();
    const deaths: { id: string; attempt: number; error: string }[] = [];
    q.define({
      queue: 'dead-probe',
      retryLimit: 1,
      retryDelaySeconds: 1,
      expireInSeconds: 30,
      async handle(job) {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        if (job.data.permanent) throw new PermanentJobFailure('refused for good');
        throw new Error('provider answered 500');
      },
      onDead: async (job, error) => void deaths.push({ id: job.id, attempt: job.attempt, error }),
    });
    await q.start({ workers: true });
    try {
      const [retried, permanent] = [randomUUID(), randomUUID()];
      await q.enqueue('dead-probe', [{ id: retried, data: {} }, { id: permanent, data: { permanent: true } }]);
      await until('both dead', () => (deaths.length >= 2 ? true : undefined), 20_000);
      await sleep(2_000);
      expect(deaths.map((d) => [d.id, d.attempt])).to.have.deep.members([[retried, 2], [permanent, 1]]);
      expect(deaths.find((d) => d.id === retried)!.error).to.include('provider answered 500');
      expect(deaths.find((d) => d.id === permanent)!.error).to.include('refused for good');
      expect([runs.get(retried), runs.get(permanent)]).to.deep.equal([2, 1]);
    } finally {
      await q.stop();
    }
  });

  it('a stop lets the job in flight finish: sent once, completed, not run again', async () => {
    let release!: () => void;
    t.messages.set(() => new Promise<void>((resolve) => (release = resolve)));
    const before = t.messages.calls();
    const id = await t.commit(codeIssued());
    await until('the send under way', () => (t.messages.calls() > before ? true : undefined));
    const stopping = t.jobs.stop();
    await sleep(500);
    release();
    await stopping;
    const second = pgBossJobQueue({ connectionString: (await testDatabase()).url, poolMax: 1, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 1, stopTimeoutMs: 1_000 });
    second.define({ queue: 'messages', retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 30, handle: async () => undefined });
    await second.start({ workers: false });
    try {
      const rows = (await second.boss().getDb().executeSql('select state from pgboss.job where id = $1::uuid', [id])).rows;
      expect(rows.map((r) => r.state)).to.deep.equal(['completed']);
    } finally {
      await second.stop();
    }
    expect(t.messages.calls() - before).to.equal(1);
    t.messages.set(async () => undefined);
    await t.jobs.start({ workers: true });
  });

  it('a stop past its timeout leaves the running job active: it is retried only after it expires, never while it runs', async () => {
    const url = (await testDatabase()).url;
    const runs: { started: number; ended?: number }[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const make = () => {
      const q = pgBossJobQueue({ connectionString: url, poolMax: 1, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 1, stopTimeoutMs: 300 });
      q.define({
        queue: 'stop-probe',
        retryLimit: 2,
        retryDelaySeconds: 1,
        expireInSeconds: 3,
        async handle() {
          const run: { started: number; ended?: number } = { started: Date.now() };
          runs.push(run);
          if (runs.length === 1) await released;
          run.ended = Date.now();
        },
      });
      return q;
    };
    const first = make();
    await first.start({ workers: true });
    await first.enqueue('stop-probe', [{ id: randomUUID(), data: {} }]);
    await until('the first run', () => (runs.length > 0 ? true : undefined));
    await first.stop(); // returns after 300 ms, the run still going
    const second = make();
    await second.start({ workers: true });
    try {
      await sleep(1_500);
      expect(runs, 'not retried while it may still run').to.have.length(1);
      release();
      await until('the retry after the expiry', () => (runs.length > 1 ? true : undefined), 15_000);
      expect(runs[1]!.started).to.be.greaterThan(runs[0]!.ended!);
    } finally {
      release();
      await second.stop();
    }
  });

  it('a periodic task runs once a minute across two worker processes, with the minute it is for', async function () {
    this.timeout(120_000);
    const url = (await testDatabase()).url;
    const minutes: string[] = [];
    const make = () => {
      const q = pgBossJobQueue({ connectionString: url, poolMax: 1, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 5, stopTimeoutMs: 1_000, cronMonitorIntervalSeconds: 1 });
      q.every({ name: 'minute-probe', run: async (minute) => void minutes.push(minute.toISOString()) });
      return q;
    };
    const queues = [make(), make()];
    await Promise.all(queues.map((q) => q.start({ workers: true })));
    try {
      await until('a run', () => (minutes.length > 0 ? true : undefined), 75_000);
      await sleep(8_000); // the other process's cron monitor and workers have had their turns
      expect(new Set(minutes).size, `each minute once: ${minutes.join(', ')}`).to.equal(minutes.length);
      expect(new Date(minutes[0]!).getUTCSeconds()).to.equal(0);
      expect(Date.now() - new Date(minutes[0]!).getTime()).to.be.within(0, 70_000);
    } finally {
      await Promise.all(queues.map((q) => q.stop()));
    }
  });

  it("two jobs of a periodic task made in the same minute run it once (a send-it late from the minute before lands in the next one's)", async function () {
    this.timeout(60_000);
    const url = (await testDatabase()).url;
    const minutes: string[] = [];
    const name = `late-probe-${randomUUID().slice(0, 8)}`;
    const q = pgBossJobQueue({ connectionString: url, poolMax: 2, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 5, stopTimeoutMs: 1_000 });
    q.every({ name, run: async (minute) => void minutes.push(minute.toISOString()) });
    await q.start({ workers: true });
    try {
      while (new Date().getUTCSeconds() > 50) await sleep(1_000); // both jobs in one minute
      const ids = [await q.boss().send(name, {}), await q.boss().send(name, {})];
      const jobs = await until('both jobs worked', async () => {
        const found = await Promise.all(ids.map((id) => q.boss().getJobById(name, id!)));
        return found.every((j) => j?.state === 'completed') ? found : undefined;
      });
      const minute = new Date(Math.floor(jobs[0]!.createdOn.getTime() / 60_000) * 60_000).toISOString();
      expect(new Date(Math.floor(jobs[1]!.createdOn.getTime() / 60_000) * 60_000).toISOString()).to.equal(minute);
      expect(minutes.filter((m) => m === minute), `runs: ${minutes.join(', ')}`).to.have.length(1);
    } finally {
      await q.stop();
    }
  });
  it('a periodic task whose run throws (a database timeout) is retried for the same minute with backoff, not dropped (issue 31)', async function () {
    this.timeout(60_000);
    const url = (await testDatabase()).url;
    const runs: { minute: string; ok: boolean }[] = [];
    const name = `flaky-probe-${randomUUID().slice(0, 8)}`;
    const reports: JobReport[] = [];
    const q = pgBossJobQueue({ connectionString: url, poolMax: 2, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 5, stopTimeoutMs: 1_000, report: (r) => void reports.push(r) });
    q.every({
      name,
      retryLimit: 2,
      retryDelaySeconds: 1,
      run: async (minute) => {
        const ok = runs.length > 0;
        runs.push({ minute: minute.toISOString(), ok });
        if (!ok) throw new Error('Connection terminated due to connection timeout');
      },
    });
    await q.start({ workers: true });
    try {
      const id = (await q.boss().send(name, {}))!;
      const job = await until('the job completed', async () => {
        const found = await q.boss().getJobById(name, id);
        return found?.state === 'completed' ? found : undefined;
      });
      expect(runs.map((r) => r.ok)).to.deep.equal([false, true]);
      expect(runs[1]!.minute).to.equal(runs[0]!.minute);
      expect(job.retryCount).to.equal(1);
      expect(reports.filter((r) => r.kind === 'retry' && r.queue === name)).to.have.length(1);
      expect(reports.filter((r) => r.kind === 'dead' && r.queue === name)).to.have.length(0);
    } finally {
      await q.stop();
    }
  });

  it('the scheduled notifications are a periodic task with the message jobs\' retries (JOBS_RETRY_LIMIT, JOBS_RETRY_DELAY_SECONDS)', () => {
    const tasks: PeriodicTask[] = [];
    const recording: JobQueue = { define: () => undefined, every: (task) => void tasks.push(task), enqueue: async () => undefined, start: async () => undefined, stop: async () => undefined, dead: async () => [], depths: async () => [] };
    composeJobs(config, inMemory(), logger, { messages: provider(), clock: { now: () => new Date() }, crypto: nodeCrypto(randomBytes(32)) }, { jobs: recording, modules: MODULES });
    const task = tasks.find((t) => t.name === 'scheduled-notifications')!;
    expect(task.retryLimit).to.equal(config.JOBS_RETRY_LIMIT).and.be.greaterThan(0);
    expect(task.retryDelaySeconds).to.equal(config.JOBS_RETRY_DELAY_SECONDS);
  });
});

describe('jobs: in process (the in-memory adapters), with the outbox retrying', () => {
  let p: Persistence;
  let t: ReturnType<typeof setUp>;
  let queue: JobQueue;
  before(() => {
    p = inMemory();
    t = setUp(p);
    queue = t.jobs;
  });

  it('runs the job at once; a failure is retried by the dispatcher; a MessageRejected is given up at once; a rollback sends nothing', async () => {
    await t.commit(codeIssued());
    expect(t.messages.sent).to.have.length(1);

    t.messages.set(async () => {
      throw new Error('provider answered 500');
    });
    await t.commit(codeIssued());
    expect(t.messages.sent).to.have.length(1);
    expect(t.logLines.some((l) => l.includes('event delivery failed; will retry'))).to.equal(true);

    t.messages.set(async () => {
      throw new MessageRejected('not a mobile number');
    });
    await t.commit(codeIssued());
    expect(t.logLines.filter((l) => l.includes('event delivery given up') && l.includes('"attempts":1'))).to.have.length(1);
    expect((await queue.dead(5))[0]!.error).to.include('not a mobile number');

    t.messages.set(async () => undefined);
    await t.uow.run(async (r) => rollback(await r.events.record(new Date(), codeIssued())));
    expect(t.messages.sent).to.have.length(1);
  });
});

describe('jobs: a periodic task in process', () => {
  it('a run that throws is run again for its minute after the retry delay; the last failure is dead (issue 31)', async function () {
    this.timeout(20_000);
    // the queue's clock 300 ms before a minute ends: its first tick comes at once
    const offset = 60_000 - (Date.now() % 60_000) - 300;
    const reports: JobReport[] = [];
    const q = inProcessJobQueue({ now: () => new Date(Date.now() + offset), report: (r) => void reports.push(r) });
    const runs: string[] = [];
    let failures = 1;
    q.every({
      name: 'flaky',
      retryLimit: 2,
      retryDelaySeconds: 1,
      run: async (minute) => {
        runs.push(minute.toISOString());
        if (failures-- > 0) throw new Error('Connection terminated due to connection timeout');
      },
    });
    await q.start({ workers: true });
    try {
      await until('a second run', () => (runs.length >= 2 ? true : undefined), 10_000);
      expect(runs[1]).to.equal(runs[0]);
      expect(reports.map((r) => r.kind)).to.deep.equal(['retry']);
    } finally {
      await q.stop();
    }
  });
});
