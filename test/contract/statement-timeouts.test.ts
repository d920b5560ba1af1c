import { expect } from 'chai';
import { openPool } from '../../adapters/persistence/sql/pool.js';
import { database, statementTimeoutCount } from '../../adapters/persistence/sql/sql-session.js';
import { freshDatabaseUrl } from '../support/database.js';

/** The metrics' `bizops_db_statement_timeouts_total` (docs/adr/0065): every statement cut by the timeout is counted where statements run. */
describe('statement timeouts are counted', function () {
  this.timeout(60_000);

  it('a statement past DB_QUERY_TIMEOUT_MS counts one; a statement that fails otherwise counts none', async () => {
    const pool = openPool({ databaseUrl: await freshDatabaseUrl(), poolMax: 2, queryTimeoutMs: 200 });
    const db = database(pool, { prepare: Boolean(process.env.TEST_DATABASE_URL) });
    try {
      const before = statementTimeoutCount();
      // PostgreSQL cuts it at 200 ms (57014); PGlite, which keeps no timer, is cut by the driver's read deadline
      await db.pooled.execute('select pg_sleep(2)').then(
        () => expect.fail('the statement should have been cut'),
        (e: Error) => expect(e.message).to.match(/statement timeout|Query read timeout/),
      );
      expect(statementTimeoutCount()).to.equal(before + 1);
      await db.pooled.execute('select * from no_such_table').catch(() => undefined);
      expect(statementTimeoutCount()).to.equal(before + 1);
    } finally {
      await pool.close();
    }
  });
});
