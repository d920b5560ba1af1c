import { expect } from 'chai';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../adapters/persistence/sql/embedded-postgres.js';

/**
 * The embedded database serves every connection from one PGlite session, message by message. A
 * parameterised statement is several messages (Parse, Bind, Execute… Sync): another connection's
 * must not come between them, or a Bind meets the other's Parse ("bind message supplies 3
 * parameters, but prepared statement requires 2"). The job queue's pool added such traffic.
 */
describe('embedded PGlite: connections taking turns', function () {
  this.timeout(60_000);

  it('concurrent parameterised statements on several connections never mix their messages', async () => {
    const embedded = await startEmbeddedPostgres({ maxConnections: 8 });
    const pool = new pg.Pool({ connectionString: embedded.url, max: 6 });
    try {
      const one = (i: number) => pool.query('select $1::int + $2::int as n', [i, 1]).then((r) => expect(r.rows[0].n).to.equal(i + 1));
      const big = 'x'.repeat(300_000); // a Bind larger than a socket read: it arrives in several pieces
      const three = (i: number) => pool.query('select $1::int + $2::int + length($3::text) as n', [i, 1, big]).then((r) => expect(r.rows[0].n).to.equal(i + 1 + big.length));
      for (let round = 0; round < 20; round++) await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? one(i) : three(i))));
    } finally {
      await pool.end();
      await embedded.close();
    }
  });
});
