import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { phoneIdentifier } from '../../domain/identifier.js';
import { normalisePhone } from '../../domain/phone.js';
import pg from 'pg';
import { withoutSecrets, type DomainEvent } from '../../domain/events.js';
import { FIRST_ATTEMPT_GRACE_MS, type ClaimRequest } from '../../application/ports/outbox.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import { inMemoryOutboxRows } from '../../adapters/persistence/in-memory/outbox.in-memory.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl, testDatabase } from '../support/database.js';
import { NOW } from '../support/builders.js';

const at = (ms: number) => new Date(NOW.getTime() + ms);
const LATER = FIRST_ATTEMPT_GRACE_MS + 1;
const customerCreated = (): DomainEvent => ({ _tag: 'CustomerCreated', businessId: randomUUID(), customerId: randomUUID() });
const codeIssued = (): DomainEvent => ({
  _tag: 'SignInCodeIssued',
  businessId: null,
  identifier: phoneIdentifier(normalisePhone('+2348031234567')!),
  code: '123456',
  expiresAt: at(600_000).toISOString(),
});

/** What a test can see of a stored row, on either adapter. */
interface StoredRow {
  id: string;
  payload: unknown;
  attempts: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  lastError: string | null;
  deliveredTo: string[];
}

/** The outbox port's promises, on every adapter. */
const contract = (name: string, open: () => Promise<{ p: Persistence; rows: () => Promise<StoredRow[]> }>) =>
  describe(`outbox contract: ${name}`, () => {
    let p: Persistence;
    let rows: () => Promise<StoredRow[]>;
    before(async () => ({ p, rows } = await open()));
    after(async () => p.close());

    const claim = (ms: number, o: Partial<ClaimRequest> = {}) => p.outbox.claim({ now: at(ms), leaseUntil: at(ms + 60_000), limit: 100, ...o });
    const record = (...events: DomainEvent[]) => p.uow.run((r) => r.events.record(NOW, ...events));
    /** Settles everything due, so each test starts with an empty queue. */
    const drain = async () => {
      const due = await claim(10 * 86_400_000);
      await p.outbox.settle(NOW, due.map((e) => ({ id: e.id, outcome: 'delivered' as const, payload: {} })));
    };
    beforeEach(drain);

    it('records in the transaction: committed events are claimed as written; a rollback or a throw records nothing', async () => {
      const events = [customerCreated(), codeIssued()];
      const ids = await record(...events);
      await p.uow.run(async (r) => rollback(await r.events.record(NOW, customerCreated())));
      await p.uow.run(async (r) => {
        await r.events.record(NOW, customerCreated());
        throw new Error('fault');
      }).catch(() => undefined);
      const claimed = await claim(LATER);
      expect(claimed.map((e) => e.id)).to.have.members([...ids]);
      const byId = new Map(claimed.map((e) => [e.id, e]));
      expect(ids.map((id) => byId.get(id)!.event)).to.deep.equal(events);
      expect(claimed[0]).to.include({ attempts: 1 });
      expect(claimed[0]!.occurredAt.getTime()).to.equal(NOW.getTime());
      expect(claimed[0]!.deliveredTo).to.deep.equal([]);
    });

    it('keeps every record of a transaction, in order, with its own time; a unit of work rolled back inside it keeps none of its own', async () => {
      const first = customerCreated();
      const second = [codeIssued(), customerCreated()];
      const inner = customerCreated();
      const ids = await p.uow.atomically(async () => {
        const kept = await p.uow.run(async (r) => [...(await r.events.record(NOW, first)), ...(await r.events.record(at(5), ...second))]);
        await p.uow.run(async (r) => {
          await r.events.record(NOW, inner);
          throw new Error('undone');
        }).catch(() => undefined);
        return kept;
      });
      const claimed = await claim(LATER + 5);
      expect(claimed.map((e) => e.id)).to.have.members(ids);
      const byId = new Map(claimed.map((e) => [e.id, e]));
      expect(ids.map((id) => byId.get(id)!.event)).to.deep.equal([first, ...second]);
      expect(ids.map((id) => byId.get(id)!.occurredAt.getTime())).to.deep.equal([NOW.getTime(), at(5).getTime(), at(5).getTime()]);
    });

    it('leaves a fresh entry to its own request for the grace period; the first attempt by id takes it at once, once', async () => {
      const [id] = await record(customerCreated());
      expect(await claim(LATER - 2)).to.deep.equal([]);
      const first = await claim(0, { ids: [id!, randomUUID()] });
      expect(first.map((e) => e.id)).to.deep.equal([id]);
      expect(await claim(0, { ids: [id!] }), 'never-tried entries only').to.deep.equal([]);
    });

    it('a claim leases the entry: no one claims it again before the lease ends; after it, attempts go on counting', async () => {
      const [id] = await record(customerCreated());
      expect((await claim(LATER)).map((e) => e.id)).to.deep.equal([id]);
      expect(await claim(LATER + 59_000)).to.deep.equal([]);
      const again = await claim(LATER + 60_000);
      expect(again.map((e) => [e.id, e.attempts])).to.deep.equal([[id, 2]]);
    });

    it('settles: delivered entries lose their secrets and are done; a retry is due at its time with its error; given up is done', async () => {
      const [delivered, retried, givenUp] = await record(codeIssued(), codeIssued(), codeIssued());
      const claimed = await claim(LATER);
      const event = claimed[0]!.event;
      await p.outbox.settle(at(LATER), [
        { id: delivered!, outcome: 'delivered', payload: withoutSecrets(event) },
        { id: retried!, outcome: 'retry', error: 'messages: provider down', retryAt: at(LATER + 4_000), deliveredTo: ['webhooks'] },
        { id: givenUp!, outcome: 'given_up', error: 'messages: gone', deliveredTo: [], payload: withoutSecrets(event) },
      ]);
      const stored = new Map((await rows()).map((r) => [r.id, r]));
      expect(stored.get(delivered!)).to.deep.include({ deliveredAt: at(LATER), nextAttemptAt: null });
      expect(stored.get(delivered!)!.payload).to.not.have.property('code');
      expect(stored.get(delivered!)!.payload).to.include({ _tag: 'SignInCodeIssued', expiresAt: at(600_000).toISOString() });
      expect(stored.get(retried!)).to.deep.include({ deliveredAt: null, nextAttemptAt: at(LATER + 4_000), lastError: 'messages: provider down', deliveredTo: ['webhooks'] });
      expect(stored.get(retried!)!.payload).to.have.property('code', '123456');
      expect(stored.get(givenUp!)).to.deep.include({ deliveredAt: null, nextAttemptAt: null, lastError: 'messages: gone' });
      expect(stored.get(givenUp!)!.payload).to.not.have.property('code');

      expect(await claim(LATER + 3_999)).to.deep.equal([]);
      const retry = await claim(LATER + 4_000);
      expect(retry.map((e) => [e.id, e.attempts, e.deliveredTo])).to.deep.equal([[retried, 2, ['webhooks']]]);
      await p.outbox.settle(at(LATER + 4_001), [{ id: retried!, outcome: 'delivered', payload: withoutSecrets(event) }]);
      expect(await claim(100 * 86_400_000), 'delivered and given-up entries are never claimed').to.deep.equal([]);
    });

    it('claims due entries oldest first, at most `limit`; concurrent claims never hand out one entry twice', async () => {
      const ids = [];
      for (let i = 0; i < 10; i++) ids.push(...(await p.uow.run((r) => r.events.record(at(i), customerCreated()))));
      expect((await claim(LATER + 20, { limit: 3 })).map((e) => e.id)).to.deep.equal(ids.slice(0, 3));
      const concurrent = (await Promise.all(Array.from({ length: 4 }, () => claim(LATER + 20, { limit: 2 })))).flat().map((e) => e.id);
      const rest = (await claim(LATER + 20)).map((e) => e.id);
      expect(new Set(concurrent).size, 'no entry twice').to.equal(concurrent.length);
      expect([...concurrent, ...rest]).to.have.members(ids.slice(3));
    });
  });

