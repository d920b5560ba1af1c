import type { DatabasePool, PgResult, PoolConnection as PgClient } from './pool.js';

/**
 * Where the repositories' SQL runs (docs/adr/0036, 0064). A statement goes straight to one of the
 * pool's `pg` connections (pool.ts, our own `pg.Pool`) with its values bound as parameters (`$1`),
 * not written into the text, and a transaction is that connection between BEGIN and COMMIT. The
 * ORM's per-statement path (its query formatting, knex's runner and transaction objects) cost a
 * third of a sale's CPU; this is the driver's own path. MikroORM only migrates (orm.ts).
 */

/** A row as the driver answers it. */
export type Row = Record<string, unknown>;

/** What `execute(…, 'run')` answers: how many rows the statement touched, and any it returned. */
export interface RunResult {
  readonly affectedRows: number;
  readonly rows: Row[];
  readonly row?: Row;
}

/** One connection's statements, in a transaction or each on its own. `?` marks a value. */
export interface Sql {
  /**
   * `planEachTime`: sent unnamed, so PostgreSQL plans it for these values. For a statement whose best
   * plan depends on them (a search pattern, a date range): a prepared statement may get a generic plan
   * after five runs, which knows neither (it took a product search from 1 to 7 ms of PostgreSQL's time).
   */
  execute<T = Row[]>(sql: string, params?: readonly unknown[], method?: 'all' | 'get' | 'run', planEachTime?: boolean): Promise<T>;
  /**
   * Runs `fn` once what this session wrote is committed: at once outside a transaction (each
   * statement commits on its own), after COMMIT in one, never after a rollback.
   */
  afterCommit(fn: () => void): void;
  /**
   * A statement the transaction runs last, built by `make` just before COMMIT (what a transaction
   * gathers, e.g. its outbox rows, goes in one statement), and sent with the COMMIT in one round trip
   * on PostgreSQL; at once outside a transaction. Dropped with a rollback, and with a savepoint rolled
   * back. A failed one rolls the transaction back. `first`: before the others (a statement whose
   * effect they read, e.g. the receipt counter's number that the outbox rows take, sales.sql.ts).
   */
  beforeCommit(make: () => Statement, options?: { readonly first?: boolean }): Promise<void>;
}

/** A statement and its values, to be run later. */
export interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** Handed the statement's rows once they are back (a `beforeCommit` statement's: before the COMMIT's answer). */
  readonly answered?: (rows: Row[]) => void;
  /** What the transaction fails with when this statement fails (a `beforeCommit` statement's: its meaning to the caller). */
  readonly failed?: (error: unknown) => unknown;
}

/** Runs `st` with `execute`, handing its rows to `answered` and its failure to `failed`. */
const runStatement = async (execute: Sql['execute'], st: Statement): Promise<void> => {
  let rows: Row[];
  try {
    rows = await execute<Row[]>(st.sql, st.params);
  } catch (e) {
    throw st.failed ? st.failed(e) : e;
  }
  st.answered?.(rows);
};

/** A transaction on one connection. */
export interface SqlTransaction extends Sql {
  /** `work` inside a savepoint: rolled back to it when `work` throws, the transaction going on. */
  savepoint<A>(work: (tx: SqlTransaction) => Promise<A>): Promise<A>;
}

export interface OpenTransaction extends SqlTransaction {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}


export interface DatabaseOptions {
  /**
   * Statements as named prepared statements, parsed once per connection (PostgreSQL). Not on PGlite:
   * its connections share one session, where a name prepared by one is taken for the others. On
   * PostgreSQL the connections pipeline too (see Transaction).
   */
  readonly prepare: boolean;
}

/**
 * The text with `$1…` for its `?` marks (`\?` is a literal question mark), and a statement name,
 * kept per text. Texts built per call (an IN list a length) are few; past the bound a new text is
 * numbered afresh each time and sent unnamed, so no connection collects prepared statements for ever.
 */
