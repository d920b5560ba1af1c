/**
 * `npm run bench`: the service loaded the way a merchant fleet loads it (docs/performance.md).
 *
 *   npm run bench                   # PostgreSQL: BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/bizops_bench
 *   npm run bench -- --quick        # ~5 s a scenario (one download of each export), a few minutes with the seed in place
 *   npm run bench -- --embedded     # the same against the embedded default (PGlite), compared with the last PostgreSQL run
 *   npm run bench -- --history      # 2,000,000 sales over 2,000 days (ten times the history, the same sales a day), in
 *                                   # bizops_bench_history; reports set beside the last full-size run (bench/results-history.json)
 *
 * Other flags: --reseed (seed again even when a seed is there), --only a,b (only these scenarios), --no-pgbench
 * (no pgbench pass: by default, on PostgreSQL, pgbench runs the API's statements after products-page1, sales-random
 * and sales-hot, bench/pgbench.ts, and the table gives API / pgbench),
 * --no-baseline, --cpu-prof (run the API and the baseline under --cpu-prof and print their top self-time functions),
 * --connections N (default 32), --instances N (the API as N instances behind HAProxy on one PostgreSQL and
 * Redis, bootstrap/cluster.ts; the tables put each scenario beside the last one-instance run's numbers;
 * no baseline and no download scenarios then; needs HAProxy and Redis at BENCH_REDIS_URL, default
 * redis://127.0.0.1:6379). BENCH_API_ARGS: more node flags for the API process, for a closer look
 * (e.g. --trace-gc, with BENCH_SERVER_LOG=file to keep the servers' output); BENCH_BASELINE_ARGS the same
 * for the baseline. --metrics: the API with METRICS_PORT set and its /metrics scraped every 5 s, as
 * Prometheus would (docs/adr/0065); results go to bench/results-metrics.json, to set beside a run without.
 *
 * Steps: seed (or reuse the seed) with set-based SQL (bench/seed-bench.ts); roll the reports' day totals up
 * to date, as the server's periodic task keeps them (docs/adr/0086); snapshot every product's
 * stock; sign the large business's owner in through the API (login + the code from the server's log);
 * start the API (`node dist/bootstrap/main.js`, built as `npm start` builds it, LOG_LEVEL=warn, rate limits raised, WORKERS=off) as a child
 * process and drive it with autocannon, scenario by scenario, each followed at once by the same scenario
 * against the baseline (bench/baseline-server.ts: bare Koa + pg, the same SQL; on PGlite the baseline runs
 * after the API, one process a data directory); check the stock afterwards (no oversell,
 * every unit sold accounted for, the hot product at exactly 0); print the table and write
 * bench/results.json. The export scenarios (export-sales-*) are not autocannon: one download at a time,
 * timed, with the API's peak RSS growth during each (runDownloads); a run with them takes 1 to 4 minutes
 * more (a PDF of 200,000 sales takes 40 to 60 s). Only 127.0.0.1 is targeted; every other scenario has a
 * fixed duration, but the hot product's, a fixed number of requests (the same work for the API and the
 * baseline); the servers are stopped at the end, also on error or Ctrl-C.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createPaging } from '../adapters/http/paging.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../adapters/persistence/sql/embedded-postgres.js';
import { rollUpReportDays } from '../application/reports/roll-up-days.js';
import { openPostgres } from '../bootstrap/persistence.js';
import { startClusterServer } from './cluster-target.js';
import { pageScript, prepareCarts, runPgbench, saleScript } from './pgbench.js';
import { checkSeed, FULL_SIZE, HISTORY_SIZE, readSeed, seedBench, type Seed, type SeedSize } from './seed-bench.js';

// ---------------------------------------------------------------------------------------------- options

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** `--history`: a business with ten times the sales over ten times the days, in a database (or data directory) of its own. */
const HISTORY = process.argv.includes('--history');
const RESULTS_FILE = join(ROOT, 'bench', process.argv.includes('--metrics') ? 'results-metrics.json' : HISTORY ? 'results-history.json' : 'results.json');
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};
const KNOWN = ['quick', 'embedded', 'history', 'reseed', 'only', 'no-baseline', 'no-pgbench', 'cpu-prof', 'connections', 'instances', 'metrics', 'help'];
for (const a of argv) {
  if (a.startsWith('--') && !KNOWN.includes(a.slice(2).split('=')[0]!)) {
    console.error(`unknown option ${a}; known: ${KNOWN.map((k) => `--${k}`).join(' ')}`);
    process.exit(2);
  }
}
if (flag('help')) {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]);
  process.exit(0);
}
const QUICK = flag('quick');
const EMBEDDED = flag('embedded');
const RESEED = flag('reseed');
const NO_BASELINE = flag('no-baseline') || Number(option('instances') ?? '1') > 1;
const CPU_PROF = flag('cpu-prof');
/** PostgreSQL's own ceiling beside the hot scenarios (bench/pgbench.ts): PostgreSQL, one instance, pgbench installed. */
const PGBENCH = !flag('no-pgbench') && !flag('embedded') && Number(option('instances') ?? '1') === 1 && (() => {
  try {
    execFileSync('pgbench', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const METRICS = flag('metrics');
const ONLY = option('only')?.split(',').map((s) => s.trim()).filter(Boolean);
const CONNECTIONS = Number(option('connections') ?? '32');
const INSTANCES = Number(option('instances') ?? '1');
if (!Number.isInteger(INSTANCES) || INSTANCES < 1 || INSTANCES > 16 || (INSTANCES > 1 && (flag('embedded') || flag('cpu-prof') || METRICS))) {
  console.error('--instances takes 1 to 16, on PostgreSQL only (not with --embedded, --cpu-prof or --metrics)');
  process.exit(2);
}
const DATABASE_URL = process.env.BENCH_DATABASE_URL || `postgres://postgres@127.0.0.1:5432/bizops_bench${HISTORY ? '_history' : ''}`;
const PGLITE_DIR = join(tmpdir(), `bizops-bench-pglite${HISTORY ? '-history' : ''}`);
const POOL_MAX = 10; // the API's default DB_POOL_MAX; the baseline gets the same
const DATABASE = EMBEDDED ? 'pglite' : 'postgresql';

const runStarted = performance.now();
const elapsed = () => `${((performance.now() - runStarted) / 1000).toFixed(1).padStart(6)} s`;
const log = (message: string) => console.log(`[${elapsed()}] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------- database

interface Db {
  /** Where it is: the server's, or the embedded one's loopback socket. */
  readonly url: string;
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

const pgDb = async (url: string, onClose: () => Promise<void> = async () => undefined): Promise<Db> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    url,
    query: async <R>(sql: string, params?: unknown[]) => ((await client.query(sql, params)).rows ?? []) as R[],
    async close() {
      await client.end();
      await onClose();
    },
  };
};

/** PostgreSQL: the database (created when missing). PGlite: the data directory, opened in this process. */
const openDatabase = async (): Promise<Db> => {
  if (EMBEDDED) {
    const embedded: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir: PGLITE_DIR, maxConnections: 4 });
    return pgDb(embedded.url, () => embedded.close());
  }
  const name = decodeURIComponent(new URL(DATABASE_URL).pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(DATABASE_URL), { pathname: '/postgres' }).toString() });
  await admin.connect();
  try {
    if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 0) {
      await admin.query(`create database ${name}`);
      log(`created database ${name}`);
    }
  } finally {
    await admin.end();
  }
  return pgDb(DATABASE_URL);
};

/** Migrates through the app's own persistence (bootstrap/persistence.ts), as the server does at start. */
const migrate = async (url: string) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bizops-bench-migrate-'));
  try {
    const persistence = await openPostgres({ databaseUrl: url, dataDir, poolMax: 2, log: () => undefined });
    await persistence.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

/**
 * The reports' day totals brought up to date, as a running server's periodic task keeps them (docs/adr/0086):
 * a seed is written in bulk, and a reused one has days that ended since. Through the app's own persistence,
 * which migrates first.
 */
const rollUpDays = async (db: Db) => {
  const url = db.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'bizops-bench-roll-up-'));
  try {
    const persistence = await openPostgres({ databaseUrl: url, dataDir, poolMax: 2, log: () => undefined });
    try {
      const started = performance.now();
      let days = 0;
      for (let rolled = -1; rolled !== 0; days += rolled) rolled = await rollUpReportDays({ uow: persistence.uow })();
      if (days > 0) {
        // the planner's statistics, as the seed's VACUUM ANALYZE gives every other table (autovacuum would, later)
        await db.query('analyze sales_day_totals, sales_day_products');
        log(`rolled up ${days.toLocaleString('en')} days for the reports in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    } finally {
      await persistence.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

/** The seed in place, or a new one: wiped schema (or data directory), migrations, bulk SQL. */
const ensureSeed = async (): Promise<{ db: Db; seed: Seed; seeded: boolean }> => {
  const size: SeedSize = HISTORY ? HISTORY_SIZE : FULL_SIZE;
  if (EMBEDDED && RESEED) rmSync(PGLITE_DIR, { recursive: true, force: true });
  let db = await openDatabase();
  const query = (sql: string) => db.query(sql);
  if (!RESEED) {
    const seed = await readSeed(query, size);
    if (seed) {
      log(`reusing the seed of ${seed.seededAt.toISOString()} (seeded in ${(seed.seedMs / 1000).toFixed(1)} s; --reseed to seed again)`);
      await rollUpDays(db);
      // What earlier runs' sales left in the tables every sale writes (dead row versions, HOT chains, the
      // search index's pending entries) is cleared as autovacuum would have between runs on a live server:
      // this machine's PostgreSQL runs with autovacuum off, and a reused seed otherwise slows run after run.
      const started = performance.now();
      await db.query('vacuum (analyze) products, product_stock, product_sort_keys');
      log(`vacuumed the stock tables in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return { db, seed, seeded: false };
    }
  }
  log(`seeding ${DATABASE}: ${size.products.toLocaleString('en')} products, ${size.sales.toLocaleString('en')} sales, ${size.customers.toLocaleString('en')} customers, ${size.smallBusinesses} small businesses`);
  if (EMBEDDED) {
    await db.close();
    rmSync(PGLITE_DIR, { recursive: true, force: true });
    const embedded = await startEmbeddedPostgres({ dataDir: PGLITE_DIR, maxConnections: 4 });
    await migrate(embedded.url);
    db = await pgDb(embedded.url, () => embedded.close());
  } else {
    await db.query('drop schema if exists public cascade');
    await db.query('create schema public');
    await migrate(DATABASE_URL);
  }
  const seed = await seedBench(query, size, (step, ms) => log(`  ${(ms / 1000).toFixed(2).padStart(6)} s  ${step}`));
  log(`seeded in ${(seed.seedMs / 1000).toFixed(1)} s`);
  const problems = await checkSeed(query, seed.businessId);
  if (problems.length > 0) throw new Error(`the seed is inconsistent: ${problems.join('; ')}`);
  await rollUpDays(db);
  return { db, seed, seeded: true };
};

// ---------------------------------------------------------------------------------------------- run data

interface RunData {
  readonly t0: Date;
  readonly productPool: string[];
  readonly customerPool: string[];
  readonly hot: { app: string; baseline: string; pgbench: string };
  /** The large business's branches, the default first: each cart sells at one of them (docs/adr/0032). */
  readonly branches: string[];
  /** The branch the hot product is sold at (not the default: a branch's stock, not the total, runs out). */
  readonly hotBranch: string;
  readonly deep: { value: string; id: string; position: number };
  readonly searchTerms: string[];
  /** Lagos days (YYYY-MM-DD) the reports and exports ask for. */
  readonly days: {
    /** Today in Lagos (the run's clock). */
    readonly today: string;
    /** Twelve months ending today: today's date a year ago, plus a day. */
    readonly yearAgo: string;
    /** The last full day of seeded sales: the Lagos day before the newest seeded sale's. */
    readonly summaryDay: string;
    /** The export ranges: the oldest sale's Lagos day to today, cut into ranges of at most MAX_EXPORT_DAYS days. */
    readonly exportRanges: { readonly from: string; readonly to: string }[];
  };
}

const DEEP_POSITION = 50_000;
/** The exports' (and reports') longest range: application/report-exports/report.ts MAX_REPORT_DAYS. */
const MAX_EXPORT_DAYS = 366;
const DAY_MS = 86_400_000;
/** The Lagos calendar day of an instant (Africa/Lagos is UTC+1 all year). */
const lagosDay = (d: Date) => new Date(d.getTime() + 3_600_000).toISOString().slice(0, 10);
const maxDay = (a: string, b: string) => (a > b ? a : b);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
/** from..to (inclusive Lagos days) as consecutive ranges of at most `max` days. */
const splitRange = (from: string, to: string, max: number) => {
  const ranges: { from: string; to: string }[] = [];
  for (let start = from; start <= to; start = addDays(start, max)) {
    const end = addDays(start, max - 1);
    ranges.push({ from: start, to: end < to ? end : to });
  }
  return ranges;
};

/** Pools of products and customers the carts draw from, the hot products, the deep page, and a stock snapshot. */
const prepareRun = async (db: Db, seed: Seed): Promise<RunData> => {
  const b = seed.businessId;
  const hot = await db.query<{ id: string }>("select id from products where business_id = $1 and type = 'PRODUCT' order by sku limit 3", [b]);
  const branches = (await db.query<{ id: string }>('select id from branches where business_id = $1 and archived_at is null order by is_default desc, created_at', [b])).map((r) => r.id);
  if (branches.length < 2) throw new Error('the large business has one branch: run with --reseed');
  // products with at least 40 units at every branch, so a cart sells wherever it is rung up
  const pool = await db.query<{ id: string }>(
    `select p.id from products p where p.business_id = $1 and p.type = 'PRODUCT' and p.id <> all($2::uuid[])
       and (select count(*) from product_stock s where s.product_id = p.id and s.quantity >= 40) = $3
     order by hashtext(p.id::text) limit 5000`,
    [b, hot.map((h) => h.id), branches.length],
  );
  if (pool.length < 1000) throw new Error(`only ${pool.length} products have stock left for carts: run with --reseed`);
  const customers = await db.query<{ id: string }>('select id from customers where business_id = $1 and credit_limit is null order by hashtext(id::text) limit 1000', [b]);
  const deep = await db.query<{ created_at: Date; id: string }>(
    'select created_at, id from products where business_id = $1 order by created_at desc, id desc offset $2 limit 1',
    [b, DEEP_POSITION - 1],
  );
  // Each run signs the owner in once; the OTP rules allow only so many codes an hour per phone, so the
  // owner's earlier codes (this database is the benchmark's own) are forgotten first.
  await db.query('delete from otp_codes where identifier_key = $1', [`phone:${seed.ownerPhone}`]);
  // The measured API runs no job workers (WORKERS=off, as beside `npm run worker` processes): the
  // baseline has no background work, and a backlog left by earlier runs' sales would otherwise be
  // worked through during the next run's read scenarios. That backlog (jobs not yet run) is deleted.
  const [queue] = await db.query<{ exists: boolean }>("select to_regclass('pgboss.job') is not null as exists");
  if (queue?.exists) await db.query(`delete from pgboss.job where state in ('created', 'retry')`);
  await db.query('drop table if exists bench_run_snapshot');
  if (!/^[0-9a-f-]{36}$/.test(b)) throw new Error(`not a uuid: ${b}`);
  await db.query(`create table bench_run_snapshot as select id, quantity from products where business_id = '${b}'`); // no parameters in CREATE TABLE AS
  const t0 = new Date((await db.query<{ now: Date }>('select clock_timestamp() as now'))[0]!.now.getTime());
  const [span] = await db.query<{ first: Date; last: Date }>('select min(created_at) as first, max(created_at) as last from sales where business_id = $1 and created_at < $2', [b, t0]);
  const today = lagosDay(t0);
  const yearAgo = (() => {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCFullYear(d.getUTCFullYear() - 1);
    return addDays(d.toISOString().slice(0, 10), 1);
  })();
  return {
    t0,
    productPool: pool.map((r) => r.id),
    customerPool: customers.map((r) => r.id),
    hot: { app: hot[0]!.id, baseline: hot[1]!.id, pgbench: hot[2]!.id },
    branches,
    hotBranch: branches[1]!,
    deep: { value: new Date(deep[0]!.created_at).toISOString(), id: deep[0]!.id, position: DEEP_POSITION },
    searchTerms: ['sardine', 'milk', 'rice', 'indomie', 'oil', 'soap', 'chicken', 'malt'],
    days: {
      today,
      yearAgo,
      summaryDay: addDays(lagosDay(new Date(span!.last)), -1),
      // the last 200 days' sales (all of them, but with --history): what a download holds, whatever the history
      exportRanges: splitRange(maxDay(lagosDay(new Date(span!.first)), addDays(today, -199)), today, MAX_EXPORT_DAYS),
    },
  };
};

// ---------------------------------------------------------------------------------------------- child servers

const children = new Set<ChildProcess>();
const killChildren = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
};
process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers`);
    killChildren();
    process.exit(130);
  });
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

interface Server {
  readonly name: string;
  readonly pid: number;
  readonly baseUrl: string;
  readonly lines: string[];
  /** When it was spawned (ms since the epoch). */
  readonly startedAt: number;
  /** Log lines at error level or above seen so far. */
  errorLines(): number;
  /** Peak resident set (MB) since the last mark; marks again. */
  peakRssMb(): number;
  /** VmHWM: the process's peak resident set since it started (MB). */
  hwmMb(): number;
  /** Its exit code, or null while it runs. */
  exitCode(): number | null;
  /** Every process of it (several instances behind a balancer); else just `pid`. */
  pids?(): number[];
  stop(): Promise<void>;
}

const readStatusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
};

/** CPU seconds (user + system, all threads) a process has used: /proc/<pid>/stat utime + stime. */
const TICKS = 100; // USER_HZ on Linux
const serverCpuSeconds = (server: Server): number => (server.pids?.() ?? [server.pid]).reduce((n, pid) => n + cpuSeconds(pid), 0);
const cpuSeconds = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
};
/**
 * CPU seconds used by every process named postgres on this machine (the PostgreSQL server; 0 on PGlite),
 * with the reaped children's time of each (cutime + cstime: the postmaster's backends that have exited),
 * so a connection closed during the window does not take its time out of the sum.
 */
const postgresCpuSeconds = (): number => {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
};

/**
 * CPU seconds from now to `stop()` of the server process, PostgreSQL (0 on PGlite: it runs in the server)
 * and this process (autocannon); `per(n)`: each in ms an item, to the microsecond.
 */
const cpuMeter = (t: Target) => {
  const before = { server: serverCpuSeconds(t.server), postgres: EMBEDDED ? 0 : postgresCpuSeconds(), self: process.cpuUsage() };
  return {
    stop() {
      const self = process.cpuUsage(before.self);
      const used = { server: serverCpuSeconds(t.server) - before.server, postgres: EMBEDDED ? 0 : postgresCpuSeconds() - before.postgres, loadGenerator: (self.user + self.system) / 1e6 };
      const ms = (seconds: number, n: number) => Math.round((seconds * 1000 * 1000) / Math.max(1, n)) / 1000;
      return { per: (n: number) => ({ server: ms(used.server, n), postgres: ms(used.postgres, n), loadGenerator: ms(used.loadGenerator, n) }) };
    },
  };
};

const startServer = async (name: string, args: string[], env: Record<string, string>, healthPath: string): Promise<Server> => {
  const port = await freePort();
  const startedAt = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: string[] = [];
  let errors = 0;
  const take = (chunk: Buffer) => {
    if (process.env.BENCH_SERVER_LOG) appendFileSync(process.env.BENCH_SERVER_LOG, chunk); // the servers' whole output, for a closer look
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > 2000) lines.splice(0, lines.length - 1000);
      if (/"level":(50|60)/.test(line)) errors++;
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, readStatusKb(child.pid!, 'VmRSS'))), 200);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: Server = {
    name,
    pid: child.pid!,
    baseUrl,
    lines,
    startedAt,
    errorLines: () => errors,
    peakRssMb() {
      const p = Math.max(peak, readStatusKb(child.pid!, 'VmRSS'));
      peak = 0;
      return Math.round(p / 1024);
    },
    hwmMb: () => Math.round(readStatusKb(child.pid!, 'VmHWM') / 1024),
    exitCode: () => child.exitCode ?? (child.signalCode ? -1 : null),
    async stop() {
      clearInterval(sampler);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(20_000)]);
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      children.delete(child);
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}:\n${lines.slice(-30).join('\n')}`);
    try {
      const res = await fetch(`${baseUrl}${healthPath}`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${name} did not answer ${healthPath} within 120 s:\n${lines.slice(-30).join('\n')}`);
    }
    await sleep(200);
  }
  return server;
};

