import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../adapters/persistence/sql/embedded-postgres.js';
import { heardOnConnection, listeningMemberCache, memberChangedHere, sessionMemberCache, type ListeningMemberCache } from '../../adapters/persistence/sql/member-cache.js';
import { migrateDatabase } from '../../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from '../../bootstrap/migrations.js';
import { openPool, type DatabasePool } from '../../adapters/persistence/sql/pool.js';
import { database, type Database } from '../../adapters/persistence/sql/sql-session.js';
import { freshDatabaseUrl } from '../support/database.js';

const until = async (check: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

// LISTEN/NOTIFY needs a PostgreSQL server: PGlite serves every connection from one session (the cache is off there).
if (!process.env.TEST_DATABASE_URL) {
  describe('member cache (PostgreSQL)', () => {
    it('remembered while listening, forgotten on every committed change (pending: LISTEN/NOTIFY needs a PostgreSQL server, TEST_DATABASE_URL)');
  });
} else {
  describe('member cache: remembered while listening, forgotten on every committed change (PostgreSQL)', () => {
    let url: string;
    let other: pg.Client; // another instance's writes: no memberChangedHere in this process
    let cache: ListeningMemberCache;
    const businessId = randomUUID();
    const userId = randomUUID();
    const sessionId = randomUUID();
    let reads = 0;
    const read = async () => {
      reads++;
      const { rows } = await other.query('select status, role from memberships where user_id = $1', [userId]);
      return rows[0] as { status: string; role: string };
    };

    before(async () => {
      url = await freshDatabaseUrl();
      await migrateDatabase({ databaseUrl: url, log: () => undefined, migrations: MIGRATIONS });
      other = new pg.Client({ connectionString: url });
      await other.connect();
      await other.query(`insert into users (id, phone, first_name, last_name, created_at, updated_at) values ($1, '+2348030000001', 'Ada', 'Eze', now(), now())`, [userId]);
      await other.query(`insert into businesses (id, name, created_at, updated_at) values ($1, 'Shop', now(), now())`, [businessId]);
      await other.query(`insert into memberships (id, business_id, user_id, role, status, created_at, updated_at) values ($1, $2, $3, 'STAFF', 'ACTIVE', now(), now())`, [
        randomUUID(), businessId, userId,
      ]);
      await other.query(`insert into sessions (id, user_id, created_at, last_used_at, expires_at) values ($1, $2, now(), now(), now() + interval '1 day')`, [sessionId, userId]);
    });
    beforeEach(async () => {
      await other.query(`update memberships set status = 'ACTIVE', role = 'STAFF' where user_id = $1`, [userId]);
      await other.query(`update sessions set revoked_at = null where id = $1`, [sessionId]);
      cache = listeningMemberCache({ connectionString: url, log: () => undefined, heartbeatMs: 100, reconnectMs: 50 });
      await cache.ready;
      expect(cache.listening()).to.equal(true);
      reads = 0;
    });
    afterEach(() => cache.close());
    after(() => other.end());

    it('answers a repeated check from memory', async () => {
      expect(await cache.find(userId, sessionId, read)).to.deep.equal({ status: 'ACTIVE', role: 'STAFF' });
      expect(await cache.find(userId, sessionId, read)).to.deep.equal({ status: 'ACTIVE', role: 'STAFF' });
      expect(reads).to.equal(1);
    });

    it("forgets a user when another instance's transaction changing their membership commits, and reads the change", async () => {
      await cache.find(userId, sessionId, read);
      await other.query('begin');
      await other.query(`update memberships set status = 'DEACTIVATED' where user_id = $1`, [userId]);
      await new Promise((r) => setTimeout(r, 50));
      expect(await cache.find(userId, sessionId, read)).to.deep.include({ status: 'ACTIVE' }); // not committed: nothing said yet
      const committedAt = performance.now();
      await other.query('commit');
      await until(() => (void cache.find(userId, sessionId, read), reads >= 2));
      const heardWithinMs = performance.now() - committedAt;
      expect(await cache.find(userId, sessionId, read)).to.deep.include({ status: 'DEACTIVATED' });
      expect(heardWithinMs).to.be.below(1000);
    });

    for (const [what, change] of [
      ['their session is signed out', `update sessions set revoked_at = now() where user_id = $1`],
      ['their role changes', `update memberships set role = 'BUSINESS_OWNER' where user_id = $1`],
      ['they are moved to another branch', `update memberships set branch_id = null where user_id = $1`],
    ] as const) {
      it(`forgets a user when ${what} on another instance`, async () => {
        await cache.find(userId, sessionId, read);
        await cache.find(userId, sessionId, read);
        expect(reads).to.equal(1);
        await other.query(change, [userId]);
        await until(() => (void cache.find(userId, sessionId, read), reads >= 2));
      });
    }

    it('forgets at once a change this process committed (the next request here needs no notice)', async () => {
      await cache.find(userId, sessionId, read);
      memberChangedHere(userId);
      await cache.find(userId, sessionId, read);
      expect(reads).to.equal(2);
    });

    it('does not keep a read that a change overtook', async () => {
      await cache.find(userId, sessionId, async () => {
        const value = await read();
        memberChangedHere(userId); // heard while the read was under way
        return value;
      });
      await cache.find(userId, sessionId, read);
      expect(reads).to.equal(2);
    });

    it('remembers nothing while its LISTEN connection is down, and forgets all when it comes back', async () => {
      await cache.find(userId, sessionId, read);
      await other.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and (query = 'select 1' or query like 'listen %')`,
      );
      await until(() => !cache.listening());
      await cache.find(userId, sessionId, read);
      await cache.find(userId, sessionId, read);
      expect(reads).to.equal(3); // every check read the database
      await until(() => cache.listening());
      await cache.find(userId, sessionId, read);
      await cache.find(userId, sessionId, read);
      expect(reads).to.equal(4);
    });
  });
}

// Always: the embedded default remembers the check too (its one session LISTENs; each connection hears its own commits' notices).
describe('member cache on the embedded database: every change committed on any of its connections is heard before the commit returns', function () {
  this.timeout(60_000);
  let embedded: EmbeddedPostgres;
  let pool: DatabasePool;
  let db: Database;
  let cache: ListeningMemberCache;
  const businessId = randomUUID();
  const userId = randomUUID();
  const sessionId = randomUUID();
  let reads = 0;
  const read = async () => {
    reads++;
    const [row] = await db.pooled.execute<{ status: string; role: string; revoked: boolean }[]>(
      'select m.status, m.role, s.revoked_at is not null as revoked from memberships m join sessions s on s.user_id = m.user_id where m.user_id = ? and s.id = ?',
      [userId, sessionId],
    );
    return row!;
  };

  before(async () => {
    embedded = await startEmbeddedPostgres({ maxConnections: 6 });
    // the raw SQL below says nothing to memberChangedHere: only the connections' notices can make the cache forget
    await migrateDatabase({ databaseUrl: embedded.url, log: () => undefined, migrations: MIGRATIONS });
    pool = openPool({ databaseUrl: embedded.url, poolMax: 4, onNotification: heardOnConnection });
    db = database(pool, { prepare: false });
    await db.pooled.execute(`insert into users (id, phone, first_name, last_name, created_at, updated_at) values (?, '+2348030000002', 'Ada', 'Eze', now(), now())`, [userId]);
    await db.pooled.execute(`insert into businesses (id, name, created_at, updated_at) values (?, 'Shop', now(), now())`, [businessId]);
    await db.pooled.execute(`insert into memberships (id, business_id, user_id, role, status, created_at, updated_at) values (?, ?, ?, 'STAFF', 'ACTIVE', now(), now())`, [randomUUID(), businessId, userId]);
    await db.pooled.execute(`insert into sessions (id, user_id, created_at, last_used_at, expires_at) values (?, ?, now(), now(), now() + interval '1 day')`, [sessionId, userId]);
  });
  beforeEach(async () => {
    await db.pooled.execute(`update memberships set status = 'ACTIVE', role = 'STAFF' where user_id = ?`, [userId]);
    await db.pooled.execute('update sessions set revoked_at = null where id = ?', [sessionId]);
    cache = sessionMemberCache({ execute: (sql) => db.pooled.execute(sql) });
    await cache.ready;
    expect(cache.listening()).to.equal(true);
    reads = 0;
  });
  afterEach(() => cache.close());
  after(async () => {
    await pool.close();
    await embedded.close();
  });

  it('answers a repeated check from memory', async () => {
    expect(await cache.find(userId, sessionId, read)).to.deep.equal({ status: 'ACTIVE', role: 'STAFF', revoked: false });
    expect(await cache.find(userId, sessionId, read)).to.deep.equal({ status: 'ACTIVE', role: 'STAFF', revoked: false });
    expect(reads).to.equal(1);
  });

  for (const [what, change, after] of [
    ['they are deactivated', `update memberships set status = 'DEACTIVATED' where user_id = ?`, { status: 'DEACTIVATED' }],
    ['their role changes', `update memberships set role = 'BUSINESS_OWNER' where user_id = ?`, { role: 'BUSINESS_OWNER' }],
    ['their session is signed out', 'update sessions set revoked_at = now() where user_id = ?', { revoked: true }],
  ] as const) {
    it(`forgets a user when a transaction in which ${what} commits, before the commit returns`, async () => {
      await cache.find(userId, sessionId, read);
      await db.transaction(async (tx) => {
        await tx.execute(change, [userId]);
        // not committed: nothing said yet
        expect(await cache.find(userId, sessionId, read)).to.deep.include({ status: 'ACTIVE', role: 'STAFF', revoked: false });
      });
      expect(await cache.find(userId, sessionId, read)).to.deep.include(after); // no wait: the notice came with the COMMIT's answer
      expect(reads).to.equal(2);
    });
  }

  it('forgets a change made by a statement committed on its own', async () => {
    await cache.find(userId, sessionId, read);
    await db.pooled.execute(`update memberships set status = 'DEACTIVATED' where user_id = ?`, [userId]);
    expect(await cache.find(userId, sessionId, read)).to.deep.include({ status: 'DEACTIVATED' });
  });

  it('keeps what it remembered when the change is rolled back', async () => {
    await cache.find(userId, sessionId, read);
    const rolledBack = await db.begin();
    await rolledBack.execute(`update memberships set status = 'DEACTIVATED' where user_id = ?`, [userId]);
    await rolledBack.rollback();
    expect(await cache.find(userId, sessionId, read)).to.deep.include({ status: 'ACTIVE' });
    expect(reads).to.equal(1);
  });

  it('reads every check when the session could not LISTEN', async () => {
    const deaf = sessionMemberCache({ execute: () => Promise.reject(new Error('no database')) });
    await deaf.ready;
    expect(deaf.listening()).to.equal(false);
    await deaf.find(userId, sessionId, read);
    await deaf.find(userId, sessionId, read);
    expect(reads).to.equal(2);
    await deaf.close();
  });
});