const numbered = new Map<string, { text: string; name?: string }>();
const NUMBERED_MAX = 2000;
const numberedText = (sql: string): { text: string; name?: string } => {
  const found = numbered.get(sql);
  if (found) return found;
  let n = 0;
  const text = sql.replace(/\\\?|\?/g, (mark) => (mark === '?' ? `$${++n}` : '?'));
  if (numbered.size >= NUMBERED_MAX) return { text };
  const made = { text, name: `bizops_${numbered.size + 1}` };
  numbered.set(sql, made);
  return made;
};

const toResult = (result: PgResult, method: 'all' | 'get' | 'run'): unknown =>
  method === 'all' ? result.rows : method === 'get' ? result.rows[0] : { affectedRows: result.rowCount ?? 0, rows: result.rows, row: result.rows[0] };

let statementTimeouts = 0;
/** Statements of this process cut by statement_timeout (57014) or by the driver's read deadline (a lost answer). */
export const statementTimeoutCount = (): number => statementTimeouts;

/**
 * Callback form on purpose: the pool wraps a connection's callback `query` to close a connection
 * whose answer never came (pool.ts).
 */
const run = <T>(client: PgClient, sql: string, params: readonly unknown[], method: 'all' | 'get' | 'run', prepare: boolean): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    // Without values the text goes as one simple query (several statements allowed, `?` left alone).
    let config: { text: string; values?: unknown[]; name?: string };
    if (params.length === 0) config = { text: sql };
    else {
      const { text, name } = numberedText(sql);
      config = prepare && name ? { text, values: params as unknown[], name } : { text, values: params as unknown[] };
    }
    client.query(config, (error, result) => {
      if (error) {
        if ((error as { code?: string }).code === '57014' || error.message === 'Query read timeout') statementTimeouts++;
        // The statement names itself in the message, as MikroORM's did; its values are parameters, not in the text.
        if ('code' in error) error.message = `${config.text} - ${error.message}`;
        return reject(error);
      }
      resolve((Array.isArray(result) ? result.map((r) => toResult(r, method)) : toResult(result, method)) as T);
    });
  });

/** A statement as a transaction sends it. */
interface Pending extends Statement {
  readonly method: 'all' | 'get' | 'run';
  readonly prepare: boolean;
}
/** BEGIN, ROLLBACK: text alone, sent as a simple query. */
const control = (sql: string): Pending => ({ sql, params: [], method: 'all', prepare: false });
const BEGIN = control('begin');
const ROLLBACK = control('rollback');

/** Statements that each commit on their own (no transaction): afterCommit and beforeCommit act at once. */
const autocommitting = (execute: Sql['execute']): Sql => ({
  execute,
  afterCommit: (fn) => fn(),
  beforeCommit: (make) => runStatement(execute, make()),
});

/** Runs one statement on the connection it was made for. */
type Send = <T>(sql: string, params: readonly unknown[], method: 'all' | 'get' | 'run', prepare: boolean) => Promise<T>;

/**
 * How statements go on one connection while it is held (a transaction, `inTurn`). On a pipelining
 * connection (PostgreSQL) what is sent in one turn of the event loop goes in one write: pg corks each
 * statement's messages, and the socket is held corked until the turn's statements are all written. On
 * PGlite (one session behind a socket) they go one after another, so pg is never handed a statement
 * while one is running.
 */
const sendingOn = (client: PgClient): Send => {
  if (!client.pipeline) {
    let previous: Promise<unknown> = Promise.resolve();
    return <T>(sql: string, params: readonly unknown[], method: 'all' | 'get' | 'run', prepare: boolean) => {
      const sent = previous.then(() => run<T>(client, sql, params, method, prepare));
      previous = sent.catch(() => undefined);
      return sent;
    };
  }
  let corked = false;
  return <T>(sql: string, params: readonly unknown[], method: 'all' | 'get' | 'run', prepare: boolean) => {
    const stream = client.connection?.stream;
    if (!corked && stream?.cork && stream.uncork) {
      stream.cork();
      corked = true;
      process.nextTick(() => {
        corked = false;
        stream.uncork!();
      });
    }
    return run<T>(client, sql, params, method, prepare);
  };
};

