import net from 'node:net';
import { expect } from 'chai';
import pg from 'pg';
import { isDatabaseUnavailable, openPool, type DatabasePool, type PoolOptions } from '../../adapters/persistence/sql/pool.js';
import { database, plannedEachTime, type Database, type Sql } from '../../adapters/persistence/sql/sql-session.js';
import { freshDatabaseUrl } from '../support/database.js';

describe('sql session: statements on the pool’s connections, values bound', () => {
  let pool: DatabasePool;
  let db: Database;
  // Named statements only on a PostgreSQL server: PGlite's connections share one session.
  const prepare = Boolean(process.env.TEST_DATABASE_URL);
  before(async () => {
    pool = openPool({ databaseUrl: await freshDatabaseUrl(), poolMax: 1 });
    db = database(pool, { prepare });
  });
  after(() => pool.close());

  const prepared = async () =>
    (await db.pooled.execute<{ statement: string }[]>('select statement from pg_prepared_statements order by prepare_time')).map((r) => r.statement);

  it('binds values as parameters: none is written into the text, \\? stays a question mark', async () => {
    const [row] = await db.pooled.execute<{ a: string; b: number; q: string }[]>("select ?::text as a, ?::int as b, '\\?' as q", ["it's; drop table x --", 7]);
    expect(row).to.deep.equal({ a: "it's; drop table x --", b: 7, q: '?' });
    const run = await db.pooled.execute<{ affectedRows: number }>('select 1 where ? = ?', [1, 1], 'run');
    expect(run.affectedRows).to.equal(1);
  });

  if (prepare) {
    it('prepares a statement once per connection, but not one planned each time (a search, a report)', async () => {
      await db.pooled.execute('select ?::int + 1 as prepared_probe', [1]);
      await db.pooled.execute('select ?::int + 2 as unnamed_probe', [1], 'all', true);
      await plannedEachTime(db.pooled).execute('select ?::int + 3 as report_probe', [1]);
      const texts = await prepared();
      expect(texts.some((t) => t.includes('prepared_probe') && t.includes('$1'))).to.equal(true);
      expect(texts.some((t) => t.includes('unnamed_probe') || t.includes('report_probe'))).to.equal(false);
    });
  }

  it('commits a transaction’s work and runs afterCommit then; a rollback undoes both', async () => {
    await db.pooled.execute('create table if not exists session_probe (n int)');
    const heard: string[] = [];
    await db.transaction(async (tx) => {
      await tx.execute('insert into session_probe values (?)', [1]);
      tx.afterCommit(() => heard.push('committed'));
      expect(heard).to.deep.equal([]);
    });
    expect(heard).to.deep.equal(['committed']);
    const failed = await db
      .transaction(async (tx) => {
        await tx.execute('insert into session_probe values (?)', [2]);
        tx.afterCommit(() => heard.push('rolled back'));
        throw new Error('no');
      })
      .catch((e: Error) => e.message);
    expect(failed).to.equal('no');
    await db.transaction(async (tx) => {
      await tx.savepoint(async (inner) => inner.execute('insert into session_probe values (?)', [3]));
      await tx.savepoint(async (inner) => {
        await inner.execute('insert into session_probe values (?)', [4]);
        inner.afterCommit(() => heard.push('savepoint rolled back'));
        throw new Error('undo 4');
      }).catch(() => undefined);
    });
    expect((await db.pooled.execute<{ n: number }[]>('select n from session_probe order by n')).map((r) => r.n)).to.deep.equal([1, 3]);
    expect(heard).to.deep.equal(['committed']);
  });

  it('runs beforeCommit statements last, inside the transaction, drops them with a rollback, and rolls back when one fails', async () => {
    await db.pooled.execute('create table if not exists before_probe (n int primary key)');
    const rows = async (tx: Sql) => (await tx.execute<{ n: number }[]>('select n from before_probe order by n')).map((r) => r.n);
    const insert = (n: number) => () => ({ sql: 'insert into before_probe values (?)', params: [n] });
    let made = 0;
    await db.transaction(async (tx) => {
      await tx.beforeCommit(() => {
        made++;
        return insert(10)();
      });
      expect(await rows(tx)).to.deep.equal([]); // not written yet
      expect(made, 'built at the commit, not before').to.equal(0);
      await tx.savepoint(async (inner) => inner.beforeCommit(insert(11)));
      await tx.savepoint(async (inner) => {
        await inner.beforeCommit(insert(12));
        throw new Error('undo 12');
      }).catch(() => undefined);
    });
    expect(made).to.equal(1);
    await db.transaction(async (tx) => {
      await tx.beforeCommit(insert(13));
      throw new Error('no');
    }).catch(() => undefined);
    // a failing last statement: the transaction's own rows are rolled back too, and its connection is usable again
    const failed = await db
      .transaction(async (tx) => {
        await tx.execute('insert into before_probe values (?)', [14]);
        await tx.beforeCommit(insert(10));
      })
      .catch((e: Error) => e.message);
    expect(failed).to.match(/duplicate key/);
    // a transaction of nothing but its last statement (BEGIN, the statement and COMMIT together)
    await db.transaction(async (tx) => tx.beforeCommit(insert(16)));
    // outside a transaction the statement is run at once
    await db.pooled.beforeCommit(insert(15));
    expect(await rows(db.pooled)).to.deep.equal([10, 11, 15, 16]);
  });

  it('a `first` beforeCommit statement runs before the others (they read its effect) and is answered before the COMMIT (docs/adr/0084)', async () => {
    await db.pooled.execute('create table if not exists first_probe (n int, seen text)');
    const answered: unknown[] = [];
    await db.transaction(async (tx) => {
      await tx.beforeCommit(() => ({ sql: "insert into first_probe values (2, current_setting('probe.value', true))", params: [] }));
      await tx.beforeCommit(
        () => ({ sql: "select set_config('probe.value', ?, true) as kept", params: ['from the first'], answered: (rows) => answered.push(rows[0]!.kept) }),
        { first: true },
      );
      // dropped with its savepoint, `first` or not
      await tx.savepoint(async (inner) => {
        await inner.beforeCommit(() => ({ sql: 'insert into first_probe values (3, null)', params: [] }), { first: true });
        throw new Error('undo 3');
      }).catch(() => undefined);
    });
    expect(answered).to.deep.equal(['from the first']);
    expect(await db.pooled.execute('select n, seen from first_probe order by n')).to.deep.equal([{ n: 2, seen: 'from the first' }]);
  });

  it('leaves the connection out of any transaction after a first statement, a last statement or a COMMIT fails, and after one that ran nothing', async () => {
    await db.pooled.execute('create table if not exists fail_probe (n int primary key, u int unique deferrable initially deferred)');
    const inTransaction = async () => (await db.pooled.execute<{ xid: string | null }[]>('select pg_current_xact_id_if_assigned()::text as xid'))[0]!.xid;
    const outcomes: string[] = [];
    const attempt = (work: (tx: Sql) => Promise<unknown>) =>
      db.transaction(async (tx) => void (await work(tx))).then(() => 'committed', (e: Error) => (e.message.match(/duplicate key value violates unique constraint "fail_probe_\w+"|^no$/) ?? ['other: ' + e.message])[0]);
    await db.pooled.execute('insert into fail_probe values (1, 1)');
    outcomes.push(await attempt((tx) => tx.execute('insert into fail_probe values (?, 1)', [1]))); // the first statement (sent with BEGIN)
    outcomes.push(await attempt(async (tx) => {
      await tx.execute('insert into fail_probe values (?, 1)', [2]);
      await tx.beforeCommit(() => ({ sql: 'insert into fail_probe values (?, 1)', params: [1] })); // the last (sent with COMMIT)
    }));
    outcomes.push(await attempt((tx) => tx.execute('insert into fail_probe values (?, ?)', [3, 1]))); // the COMMIT (a deferred unique check)
    outcomes.push(await attempt(async () => undefined)); // nothing at all
    outcomes.push(await attempt(async () => { throw new Error('no'); }));
    expect(outcomes).to.deep.equal([
      'duplicate key value violates unique constraint "fail_probe_pkey"',
      'duplicate key value violates unique constraint "fail_probe_pkey"',
      'duplicate key value violates unique constraint "fail_probe_u_key"',
      'committed',
      'no',
    ]);
    expect(await inTransaction(), 'the one connection is not left inside a transaction').to.equal(null);
    expect((await db.pooled.execute<{ n: number }[]>('select n from fail_probe order by n')).map((r) => r.n)).to.deep.equal([1]);
  });

  it('runs statements a transaction starts side by side in the order they were started, each answering its own; one failing fails the transaction', async () => {
    await db.pooled.execute('create table if not exists side_probe (n int primary key)');
    // How many statements the one connection has been handed that have not answered yet, at most.
    const client = await pool.acquire();
    pool.release(client);
    const query = client.query;
    let running = 0;
    let most = 0;
    client.query = (config, callback) => {
      most = Math.max(most, ++running);
      return query.call(client, config, (error, result) => {
        running--;
        callback(error, result);
      });
    };
    try {
      const answers = await db.transaction((tx) =>
        Promise.all([
          tx.execute<{ affectedRows: number }>('insert into side_probe values (?)', [1], 'run'),
          tx.execute<{ n: number }[]>('select count(*)::int as n from side_probe'),
          tx.execute<{ affectedRows: number }>('insert into side_probe values (?), (?)', [2, 3], 'run'),
          tx.execute<{ n: number }[]>('select count(*)::int as n from side_probe'),
        ]),
      );
      expect([answers[0].affectedRows, answers[1][0]!.n, answers[2].affectedRows, answers[3][0]!.n]).to.deep.equal([1, 1, 2, 3]);
      const failed = await db
        .transaction((tx) => Promise.all([tx.execute('insert into side_probe values (?)', [4]), tx.execute('insert into side_probe values (?)', [1]), tx.execute('insert into side_probe values (?)', [5])]))
        .catch((e: Error) => e.message);
      expect(failed).to.match(/duplicate key/);
      expect((await db.pooled.execute<{ n: number }[]>('select n from side_probe order by n')).map((r) => r.n)).to.deep.equal([1, 2, 3]);
      // pipelined on PostgreSQL; on PGlite pg is never handed a statement while one is running
      if (prepare) expect(most).to.be.greaterThan(1);
      else expect(most).to.equal(1);
    } finally {
      client.query = query;
    }
  });

  if (prepare) {
    it('sends a transaction’s BEGIN with its first statement and its COMMIT with its last: two writes fewer', async () => {
      // Count the socket writes of the connection the transaction takes (the pool has one).
      const client = await pool.acquire();
      pool.release(client);
      const stream = client.connection!.stream as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
      let writes = 0;
      const original = { write: stream._write, writev: stream._writev };
      stream._write = function (...args: unknown[]) { writes++; return original.write.apply(this, args); };
      stream._writev = function (...args: unknown[]) { writes++; return original.writev.apply(this, args); };
      try {
        await db.pooled.execute('create table if not exists pipe_probe (n int)');
        writes = 0;
        await db.transaction(async (tx) => {
          await tx.execute('insert into pipe_probe values (?)', [1]);
          await tx.execute('insert into pipe_probe values (?)', [2]);
          await tx.beforeCommit(() => ({ sql: 'insert into pipe_probe values (?)', params: [3] }));
        });
        expect(writes, 'BEGIN+1, 2, 3+COMMIT').to.equal(3);
        writes = 0;
        await db.transaction(async (tx) => {
          await Promise.all([4, 5, 6].map((n) => tx.execute('insert into pipe_probe values (?)', [n])));
        });
        expect(writes, 'BEGIN+4+5+6, COMMIT').to.equal(2);
        expect((await db.pooled.execute<{ n: number }[]>('select n from pipe_probe order by n')).map((r) => r.n)).to.deep.equal([1, 2, 3, 4, 5, 6]);
      } finally {
        stream._write = original.write;
        stream._writev = original.writev;
      }
    });
  }
});