const apiEnv = (dataDir: string, otpSecret: string, logLevel: string, jwtKey = '', workers: 'on' | 'off' = 'off'): Record<string, string> => ({
  DATABASE_URL: EMBEDDED ? '' : DATABASE_URL,
  WORKERS: workers,
  DATA_DIR: dataDir,
  DB_POOL_MAX: String(POOL_MAX),
  LOG_LEVEL: logLevel,
  LOG_PRETTY: 'false',
  OTP_SECRET: otpSecret,
  JWT_PRIVATE_KEY: jwtKey,
  REDIS_URL: '',
  TRUST_PROXY: 'false',
  RATE_LIMIT_AUTH_PER_IDENTIFIER: '1000',
  RATE_LIMIT_AUTH_PER_IP: '100000',
  RATE_LIMIT_USER: '1000000000',
});

const startApi = async (dataDir: string, otpSecret: string, logLevel: string, profileDir?: string, jwtKey = '', workers: 'on' | 'off' = 'off'): Promise<Server> => {
  const metricsPort = METRICS ? await freePort() : undefined;
  const server = await startServer(
    'API',
    // What `npm start` runs: the compiled JavaScript (built once per run, see main), not tsx.
    [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(process.env.BENCH_API_ARGS ?? '').split(' ').filter(Boolean), 'dist/bootstrap/main.js'],
    { ...apiEnv(dataDir, otpSecret, logLevel, jwtKey, workers), ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}) },
    '/api/v1/actuator/health',
  );
  if (!metricsPort) return server;
  // --metrics: scraped as Prometheus would, so the scrapes' cost is in the numbers too
  let scrapes = 0;
  const scraper = setInterval(() => {
    fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(4000) })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status === 200) scrapes++;
      })
      .catch(() => undefined);
  }, 5000);
  return {
    ...server,
    async stop() {
      clearInterval(scraper);
      log(`metrics: ${scrapes} scrapes of :${metricsPort}/metrics answered`);
      await server.stop();
    },
  };
};