/**
 * How often `giveWay` looks whether the pool's connections are all back, and how long they must stay
 * so: a request between two of its statements (its page, then its stock) may hold none for a moment.
 */
const GIVE_WAY_POLL_MS = 1;
const GIVE_WAY_QUIET_MS = 5;

/**
 * A transaction on one connection, its statements sent by `sendingOn`: on PostgreSQL those of one turn
 * of the event loop go in one write and come back in one round trip: its BEGIN with its first
 * statement, reads a use case starts side by side, its last statement with its COMMIT. A statement
 * sent after a failed one fails too (the transaction is aborted), and a COMMIT there ends it as a
 * ROLLBACK. A transaction that runs nothing sends nothing.
 */
class Transaction implements OpenTransaction {
  private readonly committed: (() => void)[] = [];
  private readonly first: (() => Statement)[] = [];
  private readonly last: (() => Statement)[] = [];
  private savepoints = 0;
  private begun = false;
  private done = false;
  private readonly sendOn: Send;

  constructor(
    private readonly client: PgClient,
    private readonly pool: DatabasePool,
    private readonly prepare: boolean,
  ) {
    this.sendOn = sendingOn(client);
  }

  execute<T = Row[]>(sql: string, params: readonly unknown[] = [], method: 'all' | 'get' | 'run' = 'all', planEachTime = false): Promise<T> {
    if (this.done) return Promise.reject(new Error('the transaction has ended'));
    if (!this.begun) {
      this.begun = true;
      void this.send(BEGIN).catch(() => undefined); // its failure fails the next statement too
    }
    return this.send({ sql, params, method, prepare: this.prepare && !planEachTime }) as Promise<T>;
  }

  private send(s: Pending): Promise<unknown> {
    return this.sendOn(s.sql, s.params, s.method, s.prepare);
  }

  afterCommit(fn: () => void): void {
    this.committed.push(fn);
  }

  async beforeCommit(make: () => Statement, options?: { readonly first?: boolean }): Promise<void> {
    (options?.first ? this.first : this.last).push(make);
  }

  async savepoint<A>(work: (tx: SqlTransaction) => Promise<A>): Promise<A> {
    const name = `sp_${++this.savepoints}`;
    // SAVEPOINT and RELEASE are not waited for: they go with the next statement in one write (on
    // PostgreSQL), and a failure of either fails the statements after it (the transaction is aborted).
    void this.execute(`savepoint ${name}`).catch(() => undefined);
    const before = this.committed.length;
    const firstBefore = this.first.length;
    const lastBefore = this.last.length;
    try {
      const result = await work(this);
      void this.execute(`release savepoint ${name}`).catch(() => undefined);
      return result;
    } catch (e) {
      this.committed.length = before; // what the savepoint wrote is undone
      this.first.length = firstBefore;
      this.last.length = lastBefore;
      await this.execute(`rollback to savepoint ${name}`);
      throw e;
    }
  }

  async commit(): Promise<void> {
    if (this.done) throw new Error('the transaction has ended');
    let statements: Statement[];
    try {
      statements = [...this.first, ...this.last].map((make) => make());
    } catch (e) {
      await this.rollback().catch(() => undefined);
      throw e;
    }
    if (!this.begun && statements.length === 0) {
      await this.end();
      return this.announce();
    }
    // The last statements and the COMMIT together: each waited for, so the connection goes back idle.
    const answers = [...statements.map((st) => runStatement((sql, params) => this.execute(sql, params), st)), this.execute('commit')];
    try {
      const failed = (await Promise.allSettled(answers)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      await this.end(); // committed, or ended as a rollback by the failure
    }
    this.announce();
  }

  async rollback(): Promise<void> {
    if (this.done) return;
    try {
      if (this.begun) await this.send(ROLLBACK);
    } finally {
      await this.end();
    }
  }

  private announce(): void {
    for (const fn of this.committed) fn();
  }

  private async end(): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.pool.release(this.client);
  }
}