describe('sql session: inTurn holds one connection for reads that follow one another', () => {
  let pool: DatabasePool;
  let db: Database;
  before(async () => {
    pool = openPool({ databaseUrl: await freshDatabaseUrl(), poolMax: 2 });
    db = database(pool, { prepare: Boolean(process.env.TEST_DATABASE_URL) });
  });
  after(() => pool.close());

  const backend = async (sql: Sql = db.pooled) => (await sql.execute<{ pid: number }[]>('select pg_backend_pid() as pid'))[0]!.pid;
  /** Rejects when `p` has not settled in 5 s: a connection never given back makes the next wait forever. */
  const soon = <A>(p: Promise<A>) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('waited 5 s for a connection')), 5000))]);

  it('runs the statements of `work` on the one connection it is handed, while statements outside it take others', async () => {
    for (let i = 0; i < 5; i++) {
      let started!: () => void;
      const inside = new Promise<void>((resolve) => (started = resolve));
      let outsideDone!: () => void;
      const outsideFinished = new Promise<void>((resolve) => (outsideDone = resolve));
      const [seen, outside] = await soon(
        Promise.all([
          db.inTurn(async (held) => {
            const first = await backend(held);
            await held.execute("select set_config('bizops.probe', ?, false)", [`turn ${i}`]);
            started();
            await outsideFinished; // a statement outside runs meanwhile, on the other connection
            const setting = (await held.execute<{ v: string }[]>("select current_setting('bizops.probe', true) as v"))[0]!.v;
            return { first, last: await backend(held), setting };
          }),
          inside.then(() => backend()).finally(() => outsideDone()),
        ]),
      );
      expect(seen.last).to.equal(seen.first);
      expect(seen.setting).to.equal(`turn ${i}`);
      if (process.env.TEST_DATABASE_URL) expect(outside, 'a statement outside the call').to.not.equal(seen.first);
    }
  });

  it('gives the connection back when `work` returns or throws, so the pool never runs dry', async () => {
    for (let i = 0; i < 6; i++) {
      const failed = await soon(
        db.inTurn(async (held) => {
          await backend(held);
          throw new Error(`no ${i}`);
        }),
      ).catch((e: Error) => e.message);
      expect(failed).to.equal(`no ${i}`);
    }
    // Two calls that overlap hold two connections (both of the pool's); the next still gets one.
    let bothIn!: () => void;
    const both = new Promise<void>((resolve) => (bothIn = resolve));
    let inside = 0;
    const holding = () => db.inTurn(async (held) => {
      const pid = await backend(held);
      if (++inside === 2) bothIn();
      await both;
      return pid;
    });
    const pids = await soon(Promise.all([holding(), holding()]));
    if (process.env.TEST_DATABASE_URL) expect(new Set(pids).size, 'two calls at once hold two connections').to.equal(2);
    expect(await soon(db.inTurn((held) => backend(held)))).to.be.a('number');
  });
  it('answers statements `work` starts side by side each with its own rows, each committed on its own (on PostgreSQL in one write)', async () => {
    await db.pooled.execute('create table if not exists turn_probe (n int primary key)');
    // Socket writes of the whole process: nothing else writes while this runs.
    const socket = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const original = { write: socket._write, writev: socket._writev };
    let writes = 0;
    socket._write = function (...args: unknown[]) { writes++; return original.write.apply(this, args); };
    socket._writev = function (...args: unknown[]) { writes++; return original.writev.apply(this, args); };
    let counted: number;
    let answers: unknown[];
    try {
      await db.inTurn((held) => backend(held)); // a connection open and ready
      writes = 0;
      answers = await soon(
        db.inTurn((held) =>
          Promise.allSettled([
            held.execute<{ n: number }[]>('select ?::int as n', [1]),
            held.execute('insert into turn_probe values (?)', [7]),
            held.execute('insert into turn_probe values (?)', [7]), // fails: a duplicate
            held.execute<{ n: number }[]>('select ?::int + 1 as n', [2]),
          ]),
        ),
      );
      counted = writes;
    } finally {
      socket._write = original.write;
      socket._writev = original.writev;
    }
    expect(answers.map((a) => (a as PromiseSettledResult<unknown>).status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((answers[0] as PromiseFulfilledResult<{ n: number }[]>).value).to.deep.equal([{ n: 1 }]);
    expect((answers[3] as PromiseFulfilledResult<{ n: number }[]>).value).to.deep.equal([{ n: 3 }]);
    // the insert that succeeded stays: each statement commits on its own
    expect((await db.pooled.execute<{ n: number }[]>('select n from turn_probe')).map((r) => r.n)).to.deep.equal([7]);
    if (process.env.TEST_DATABASE_URL) expect(counted, 'four statements, one write').to.equal(1);
  });
});