const startBaseline = (seed: Seed, profileDir?: string) =>
  startServer(
    'baseline',
    [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(process.env.BENCH_BASELINE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', 'bench/baseline-server.ts'],
    {
      ...(EMBEDDED ? { PGLITE_DIR: PGLITE_DIR, DATABASE_URL: '' } : { DATABASE_URL }),
      POOL_MAX: String(POOL_MAX),
      BUSINESS_ID: seed.businessId,
      USER_ID: seed.ownerUserId,
    },
    '/api/v1/health',
  );

/** A real access token: POST /auth/login, the code from the server's `outgoing message` log line, verify-otp. */
const signIn = async (api: Server, phone: string): Promise<string> => {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api.baseUrl}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { data?: { access_token?: string } };
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const seen = api.lines.length;
  await post('/auth/login', { phone });
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    for (const line of api.lines.slice(seen)) {
      if (!line.includes('"outgoing message"')) continue;
      const m = JSON.parse(line) as { to?: string; text?: string };
      if (m.to === phone) code = /\b(\d{6})\b/.exec(m.text ?? '')?.[1];
    }
    if (!code) await sleep(100);
  }
  if (!code) throw new Error(`no sign-in code for ${phone} in the server's log`);
  const verified = await post('/auth/verify-otp', { phone, otp: code });
  const token = verified.data?.access_token;
  if (!token) throw new Error('verify-otp returned no access token');
  return token;
};

// ---------------------------------------------------------------------------------------------- scenarios

type Kind = 'app' | 'baseline';

interface Target {
  readonly kind: Kind;
  readonly server: Server;
  readonly headers: Record<string, string>;
  readonly deepCursor: string;
  readonly hotProduct: string;
  /** Sets the hot product's stock to `quantity` (through a ledger row). */
  /** Sets the product's stock at the branch to `quantity` (through the ledger). */
  restock(productId: string, quantity: number, branchId: string): Promise<void>;
}

interface Req {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface Scenario {
  readonly name: string;
  readonly label: string;
  readonly connections: number;
  /** Measured seconds: full run, --quick. */
  readonly seconds: { full: number; quick: number };
  /** Seconds for the baseline (undefined: no baseline run). */
  readonly baselineSeconds?: { full: number; quick?: number };
  /**
   * A fixed number of requests instead of the seconds, the same for the API and the baseline: for a
   * scenario whose answers change with the rate (the hot product: a faster server sells out sooner and
   * answers more of the cheaper 409s), so both do the same work and their CPU a request compares.
   */
  readonly requests?: { full: number; quick: number };
  readonly writes: boolean;
  /** Status codes that are the expected answer of some requests (not 2xx, not errors). */
  readonly expected?: number[];
  readonly warmup: boolean;
  readonly next: (t: Target, data: RunData, rng: () => number) => () => Req;
  /**
   * A file download instead of autocannon: one download at a time (`count` of them), each the GETs of
   * `paths` in turn (a range longer than MAX_EXPORT_DAYS is several files), timed, with the API's RSS
   * sampled meanwhile (see runDownloads).
   */
  readonly download?: { readonly paths: (data: RunData) => string[]; readonly count: { full: number; quick: number } };
  /** Before the measured run (after the warm-up); gets the scenario's number of requests (`requests`). */
  readonly before?: (t: Target, data: RunData, requests: number | undefined) => Promise<Record<string, unknown>>;
  /**
   * A till's backlog instead of autocannon (issue 37): `sales` carts, `rounds` times, one client, sent either
   * as one POST /sync/batch or as POST /sales one after another (each with an Idempotency-Key), timed
   * (see runTill).
   */
  readonly till?: { readonly mode: 'batch' | 'one-by-one'; readonly sales: number; readonly rounds: { full: number; quick: number } };
}

/** A registration with an e-mail no run used before. */
const REGISTRATION_RUN = randomUUID().slice(0, 8);
let registrations = 0;
const register = (): Req => ({
  method: 'POST',
  path: '/api/v1/auth/register',
  body: JSON.stringify({ first_name: 'Bench', last_name: 'Owner', business_name: 'Bench Stores', email: `bench-${REGISTRATION_RUN}-${++registrations}@example.com` }),
});

/** mulberry32: the same sequence of carts and pages every run. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(rng: () => number, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

const productsPage = (): Req => ({ method: 'GET', path: '/api/v1/products' });
const deepPage = (t: Target): Req => ({ method: 'GET', path: `/api/v1/products?cursor=${encodeURIComponent(t.deepCursor)}` });
const searchPage = (data: RunData, rng: () => number): Req => ({ method: 'GET', path: `/api/v1/products?search=${pick(rng, data.searchTerms)}` });
const salesPage = (): Req => ({ method: 'GET', path: '/api/v1/sales' });
/**
 * A till's cart: 1 to 3 distinct products from the pool, 1 or 2 of each, rung up at one of the
 * branches; 80% paid (cash, transfer, card) with no customer, 10% paid by a named customer, 10% on
 * credit to a customer.
 */
const cart = (data: RunData, rng: () => number): Req => {
  const n = 1 + Math.floor(rng() * 3);
  const ids = new Set<string>();
  while (ids.size < n) ids.add(pick(rng, data.productPool));
  const r = rng();
  const payment = r < 0.1 ? 'CREDIT' : r < 0.2 ? 'CASH' : pick(rng, ['CASH', 'CASH', 'TRANSFER', 'CARD']);
  const body = {
    items: [...ids].map((id) => ({ product_id: id, quantity: 1 + Math.floor(rng() * 2) })),
    payment_method: payment,
    ...(r < 0.2 ? { customer_id: pick(rng, data.customerPool) } : {}),
    branch_id: pick(rng, data.branches),
  };
  return { method: 'POST', path: '/api/v1/sales', body: JSON.stringify(body) };
};

/** Every sale of the large business: its export over each range of data.days.exportRanges. */
const salesExportPaths = (data: RunData, format: string) =>
  data.days.exportRanges.map((r) => `/api/v1/reports/sales/export?format=${format}&start_date=${r.from}&end_date=${r.to}`);

const SCENARIOS: Scenario[] = [
  {
    name: 'products-page1',
    label: 'GET /products (page 1)',
    connections: CONNECTIONS,
    seconds: { full: 15, quick: 5 },
    baselineSeconds: { full: 10, quick: 4 },
    writes: false,
    warmup: true,
    next: () => productsPage,
  },
  {
    name: 'products-deep',
    label: `GET /products (cursor at row ${DEEP_POSITION.toLocaleString('en')})`,
    connections: CONNECTIONS,
    seconds: { full: 15, quick: 5 },
    baselineSeconds: { full: 10, quick: 4 },
    writes: false,
    warmup: true,
    next: (t) => () => deepPage(t),
  },
  {
    name: 'products-search',
    label: 'GET /products?search=…',
    connections: CONNECTIONS,
    seconds: { full: 15, quick: 5 },
    baselineSeconds: { full: 10 },
    writes: false,
    warmup: true,
    next: (_t, data, rng) => () => searchPage(data, rng),
  },
  {
    name: 'sales-list',
    label: 'GET /sales (page 1)',
    connections: CONNECTIONS,
    seconds: { full: 15, quick: 5 },
    baselineSeconds: { full: 10 },
    writes: false,
    warmup: true,
    next: () => salesPage,
  },
  {
    name: 'aging-report',
    label: 'GET /credit/aging-report (1 connection)',
    connections: 1,
    seconds: { full: 10, quick: 4 },
    baselineSeconds: { full: 6 },
    writes: false,
    warmup: true,
    next: () => () => ({ method: 'GET', path: '/api/v1/credit/aging-report' }),
  },
  {
    name: 'expenses-list',
    label: 'GET /expenses (page 1)',
    connections: CONNECTIONS,
    seconds: { full: 15, quick: 5 },
    writes: false,
    warmup: true,
    next: () => () => ({ method: 'GET', path: '/api/v1/expenses' }),
  },
  {
    name: 'report-dashboard-30d',
    label: 'GET /reports/dashboard 30d (1 conn)',
    connections: 1,
    seconds: { full: 10, quick: 4 },
    writes: false,
    warmup: true,
    next: () => () => ({ method: 'GET', path: '/api/v1/reports/dashboard?period=30d' }),
  },
  {
    name: 'report-profit-loss-12m',
    label: 'GET /reports/profit-loss 12 months (1 conn)',
    connections: 1,
    seconds: { full: 10, quick: 4 },
    writes: false,
    warmup: true,
    next: (_t, data) => () => ({ method: 'GET', path: `/api/v1/reports/profit-loss?start_date=${data.days.yearAgo}&end_date=${data.days.today}` }),
  },
  {
    name: 'report-daily-summary',
    label: 'GET /reports/daily-summary (1 day, 1 conn)',
    connections: 1,
    seconds: { full: 10, quick: 4 },
    writes: false,
    warmup: true,
    next: (_t, data) => () => ({ method: 'GET', path: `/api/v1/reports/daily-summary?date=${data.days.summaryDay}` }),
  },
  {
    // sign-up (issue 37: p50 under 30 ms at one connection): a new owner and business each request, by e-mail
    // (unique in the run and across runs: the bench database keeps them), whose code goes to the log
    name: 'auth-register',
    label: 'POST /auth/register (1 conn)',
    connections: 1,
    seconds: { full: 10, quick: 4 },
    writes: true,
    warmup: true,
    next: () => register,
  },
  {
    name: 'export-sales-csv',
    label: 'sales export, csv, the last 200 days',
    connections: 1,
    seconds: { full: 0, quick: 0 },
    writes: false,
    warmup: false,
    next: () => () => ({ method: 'GET', path: '/api/v1/reports/sales/export?format=csv' }),
    download: { paths: (data) => salesExportPaths(data, 'csv'), count: { full: 3, quick: 1 } },
  },
  {
    name: 'export-sales-xlsx',
    label: 'sales export, xlsx, the last 200 days',
    connections: 1,
    seconds: { full: 0, quick: 0 },
    writes: false,
    warmup: false,
    next: () => () => ({ method: 'GET', path: '/api/v1/reports/sales/export?format=xlsx' }),
    download: { paths: (data) => salesExportPaths(data, 'xlsx'), count: { full: 3, quick: 1 } },
  },
  {
    name: 'export-sales-pdf',
    label: 'sales export, pdf, the last 200 days',
    connections: 1,
    seconds: { full: 0, quick: 0 },
    writes: false,
    warmup: false,
    next: () => () => ({ method: 'GET', path: '/api/v1/reports/sales/export?format=pdf' }),
    download: { paths: (data) => salesExportPaths(data, 'pdf'), count: { full: 2, quick: 1 } },
  },
  {
    name: 'sales-random',
    label: 'POST /sales (random carts)',
    connections: CONNECTIONS,
    seconds: { full: 15, quick: 5 },
    baselineSeconds: { full: 10, quick: 4 },
    writes: true,
    warmup: true,
    next: (_t, data, rng) => () => cart(data, rng),
  },
  {
    name: 'sales-hot',
    label: 'POST /sales (one hot product)',
    connections: CONNECTIONS,
    seconds: { full: 15, quick: 5 },
    baselineSeconds: { full: 10, quick: 4 },
    requests: { full: 4000, quick: 1400 },
    writes: true,
    expected: [409],
    warmup: false,
    next: (t, data) => () => ({
      method: 'POST',
      path: '/api/v1/sales',
      body: JSON.stringify({ items: [{ product_id: t.hotProduct, quantity: 1 }], payment_method: 'CASH', branch_id: data.hotBranch }),
    }),
    // Stock at the hot branch for half the requests: 409 INSUFFICIENT_STOCK for the other half, although
    // the default branch holds more.
    before: async (t, data, requests) => {
      const stock = Math.round(requests! / 2);
      await t.restock(t.hotProduct, stock, data.hotBranch);
      return { hot_product: t.hotProduct, hot_start_stock: stock, hot_branch: data.hotBranch };
    },
  },
  {
    name: 'till-one-by-one',
    label: 'a till: 100 x POST /sales, one client',
    connections: 1,
    seconds: { full: 0, quick: 0 },
    writes: true,
    warmup: false,
    next: (_t, data, rng) => () => cart(data, rng),
    till: { mode: 'one-by-one', sales: 100, rounds: { full: 5, quick: 2 } },
  },
  {
    name: 'till-batch',
    label: 'a till: one POST /sync/batch of 100 sales',
    connections: 1,
    seconds: { full: 0, quick: 0 },
    writes: true,
    warmup: false,
    next: (_t, data, rng) => () => cart(data, rng),
    till: { mode: 'batch', sales: 100, rounds: { full: 5, quick: 2 } },
  },
  {
    name: 'mixed',
    label: 'mixed: 80% reads, 20% POST /sales',
    connections: CONNECTIONS,
    seconds: { full: 20, quick: 6 },
    baselineSeconds: { full: 12 },
    writes: true,
    warmup: true,
    // 35% products page 1, 10% a deep page, 10% search, 25% sales page 1, 20% a sale
    next: (t, data, rng) => () => {
      const r = rng();
      return r < 0.35 ? productsPage() : r < 0.45 ? deepPage(t) : r < 0.55 ? searchPage(data, rng) : r < 0.8 ? salesPage() : cart(data, rng);
    },
  },
];

interface Measured {
  readonly name: string;
  readonly label: string;
  readonly target: Kind;
  readonly connections: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly fiveXX: number;
  readonly unexpected: number;
  readonly status: Record<string, number>;
  readonly peakRssMb: number;
  /** CPU time a request, ms: the server process, PostgreSQL's processes, this process (autocannon). */
  readonly cpuMsPerRequest: { server: number; postgres: number; loadGenerator: number };
  readonly start: Date;
  readonly end: Date;
  readonly extra: Record<string, unknown>;
}

/** `amount`: stop after that many requests (the duration is then ignored). */
const load = (t: Target, connections: number, seconds: number, next: () => Req, amount?: number) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: t.server.baseUrl,
        connections,
        pipelining: 1,
        duration: seconds,
        // autocannon notices the last answer on its next sample tick (1 s by default), and its duration ends
        // there: a fixed number of requests timed to the second measured 1,400 hot-product sales as 3.0 s
        // whether they took 2.1 s or 2.9 s. Ticks of 20 ms time them to about that.
        ...(amount ? { amount, sampleInt: 20 } : {}),
        timeout: 30,
        requests: [
          {
            setupRequest: (req) => {
              const r = next();
              // A new headers object each time: autocannon writes Content-Length into the one it is
              // given, and a GET after a POST would otherwise announce a body it never sends.
              const headers = r.body !== undefined ? { ...t.headers, 'content-type': 'application/json' } : { ...t.headers };
              return { ...req, method: r.method, path: r.path, headers, body: r.body };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });

/** One request first, so a broken scenario stops here with its answer rather than after a minute of 4xx. */
const smoke = async (t: Target, s: Scenario, req: Req) => {
  const res = await fetch(`${t.server.baseUrl}${req.path}`, {
    method: req.method,
    headers: { ...t.headers, 'content-type': 'application/json' },
    ...(req.body !== undefined ? { body: req.body } : {}),
  });
  const text = await res.text();
  if (res.status >= 300 && !(s.expected ?? []).includes(res.status)) throw new Error(`${t.kind} ${s.name}: ${req.method} ${req.path} answered ${res.status}: ${text.slice(0, 400)}`);
};

/**
 * Resets the process's VmHWM to its current RSS (`echo 5 > /proc/<pid>/clear_refs`, Linux 4.0+, the
 * process's own user), so VmHWM afterwards is the exact peak of what follows. False where that is refused.
 */
const resetHwm = (pid: number): boolean => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
};

interface Download {
  readonly ms: number;
  readonly firstByteMs: number;
  readonly bytes: number;
  /** Lines of text (the CSV's rows + its header); 0 for binary formats. */
  readonly lines: number;
  readonly rssBeforeMb: number;
  readonly peakRssMb: number;
  readonly growthMb: number;
}

/**
 * One download, read to the end as it arrives: the time to the first byte and to the last, and the API
 * process's resident set: VmRSS just before, then its peak during the download (VmHWM after a reset
 * when the kernel allows it, else VmRSS sampled every 10 ms); growth = peak - before.
 */
const downloadOnce = async (t: Target, paths: string[], text: boolean): Promise<Download> => {
  const pid = t.server.pid;
  const rssBefore = readStatusKb(pid, 'VmRSS');
  const hwm = resetHwm(pid);
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, readStatusKb(pid, 'VmRSS'))), 10);
  const started = performance.now();
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  try {
    for (const path of paths) {
      const res = await fetch(`${t.server.baseUrl}${path}`, { headers: t.headers, signal: AbortSignal.timeout(15 * 60_000) });
      if (res.status !== 200 || !res.body) throw new Error(`${t.kind}: GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 400)}`);
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (firstByte === 0) firstByte = performance.now() - started;
        bytes += value.byteLength;
        if (text) for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
      }
    }
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  peak = Math.max(peak, readStatusKb(pid, 'VmRSS'), hwm ? readStatusKb(pid, 'VmHWM') : 0);
  return {
    ms: Math.round(ms),
    firstByteMs: Math.round(firstByte),
    bytes,
    lines,
    rssBeforeMb: Math.round(rssBefore / 102.4) / 10,
    peakRssMb: Math.round(peak / 102.4) / 10,
    growthMb: Math.round((peak - rssBefore) / 102.4) / 10,
  };
};

