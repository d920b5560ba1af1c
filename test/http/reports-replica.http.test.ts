import { expect } from 'chai';
import pg from 'pg';
import { openReportsDatabase } from '../../adapters/persistence/sql/reports-database.sql.js';
import { openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl, replicaDatabaseUrl } from '../support/database.js';
import { ownerWithReportsFixture, type ReportsFixture } from '../support/reports-fixture.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import type { Sql } from '../../adapters/persistence/sql/sql-session.js';

// Issue 20 (docs/adr/0035): REPORTS_DATABASE_URL. Reports and exports read there, nothing is written
// there, and an answer read from a replica says how stale it may be (data_as_of).

const open = (databaseUrl: string, reportsDatabaseUrl: string) =>
  openPostgres({ databaseUrl, reportsDatabaseUrl, dataDir: '.data-unused', poolMax: 5, log: () => undefined });

const rejection = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (e) {
    return String((e as Error).message);
  }
  throw new Error('expected a rejection');
};

const DASHBOARD_SALES_TODAY = 1; // the fixture's sales on its "today" (test/support/reports-fixture.ts)

describe('REPORTS_DATABASE_URL: the same database (read-only sessions)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let p: Persistence;
  let token: string;
  let url: string;
  before(async () => {
    url = await freshDatabaseUrl();
    p = await open(url, url);
    app = await createTestApp({ persistence: p });
    ({ token } = await ownerWithReportsFixture(app, p));
  });
  after(async () => app.close());

  it('answers the reports there, without data_as_of on a primary', async () => {
    const res = await app.request('GET', '/reports/dashboard', { token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.sales_count.value).to.equal(DASHBOARD_SALES_TODAY);
    expect(res.body.data).not.to.have.property('data_as_of');
    const exported = await app.request('GET', '/reports/sales/export?start_date=2026-11-01&end_date=2026-11-30', { token });
    expect(exported.status, exported.text).to.equal(200);
    expect(exported.text.split('\n').filter((l) => l.trim()).length).to.be.greaterThan(1);
  });

  it('takes no writes: the unit of work refuses', async () => {
    expect(await rejection(p.reports!.uow.run(async () => 1))).to.match(/takes no writes/);
    expect(await rejection(p.reports!.uow.atomically(async () => 1))).to.match(/takes no writes/);
  });

  // PGlite serves every connection from one session, so it ignores per-session settings (and has no replica).
  if (!process.env.TEST_DATABASE_URL) it('every session there is read-only (pending: embedded PGlite serves every connection from one session)');
  else it('every session there is read-only', async () => {
    const direct = await openReportsDatabase({ databaseUrl: url, poolMax: 1, log: () => undefined, repositories: (sql: Sql) => sql });
    try {
      expect(await rejection(direct.uow.read((em) => em.execute('create table not_here (id int)')))).to.match(/read-only/);
      expect(await direct.dataAsOf()).to.equal(null);
    } finally {
      await direct.close();
    }
  });
});

if (!process.env.TEST_REPLICA_DATABASE_URL || !process.env.TEST_DATABASE_URL) {
  describe('REPORTS_DATABASE_URL: a streaming replica (two local PostgreSQL clusters)', () => {
    it("reports read from a streaming replica (pending: TEST_REPLICA_DATABASE_URL, a replica of TEST_DATABASE_URL's cluster, is not set; .ci/run sets it when one streams)");
  });
} else {
  describe('REPORTS_DATABASE_URL: a streaming replica (two local PostgreSQL clusters)', function () {
    this.timeout(60_000);
    let app: TestApp;
    let p: Persistence;
    let token: string;
    let f: ReportsFixture;
    let primary: pg.Client;
    let replica: pg.Client;
    let replicaUrl: string;
    /** Until the replica has replayed everything the primary has written so far. */
    const caughtUp = async () => {
      const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      for (let i = 0; i < 200; i++) {
        const r = await replica.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [rows[0]!.lsn]);
        if (r.rows[0]!.done) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the replica did not catch up within 10 s');
    };
    const dashboard = async () => {
      const res = await app.request('GET', '/reports/dashboard', { token });
      expect(res.status, res.text).to.equal(200);
      return res.body.data as { sales_count: { value: number }; data_as_of?: string };
    };

    before(async () => {
      const url = await freshDatabaseUrl();
      replicaUrl = (await replicaDatabaseUrl())!; // this worker's database, as the replica has it (docs/adr/0048)
      primary = new pg.Client({ connectionString: url });
      replica = new pg.Client({ connectionString: replicaUrl });
      await primary.connect();
      await replica.connect();
      expect((await replica.query('select pg_is_in_recovery() as r')).rows[0].r, 'TEST_REPLICA_DATABASE_URL must be a replica').to.equal(true);
      p = await open(url, replicaUrl);
      app = await createTestApp({ persistence: p });
      ({ token, f } = await ownerWithReportsFixture(app, p));
      await caughtUp();
    });
    after(async () => {
      await replica.query('select pg_wal_replay_resume()').catch(() => undefined);
      await app.close();
      await primary.end();
      await replica.end();
    });

    it('reports answer from the replica: a sale made while it is paused is not there yet, and data_as_of says so', async () => {
      const caught = await dashboard();
      expect(caught.sales_count.value).to.equal(DASHBOARD_SALES_TODAY);
      expect(Date.parse(caught.data_as_of!)).to.be.at.most(Date.now());

      await replica.query('select pg_wal_replay_pause()');
      try {
        const beforeSale = Date.now();
        const sale = await app.request('POST', '/sales', { token, body: { payment_method: 'CASH', items: [{ product_id: f.products.rice, quantity: 1 }] } });
        expect(sale.status, sale.text).to.equal(201); // the write went to the primary
        const stale = await dashboard();
        expect(stale.sales_count.value, 'read from the paused replica').to.equal(DASHBOARD_SALES_TODAY);
        expect(Date.parse(stale.data_as_of!), 'data_as_of is before the sale').to.be.below(beforeSale);
      } finally {
        await replica.query('select pg_wal_replay_resume()');
      }
      await caughtUp();
      const fresh = await dashboard();
      expect(fresh.sales_count.value).to.equal(DASHBOARD_SALES_TODAY + 1);
      expect(Date.parse(fresh.data_as_of!)).to.be.above(Date.parse(caught.data_as_of!));
    });

    it('right after a sale, the answer carries data_as_of no later than the replica has replayed', async () => {
      const sale = await app.request('POST', '/sales', { token, body: { payment_method: 'CASH', items: [{ product_id: f.products.rice, quantity: 1 }] } });
      expect(sale.status, sale.text).to.equal(201);
      const right = await dashboard();
      const replayed = (await replica.query<{ at: Date }>('select pg_last_xact_replay_timestamp() as at')).rows[0]!.at;
      expect(Date.parse(right.data_as_of!)).to.be.at.most(replayed.getTime());
      // Counted or not yet, never half: the sale is either in the figures or not.
      expect(right.sales_count.value).to.be.oneOf([DASHBOARD_SALES_TODAY + 1, DASHBOARD_SALES_TODAY + 2]);
    });

    it('takes no writes on the replica connection', async () => {
      expect(await rejection(p.reports!.uow.run(async () => 1))).to.match(/takes no writes/);
      expect(await rejection(replica.query('create table not_here (id int)'))).to.match(/read-only/);
    });
  });
}