describe('sql session: giveWay between a long job’s transactions (docs/adr/0041)', () => {
  let pool: DatabasePool;
  before(async () => {
    pool = openPool({ databaseUrl: await freshDatabaseUrl(), poolMax: 2 });
  });
  after(() => pool.close());

  /** Holds a connection of the pool (a request between its statements) for `ms`. */
  const holdFor = (db: Database, ms: number) => db.inTurn(() => new Promise((r) => setTimeout(r, ms)));
  const timed = async (p: Promise<unknown>) => {
    const started = performance.now();
    await p;
    return performance.now() - started;
  };

  it('on one session (PGlite) waits until the pool’s connections are back, at most upToMs', async () => {
    const db = database(pool, { prepare: false });
    await db.pooled.execute('select 1'); // a connection opened: none being opened while the test measures
    const held = holdFor(db, 300);
    await new Promise((r) => setTimeout(r, 20));
    const waited = await timed(db.giveWay(5000));
    expect(waited, 'waits for the request holding a connection').to.be.within(200, 2000);
    await held;
    const bounded = holdFor(db, 1500);
    await new Promise((r) => setTimeout(r, 20));
    expect(await timed(db.giveWay(100)), 'never past upToMs').to.be.within(90, 1000);
    await bounded;
    expect(await timed(db.giveWay(5000)), 'nothing waiting: a moment').to.be.below(200);
    expect(await db.giveWay(0), 'transactions hold each other up here').to.equal(true);
  });

  it('on PostgreSQL (transactions side by side) returns at once, whatever is held', async () => {
    const db = database(pool, { prepare: true });
    const held = holdFor(db, 300);
    await new Promise((r) => setTimeout(r, 20));
    expect(await timed(db.giveWay(5000))).to.be.below(100);
    expect(await db.giveWay(5000), 'transactions run side by side').to.equal(false);
    await held;
  });
});