/** A download scenario: `count` downloads one after another (no warm-up: the first is measured too). */
const runDownloads = async (t: Target, s: Scenario): Promise<Measured> => {
  const paths = s.download!.paths(DATA!);
  const count = QUICK ? s.download!.count.quick : s.download!.count.full;
  const text = paths[0]!.includes('format=csv');
  await sleep(300);
  t.server.peakRssMb(); // mark
  const errorsBefore = t.server.errorLines();
  const cpu = cpuMeter(t);
  const start = new Date();
  const downloads: Download[] = [];
  for (let i = 0; i < count; i++) {
    const d = await downloadOnce(t, paths, text);
    downloads.push(d);
    log(
      `  ${t.kind.padEnd(8)} ${s.name.padEnd(22)} download ${i + 1}/${count}: ${(d.bytes / 1e6).toFixed(1)} MB${text ? `, ${d.lines.toLocaleString('en')} lines` : ''} in ${(d.ms / 1000).toFixed(1)} s ` +
        `(first byte ${d.firstByteMs} ms); RSS ${d.rssBeforeMb} MB before, peak ${d.peakRssMb} MB, growth ${d.growthMb} MB`,
    );
    await sleep(1000);
  }
  const end = new Date();
  if (t.server.exitCode() !== null) throw new Error(`${t.server.name} exited (code ${t.server.exitCode()}) during ${s.name}:\n${t.server.lines.slice(-20).join('\n')}`);
  const cpuUsed = cpu.stop();
  const sorted = downloads.map((d) => d.ms).sort((a, b) => a - b);
  const totalSeconds = (end.getTime() - start.getTime()) / 1000;
  return {
    name: s.name,
    label: s.label,
    target: t.kind,
    connections: 1,
    seconds: Math.round(totalSeconds),
    rps: Math.round((count / totalSeconds) * 1000) / 1000,
    p50: sorted[Math.floor((sorted.length - 1) / 2)]!,
    p99: sorted[sorted.length - 1]!,
    errors: 0,
    non2xx: 0,
    fiveXX: 0,
    unexpected: 0,
    status: { '200': count * paths.length },
    peakRssMb: t.server.peakRssMb(),
    cpuMsPerRequest: cpuUsed.per(count),
    start,
    end,
    extra: {
      download: {
        files: paths.length,
        ranges: DATA!.days.exportRanges,
        count,
        bytes: downloads[0]!.bytes,
        lines: text ? downloads[0]!.lines : null,
        first_byte_ms: downloads.map((d) => d.firstByteMs),
        ms: downloads.map((d) => d.ms),
        rss_before_mb: downloads.map((d) => d.rssBeforeMb),
        rss_growth_mb: downloads.map((d) => d.growthMb),
        peak_rss_growth_mb: Math.max(...downloads.map((d) => d.growthMb)),
      },
      server_error_log_lines: t.server.errorLines() - errorsBefore,
    },
  };
};

/**
 * A till coming back online with `sales` sales queued (issue 37): sent as one POST /sync/batch (each a
 * sale.create with its op_id and client id), or as POST /sales one after another on one connection, each
 * with an Idempotency-Key and the same client id, as the till would send them online. Each round is timed
 * from the first byte sent to the last answer; a warm-up round of a fifth of the sales goes first. CPU a
 * sale is the server's and PostgreSQL's over the measured rounds.
 */