contract('in-memory', async () => {
  const p = inMemory();
  return { p, rows: async () => (await inMemoryOutboxRows(p.uow)).map((r) => ({ ...r, deliveredTo: r.deliveredTo })) };
});
contract('SQL/PostgreSQL', async () => {
  const url = await freshDatabaseUrl();
  const p = await openPostgres({ databaseUrl: url, dataDir: '/tmp', poolMax: 4, log: () => undefined });
  const rows = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const result = await client.query('select id, payload, attempts, next_attempt_at, delivered_at, last_error, delivered_to from outbox');
      return result.rows.map((r) => ({
        id: r.id,
        payload: r.payload,
        attempts: r.attempts,
        nextAttemptAt: r.next_attempt_at,
        deliveredAt: r.delivered_at,
        lastError: r.last_error,
        deliveredTo: r.delivered_to,
      }));
    } finally {
      await client.end();
    }
  };
  return { p, rows };
});

// PGlite runs one session: a second connection waits for the first's transaction, so this needs a
// server, and is pending on the embedded database (one process there, nothing to skip past).
const onServer = (await testDatabase()).kind !== 'embedded PGlite';
describe('outbox on PostgreSQL: SKIP LOCKED', () => {
  if (!onServer) {
    it('an entry another transaction holds is skipped (pending: embedded PGlite runs one session, a second connection waits; needs a PostgreSQL server)');
    return;
  }
  it('an entry another transaction holds is skipped, not waited for (two instances never deliver it twice)', async () => {
    const url = await freshDatabaseUrl();
    const p = await openPostgres({ databaseUrl: url, dataDir: '/tmp', poolMax: 4, log: () => undefined });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const [held, free] = await p.uow.run((r) => r.events.record(NOW, customerCreated(), customerCreated()));
      await other.query('begin');
      await other.query('select id from outbox where id = $1 for update', [held]);
      const claimed = await p.outbox.claim({ now: at(LATER), leaseUntil: at(LATER + 60_000), limit: 10 });
      expect(claimed.map((e) => e.id)).to.deep.equal([free]);
      await other.query('commit');
      expect((await p.outbox.claim({ now: at(LATER), leaseUntil: at(LATER + 60_000), limit: 10 })).map((e) => e.id)).to.deep.equal([held]);
    } finally {
      await other.end();
      await p.close();
    }
  });
});