describe('the pool (pool.ts): its own pg.Pool with the settings the ORM’s had (docs/adr/0064)', function () {
  this.timeout(30_000);
  const onServer = Boolean(process.env.TEST_DATABASE_URL);
  const pools: DatabasePool[] = [];
  const open = (options: Omit<PoolOptions, 'databaseUrl'> & { databaseUrl?: string }) =>
    freshOrSame().then((url) => {
      const pool = openPool({ databaseUrl: url, ...options });
      pools.push(pool);
      return database(pool, { prepare: onServer });
    });
  let url: string | undefined;
  const freshOrSame = async () => (url ??= await freshDatabaseUrl());
  after(async () => {
    for (const p of pools) await p.close();
  });
  const pid = async (sql: Sql) => (await sql.execute<{ pid: number }[]>('select pg_backend_pid() as pid'))[0]!.pid;
  const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: Error) => e);

  it('answers dates, times and intervals as the text PostgreSQL sent, as MikroORM’s connections did', async () => {
    const db = await open({ poolMax: 1 });
    const [row] = await db.pooled.execute<Record<string, unknown>[]>(
      "select '2024-01-02'::date as d, '2024-01-02 03:04:05'::timestamp as ts, '2024-01-02 03:04:05+00'::timestamptz as tz, interval '1 day' as i, array['2024-01-02'::date, '2024-02-03'::date] as ds, 5::bigint as n",
    );
    expect(row!.d).to.equal('2024-01-02');
    expect(row!.ts).to.equal('2024-01-02 03:04:05');
    expect(row!.tz).to.be.a('string').and.match(/^2024-01-0[12] \d\d:04:05/);
    expect(row!.i).to.equal('1 day');
    expect(row!.ds).to.deep.equal(['2024-01-02', '2024-02-03']);
    expect(row!.n).to.equal('5');
  });

  it('refuses a request that waited 5 s for a connection, as unavailable (503), and serves the next', async () => {
    const db = await open({ poolMax: 1 });
    let done!: () => void;
    const holding = db.inTurn((held) => pid(held).then(() => new Promise<void>((resolve) => (done = resolve))));
    const started = performance.now();
    const refused = await failure(db.pooled.execute('select 1'));
    const waited = performance.now() - started;
    done();
    await holding;
    expect(refused?.message).to.equal('timeout exceeded when trying to connect');
    expect(isDatabaseUnavailable(refused)).to.equal(true);
    expect(waited).to.be.within(4900, 8000);
    expect(await pid(db.pooled)).to.be.a('number');
  });

  it('gives up opening a connection after connectTimeoutMs on a server that never answers, as unavailable (503)', async () => {
    const silent = net.createServer(() => undefined); // accepts, says nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const pool = openPool({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/nothing`, poolMax: 1, connectTimeoutMs: 300 });
      pools.push(pool);
      const started = performance.now();
      const refused = await failure(database(pool, { prepare: true }).pooled.execute('select 1'));
      expect(performance.now() - started).to.be.within(250, 3000);
      expect(isDatabaseUnavailable(refused), String(refused)).to.equal(true);
    } finally {
      silent.close();
    }
  });

  it('hears notices on its connections (onNotification)', async () => {
    const heard: [string, string | undefined][] = [];
    const db = await open({ poolMax: 2, onNotification: (channel, payload) => heard.push([channel, payload]) });
    await db.inTurn(async (held) => {
      await held.execute('listen pool_probe');
      await held.execute("select pg_notify('pool_probe', 'hello')");
      for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await held.execute('unlisten pool_probe');
    });
    expect(heard).to.deep.include(['pool_probe', 'hello']);
  });

  it('never hands out a connection that is not ready for a statement (one given back with its statement unanswered)', async () => {
    const pool = openPool({ databaseUrl: await freshOrSame(), poolMax: 1 });
    pools.push(pool);
    const client = await pool.acquire();
    const unanswered = new Promise((resolve) => client.query({ text: 'select 1' }, resolve));
    pool.release(client); // mid-statement
    const next = await pool.acquire();
    pool.release(next);
    expect(next, 'another connection').to.not.equal(client);
    expect(next.readyForQuery).to.equal(true);
    await unanswered; // ended with its connection
  });

  if (onServer) {
    // (PGlite serves every connection from one session: a connection's startup options are not its own)
    it('opens read-only sessions for the reports connection', async () => {
      const db = await open({ poolMax: 1, readOnly: true });
      const refused = await failure(db.pooled.execute('create table read_only_probe (n int)'));
      expect((refused as { code?: string }).code).to.equal('25006');
      expect((await db.pooled.execute('show default_transaction_read_only'))[0]).to.deep.equal({ default_transaction_read_only: 'on' });
      expect((await db.pooled.execute('show jit'))[0]).to.deep.equal({ jit: 'off' });
    });

    it('opens sessions without JIT: a report priced past jit_above_cost spent 240 ms compiling a 15 ms statement (docs/adr/0086)', async () => {
      const db = await open({ poolMax: 1 });
      expect((await db.pooled.execute('show jit'))[0]).to.deep.equal({ jit: 'off' });
      expect((await db.pooled.execute('show default_transaction_read_only'))[0]).to.deep.equal({ default_transaction_read_only: 'off' });
    });

    for (const prepare of [true, false]) {
      it(`closes a connection whose statement went unanswered past its read deadline (${prepare ? 'pipelined' : 'one at a time'}), so the server ends its session`, async () => {
        const pool = openPool({ databaseUrl: await freshOrSame(), poolMax: 1, queryTimeoutMs: 300 });
        pools.push(pool);
        const db = database(pool, { prepare });
        const admin = new pg.Client({ connectionString: await freshOrSame() });
        await admin.connect();
        try {
          let first = 0;
          const refused = await failure(
            db.inTurn(async (held) => {
              first = await pid(held);
              await held.execute('set statement_timeout = 0'); // only the driver's read deadline (1.3 s) is left
              await held.execute('select pg_sleep(2.5)');
            }),
          );
          expect(refused?.message).to.equal('Query read timeout');
          expect(isDatabaseUnavailable(refused)).to.equal(true);
          // not asked for another connection meanwhile: the socket itself was closed, and the server
          // ends the session once it finds that (here: when the sleep ends), so it holds no locks
          let left = 1;
          for (let i = 0; i < 100 && left > 0; i++) {
            await new Promise((r) => setTimeout(r, 50));
            left = (await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where pid = $1', [first])).rows[0]!.n;
          }
          expect(left, 'the timed-out session is gone').to.equal(0);
          expect(await pid(db.pooled), 'a new connection').to.not.equal(first);
        } finally {
          await admin.end();
        }
      });
    }

    it('ends a statement past statement_timeout as unavailable (57014), the connection usable after', async () => {
      const db = await open({ poolMax: 1, queryTimeoutMs: 300 });
      const refused = await failure(db.pooled.execute('select pg_sleep(2)'));
      expect((refused as { code?: string }).code).to.equal('57014');
      expect(isDatabaseUnavailable(refused)).to.equal(true);
      expect(await pid(db.pooled)).to.be.a('number');
    });

    it('survives a connection the server ends, idle or held between statements, and opens another', async () => {
      const db = await open({ poolMax: 1 });
      const admin = new pg.Client({ connectionString: await freshOrSame() });
      await admin.connect();
      try {
        const idle = await pid(db.pooled);
        await admin.query('select pg_terminate_backend($1)', [idle]);
        await new Promise((r) => setTimeout(r, 200)); // the idle connection's error event (unheard, it would end the process)
        const next = await pid(db.pooled);
        expect(next).to.not.equal(idle);
        const lost = await failure(
          db.inTurn(async (held) => {
            await admin.query('select pg_terminate_backend($1)', [await pid(held)]);
            await new Promise((r) => setTimeout(r, 200)); // held, between statements
            await pid(held);
          }),
        );
        expect(isDatabaseUnavailable(lost), String(lost)).to.equal(true);
        expect(await pid(db.pooled)).to.not.equal(next);
      } finally {
        await admin.end();
      }
    });
  }
});