const runTill = async (t: Target, s: Scenario, data: RunData): Promise<Measured> => {
  const till = s.till!;
  const rounds = QUICK ? till.rounds.quick : till.rounds.full;
  const rng = prng(0x7111 ^ (till.mode === 'batch' ? 1 : 2));
  const deviceId = `bench-till-${data.t0.getTime()}`;
  const headers = { ...t.headers, 'content-type': 'application/json' };
  let applied = 0;
  let failed = 0;
  const status: Record<string, number> = {};
  const round = async (n: number) => {
    const carts = Array.from({ length: n }, () => ({ id: randomUUID(), client_created_at: new Date().toISOString(), ...(JSON.parse(cart(data, rng).body!) as object) }));
    const started = performance.now();
    if (till.mode === 'batch') {
      const res = await fetch(`${t.server.baseUrl}/api/v1/sync/batch`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ device_id: deviceId, operations: carts.map((payload) => ({ op_id: randomUUID(), type: 'sale.create', payload })) }),
      });
      const body = (await res.json()) as { data?: { results: { status: string; http_status: number }[] } };
      status[res.status] = (status[res.status] ?? 0) + 1;
      for (const r of body.data?.results ?? []) r.status === 'applied' ? applied++ : failed++;
      if (res.status !== 200) failed += n;
    } else {
      for (const payload of carts) {
        const res = await fetch(`${t.server.baseUrl}/api/v1/sales`, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: JSON.stringify(payload) });
        await res.arrayBuffer();
        res.status === 201 ? applied++ : failed++;
      }
    }
    return performance.now() - started;
  };
  await round(Math.max(1, Math.round(till.sales / 5)));
  applied = 0;
  failed = 0;
  await sleep(300);
  t.server.peakRssMb(); // mark
  const errorsBefore = t.server.errorLines();
  const cpu = cpuMeter(t);
  const start = new Date();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await round(till.sales));
  const end = new Date();
  const cpuUsed = cpu.stop();
  const sales = rounds * till.sales;
  const sorted = [...times].sort((a, b) => a - b);
  const m: Measured = {
    name: s.name,
    label: s.label,
    target: t.kind,
    connections: 1,
    seconds: Math.round((end.getTime() - start.getTime()) / 1000),
    rps: Math.round((sales / (times.reduce((a, b) => a + b, 0) / 1000)) * 10) / 10,
    p50: Math.round(sorted[Math.floor((sorted.length - 1) / 2)]!),
    p99: Math.round(sorted[sorted.length - 1]!),
    errors: 0,
    non2xx: failed,
    fiveXX: Object.entries(status).filter(([c]) => c.startsWith('5')).reduce((n, [, v]) => n + v, 0),
    unexpected: failed,
    status: { '201': applied, ...(failed > 0 ? { failed } : {}) },
    peakRssMb: t.server.peakRssMb(),
    cpuMsPerRequest: cpuUsed.per(sales),
    start,
    end,
    extra: { till: { mode: till.mode, sales_a_round: till.sales, rounds, round_ms: times.map(Math.round) }, server_error_log_lines: t.server.errorLines() - errorsBefore },
  };
  log(
    `  ${t.kind.padEnd(8)} ${s.name.padEnd(16)} ${till.sales} sales in ${m.p50} ms (p50 of ${rounds} rounds: ${times.map((x) => Math.round(x)).join(', ')} ms), ` +
      `${applied} applied, ${failed} not; CPU ms a sale: server ${m.cpuMsPerRequest.server}${EMBEDDED ? '' : `, postgres ${m.cpuMsPerRequest.postgres}`}`,
  );
  return m;
};

/** The run's data, for the download scenarios' paths. */
let DATA: RunData | undefined;

const runScenario = async (t: Target, s: Scenario, data: RunData, earlier: Map<string, Measured>): Promise<Measured> => {
  if (s.download) return runDownloads(t, s);
  if (s.till) return runTill(t, s, data);
  const seconds = t.kind === 'app' ? (QUICK ? s.seconds.quick : s.seconds.full) : QUICK ? s.baselineSeconds!.quick! : s.baselineSeconds!.full;
  const rng = prng(0x5eed ^ s.name.length ^ (t.kind === 'app' ? 1 : 2));
  const next = s.next(t, data, rng);
  await smoke(t, s, next());
  // JIT and pools warm: 3 s before a server's first scenario, 1 s before the others (no warm-up before
  // the hot product's run: it would sell the stock the run is about to set).
  if (s.warmup) await load(t, s.connections, earlier.size === 0 && !QUICK ? 3 : 1, next);
  const requests = s.requests && (QUICK ? s.requests.quick : s.requests.full);
  const extra = s.before ? await s.before(t, data, requests) : {};
  await sleep(300);
  t.server.peakRssMb(); // mark
  const errorsBefore = t.server.errorLines();
  const cpu = cpuMeter(t);
  const start = new Date();
  const r = await load(t, s.connections, seconds, next, requests);
  const end = new Date();
  if (t.server.exitCode() !== null) {
    const file = join(tmpdir(), `bizops-bench-${t.kind}-${process.pid}.log`);
    writeFileSync(file, `${t.server.lines.join('\n')}\n`);
    throw new Error(`${t.server.name} exited (code ${t.server.exitCode()}) during ${s.name}; its output is in ${file}:\n${t.server.lines.slice(-20).join('\n')}`);
  }
  const cpuUsed = cpu.stop();
  if (s.writes) await sleep(1000); // in-flight sales commit before the next scenario's window opens
  const status: Record<string, number> = {};
  for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) status[code] = v.count ?? 0;
  const fiveXX = Object.entries(status).filter(([c]) => c.startsWith('5')).reduce((n, [, v]) => n + v, 0);
  const unexpected = Object.entries(status)
    .filter(([c]) => !c.startsWith('2') && !(s.expected ?? []).includes(Number(c)))
    .reduce((n, [, v]) => n + v, 0);
  const answered = Object.values(status).reduce((a, b) => a + b, 0);
  const m: Measured = {
    name: s.name,
    label: s.label,
    target: t.kind,
    connections: s.connections,
    seconds: requests ? Math.round(r.duration) : seconds,
    rps: Math.round((answered / r.duration) * 10) / 10,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    fiveXX,
    unexpected,
    status,
    peakRssMb: t.server.peakRssMb(),
    cpuMsPerRequest: cpuUsed.per(answered),
    start,
    end,
    extra: { ...extra, server_error_log_lines: t.server.errorLines() - errorsBefore },
  };
  log(
    `  ${t.kind.padEnd(8)} ${s.name.padEnd(16)} ${String(m.rps).padStart(8)} req/s  p50 ${String(m.p50).padStart(6)} ms  p99 ${String(m.p99).padStart(6)} ms  ` +
      `errors ${m.errors}  non-2xx ${m.non2xx}${Object.keys(status).length > 1 ? ` ${JSON.stringify(status)}` : ''}  peak RSS ${m.peakRssMb} MB  ` +
      `CPU ms/req: server ${m.cpuMsPerRequest.server}${EMBEDDED ? '' : `, postgres ${m.cpuMsPerRequest.postgres}`}, autocannon ${m.cpuMsPerRequest.loadGenerator}`,
  );
  return m;
};

// ---------------------------------------------------------------------------------------------- the ceiling (pgbench)

/** What pgbench did for a scenario: its rate, and PostgreSQL's CPU a transaction. */
interface Ceiling {
  readonly name: string;
  readonly tps: number;
  readonly transactions: number;
  readonly failed: number;
  readonly pgCpuMs: number;
}

/** The scenarios pgbench runs the API's statements for (issue 37), and the least share of its rate the API must reach. */
const CEILING_TARGETS: Record<string, number> = { 'products-page1': 0.5, 'sales-random': 0.6, 'sales-hot': 0.6 };

/** pgbench's variables (the business, the page's products, the constants of a cash sale) and its carts; made once a run. */
const preparePgbench = async (db: Db, seed: Seed, data: RunData) => {
  const b = seed.businessId;
  const page = (await db.query<{ id: string }>('select id from products where business_id = $1 and archived_at is null order by created_at desc, id desc limit 20', [b])).map((r) => r.id);
  // the API scenario's carts (the same generator and products), those with no customer
  const rng = prng(0xce11);
  const carts: { productIds: string[]; quantities: number[]; branchId: string }[] = [];
  while (carts.length < 3000) {
    const body = JSON.parse(cart(data, rng).body!) as { items: { product_id: string; quantity: number }[]; customer_id?: string; branch_id: string };
    if (body.customer_id) continue;
    carts.push({ productIds: body.items.map((i) => i.product_id), quantities: body.items.map((i) => i.quantity), branchId: body.branch_id });
  }
  const counts = await prepareCarts(db, 'bench_pgbench_carts', b, seed.ownerUserId, carts);
  await prepareCarts(db, 'bench_pgbench_hot', b, seed.ownerUserId, [{ productIds: [data.hot.pgbench], quantities: [1], branchId: data.hotBranch }]);
  const vars: Record<string, string | number> = {
    b, limit: 21, zero: 0, false: 'false', max_stock: 1_000_000_000, method: 'CASH', completed: 'COMPLETED',
    sale_type: 'SaleRecorded', stock_type: 'StockChanged', never: 'infinity', user: seed.ownerUserId,
  };
  page.forEach((id, i) => (vars[`p${i + 1}`] = id));
  return { vars, counts, pageSize: page.length };
};

/** pgbench for scenario `s`, as long as the API ran it (or as many transactions), on the API's pool size. */
const runCeiling = async (s: Scenario, setup: Awaited<ReturnType<typeof preparePgbench>>, app: Target, data: RunData, db: Db): Promise<Ceiling> => {
  const seconds = QUICK ? s.seconds.quick : s.seconds.full;
  let scripts: { text: string; weight: number }[];
  let transactions: number | undefined;
  if (s.name === 'products-page1') scripts = [{ text: pageScript(setup.pageSize), weight: 1 }];
  else if (s.name === 'sales-random') scripts = [1, 2, 3].map((lines) => ({ text: saleScript(lines, setup.counts.get(lines) ?? 0), weight: setup.counts.get(lines) ?? 0 }));
  else {
    const requests = QUICK ? s.requests!.quick : s.requests!.full;
    await app.restock(data.hot.pgbench, Math.round(requests / 2), data.hotBranch); // the API's own hot run: half the requests find stock
    scripts = [{ text: saleScript(1, 1, 'bench_pgbench_hot'), weight: 1 }];
    transactions = Math.ceil(requests / POOL_MAX);
  }
  const before = postgresCpuSeconds();
  const r = await runPgbench(DATABASE_URL, scripts, { clients: POOL_MAX, seconds, ...(transactions ? { transactions } : {}), vars: setup.vars });
  const pgCpuMs = Math.round(((postgresCpuSeconds() - before) * 1e6) / Math.max(1, r.transactions)) / 1000;
  await db.query(`delete from outbox where next_attempt_at = 'infinity'`); // pgbench's events: nobody relays them
  if (s.writes) await sleep(1000);
  log(`  pgbench  ${s.name.padEnd(16)} ${String(r.tps.toFixed(1)).padStart(8)} tps  (${r.transactions} transactions, ${r.failed} failed, ${POOL_MAX} connections)  CPU ms/tx: postgres ${pgCpuMs}`);
  return { name: s.name, tps: r.tps, transactions: r.transactions, failed: r.failed, pgCpuMs };
};

// Behind a balancer a download's RSS growth would be one instance's among several: left to the one-instance run.
const selected = SCENARIOS.filter((s) => (!ONLY || ONLY.includes(s.name)) && (INSTANCES === 1 || !s.download));

// ---------------------------------------------------------------------------------------------- checks

interface CheckResult {
  readonly ok: boolean;
  readonly lines: string[];
}

/**
 * After the runs: no product below 0; for every product, stock at the start - units sold since + units
 * restocked since = stock now; the SALE ledger rows say the same as the sale lines; the hot products
 * sold exactly their starting stock and stand at 0; each write scenario's sales rows match its 201s;
 * and over the whole business: ledger sums = quantities, balances = entries, receipts gap-free.
 */