export interface Database {
  /** Each statement on a free connection of the pool, committed on its own (reads outside a transaction). */
  readonly pooled: Sql;
  /**
   * `work` with statements on one connection, held until it returns: a statement that follows another
   * does not queue again for a free connection behind other requests. The connection is handed to
   * `work` (not found through AsyncLocalStorage: once one is used, V8 runs a promise hook on every
   * promise of the process, which cost the sales list a fifth of its CPU).
   */
  inTurn<A>(work: (sql: Sql) => Promise<A>): Promise<A>;
  /** A transaction on a connection of its own; the caller commits or rolls back. */
  begin(): Promise<OpenTransaction>;
  /** `work` in a transaction: committed when it returns, rolled back when it throws. */
  transaction<A>(work: (tx: SqlTransaction) => Promise<A>): Promise<A>;
  /**
   * Called between a long job's transactions (docs/adr/0041). On one session (`prepare: false`:
   * PGlite, where a transaction holds every other connection up and a request that needs two
   * statements would otherwise wait for two of the job's transactions) it waits, at most `upToMs`,
   * until none of the pool's connections is in use or asked for: the requests that were waiting are
   * served whole before the job takes the session again. On PostgreSQL it returns at once.
   * Answers `oneSession`.
   */
  giveWay(upToMs: number): Promise<boolean>;
  /** Every connection is served by one session, one transaction at a time (PGlite; `prepare: false`). */
  readonly oneSession: boolean;
}

export const database = (pool: DatabasePool, options: DatabaseOptions): Database => {
  // On PostgreSQL a connection pipelines (pg's pipeline mode, set on an idle connection as it is taken):
  // statements sent together go in one write. Not on PGlite, whose socket serves one session.
  const acquire = async (): Promise<PgClient> => {
    const client = await pool.acquire();
    if (options.prepare) client.pipeline = true;
    return client;
  };
  const begin = async (): Promise<OpenTransaction> => new Transaction(await acquire(), pool, options.prepare);
  const pooled = autocommitting(async <T = Row[]>(sql: string, params: readonly unknown[] = [], method: 'all' | 'get' | 'run' = 'all', planEachTime = false): Promise<T> => {
    const client = await acquire();
    try {
      return await run<T>(client, sql, params, method, options.prepare && !planEachTime);
    } finally {
      pool.release(client);
    }
  });
  return {
    pooled,
    async inTurn(work) {
      const client = await acquire();
      // A statement started after `work` returned (one left running without await) takes a pool connection.
      let released = false;
      // Statements `work` starts side by side go as a transaction's do (sendingOn), each committed on its own.
      const send = sendingOn(client);
      const held = autocommitting(<T = Row[]>(sql: string, params: readonly unknown[] = [], method: 'all' | 'get' | 'run' = 'all', planEachTime = false): Promise<T> =>
        released ? pooled.execute<T>(sql, params, method, planEachTime) : send<T>(sql, params, method, options.prepare && !planEachTime),
      );
      try {
        return await work(held);
      } finally {
        released = true;
        pool.release(client);
      }
    },
    begin,
    oneSession: !options.prepare,
    async giveWay(upToMs) {
      if (options.prepare) return false;
      const busy = pool.busy;
      const until = performance.now() + upToMs;
      let quietSince: number | undefined;
      for (let now = performance.now(); now < until; now = performance.now()) {
        if (busy()) quietSince = undefined;
        else if (now - (quietSince ??= now) >= GIVE_WAY_QUIET_MS) return true;
        await new Promise((resolve) => setTimeout(resolve, GIVE_WAY_POLL_MS));
      }
      return true;
    },
    async transaction(work) {
      const tx = await begin();
      let result;
      try {
        result = await work(tx);
      } catch (e) {
        await tx.rollback().catch(() => undefined);
        throw e;
      }
      await tx.commit();
      return result;
    },
  };
};

/** `sql` with every statement planned for its values (reports: date ranges, aggregates; see Sql.execute). */
export const plannedEachTime = (sql: Sql): Sql => ({
  execute: (text, params, method) => sql.execute(text, params, method, true),
  afterCommit: (fn) => sql.afterCommit(fn),
  beforeCommit: (make, options) => sql.beforeCommit(make, options),
});
