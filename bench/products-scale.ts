/**
 * Products at scale (docs/adr/0010): 100,000 products in one business (plus 1,000 in each of 5 others),
 * measured over HTTP against the real app, with the query plans of the SQL the list builds.
 *
 *   npx tsx bench/products-scale.ts                # PostgreSQL: DATABASE_URL, default postgres://postgres@127.0.0.1:5432/bizops_scale
 *   npx tsx bench/products-scale.ts --embedded     # PGlite in a temporary directory
 *
 * Options: --products N (default 100000), --requests N (timed requests a case, default 50),
 * --json FILE (write the results), --reset (allow wiping the schema of a DATABASE_URL not named bizops_scale*),
 * --drop (drop the created database at the end; by default bizops_scale is kept for later benchmarks).
 *
 * The database named by DATABASE_URL is created when missing; its `public` schema is wiped first.
 * Requests are sequential (one client), after a warm-up; times are client-side, fetch to last byte.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Sql } from '../adapters/persistence/sql/sql-session.js';
import type { PageRequest } from '../application/ports/list.js';
import type { ProductFilter, ProductSort } from '../application/products/ports.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../adapters/persistence/sql/embedded-postgres.js';
import { sqlProducts } from '../adapters/persistence/sql/products.sql.js';
import { createTestApp, registerOwner, type TestApp } from '../test/support/test-app.js';
import { seedProducts } from './seed-products.js';

// ---------------------------------------------------------------------------------------------- options

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const EMBEDDED = flag('embedded');
const PRODUCTS = Number(option('products', '100000'));
const OTHER_BUSINESSES = 5;
const OTHER_PRODUCTS = 1_000;
const REQUESTS = Number(option('requests', '50'));
const WARMUP = 5;
const DEEP_PAGES = 200;
const JSON_FILE = option('json', '');

const log = (...a: unknown[]) => console.log(...a);

// ---------------------------------------------------------------------------------------------- statistics

interface Timing {
  readonly case: string;
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly rows?: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
const summarize = (name: string, ms: number[], rows?: number): Timing => {
  const s = [...ms].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    case: name,
    n: s.length,
    p50: r(percentile(s, 50)),
    p95: r(percentile(s, 95)),
    mean: r(s.reduce((a, b) => a + b, 0) / s.length),
    min: r(s[0]!),
    max: r(s[s.length - 1]!),
    ...(rows !== undefined ? { rows } : {}),
  };
};

// ---------------------------------------------------------------------------------------------- database

interface Database {
  readonly url: string;
  readonly kind: 'postgresql' | 'pglite';
  cleanup(): Promise<void>;
}

const openDatabase = async (): Promise<Database> => {
  if (EMBEDDED) {
    const dir = mkdtempSync(join(tmpdir(), 'bizops-scale-'));
    // the app's pool (10) + the bench's own client + spare
    const embedded: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir: dir, maxConnections: 20 });
    return {
      url: embedded.url,
      kind: 'pglite',
      async cleanup() {
        await embedded.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bizops_scale';
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  if (!name.startsWith('bizops_scale') && !flag('reset')) {
    throw new Error(`${name}: the benchmark wipes the public schema; pass --reset to allow it on a database not named bizops_scale*`);
  }
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`create database ${name}`);
  await admin.end();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('drop schema if exists public cascade; create schema public');
  await c.end();
  return {
    url,
    kind: 'postgresql',
    async cleanup() {
      if (!flag('drop')) return;
      const a = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
};

// ---------------------------------------------------------------------------------------------- http

interface Got {
  readonly ms: number;
  readonly body: { data: { content: { id: string }[]; cursor: string | null; has_next: boolean } };
}

const makeClient = (app: TestApp, token: string) => {
  const get = async (path: string): Promise<Got> => {
    const started = performance.now();
    const res = await fetch(`${app.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
    return { ms, body: JSON.parse(text) };
  };
  const withCursor = (path: string, cursor: string | null) => (cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path);
  /** Follows `pages` cursors from the first page; returns the cursor of the page after them. */
  const follow = async (path: string, pages: number): Promise<string> => {
    let cursor: string | null = null;
    for (let i = 0; i < pages; i++) {
      const got: Got = await get(withCursor(path, cursor));
      cursor = got.body.data.cursor;
      if (!cursor) throw new Error(`${path}: only ${i + 1} pages`);
    }
    if (!cursor) throw new Error(`${path}: no pages followed`);
    return cursor;
  };
  /** Warm-up, then REQUESTS sequential requests of the same URL. */
  const time = async (name: string, path: string): Promise<Timing> => {
    for (let i = 0; i < WARMUP; i++) await get(path);
    const ms: number[] = [];
    let rows = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const got = await get(path);
      ms.push(got.ms);
      rows = got.body.data.content.length;
    }
    app.logLines.length = 0; // the test app keeps its log lines; do not let them pile up
    const t = summarize(name, ms, rows);
    log(`  ${name.padEnd(58)} p50 ${t.p50.toFixed(2).padStart(8)} ms   p95 ${t.p95.toFixed(2).padStart(8)} ms   (${rows} rows)`);
    return t;
  };
  return { get, follow, time, withCursor };
};

