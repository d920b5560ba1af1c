/**
 * PostgreSQL's own ceiling for the hot scenarios (issue 37, docs/performance.md): pgbench running the
 * statements the API sends for a products page and for a cash sale's whole transaction, prepared, on
 * as many connections as the API's pool, so the bench can print API / pgbench.
 *
 * The sale's writes are the adapters' own texts, imported (the stock statement, the ledger rows, the lines,
 * the receipt counter with the sale, the outbox rows); the reads are short and copied here, as the baseline
 * copies them. Each `?` becomes a pgbench variable, which `-M prepared` binds as a parameter, as the API
 * does; the sale is numbered in its COMMIT's write, as the API numbers a cash sale (docs/adr/0084). What
 * pgbench adds: one statement
 * a sale that picks its cart from bench_pgbench_carts and draws its UUIDs (pgbench has no arrays and
 * no UUIDs of its own). What it leaves out: carts with a customer (20% of the API's random carts, the
 * dearer ones), so the ceiling is if anything high. Its outbox rows are written with next_attempt_at
 * 'infinity' (the API's relay leaves them alone) and deleted after the pass; its sales are real sales
 * (receipt numbers from the same counter), so the bench's stock and ledger checks cover them too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECEIPT_AT_COMMIT } from '../adapters/persistence/sql/numbered-at-commit.js';
import { outboxInsertSql } from '../adapters/persistence/sql/outbox.sql.js';
import { PRODUCT_COLUMNS, STOCK_CHANGE } from '../adapters/persistence/sql/products.sql.js';
import { numberedSaleSql, saleLinesSql } from '../adapters/persistence/sql/sales.sql.js';
import { INSERT_MOVEMENTS } from '../adapters/persistence/sql/stock-ledger.sql.js';

export interface PgbenchDb {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
}

/** `?` → `:name`, in order: the adapter's text with pgbench's variables. */
const bind = (sql: string, names: readonly string[]): string => {
  let i = 0;
  const out = sql.replace(/\?/g, () => {
    const name = names[i++];
    if (!name) throw new Error(`more ? than names in ${sql.slice(0, 60)}`);
    return name === 'null' ? 'null' : `:${name}`; // pgbench has no NULL variable: the API's null values are written in
  });
  if (i !== names.length) throw new Error(`${names.length} names for ${i} ? in ${sql.slice(0, 60)}`);
  return out.replace(/\s+/g, ' ').trim(); // pgbench takes one line a statement
};


/** GET /products page 1: the page (products.sql.ts, keyset) and its stock by branch. */
export const pageScript = (ids: number): string =>
  [
    bind(`select ${PRODUCT_COLUMNS}, created_at as "__sort", id as "__id" from products where business_id = ? and archived_at is null order by created_at desc, id desc limit ?`, ['b', 'limit']),
    bind(
      `select ps.product_id, b.id as branch_id, b.name as branch_name, ps.quantity
       from branches b left join product_stock ps
         on ps.branch_id = b.id and ps.business_id = b.business_id and ps.product_id in (${Array.from({ length: ids }, () => '?').join(', ')})
       where b.business_id = ? and b.archived_at is null
       order by b.is_default desc, b.created_at, b.id`,
      [...Array.from({ length: ids }, (_, i) => `p${i + 1}`), 'b'],
    ),
  ].join(';\n') + ';\n';

/**
 * A cash sale of `lines` products with no customer, the API's statements in its order (record-sale.ts):
 * the reads, the stock of every line in one statement, the ledger rows, the lines with the tenders, the
 * receipt counter with the sale, the outbox rows, COMMIT. Rolled back (as the API does) when a line lacks stock.
 */