const checkStock = async (db: Db, seed: Seed, data: RunData, measured: Measured[]): Promise<CheckResult> => {
  const b = seed.businessId;
  const lines: string[] = [];
  let ok = true;
  const fail = (line: string) => {
    ok = false;
    lines.push(`FAIL ${line}`);
  };
  const [s] = await db.query<Record<string, string>>(
    `with sold as (
       select si.product_id, sum(si.quantity) as q from sale_items si join sales s on s.id = si.sale_id
       where s.business_id = $1 and s.created_at >= $2 group by si.product_id),
     ledger as (
       select product_id, sum(quantity_change) filter (where reason = 'SALE') as sale_q, sum(quantity_change) filter (where reason <> 'SALE') as other_q
       from stock_movements where business_id = $1 and created_at >= $2 group by product_id)
     select count(*) filter (where p.quantity < 0) as negative,
       count(*) filter (where sold.q is not null) as touched,
       count(*) filter (where snap.quantity - coalesce(sold.q, 0) + coalesce(l.other_q, 0) <> p.quantity) as mismatched,
       count(*) filter (where coalesce(sold.q, 0) <> -coalesce(l.sale_q, 0)) as ledger_mismatched,
       coalesce(sum(sold.q), 0) as units
     from products p join bench_run_snapshot snap on snap.id = p.id
     left join sold on sold.product_id = p.id left join ledger l on l.product_id = p.id
     where p.business_id = $1`,
    [b, data.t0],
  );
  const sales = await db.query<{ n: string }>('select count(*) as n from sales where business_id = $1 and created_at >= $2', [b, data.t0]);
  lines.push(`${sales[0]!.n} sales recorded in this run, ${s!.units} units of ${s!.touched} products`);
  if (Number(s!.negative) > 0) fail(`${s!.negative} products below 0`);
  if (Number(s!.mismatched) > 0) fail(`${s!.mismatched} products whose stock is not start - sold + restocked (oversell or lost update)`);
  else lines.push(`ok   every product: stock at the start - sold + restocked = stock now (${s!.touched} touched, none below 0)`);
  if (Number(s!.ledger_mismatched) > 0) fail(`${s!.ledger_mismatched} products whose SALE ledger rows disagree with the sale lines`);
  else lines.push('ok   SALE ledger rows = sale lines, product by product');

  for (const m of measured.filter((x) => x.name === 'sales-hot')) {
    const product = String(m.extra.hot_product);
    const startStock = Number(m.extra.hot_start_stock);
    const [h] = await db.query<{ sold: string; quantity: number }>(
      `select (select coalesce(sum(si.quantity), 0) from sale_items si join sales s on s.id = si.sale_id
         where s.business_id = $1 and si.product_id = $2 and s.branch_id = $5 and s.created_at >= $3 and s.created_at < $4) as sold,
       (select quantity from product_stock where business_id = $1 and product_id = $2 and branch_id = $5) as quantity`,
      [b, product, m.start, new Date(m.end.getTime() + 1000), String(m.extra.hot_branch)],
    );
    const sold = Number(h!.sold);
    const refused = m.status['409'] ?? 0;
    const line = `${m.target} hot product: started at ${startStock}, sold ${sold}, now ${h!.quantity}; ${refused} answered 409 INSUFFICIENT_STOCK`;
    if (sold !== startStock - h!.quantity || h!.quantity !== 0 || refused === 0) fail(line);
    else lines.push(`ok   ${line}`);
  }
  for (const m of measured.filter((x) => x.name.startsWith('sales-') || x.name.startsWith('till-') || x.name === 'mixed').filter((x) => x.name !== 'sales-list')) {
    // a till's rounds are over when it answers: nothing in flight after its window (the next scenario may start at once)
    const [w] = await db.query<{ n: string }>('select count(*) as n from sales where business_id = $1 and created_at >= $2 and created_at < $3', [
      b,
      m.start,
      new Date(m.end.getTime() + (m.name.startsWith('till-') ? 0 : 1000)),
    ]);
    const rows = Number(w!.n);
    const created = m.status['201'] ?? 0;
    // In flight when the load stopped, and (after a warm-up) those the warm-up left waiting for a
    // database connection, which take their time after the window opened: behind a balancer both fill up.
    const inFlight = m.connections * (SCENARIOS.find((x) => x.name === m.name)?.warmup ? 2 : 1);
    const line = `${m.target} ${m.name}: ${created} answered 201, ${rows} sales rows in its window (the difference: requests in flight when the warm-up and the load stopped, at most ${inFlight})`;
    if (rows < created || rows - created > inFlight) fail(line);
    else lines.push(`ok   ${line}`);
  }
  for (const m of measured.filter((x) => x.fiveXX > 0 || x.errors > 0)) fail(`${m.target} ${m.name}: ${m.fiveXX} 5xx, ${m.errors} errors`);
  const problems = await checkSeed((sql) => db.query(sql), b);
  for (const p of problems) fail(`whole business: ${p}`);
  const [g] = await db.query<{ n: string; c: number }>(
    'select (select count(*) from sales where business_id = $1) as n, (select value from receipt_counters where business_id = $1) as c',
    [b],
  );
  if (Number(g!.n) !== Number(g!.c)) fail(`receipts: ${g!.n} sales but the counter is at ${g!.c}`);
  if (problems.length === 0 && Number(g!.n) === Number(g!.c)) {
    lines.push(`ok   whole business: every product's ledger sums to its stock, its sort keys match it, balances = credit entries, ${g!.n} sales numbered RCP-000001..${g!.c} without a gap`);
  }
  return { ok, lines };
};

// ---------------------------------------------------------------------------------------------- report