/** The (value, id) a cursor carries: its body is base64url JSON (the HMAC tag follows the dot). */
const decodeCursor = (cursor: string) => {
  const p = JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8')) as { v: string | number; i: string };
  return { value: p.v, id: p.i };
};

// ---------------------------------------------------------------------------------------------- export

export interface ExportMeasurement {
  readonly encoding: string;
  readonly ms: number;
  /** Bytes on the wire (compressed when content-encoding is set). */
  readonly wireBytes: number;
  /** Body chunks the client received. */
  readonly chunks: number;
  /** Lines of CSV (counted when not compressed). */
  readonly lines: number | null;
  readonly status: number;
  readonly contentType: string | undefined;
  readonly contentEncoding: string | undefined;
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  readonly rssGrowthMb: number;
  readonly heapBeforeMb: number;
  readonly heapPeakMb: number;
}

/**
 * GET /products/export once, read as it streams (the client keeps no copy), while sampling this
 * process's RSS and heap every 50 ms. The server runs in this process, so the growth is the server's
 * buffering plus the client's read buffer. Plain node:http, so the wire bytes and chunks are seen as sent
 * (`accept-encoding` picks identity, gzip or br as koa-compress answers it).
 */
export const measureExport = async (baseUrl: string, token: string, acceptEncoding = 'identity', query = ''): Promise<ExportMeasurement> => {
  const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const started = performance.now();
  try {
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(`${baseUrl}/api/v1/products/export${query}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding } }, resolve).on('error', reject),
    );
    let wireBytes = 0;
    let chunks = 0;
    let lines = 0;
    const compressed = res.headers['content-encoding'] !== undefined;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      wireBytes += chunk.byteLength;
      chunks++;
      if (!compressed) for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
    }
    return {
      encoding: acceptEncoding,
      ms: Math.round(performance.now() - started),
      wireBytes,
      chunks,
      lines: compressed ? null : lines,
      status: res.statusCode ?? 0,
      contentType: res.headers['content-type'],
      contentEncoding: res.headers['content-encoding'],
      rssBeforeMb: mb(before.rss),
      rssPeakMb: mb(peakRss),
      rssGrowthMb: mb(peakRss - before.rss),
      heapBeforeMb: mb(before.heapUsed),
      heapPeakMb: mb(peakHeap),
    };
  } finally {
    clearInterval(sampler);
  }
};

// ---------------------------------------------------------------------------------------------- plans

/** The exact SQL and parameters the products list builds for a page request (captured, not run). */
const listSql = async (businessId: string, req: PageRequest<ProductSort>, filter: ProductFilter = {}) => {
  let captured: { sql: string; params: unknown[] } | undefined;
  const em = {
    execute: async (sql: string, params: unknown[]) => {
      captured = { sql, params };
      return [];
    },
    afterCommit: () => undefined,
  } as unknown as Sql;
  await sqlProducts(em).list(businessId, req, filter);
  let n = 0;
  // the list's SQL holds no literal `?`: each is a binding, numbered as knex does for pg
  return { sql: captured!.sql.replace(/\?/g, () => `$${++n}`), params: captured!.params };
};

interface Plan {
  readonly case: string;
  readonly sql: string;
  readonly params: unknown[];
  readonly plan: string[];
  readonly ok: boolean;
  readonly expect: string;
}

/** EXPLAIN (ANALYZE, BUFFERS); `settings` (planner switches for a what-if plan) hold for this statement only. */
const explain = async (db: pg.Client, name: string, q: { sql: string; params: unknown[] }, expect: RegExp, settings: string[] = []): Promise<Plan> => {
  await db.query('begin');
  let res: pg.QueryResult;
  try {
    for (const s of settings) await db.query(`set local ${s}`);
    res = await db.query(`explain (analyze, buffers) ${q.sql}`, q.params);
  } finally {
    await db.query('rollback');
  }
  const plan = res.rows.map((r: Record<string, string>) => r['QUERY PLAN']!);
  const text = plan.join('\n');
  const ok = expect.test(text) && !/Seq Scan on products/.test(text);
  log(`\n--- ${name}: ${ok ? 'OK' : 'UNEXPECTED PLAN'} (want ${expect}, no Seq Scan on products)${settings.length ? ` [what-if: ${settings.join(', ')}]` : ''}`);
  log(`    ${q.sql}`);
  log(`    params: ${JSON.stringify(q.params)}`);
  for (const line of plan) log(`    ${line}`);
  return { case: name, sql: q.sql, params: q.params, plan, ok, expect: String(expect) };
};

// ---------------------------------------------------------------------------------------------- main

const main = async () => {
  const database = await openDatabase();
  log(`# products at scale on ${database.kind} (${database.url.replace(/\/\/[^@]*@/, '//')}), ${PRODUCTS} products`);
  const app = await createTestApp({ databaseUrl: database.url });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const results: Record<string, unknown> = { database: database.kind, products: PRODUCTS, requests: REQUESTS, node: process.version, cpus: `${cpus().length} x ${cpus()[0]?.model}` };
  log(`  node ${process.version}, ${results.cpus}`);
  try {
    const owner = await registerOwner(app);
    const client = makeClient(app, owner.accessToken);
    const businessId = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
    results.server = (await db.query('select version()')).rows[0].version;

    // ---- seed
    log('\n## seeding');
    const execute = (sql: string) => db.query(sql);
    const seeded = await seedProducts(execute, businessId, PRODUCTS, {
      createdBy: owner.userId,
      onBatch: (done, count) => process.stdout.write(`\r  ${done}/${count}`),
    });
    log(`\r  ${PRODUCTS} products (+ opening ledger rows) in ${(seeded.ms / 1000).toFixed(2)} s`);
    const othersStarted = performance.now();
    let smallToken = '';
    for (let i = 0; i < OTHER_BUSINESSES; i++) {
      const other = await registerOwner(app);
      smallToken ||= other.accessToken;
      const otherId = (await app.request('GET', '/businesses/me', { token: other.accessToken })).body.data.id as string;
      await seedProducts(execute, otherId, OTHER_PRODUCTS, { createdBy: other.userId });
    }
    log(`  ${OTHER_BUSINESSES} x ${OTHER_PRODUCTS} products in other businesses in ${((performance.now() - othersStarted) / 1000).toFixed(2)} s (with sign-up)`);
    const analyzeStarted = performance.now();
    // what autovacuum would have done by now on a live table: statistics, visibility map, hint bits
    await db.query('vacuum analyze products');
    await db.query('vacuum analyze stock_movements');
    const analyzeMs = performance.now() - analyzeStarted;
    log(`  vacuum analyze in ${(analyzeMs / 1000).toFixed(2)} s`);
    const ledger = (
      await db.query(
        `select count(*)::int as products, (select count(*)::int from stock_movements where business_id = $1) as movements,
           count(*) filter (where p.quantity <> coalesce(m.total, 0))::int as unexplained
         from products p left join (select product_id, sum(quantity_change) as total from stock_movements group by product_id) m on m.product_id = p.id
         where p.business_id = $1`,
        [businessId],
      )
    ).rows[0];
    log(`  ledger: ${ledger.products} products, ${ledger.movements} INITIAL rows, ${ledger.unexplained} quantities the ledger does not explain`);
    const sizes = (
      await db.query(
        `select pg_size_pretty(pg_table_size('products')) as table, pg_size_pretty(pg_indexes_size('products')) as indexes,
                pg_size_pretty(pg_relation_size('products_search')) as search_index`,
      )
    ).rows[0];
    log(`  products: table ${sizes.table}, indexes ${sizes.indexes} (trigram ${sizes.search_index})`);
    results.seed = { ms: Math.round(seeded.ms), analyzeMs: Math.round(analyzeMs), ledger, sizes };

    // ---- the search terms, with their hit counts
    const word = 'sardine';
    // a rare SKU fragment: the number part of one SKU (matches that SKU and, rarely, a barcode)
    const someSku = (await db.query('select sku from products where business_id = $1 order by created_at limit 1 offset $2', [businessId, Math.floor(PRODUCTS * 0.54321)]))
      .rows[0].sku as string;
    const skuFragment = someSku.split('-')[1]!;
    const hits = async (term: string) =>
      (await db.query(`select count(*)::int as n from products where business_id = $1 and (name || ' ' || sku || ' ' || coalesce(category, '') || ' ' || coalesce(barcode, '')) ilike $2`, [businessId, `%${term}%`])).rows[0].n as number;
    const category = 'Canned Foods';
    const common = 'chicken'; // in ~5% of names
    const missing = 'sardines'; // in none: its trigrams are rare, so the index answers at once
    const counts = {
      word: { term: word, hits: await hits(word) },
      common: { term: common, hits: await hits(common) },
      sku: { term: skuFragment, hits: await hits(skuFragment) },
      lowStock: (await db.query(`select count(*)::int as n from products where business_id = $1 and type = 'PRODUCT' and low_stock_threshold is not null and quantity <= low_stock_threshold`, [businessId])).rows[0].n,
      category: { name: category, hits: (await db.query('select count(*)::int as n from products where business_id = $1 and lower(category) = lower($2)', [businessId, category])).rows[0].n },
    };
    log(`  search "${word}": ${counts.word.hits} products (${((100 * counts.word.hits) / PRODUCTS).toFixed(2)}%); "${skuFragment}": ${counts.sku.hits}; low stock: ${counts.lowStock}; ${category}: ${counts.category.hits}`);
    results.counts = counts;

    // ---- HTTP
    log(`\n## HTTP, ${REQUESTS} sequential requests a case after ${WARMUP} warm-up (load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})`);
    const timings: Timing[] = [];
    const t = async (name: string, path: string) => void timings.push(await client.time(name, path));
    // the same requests in a business of 1,000 products: what "not slower" is measured against
    const small = makeClient(app, smallToken);
    timings.push(await small.time(`baseline: ${OTHER_PRODUCTS}-product business, first page, limit 20`, '/products?limit=20'));
    timings.push(await small.time(`baseline: ${OTHER_PRODUCTS}-product business, search "${'sardine'}"`, '/products?limit=20&search=sardine'));
    await t('first page, limit 20', '/products?limit=20');
    await t('first page, limit 100', '/products?limit=100');
    const deep: Record<string, { value: string | number; id: string }> = {};
    for (const [name, path] of [
      ['created_at desc', '/products?limit=20'],
      ['name asc', '/products?limit=20&sort_by=name&sort_dir=asc'],
      ['price desc', '/products?limit=20&sort_by=price'],
      ['quantity desc', '/products?limit=20&sort_by=quantity'],
      ['updated_at desc', '/products?limit=20&sort_by=updated_at'],
    ] as const) {
      const cursor = await client.follow(path, DEEP_PAGES);
      deep[name] = decodeCursor(cursor);
      await t(`page ${DEEP_PAGES + 1} (rows ${DEEP_PAGES * 20 + 1}..), ${name}, limit 20`, client.withCursor(path, cursor));
    }
    await t(`search "${word}" (${counts.word.hits} hits), limit 20`, `/products?limit=20&search=${word}`);
    await t(`search "${common}" (${counts.common.hits} hits), limit 20`, `/products?limit=20&search=${common}`);
    await t(`search "${missing}" (no hits), limit 20`, `/products?limit=20&search=${missing}`);
    await t(`search "${skuFragment}" (${counts.sku.hits} hits), limit 20`, `/products?limit=20&search=${skuFragment}`);
    await t('search "ch" (2 letters: no trigram), limit 20', '/products?limit=20&search=ch');
    await t(`low_stock=true (${counts.lowStock} rows), limit 20`, '/products?limit=20&low_stock=true');
    await t(`category=${category} (${counts.category.hits} rows), limit 20`, `/products?limit=20&category=${encodeURIComponent(category)}`);
    const catPath = `/products?limit=20&category=${encodeURIComponent(category)}`;
    const catPages = Math.floor(counts.category.hits / 20 / 2);
    const catCursor = await client.follow(catPath, catPages);
    await t(`category=${category}, page ${catPages + 1}`, client.withCursor(catPath, catCursor));
    const searchPath = `/products?limit=20&search=${word}`;
    const searchPages = Math.floor(counts.word.hits / 20 / 2);
    await t(`search "${word}", page ${searchPages + 1}`, client.withCursor(searchPath, await client.follow(searchPath, searchPages)));

    // the whole catalogue, page after page (limit 100): the last pages cost what the first do
    log('\n  walking every page (limit 100, created_at desc)');
    const walk: number[] = [];
    let cursor: string | null = null;
    const walkStarted = performance.now();
    let rows = 0;
    do {
      const got: Got = await client.get(client.withCursor('/products?limit=100', cursor));
      walk.push(got.ms);
      rows += got.body.data.content.length;
      cursor = got.body.data.cursor;
      if (walk.length % 100 === 0) app.logLines.length = 0;
    } while (cursor);
    const walkMs = performance.now() - walkStarted;
    const firstTen = summarize('walk: first 10% of pages', walk.slice(0, Math.ceil(walk.length / 10)));
    const lastTen = summarize('walk: last 10% of pages', walk.slice(-Math.ceil(walk.length / 10)));
    log(`  ${walk.length} pages, ${rows} rows in ${(walkMs / 1000).toFixed(1)} s; first 10% p50 ${firstTen.p50} ms p95 ${firstTen.p95} ms; last 10% p50 ${lastTen.p50} ms p95 ${lastTen.p95} ms`);
    results.walk = { pages: walk.length, rows, ms: Math.round(walkMs), first: firstTen, last: lastTen };
    log(`  load average after the HTTP cases: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    results.http = timings;

    // ---- export
    const exportRoute = app.routes.find((r) => r.method === 'get' && r.path === '/products/export');
    if (exportRoute) {
      log('\n## GET /products/export');
      const runs: ExportMeasurement[] = [];
      await measureExport(app.baseUrl, owner.accessToken); // warm-up: the first run's allocations are not the export's
      const smallExport = await measureExport(app.baseUrl, smallToken);
      log(`  ${OTHER_PRODUCTS}-product business, identity: ${smallExport.lines} lines in ${smallExport.ms} ms; RSS +${smallExport.rssGrowthMb} MB`);
      results.smallExport = smallExport;
      for (const encoding of ['identity', 'gzip', 'br']) {
        for (let i = 0; i < 3; i++) {
          const m = await measureExport(app.baseUrl, owner.accessToken, encoding);
          app.logLines.length = 0;
          runs.push(m);
          log(
            `  ${encoding.padEnd(8)} ${m.status} ${m.contentEncoding ?? 'identity'}: ${m.lines ?? '?'} lines, ${(m.wireBytes / 1048576).toFixed(2)} MB on the wire in ${m.chunks} chunks, ` +
              `${m.ms} ms; RSS ${m.rssBeforeMb} -> peak ${m.rssPeakMb} MB (+${m.rssGrowthMb}), heap ${m.heapBeforeMb} -> peak ${m.heapPeakMb} MB`,
          );
        }
      }
      results.export = runs;
    } else {
      log('\n## GET /products/export: not in the router yet; measureExport() is ready for it');
      results.export = 'not in the router';
    }

    // ---- plans
    log('\n## plans (EXPLAIN ANALYZE, BUFFERS) of the SQL the list builds');
    const page = (over: Partial<PageRequest<ProductSort>>): PageRequest<ProductSort> => ({ sortBy: 'created_at', sortDir: 'desc', limit: 20, ...over });
    const plans: Plan[] = [];
    const x = async (name: string, req: PageRequest<ProductSort>, expect: RegExp, filter: ProductFilter = {}, settings: string[] = []) =>
      void plans.push(await explain(db, name, await listSql(businessId, req, filter), expect, settings));
    await x('first page, created_at desc', page({}), /Index Scan Backward using products_created/);
    await x(`page ${DEEP_PAGES + 1}, created_at desc`, page({ after: deep['created_at desc']! }), /Index Scan Backward using products_created/);
    await x(`page ${DEEP_PAGES + 1}, name asc`, page({ sortBy: 'name', sortDir: 'asc', after: deep['name asc']! }), /Index Scan using products_name/);
    await x(`page ${DEEP_PAGES + 1}, price desc`, page({ sortBy: 'price', after: deep['price desc']! }), /Index Scan Backward using products_price/);
    // the two keys every sale moves are indexed beside products, not on it (docs/adr/0087)
    await x(`page ${DEEP_PAGES + 1}, quantity desc`, page({ sortBy: 'quantity', after: deep['quantity desc']! }), /Index (Only )?Scan Backward using product_sort_keys_quantity/);
    await x(`page ${DEEP_PAGES + 1}, updated_at desc`, page({ sortBy: 'updated_at', after: deep['updated_at desc']! }), /Index (Only )?Scan Backward using product_sort_keys_updated/);
    // A term in ~1% of names: the planner may walk products_created backwards and filter (about 100 rows a
    // hit page) instead of collecting every hit from the trigram index and sorting them; both are index plans.
    await x(`search "${word}"`, page({ search: word }), /Bitmap Index Scan on products_search|Index Scan Backward using products_created/);
    await x(`search "${common}"`, page({ search: common }), /Bitmap Index Scan on products_search|Index Scan Backward using products_created/);
    await x(`search "${missing}"`, page({ search: missing }), /Bitmap Index Scan on products_search/);
    await x(`search "${skuFragment}"`, page({ search: skuFragment }), /Bitmap Index Scan on products_search/);
    await x('low_stock', page({}), /Index Scan/, { lowStock: true });
    await x(`category ${category}`, page({}), /Index Scan|Bitmap Index Scan/, { category });
    // what-if: the other plan for the same SQL, to show the planner chose the cheaper one
    log('\n## what-if plans (planner switches for one statement): the alternatives the planner did not take');
    await x(`search "${word}", trigram index forced`, page({ search: word }), /Bitmap Index Scan on products_search/, {}, ['enable_indexscan = off']);
    await x(`search "${common}", trigram index forced`, page({ search: common }), /Bitmap Index Scan on products_search/, {}, ['enable_indexscan = off']);
    await x(`search "${missing}", trigram index and seq scan forbidden (every row of the business filtered: the cost of a wrong estimate)`, page({ search: missing }), /Index Scan/, {}, [
      'enable_bitmapscan = off',
      'enable_seqscan = off',
      'max_parallel_workers_per_gather = 0',
    ]);
    results.plans = plans;

    if (JSON_FILE) writeFileSync(JSON_FILE, JSON.stringify(results, null, 2));
    log('\n## summary (ms)');
    log('| case | p50 | p95 | mean | max |');
    log('|---|---:|---:|---:|---:|');
    for (const r of timings) log(`| ${r.case} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.mean.toFixed(1)} | ${r.max.toFixed(1)} |`);
    if (plans.some((p) => !p.ok)) process.exitCode = 1;
  } finally {
    await db.end();
    await app.close();
    await database.cleanup();
  }
};

// run when executed, not when imported (measureExport and seed helpers are reused by other benchmarks)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