export const saleScript = (lines: number, cartsOfThisSize: number, table = 'bench_pgbench_carts'): string => {
  const n = Array.from({ length: lines }, (_, i) => i + 1);
  const uuids = (prefix: string) => n.map((i) => `gen_random_uuid() as ${prefix}${i}`).join(', ');
  const statements = [
    `\\set c random(1, ${cartsOfThisSize})`,
    // pgbench's own: the cart and the values the API makes in JavaScript
    `select x.sale_id, array_fill(x.sale_id, array[${lines}])::text as sale_ids, x.now, array_fill(x.now, array[${lines}])::text as nows, ` +
      `array[${n.map(() => 'gen_random_uuid()').join(', ')}]::text as mids, gen_random_uuid() as o0, ${uuids('o')}, c.* ` +
      `from (select gen_random_uuid() as sale_id, clock_timestamp() as now) x, ${table} c where c.lines = ${lines} and c.n = :c \\gset`,
    'begin;',
    `${bind('select id, name, phone, email, address, category, logo_url, plan, currency, timezone, created_at, updated_at, vat_registered, tin, vat_rate, prices_include_vat, payment_terms_days, bank_name, account_number, account_name, invoice_footer from businesses where id = ?', ['b'])};`,
    `${bind('select b.id as business_id, m.partner_id, m.joined_at from businesses b left join partner_merchants m on m.business_id = b.id where b.id = ?', ['b'])};`,
    `${bind('select id, business_id, name, address, phone, is_default, archived_at, created_at, updated_at from branches where business_id = ? and id = ? and archived_at is null for key share', ['b', 'branch'])};`,
    `${bind(`select ${PRODUCT_COLUMNS} from products where business_id = ? and ${lines === 1 ? 'id = ?' : `id in (${n.map(() => '?').join(', ')})`}`, ['b', ...n.map((i) => `p${i}`)])};`,
    // products.sql.ts changeQuantities; its last SELECT gives the rows as one (moved, and the quantities for the ledger)
    bind(
      `${STOCK_CHANGE}
       select count(t.id) as moved, array_agg(s.quantity - (select w.change from w where w.product_id = s.product_id) order by s.product_id)::text as befores,
         array_agg(s.quantity order by s.product_id)::text as afters from s left join t on t.id = s.product_id`,
      ['ids', 'changes', 'b', 'b', 'branch', 'zero', 'now', 'max_stock', 'zero', 'now', 'b', 'false'],
    ) + ' \\gset',
    `\\if :moved = ${lines}`,
    // stock-ledger.sql.ts
    `${bind(
      INSERT_MOVEMENTS,
      ['mids', 'bs', 'ids', 'changes', 'befores', 'afters', 'reasons', 'nulls', 'costs', 'users', 'nows', 'sale_ids', 'branches', 'nulls'],
    )};`,
    // sales.sql.ts addNumberedAtCommit: the lines with the tender; then, with the COMMIT, the counter with the sale and the outbox rows
    `${bind(
      saleLinesSql(1, lines),
      ['b', 'sale_id', 'zero', 'method', 'total', ...n.flatMap((i) => ['sale_id', `pos${i}`, 'b', `p${i}`, `name${i}`, `sku${i}`, `q${i}`, `price${i}`, 'zero', `line${i}`, `cost${i}`, 'null', 'zero', 'null'])],
    )};`,
    `${bind(
      numberedSaleSql(true),
      ['b', 'sale_id', 'b', 'branch', 'null', 'method', 'total', 'zero', 'total', 'total', 'zero', 'completed', 'null', 'user', 'now', 'null', 'null', 'null', 'zero', 'null', 'null', 'null', 'zero', 'null', 'null', 'null', 'false', 'zero', 'null', 'cogs'],
    )};`,
    // outbox.sql.ts: SaleRecorded and a StockChanged a line, one statement
    `${bind(
      outboxInsertSql([true, ...n.map(() => false)]), // the SaleRecorded row carries the placeholder
      [0, ...n].flatMap((i) => [`o${i}`, i === 0 ? 'sale_type' : 'stock_type', 'b', i === 0 ? 'sale_payload' : `stock_payload${i}`, 'now', 'never', 'null']),
    )};`,
    'commit;',
    '\\else',
    'rollback;',
    '\\endif',
  ];
  return `${statements.join('\n')}\n`;
};

/**
 * The carts pgbench sells, made from the API scenario's own (same products, 1 to 3 lines, 1 or 2 of
 * each, at one of the branches): each row has what the API would compute for it in JavaScript.
 */