interface ResultRow {
  name: string;
  database: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
  status_codes: Record<string, number>;
  peak_rss_mb: number;
  cpu_ms_per_request: { server: number; postgres: number; load_generator: number };
  baseline_cpu_ms_per_request: { server: number; postgres: number } | null;
  connections: number;
  duration_s: number;
  baseline_rps: number | null;
  baseline_p50_ms: number | null;
  baseline_p99_ms: number | null;
  ratio: number | null;
  quick: boolean;
  at: string;
  /** Download scenarios: sizes, times and the API's RSS growth of each download (runDownloads). */
  download?: Record<string, unknown>;
  /** pgbench running the API's statements for this scenario (issue 37), and the API's req/s over its tps. */
  ceiling?: { tps: number; transactions: number; failed: number; postgres_cpu_ms_per_transaction: number; ratio: number };
  /** API instances behind HAProxy (--instances); absent in older rows: 1. */
  instances?: number;
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

/** Top self time of a server's CPU profile, from `skipSeconds` after the process started (start-up left out). */
const summarizeProfile = (name: string, dir: string, skipSeconds: number) => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) return log('no CPU profile was written');
  // --cpu-prof writes one profile a thread (tsx's module loader runs in a worker): the largest is the main thread's.
  const file = files.map((f) => join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  let clock = 0;
  profile.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const dt = profile.timeDeltas[i] ?? 0;
    clock += dt;
    if (clock < skipSeconds * 1e6 || n.callFrame.functionName === '(idle)') return;
    total += dt;
    const url = n.callFrame.url.replace(`file://${ROOT}/`, '').replace(/^.*node_modules\//, 'node_modules/');
    const key = `${n.callFrame.functionName || '(anonymous)'}  ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const byPackage = new Map<string, number>();
  for (const [key, us] of self) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(key);
    const group = m ? m[1]! : /\.ts:/.test(key) ? 'our code (.ts)' : key.startsWith('(') ? key.split('  ')[0]! : 'node internals';
    byPackage.set(group, (byPackage.get(group) ?? 0) + us);
  }
  console.log(`\n${name}'s CPU profile ${file}: ${(total / 1e6).toFixed(1)} s busy after the first ${skipSeconds.toFixed(1)} s (start-up); top self time, % of busy`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${((us / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
  console.log('by package:');
  for (const [key, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${((us / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
};

// ---------------------------------------------------------------------------------------------- main

const main = async () => {
  log(
    `bench on ${DATABASE}${EMBEDDED ? ` (${PGLITE_DIR})` : ` (${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')})`}, ${QUICK ? 'quick' : 'full'} run, ` +
      `${cpus().length} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ${CONNECTIONS} connections, pool ${POOL_MAX}`,
  );
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' }); // as `npm start` does
  let { db, seed, seeded } = await ensureSeed();
  const data = await prepareRun(db, seed);
  DATA = data;
  log(`report days: today ${data.days.today}, 12 months from ${data.days.yearAgo}, daily summary of ${data.days.summaryDay}; sales export over ${data.days.exportRanges.map((r) => `${r.from}..${r.to}`).join(', ')}`);
  log(`run starts at ${data.t0.toISOString()}: stock of ${seed.size.products.toLocaleString('en')} products snapshotted; carts draw from ${data.productPool.length} products and ${data.customerPool.length} customers`);
  const pgbenchSetup = PGBENCH && selected.some((x) => x.name in CEILING_TARGETS) ? await preparePgbench(db, seed, data) : undefined;
  if (!PGBENCH && !EMBEDDED && INSTANCES === 1 && !flag('no-pgbench')) log('pgbench not found (Debian: apt-get install postgresql-client): no ceiling in this run');
  const ceilings: Ceiling[] = [];
  if (EMBEDDED) await db.close(); // the servers open the data directory themselves, one at a time

  const dataDir = EMBEDDED ? PGLITE_DIR : mkdtempSync(join(tmpdir(), 'bizops-bench-api-'));
  const otpSecret = randomBytes(32).toString('base64');
  // Instances behind a balancer share one signing key (`npm run cluster` refuses to start without it).
  const jwtKey = INSTANCES > 1 ? generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() : '';
  const paging = createPaging(Buffer.from(otpSecret, 'base64'));
  const appCursor = paging.render('listProducts', {}, { sortBy: 'created_at', sortDir: 'desc', limit: 20 }, { items: [], hasNext: true, next: { value: data.deep.value, id: data.deep.id } }, (x) => x).cursor!;
  const baselineCursor = Buffer.from(JSON.stringify({ v: data.deep.value, i: data.deep.id })).toString('base64url');

  const measured: Measured[] = [];
  let apiHwmMb = 0; // the API's VmHWM at the end of its run
  const profileDir = CPU_PROF ? mkdtempSync(join(tmpdir(), 'bizops-bench-prof-')) : undefined;
  const baselineProfileDir = CPU_PROF && !NO_BASELINE ? mkdtempSync(join(tmpdir(), 'bizops-bench-baseline-prof-')) : undefined;
  let checks: CheckResult | undefined;
  try {
    // 1. sign in (the code is logged at info), then the measured API at warn
    // (its workers on: the sign-in code is sent by a job)
    let api: Server = await startApi(dataDir, otpSecret, 'info', undefined, jwtKey, 'on');
    const token = await signIn(api, seed.ownerPhone);
    await api.stop();
    log('signed in as the large business owner through /auth/login + /auth/verify-otp');

    api =
      INSTANCES > 1
        ? await startClusterServer(INSTANCES, { ...apiEnv(dataDir, otpSecret, 'warn', jwtKey), REDIS_URL: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379' })
        : await startApi(dataDir, otpSecret, 'warn', profileDir);
    log(`API up (pid ${api.pid}, ${api.baseUrl}, RSS ${api.peakRssMb()} MB)`);
    const app: Target = {
      kind: 'app',
      server: api,
      headers: { authorization: `Bearer ${token}` },
      deepCursor: appCursor,
      hotProduct: data.hot.app,
      async restock(productId, quantity, branchId) {
        const got = await fetch(`${api.baseUrl}/api/v1/products/${productId}`, { headers: this.headers });
        const stock = ((await got.json()) as { data: { stock: { branch_id: string; quantity: number }[] } }).data.stock;
        const current = stock.find((s) => s.branch_id === branchId)!.quantity;
        if (current === quantity) return;
        const res = await fetch(`${api.baseUrl}/api/v1/products/stock-adjustment`, {
          method: 'POST',
          headers: { ...this.headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            product_id: productId,
            quantity_change: quantity - current,
            reason: quantity > current ? 'RESTOCK' : 'CORRECTION',
            note: 'bench',
            branch_id: branchId,
          }),
        });
        if (res.status !== 201) throw new Error(`restock: ${res.status} ${await res.text()}`);
      },
    };
    const baselineTarget = async (): Promise<Target> => {
      const base = await startBaseline(seed, baselineProfileDir);
      log(`baseline up (pid ${base.pid}, ${base.baseUrl})`);
      return {
        kind: 'baseline',
        server: base,
        headers: {},
        deepCursor: baselineCursor,
        hotProduct: data.hot.baseline,
        async restock(productId, quantity, branchId) {
          const res = await fetch(`${base.baseUrl}/api/v1/restock`, { method: 'POST', body: JSON.stringify({ product_id: productId, quantity, branch_id: branchId }) });
          if (res.status !== 200) throw new Error(`restock: ${res.status} ${await res.text()}`);
        },
      };
    };
    const withBaseline = selected.filter((x) => x.baselineSeconds && (!QUICK || x.baselineSeconds.quick));
    // On PostgreSQL each scenario runs on the API and then at once on the baseline, both servers up:
    // this machine's speed drifts by a third over minutes, and a ratio of two runs minutes apart
    // measured the drift. PGlite: one process a data directory, so the baseline runs after the API.
    const interleaved = !NO_BASELINE && !EMBEDDED;
    let baseline: Target | undefined;
    const earlierApp = new Map<string, Measured>();
    const earlierBase = new Map<string, Measured>();
    const runBaseline = async (s: Scenario) => {
      const m = await runScenario(baseline!, s, data, earlierBase);
      earlierBase.set(s.name, m);
      measured.push(m);
    };
    try {
      if (interleaved) baseline = await baselineTarget();
      for (const s of selected) {
        const m = await runScenario(app, s, data, earlierApp);
        earlierApp.set(s.name, m);
        measured.push(m);
        if (interleaved && withBaseline.includes(s)) await runBaseline(s);
        if (pgbenchSetup && s.name in CEILING_TARGETS) ceilings.push(await runCeiling(s, pgbenchSetup, app, data, db));
      }
      apiHwmMb = api.hwmMb();
      log(`API VmHWM (peak RSS ${selected.some((x) => x.download) ? 'since the last download started: the downloads reset it' : 'since start'}) ${apiHwmMb} MB`);
    } finally {
      await api.stop();
      if (baseline && interleaved) {
        log(`baseline VmHWM ${baseline.server.hwmMb()} MB`);
        await baseline.server.stop();
      }
    }
    const skipStartUp = (kind: Target['kind'], server: Server) => {
      const first = measured.find((m) => m.target === kind);
      return first ? Math.max(0, (first.start.getTime() - server.startedAt) / 1000) : 0;
    };
    if (profileDir) summarizeProfile('API', profileDir, skipStartUp('app', api));

    if (!NO_BASELINE && !interleaved) {
      baseline = await baselineTarget();
      try {
        for (const s of withBaseline) await runBaseline(s);
        log(`baseline VmHWM ${baseline.server.hwmMb()} MB`);
      } finally {
        await baseline.server.stop();
      }
    }
    if (baselineProfileDir && baseline) summarizeProfile('baseline', baselineProfileDir, skipStartUp('baseline', baseline.server));
  } finally {
    if (EMBEDDED) db = await openDatabase();
    try {
      checks = await checkStock(db, seed, data, measured);
    } finally {
      await db.close();
      if (!EMBEDDED) rmSync(dataDir, { recursive: true, force: true });
      if (profileDir && !CPU_PROF) rmSync(profileDir, { recursive: true, force: true });
    }
  }

  // ------------------------------------------------------------------ the table
  const rows: ResultRow[] = [];
  const at = new Date().toISOString();
  const previous: ResultRow[] = existsSync(RESULTS_FILE) ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as ResultRow[]) : [];
  const pgRows = new Map(previous.filter((r) => r.database === 'postgresql' && (r.instances ?? 1) === 1).map((r) => [r.name, r]));
  console.log(`\nResults (${DATABASE}, ${QUICK ? 'quick' : 'full'} run; latency in ms; ratio = req/s of the API / req/s of the baseline)\n`);
  const header = `${'scenario'.padEnd(44)} ${pad('conns', 5)} ${pad('req/s', 8)} ${pad('p50', 7)} ${pad('p99', 7)} ${pad('errors', 6)} ${pad('non-2xx', 7)} ${pad('RSS MB', 6)} ${pad('base r/s', 9)} ${pad('b p50', 6)} ${pad('b p99', 6)} ${pad('ratio', 6)}${EMBEDDED ? ` ${pad('vs PG', 6)}` : ''}`;
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const m of measured.filter((x) => x.target === 'app')) {
    const b = measured.find((x) => x.target === 'baseline' && x.name === m.name);
    const ratio = b && b.rps > 0 ? Math.round((m.rps / b.rps) * 100) / 100 : null;
    const vsPg = pgRows.get(m.name);
    rows.push({
      name: m.name,
      database: DATABASE,
      rps: m.rps,
      p50_ms: m.p50,
      p99_ms: m.p99,
      errors: m.errors,
      non2xx: m.non2xx,
      status_codes: m.status,
      peak_rss_mb: m.peakRssMb,
      cpu_ms_per_request: { server: m.cpuMsPerRequest.server, postgres: m.cpuMsPerRequest.postgres, load_generator: m.cpuMsPerRequest.loadGenerator },
      baseline_cpu_ms_per_request: b ? { server: b.cpuMsPerRequest.server, postgres: b.cpuMsPerRequest.postgres } : null,
      connections: m.connections,
      duration_s: m.seconds,
      baseline_rps: b?.rps ?? null,
      baseline_p50_ms: b?.p50 ?? null,
      baseline_p99_ms: b?.p99 ?? null,
      ratio,
      quick: QUICK,
      at,
      instances: INSTANCES,
      ...(m.extra.download ? { download: m.extra.download as Record<string, unknown> } : {}),
    });
    console.log(
      `${m.label.padEnd(44)} ${pad(m.connections, 5)} ${pad(m.rps.toFixed(0), 8)} ${pad(m.p50, 7)} ${pad(m.p99, 7)} ${pad(m.errors, 6)} ${pad(m.non2xx, 7)} ${pad(m.peakRssMb, 6)} ` +
        `${pad(b ? b.rps.toFixed(0) : '-', 9)} ${pad(b ? b.p50 : '-', 6)} ${pad(b ? b.p99 : '-', 6)} ${pad(ratio === null ? '-' : ratio.toFixed(2), 6)}` +
        (EMBEDDED ? ` ${pad(vsPg ? (m.rps / vsPg.rps).toFixed(2) : '-', 6)}` : ''),
    );
  }
  console.log(`\nCPU time a request, ms (${EMBEDDED ? 'PGlite runs inside the server process' : 'postgres = every postgres process on the machine'}; autocannon = this process)\n`);
  console.log(`${'scenario'.padEnd(44)} ${pad('API', 7)} ${EMBEDDED ? '' : `${pad('pg', 7)} `}${pad('base', 7)} ${EMBEDDED ? '' : `${pad('b pg', 7)} `}${pad('load', 7)}`);
  for (const m of measured.filter((x) => x.target === 'app')) {
    const b = measured.find((x) => x.target === 'baseline' && x.name === m.name);
    console.log(
      `${m.label.padEnd(44)} ${pad(m.cpuMsPerRequest.server.toFixed(3), 7)} ${EMBEDDED ? '' : `${pad(m.cpuMsPerRequest.postgres.toFixed(3), 7)} `}` +
        `${pad(b ? b.cpuMsPerRequest.server.toFixed(3) : '-', 7)} ${EMBEDDED ? '' : `${pad(b ? b.cpuMsPerRequest.postgres.toFixed(3) : '-', 7)} `}${pad(m.cpuMsPerRequest.loadGenerator.toFixed(3), 7)}`,
    );
  }
  if (INSTANCES > 1) {
    console.log(`\n${INSTANCES} instances behind HAProxy beside one instance (the last one-instance PostgreSQL run in ${RESULTS_FILE}; x = req/s ratio)\n`);
    console.log(`${'scenario'.padEnd(44)} ${pad('1: r/s', 8)} ${pad('p50', 6)} ${pad('p99', 6)} ${pad(`${INSTANCES}: r/s`, 8)} ${pad('p50', 6)} ${pad('p99', 6)} ${pad('x', 5)}`);
    for (const r of rows) {
      const one = pgRows.get(r.name);
      console.log(
        `${r.name.padEnd(44)} ${pad(one ? one.rps.toFixed(0) : '-', 8)} ${pad(one?.p50_ms ?? '-', 6)} ${pad(one?.p99_ms ?? '-', 6)} ` +
          `${pad(r.rps.toFixed(0), 8)} ${pad(r.p50_ms, 6)} ${pad(r.p99_ms, 6)} ${pad(one && one.rps > 0 ? (r.rps / one.rps).toFixed(2) : '-', 5)}`,
      );
    }
  }
  if (ceilings.length > 0) {
    console.log(`\nPostgreSQL's ceiling: pgbench running the API's statements (bench/pgbench.ts), prepared, ${POOL_MAX} connections (the API's pool)\n`);
    console.log(`${'scenario'.padEnd(44)} ${pad('API r/s', 8)} ${pad('pgbench', 8)} ${pad('API/pgb', 8)} ${pad('API pg', 7)} ${pad('pgb pg', 7)}`);
    for (const c of ceilings) {
      const r = rows.find((x) => x.name === c.name);
      if (!r) continue;
      r.ceiling = { tps: c.tps, transactions: c.transactions, failed: c.failed, postgres_cpu_ms_per_transaction: c.pgCpuMs, ratio: Math.round((r.rps / c.tps) * 100) / 100 };
      console.log(`${r.name.padEnd(44)} ${pad(r.rps.toFixed(0), 8)} ${pad(c.tps.toFixed(0), 8)} ${pad(r.ceiling.ratio.toFixed(2), 8)} ${pad(r.cpu_ms_per_request.postgres.toFixed(3), 7)} ${pad(c.pgCpuMs.toFixed(3), 7)}`);
    }
    console.log('(API pg, pgb pg: CPU ms of every postgres process a request or transaction; the API\'s includes its outbox relay)');
  }
  const codes = measured.filter((m) => m.target === 'app' && m.non2xx > 0).map((m) => `${m.name} ${JSON.stringify(m.status)}`);
  if (codes.length > 0) console.log(`\nstatus codes where not all 2xx: ${codes.join('; ')}`);
  if (EMBEDDED) {
    const vs = rows.flatMap((r) => (pgRows.get(r.name) ? [{ name: r.name, v: r.rps / pgRows.get(r.name)!.rps }] : []));
    if (vs.length > 0) {
      const lo = vs.reduce((a, b) => (b.v < a.v ? b : a));
      const hi = vs.reduce((a, b) => (b.v > a.v ? b : a));
      console.log(`\nPGlite against PostgreSQL: ${Math.round(lo.v * 100)}% (${lo.name}) to ${Math.round(hi.v * 100)}% (${hi.name}) of the req/s`);
    }
    console.log(
      pgRows.size > 0
        ? `\nvs PG = req/s on PGlite / req/s of the PostgreSQL run in ${RESULTS_FILE} (${[...pgRows.values()][0]!.at}${[...pgRows.values()][0]!.quick ? ', quick' : ''})`
        : `\nno PostgreSQL results in ${RESULTS_FILE} to compare with: run npm run bench first`,
    );
  }

  // ------------------------------------------------------------------ targets
  const get = (name: string) => rows.find((r) => r.name === name);
  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'n/a ' : ok ? 'MET ' : 'MISS');
  const page = get('products-page1');
  const sale = get('sales-random');
  const agingRow = get('aging-report');
  const noServerFaults = measured.every((m) => m.fiveXX === 0 && m.errors === 0);
  console.log('\nTargets');
  console.log(
    `  ${verdict(page && page.ratio !== null ? page.ratio >= 0.7 && page.p99_ms < 50 : undefined)} GET /products page: >= 70% of the baseline's req/s and p99 < 50 ms at ${CONNECTIONS} connections` +
      (page ? ` -> ${page.ratio === null ? 'no baseline' : `${Math.round(page.ratio * 100)}%`}, p99 ${page.p99_ms} ms` : ''),
  );
  console.log(
    `  ${verdict(sale ? sale.rps >= 400 && checks!.ok && noServerFaults : undefined)} POST /sales: >= 400/s, zero oversell, zero 5xx` +
      (sale ? ` -> ${sale.rps.toFixed(0)}/s, stock checks ${checks!.ok ? 'pass' : 'FAIL'}, ${measured.reduce((n, m) => n + m.fiveXX, 0)} 5xx` : ''),
  );
  console.log(`  ${verdict(agingRow ? agingRow.p99_ms < 300 : undefined)} aging report of the large business under 300 ms` + (agingRow ? ` -> p50 ${agingRow.p50_ms} ms, p99 ${agingRow.p99_ms} ms` : ''));
  for (const r of rows.filter((x) => x.name.startsWith('report-'))) {
    console.log(`  ${verdict(r.p50_ms < 300)} ${r.name}: p50 < 300 ms at the large business -> p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms`);
  }
  for (const r of rows.filter((x) => x.download)) {
    const growth = Number(r.download!.peak_rss_growth_mb);
    console.log(`  ${verdict(growth < 50)} ${r.name}: streams with peak RSS growth < 50 MB -> ${growth} MB (each download: ${(r.download!.rss_growth_mb as number[]).join(', ')} MB), ${(r.p50_ms / 1000).toFixed(1)} s`);
  }
  // Issue 19's targets: each ratio against the baseline of this same run.
  const cpuRatio = (r: ResultRow | undefined) =>
    r?.baseline_cpu_ms_per_request && r.baseline_cpu_ms_per_request.server > 0 ? r.cpu_ms_per_request.server / r.baseline_cpu_ms_per_request.server : undefined;
  const peakRss = Math.max(apiHwmMb, ...measured.filter((m) => m.target === 'app').map((m) => m.peakRssMb));
  console.log('\nTargets of the hot paths (issue 19; ratios against the baseline in this run)');
  for (const name of ['products-page1', 'products-deep']) {
    const r = get(name);
    if (!r) continue;
    console.log(
      `  ${verdict(r.ratio === null ? undefined : r.ratio >= 0.7)} ${name}: >= 70% of the baseline's req/s -> ${r.ratio === null ? 'no baseline' : `${Math.round(r.ratio * 100)}%`}`,
    );
    console.log(`  ${verdict(r.p99_ms < 40)} ${name}: p99 < 40 ms -> ${r.p99_ms} ms (baseline ${r.baseline_p99_ms ?? '-'} ms)`);
  }
  for (const [name, min] of [['sales-random', 0.8], ['sales-hot', 0.6]] as const) {
    const r = get(name);
    if (r) console.log(`  ${verdict(r.ratio === null ? undefined : r.ratio >= min)} ${name}: >= ${min * 100}% of the baseline's req/s -> ${r.ratio === null ? 'no baseline' : `${Math.round(r.ratio * 100)}%`}`);
  }
  for (const [name, max] of [['products-page1', 1.5], ['products-deep', 1.5], ['products-search', 1.5], ['sales-list', 1.5], ['aging-report', 1.5], ['sales-random', 1.6], ['sales-hot', 1.6]] as const) {
    const r = get(name);
    const x = cpuRatio(r);
    if (r) console.log(`  ${verdict(x === undefined ? undefined : x <= max)} ${name}: API CPU <= ${max}x the baseline's -> ${x === undefined ? 'no baseline' : `${x.toFixed(2)}x`}`);
  }
  console.log(`  ${verdict(EMBEDDED ? undefined : peakRss <= 250)} peak RSS of the API over the run <= 250 MB${EMBEDDED ? ' (PostgreSQL only)' : ''} -> ${peakRss} MB`);
  // Issue 37's targets: the ceiling in the same run, the absolute rates, reports that do not grow with history, the till.
  console.log('\nTargets of issue 37 (pgbench ratios in this run; rates and latencies on this machine)');
  for (const [name, min] of Object.entries(CEILING_TARGETS)) {
    const r = get(name);
    if (r) console.log(`  ${verdict(r.ceiling ? r.ceiling.ratio >= min : undefined)} ${name}: >= ${min * 100}% of pgbench's rate for its statements -> ${r.ceiling ? `${Math.round(r.ceiling.ratio * 100)}% (${r.rps.toFixed(0)} / ${r.ceiling.tps.toFixed(0)})` : 'no pgbench pass'}`);
  }
  if (page) console.log(`  ${verdict(page.rps >= 2800)} products-page1: >= 2,800 req/s -> ${page.rps.toFixed(0)} (baseline ${page.baseline_rps?.toFixed(0) ?? '-'}, pgbench ${page.ceiling?.tps.toFixed(0) ?? '-'})`);
  if (sale) console.log(`  ${verdict(sale.rps >= 500)} sales-random: >= 500 sales/s -> ${sale.rps.toFixed(0)} (baseline ${sale.baseline_rps?.toFixed(0) ?? '-'}, pgbench ${sale.ceiling?.tps.toFixed(0) ?? '-'})`);
  if (sale && !EMBEDDED) console.log(`  ${verdict(sale.cpu_ms_per_request.postgres <= 2.5)} sales-random: PostgreSQL CPU <= 2.5 ms a sale -> ${sale.cpu_ms_per_request.postgres.toFixed(3)} ms (pgbench's sale ${sale.ceiling?.postgres_cpu_ms_per_transaction.toFixed(3) ?? '-'} ms)`);
  if (page && !EMBEDDED) console.log(`  ${verdict(page.cpu_ms_per_request.postgres <= 0.3)} products-page1: PostgreSQL CPU <= 0.3 ms a page -> ${page.cpu_ms_per_request.postgres.toFixed(3)} ms (pgbench's page ${page.ceiling?.postgres_cpu_ms_per_transaction.toFixed(3) ?? '-'} ms)`);
  const sales = seed.size.sales;
  // --history beside the last run at the full size (results.json): the same figures within 20 % (cost grows with the period asked)
  const fullSizeFile = join(ROOT, 'bench', 'results.json');
  const atFullSize = HISTORY && existsSync(fullSizeFile) ? new Map((JSON.parse(readFileSync(fullSizeFile, 'utf8')) as ResultRow[]).filter((r) => r.database === DATABASE && (r.instances ?? 1) === 1).map((r) => [r.name, r])) : undefined;
  for (const [name, max] of [['report-dashboard-30d', 150], ['report-profit-loss-12m', 150], ['report-daily-summary', 20], ['aging-report', 100]] as const) {
    const r = get(name);
    if (!r) continue;
    console.log(`  ${verdict(r.p50_ms < max)} ${name}: p50 < ${max} ms at ${sales.toLocaleString('en')} seeded sales -> ${r.p50_ms} ms`);
    const full = atFullSize?.get(name);
    if (atFullSize) console.log(`  ${verdict(full ? r.p50_ms <= full.p50_ms * 1.2 : undefined)} ${name}: within 20% of the ${FULL_SIZE.sales.toLocaleString('en')}-sale run -> ${full ? `${r.p50_ms} against ${full.p50_ms} ms (${full.at})` : 'no full-size run in results.json'}`);
  }
  const signUp = get('auth-register');
  if (signUp) console.log(`  ${verdict(signUp.p50_ms < 30)} auth-register: p50 < 30 ms at one connection -> ${signUp.p50_ms} ms (p99 ${signUp.p99_ms} ms)`);
  const oneByOne = get('till-one-by-one');
  const batch = get('till-batch');
  if (oneByOne && batch) {
    console.log(`  ${verdict(batch.p50_ms * 3 <= oneByOne.p50_ms)} till-batch: 100 sales at least 3x faster than one by one -> ${batch.p50_ms} ms against ${oneByOne.p50_ms} ms (${(oneByOne.p50_ms / batch.p50_ms).toFixed(2)}x)`);
    console.log(`  ${verdict(batch.cpu_ms_per_request.server <= oneByOne.cpu_ms_per_request.server)} till-batch: server CPU a sale no more than POST /sales -> ${batch.cpu_ms_per_request.server} ms against ${oneByOne.cpu_ms_per_request.server} ms`);
  }
  const runMinutes = (performance.now() - runStarted) / 60_000;
  if (QUICK && !ONLY) console.log(`  ${verdict(seeded ? undefined : runMinutes <= 4)} --quick within 4 minutes (seed in place) -> ${runMinutes.toFixed(1)} min${seeded ? ' (this run seeded first: not counted)' : ''}`);
  console.log('\nStock and ledger after the runs');
  for (const line of checks!.lines) console.log(`  ${line}`);

  // ------------------------------------------------------------------ results.json (one object a scenario and database)
  const kept = previous.filter((r) => r.database !== DATABASE || (r.instances ?? 1) !== INSTANCES || (ONLY && !rows.some((x) => x.name === r.name)));
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify([...kept, ...rows], null, 2)}\n`);
  log(`wrote ${RESULTS_FILE}${seeded ? ` (this run seeded first: ${(seed.seedMs / 1000).toFixed(1)} s)` : ''}`);
  // Exit now rather than wait ~20 s for idle keep-alive sockets and timers to lapse.
  process.exit(checks!.ok ? 0 : 1);
};

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  killChildren();
  process.exit(1);
});