export const prepareCarts = async (
  db: PgbenchDb,
  table: 'bench_pgbench_carts' | 'bench_pgbench_hot',
  businessId: string,
  userId: string,
  carts: { productIds: string[]; quantities: number[]; branchId: string }[],
): Promise<Map<number, number>> => {
  const ids = [...new Set(carts.flatMap((c) => c.productIds))];
  const products = new Map(
    (await db.query<{ id: string; name: string; sku: string; price: string; cost_price: string | null }>('select id, name, sku, price, cost_price from products where business_id = $1 and id = any($2::uuid[])', [businessId, ids])).map((p) => [p.id, p]),
  );
  const array = (xs: readonly (string | number | null)[]) => `{${xs.map((x) => (x === null ? 'NULL' : String(x))).join(',')}}`;
  const numbered = new Map<number, number>();
  const rows = carts.map((c) => {
    const lines = c.productIds.map((id, i) => {
      const p = products.get(id);
      if (!p) throw new Error(`product ${id} is not the business's`);
      return { id, q: c.quantities[i]!, name: p.name, sku: p.sku, price: Number(p.price), cost: Number(p.cost_price ?? 0) };
    });
    const byId = [...lines].sort((a, b) => (a.id < b.id ? -1 : 1)); // the stock statement's order
    const n = (numbered.get(lines.length) ?? 0) + 1;
    numbered.set(lines.length, n);
    const total = lines.reduce((t, l) => t + l.price * l.q, 0);
    const row: Record<string, unknown> = {
      n, lines: lines.length, branch: c.branchId,
      bs: array(lines.map(() => businessId)), users: array(lines.map(() => userId)), reasons: array(lines.map(() => 'SALE')),
      nulls: array(lines.map(() => null)), branches: array(lines.map(() => c.branchId)),
      ids: array(byId.map((l) => l.id)), changes: array(byId.map((l) => -l.q)), costs: array(byId.map((l) => l.cost)),
      total, cogs: lines.reduce((t, l) => t + l.cost * l.q, 0),
      sale_payload: JSON.stringify({
        _tag: 'SaleRecorded', lines: lines.map((l) => ({ name: l.name, discount: 0, quantity: l.q, lineTotal: l.price * l.q, productId: l.id })),
        total, branchId: c.branchId, businessId, paymentMethod: 'CASH', receiptNumber: RECEIPT_AT_COMMIT,
      }),
    };
    lines.forEach((l, i) => {
      Object.assign(row, {
        [`p${i + 1}`]: l.id, [`name${i + 1}`]: l.name, [`sku${i + 1}`]: l.sku, [`q${i + 1}`]: l.q, [`price${i + 1}`]: l.price, [`line${i + 1}`]: l.price * l.q,
        [`cost${i + 1}`]: l.cost, [`pos${i + 1}`]: i,
        [`stock_payload${i + 1}`]: JSON.stringify({ _tag: 'StockChanged', change: -l.q, reason: 'SALE', branchId: c.branchId, productId: l.id, businessId, quantityAfter: 0, branchQuantityAfter: 0 }),
      });
    });
    return row;
  });
  const perLine = [1, 2, 3].map((i) => `p${i} text, name${i} text, sku${i} text, q${i} int, price${i} bigint, line${i} bigint, cost${i} bigint, pos${i} int, stock_payload${i} text`).join(', ');
  await db.query(`drop table if exists ${table}`);
  await db.query(
    `create table ${table} (n int, lines int, branch text, bs text, users text, reasons text, nulls text, branches text, ids text, changes text, costs text,
       total bigint, cogs bigint, sale_payload text, ${perLine})`,
  );
  await db.query(`insert into ${table} select * from jsonb_populate_recordset(null::${table}, $1::jsonb)`, [JSON.stringify(rows)]);
  await db.query(`create index on ${table} (lines, n)`);
  await db.query(`analyze ${table}`);
  return numbered;
};

export interface PgbenchResult {
  readonly tps: number;
  readonly transactions: number;
  readonly seconds: number;
  readonly failed: number;
  readonly output: string;
}

/**
 * Runs pgbench (`-n -M prepared`, `clients` connections, 2 threads) on `scripts` (text, weight) for
 * `seconds`, or `transactions` a client; variables from `vars` (-D). Answers its tps as pgbench counts it
 * (without the initial connection time).
 */
export const runPgbench = (
  url: string,
  scripts: { text: string; weight: number }[],
  options: { clients: number; seconds?: number; transactions?: number; vars: Record<string, string | number> },
): Promise<PgbenchResult> => {
  const dir = mkdtempSync(join(tmpdir(), 'bizops-pgbench-'));
  const files = scripts.map((s, i) => {
    const file = join(dir, `script-${i}.sql`);
    writeFileSync(file, s.text);
    return `${file}@${s.weight}`;
  });
  const args = [
    '-n', '-M', 'prepared', '-c', String(options.clients), '-j', '2',
    ...(options.transactions ? ['-t', String(options.transactions)] : ['-T', String(options.seconds ?? 5)]),
    ...Object.entries(options.vars).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
    ...files.flatMap((f) => ['-f', f]),
    url,
  ];
  return new Promise((resolve, reject) => {
    execFile('pgbench', args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      const output = `${stdout}${stderr}`;
      if (err) return reject(new Error(`pgbench failed: ${err.message}\n${output.slice(-2000)}`));
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
      const processed = /number of transactions actually processed: (\d+)/.exec(output);
      const failed = /number of failed transactions: (\d+)/.exec(output);
      const duration = /duration: (\d+) s/.exec(output);
      if (!tps || !processed) return reject(new Error(`pgbench said no tps:\n${output.slice(-2000)}`));
      resolve({ tps: Number(tps[1]), transactions: Number(processed[1]), seconds: duration ? Number(duration[1]) : 0, failed: failed ? Number(failed[1]) : 0, output });
    });
  });
};
