/**
 * The benchmark's baseline (docs/performance.md): a bare Koa handler over a `pg` Pool that runs the
 * same SQL as the API for the endpoints `npm run bench` drives, so the report shows what our layers
 * (token and member check, rate limit, validation, ORM, use cases, envelope) cost on top of it.
 *
 * Same SQL means: the keyset page of products and of sales (`keyset.sql.ts`), the aging
 * report's two statements (`sales.sql.ts`), and a sale in one transaction with the statements
 * `record-sale.ts` runs, in its order (business, the cart's branch or the default, customer check,
 * products, customer lock, one conditional stock statement (the product's lock, the branch's stock
 * upsert, the total) and ledger row a product in id order, the monthly count, the receipt counter, the
 * sale, its lines, the credit entry and balance), so it writes the same rows; and the products page
 * reads each product's stock per branch with the API's query (docs/adr/0032).
 * What it leaves out: no token (every request acts as BUSINESS_ID / USER_ID), no membership lookup,
 * no rate limit, no body codecs, no idempotency, no compression or helmet headers, no request log.
 * Parameters are bound by the driver ($1..), where MikroORM inlines them into the SQL text.
 *
 * Environment: PORT, DATABASE_URL (or PGLITE_DIR: PGlite in this process behind its socket, as the
 * API's embedded default), POOL_MAX (default 10), BUSINESS_ID, USER_ID.
 * One more route, for the harness only: POST /restock {product_id, quantity, branch_id} sets a product's
 * stock at a branch through a ledger row (RESTOCK or CORRECTION), as POST /products/stock-adjustment does.
 */
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import Koa, { type Context } from 'koa';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../adapters/persistence/sql/embedded-postgres.js';

const env = (name: string, fallback?: string): string => {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === '') throw new Error(`${name} is required`);
  return v;
};
const PORT = Number(env('PORT', '0'));
const POOL_MAX = Number(env('POOL_MAX', '10'));
const BUSINESS_ID = env('BUSINESS_ID');
const USER_ID = env('USER_ID');

const PRODUCT_COLUMNS =
  'id, business_id, name, sku, price, cost_price, quantity, category, type, low_stock_threshold, barcode, unit, created_at, updated_at';
const PRODUCT_SEARCH = "(name || ' ' || sku || ' ' || coalesce(category, '') || ' ' || coalesce(barcode, ''))";
const SALE_COLUMNS =
  'id, business_id, branch_id, receipt_number, customer_id, payment_method, subtotal, discount, total, amount_paid, balance_due, status, note, created_by, created_at, voided_at, void_reason, voided_by, credit_outstanding, refund_amount';
/** The columns the API's sales list reads (sales.sql.ts SALE_COLUMNS): the page answers what the API's does. */
const SALE_LIST_COLUMNS = `${SALE_COLUMNS}, amount_tendered, change_due, line_discount_total, device_id, provisional_receipt_number, client_created_at, needs_review`;
const CUSTOMER_COLUMNS = 'id, business_id, name, phone, email, address, notes, credit_limit, credit_balance, created_at, updated_at';
const MOVEMENT_COLUMNS =
  'id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, sale_id, branch_id';
/** The API's stock statement (products.sql.ts changeQuantity): $1 business, $2 product, $3 branch, $4 change, $5 now, $6 MAX_STOCK. */
const CHANGE_STOCK = `with p as (select id, quantity, type from products where business_id = $1 and id = $2 for update),
  s as (insert into product_stock (business_id, product_id, branch_id, quantity, updated_at)
          select $1, p.id, $3, greatest($4::integer, 0), $5 from p where p.type = 'PRODUCT' and p.quantity + $4 <= $6
        on conflict (product_id, branch_id, business_id) do update set quantity = product_stock.quantity + $4, updated_at = excluded.updated_at
          where product_stock.quantity + $4 >= 0
        returning quantity, (xmax = 0) as inserted),
  t as (update products set quantity = products.quantity + $4, updated_at = $5 from s
        where products.id = $2 and ($4::integer >= 0 or not s.inserted) returning products.quantity)
  select s.quantity as branch, s.inserted, t.quantity as total from s left join t on true`;
const MAX_STOCK = 1_000_000_000;
const LAGOS_DAY = "((s.created_at at time zone 'UTC') + interval '1 hour')::date";
const agingSelect = `
  select s.business_id, s.customer_id, min(c.name) as name, min(c.phone) as phone,
    sum(s.credit_outstanding) filter (where $1::date - ${LAGOS_DAY} <= 30) as days_0_30,
    sum(s.credit_outstanding) filter (where $1::date - ${LAGOS_DAY} between 31 and 60) as days_31_60,
    sum(s.credit_outstanding) filter (where $1::date - ${LAGOS_DAY} between 61 and 90) as days_61_90,
    sum(s.credit_outstanding) filter (where $1::date - ${LAGOS_DAY} > 90) as days_over_90,
    sum(s.credit_outstanding) as total, min(s.created_at) as oldest
  from sales s join customers c on c.business_id = s.business_id and c.id = s.customer_id
  where s.business_id = $2 and s.credit_outstanding > 0
  group by s.business_id, s.customer_id`;

const naira = (kobo: unknown) => (kobo === null || kobo === undefined ? null : Number(kobo) / 100);
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : new Date(String(v)).toISOString());

/** The cursor: base64url JSON of the last row's (sort value, id); not signed (the API signs its own). */
const encodeCursor = (v: unknown, i: unknown) => Buffer.from(JSON.stringify({ v, i })).toString('base64url');
const decodeCursor = (c: string) => JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as { v: string; i: string };

class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

/**
 * On PGlite the parameters are written into the SQL text (the simple query protocol, as MikroORM does
 * for the API): PGlite is one backend behind its socket, and the unnamed statements and portals of
 * the extended protocol from concurrent connections overwrite each other ("portal does not exist").
 * On PostgreSQL the driver binds them ($1..), as a bare pg handler would.
 */
const INLINE = Boolean(process.env.PGLITE_DIR);
const literal = (v: unknown): string =>
  v === null || v === undefined ? 'null' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : pg.escapeLiteral(v instanceof Date ? v.toISOString() : String(v));
type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;
const sql = (c: Queryable, text: string, params: unknown[] = []): Promise<pg.QueryResult> =>
  INLINE ? c.query(text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]))) : c.query(text, params);

const main = async () => {
  let embedded: EmbeddedPostgres | undefined;
  if (process.env.PGLITE_DIR) embedded = await startEmbeddedPostgres({ dataDir: process.env.PGLITE_DIR, maxConnections: POOL_MAX + 2 });
  const pool = new pg.Pool({ connectionString: embedded?.url ?? env('DATABASE_URL'), max: POOL_MAX });
  pool.on('error', (e) => console.error(JSON.stringify({ level: 50, msg: 'idle client error', err: e.message })));

  const envelope = (message: string, data: unknown) => ({ success: true, message, data, timestamp: new Date().toISOString() });

  /** One keyset page, newest first: `where tenant = ? [and search] [and (sort, id) < cursor] order by sort desc, id desc limit n+1`. */
  const page = async (ctx: Context, table: string, columns: string, search: string | undefined, map: (r: Record<string, unknown>) => unknown) => {
    const limit = Math.min(100, Math.max(1, Number(ctx.query.limit ?? 20) || 20));
    const where = ['business_id = $1'];
    const params: unknown[] = [BUSINESS_ID];
    const term = typeof ctx.query.search === 'string' ? ctx.query.search : undefined;
    if (term && search) {
      params.push(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(${search} ilike $${params.length} escape '\\')`);
    }
    if (typeof ctx.query.cursor === 'string') {
      const after = decodeCursor(ctx.query.cursor);
      params.push(after.v, after.i);
      where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    params.push(limit + 1);
    const { rows } = await sql(pool, 
      `select ${columns}, created_at as "__sort", id as "__id" from ${table} where ${where.join(' and ')} order by created_at desc, id desc limit $${params.length}`,
      params,
    );
    const hasNext = rows.length > limit;
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    if (table === 'products') await withStock(items);
    ctx.body = envelope(table === 'products' ? 'Products' : 'Sales', {
      content: items.map(map),
      cursor: hasNext && last ? encodeCursor(iso(last.__sort), last.__id) : null,
      has_next: hasNext,
      limit,
    });
  };

  /** Each product's stock at every active branch: the API's query (products.sql.ts stockOf). */
  const withStock = async (products: Record<string, unknown>[]) => {
    const ids = products.filter((p) => p.type === 'PRODUCT').map((p) => p.id);
    const stock = new Map<unknown, unknown[]>();
    if (ids.length > 0) {
      const { rows } = await sql(
        pool,
        `select ps.product_id, b.id as branch_id, b.name as branch_name, ps.quantity
         from branches b left join product_stock ps
           on ps.branch_id = b.id and ps.business_id = b.business_id and ps.product_id in (${ids.map((_, i) => `$${i + 2}`).join(', ')})
         where b.business_id = $1 and b.archived_at is null
         order by b.is_default desc, b.created_at, b.id`,
        [BUSINESS_ID, ...ids],
      );
      const branches = new Map(rows.map((r) => [r.branch_id, r.branch_name]));
      const held = new Map(rows.filter((r) => r.product_id !== null).map((r) => [`${r.product_id}:${r.branch_id}`, Number(r.quantity)]));
      for (const id of ids) stock.set(id, [...branches].map(([branchId, name]) => ({ branch_id: branchId, branch_name: name, quantity: held.get(`${id}:${branchId}`) ?? 0 })));
    }
    for (const p of products) p.stock = stock.get(p.id) ?? [];
  };

  const productJson = (p: Record<string, unknown>) => ({
    id: p.id,
    business_id: p.business_id,
    name: p.name,
    sku: p.sku,
    price: naira(p.price),
    cost_price: naira(p.cost_price),
    quantity: p.quantity,
    stock: p.stock,
    category: p.category,
    type: p.type,
    low_stock_threshold: p.low_stock_threshold,
    is_low_stock: p.type === 'PRODUCT' && p.low_stock_threshold !== null && Number(p.quantity) <= Number(p.low_stock_threshold),
    barcode: p.barcode,
    unit: p.unit,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  });
  /** The API's sale summary, field for field (sales.views.ts saleSummary). */
  const saleJson = (s: Record<string, unknown>) => ({
    id: s.id,
    receipt_number: s.receipt_number,
    subtotal: naira(s.subtotal),
    discount: naira(s.discount),
    line_discount_total: naira(s.line_discount_total ?? 0),
    total: naira(s.total),
    payment_method: s.payment_method,
    amount_paid: naira(s.amount_paid),
    amount_tendered: naira(s.amount_tendered),
    change_due: naira(s.change_due),
    balance_due: naira(s.balance_due),
    customer_id: s.customer_id,
    status: s.status,
    note: s.note,
    created_by: s.created_by,
    branch_id: s.branch_id,
    created_at: iso(s.created_at),
    voided_at: iso(s.voided_at),
    void_reason: s.void_reason,
    credit_outstanding: naira(s.credit_outstanding),
    refund_amount: naira(s.refund_amount),
    provisional_receipt_number: s.provisional_receipt_number ?? null,
    device_id: s.device_id ?? null,
    client_created_at: iso(s.client_created_at),
    needs_review: s.needs_review ?? false,
  });

  const aging = async (ctx: Context) => {
    const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
    const limit = 20;
    const { rows } = await sql(pool, 
      `select customer_id, name, phone, days_0_30, days_31_60, days_61_90, days_over_90, total, oldest, total as "__sort", customer_id as "__id"
       from (${agingSelect}) aging where business_id = $2 order by total desc, customer_id desc limit $3`,
      [today, BUSINESS_ID, limit + 1],
    );
    const totals = (
      await sql(pool, 
        `select count(*) as customers, sum(days_0_30) as days_0_30, sum(days_31_60) as days_31_60, sum(days_61_90) as days_61_90,
         sum(days_over_90) as days_over_90, sum(total) as total from (${agingSelect}) aging`,
        [today, BUSINESS_ID],
      )
    ).rows[0]!;
    const items = rows.slice(0, limit);
    ctx.body = envelope('Aging report', {
      content: items.map((r) => ({
        customer_id: r.customer_id,
        name: r.name,
        phone: r.phone,
        days_0_30: naira(r.days_0_30 ?? 0),
        days_31_60: naira(r.days_31_60 ?? 0),
        days_61_90: naira(r.days_61_90 ?? 0),
        days_over_90: naira(r.days_over_90 ?? 0),
        total: naira(r.total),
        oldest_unpaid_at: iso(r.oldest),
      })),
      cursor: rows.length > limit ? encodeCursor(String(items[limit - 1]!.__sort), items[limit - 1]!.__id) : null,
      has_next: rows.length > limit,
      limit,
      as_of: today,
      totals: {
        customers: Number(totals.customers),
        total: naira(totals.total ?? 0),
        days_0_30: naira(totals.days_0_30 ?? 0),
        days_31_60: naira(totals.days_31_60 ?? 0),
        days_61_90: naira(totals.days_61_90 ?? 0),
        days_over_90: naira(totals.days_over_90 ?? 0),
      },
    });
  };

  interface Cart {
    items: { product_id: string; quantity: number }[];
    payment_method: 'CASH' | 'TRANSFER' | 'CARD' | 'CREDIT';
    customer_id?: string;
    branch_id?: string;
  }

  /** A sale: the statements of record-sale.ts, in its order, in one transaction. */
  const recordSale = async (cart: Cart) => {
    const client = await pool.connect();
    const now = new Date();
    try {
      await sql(client, 'begin');
      const done = async <T>(v: T): Promise<T> => {
        await sql(client, 'commit');
        return v;
      };
      const fail = async (e: HttpError): Promise<never> => {
        await sql(client, 'rollback');
        throw e;
      };
      const business = (await sql(client, 'select * from businesses where id = $1 limit 1', [BUSINESS_ID])).rows[0];
      if (!business) throw new Error('no business');
      const branch = cart.branch_id
        ? (await sql(client, 'select * from branches where business_id = $1 and id = $2 and archived_at is null for key share', [BUSINESS_ID, cart.branch_id])).rows[0]
        : (await sql(client, 'select * from branches where business_id = $1 and is_default = true and archived_at is null limit 1', [BUSINESS_ID])).rows[0];
      if (!branch) return fail(new HttpError(422, 'UNKNOWN_BRANCH', 'unknown branch'));
      if (cart.customer_id && (await sql(client, 'select 1 from customers where business_id = $1 and id = $2', [BUSINESS_ID, cart.customer_id])).rowCount === 0) {
        return fail(new HttpError(422, 'UNKNOWN_CUSTOMER', 'no such customer'));
      }
      const ids = [...new Set(cart.items.map((i) => i.product_id))];
      const products = new Map(
        (
          await sql(client, `select ${PRODUCT_COLUMNS} from products where business_id = $1 and id in (${ids.map((_, i) => `$${i + 2}`).join(', ')})`, [
            BUSINESS_ID,
            ...ids,
          ])
        ).rows.map((p) => [
          String(p.id),
          p,
        ]),
      );
      if (cart.items.some((i) => !products.has(i.product_id))) return fail(new HttpError(422, 'UNKNOWN_PRODUCT', 'unknown product'));
      const lines = cart.items.map((i) => {
        const p = products.get(i.product_id)!;
        const unitPrice = Number(p.price);
        return { p, quantity: i.quantity, unitPrice, lineTotal: unitPrice * i.quantity };
      });
      const total = lines.reduce((n, l) => n + l.lineTotal, 0);
      const paid = cart.payment_method === 'CREDIT' ? 0 : total;
      if (cart.payment_method === 'CREDIT' && !cart.customer_id) return fail(new HttpError(422, 'CUSTOMER_REQUIRED', 'customer required'));
      const customer = cart.customer_id
        ? (await sql(client, `select ${CUSTOMER_COLUMNS} from customers where business_id = $1 and id = $2 for update`, [BUSINESS_ID, cart.customer_id])).rows[0]
        : undefined;
      if (customer && customer.credit_limit !== null && Number(customer.credit_balance) + (total - paid) > Number(customer.credit_limit)) {
        return fail(new HttpError(422, 'CREDIT_LIMIT_EXCEEDED', 'credit limit exceeded'));
      }
      const saleId = randomUUID();
      const wanted = new Map<string, number>();
      for (const l of lines) if (l.p.type === 'PRODUCT') wanted.set(String(l.p.id), (wanted.get(String(l.p.id)) ?? 0) + l.quantity);
      for (const productId of [...wanted.keys()].sort()) {
        const q = wanted.get(productId)!;
        const moved = await sql(client, CHANGE_STOCK, [BUSINESS_ID, productId, branch.id, -q, now, MAX_STOCK]);
        if (moved.rows[0]?.total === null || moved.rows[0]?.total === undefined) {
          const current = (
            await sql(
              client,
              `select p.quantity as total, coalesce((select quantity from product_stock where product_id = p.id and branch_id = $1), 0) as branch
               from products p where p.business_id = $2 and p.id = $3`,
              [branch.id, BUSINESS_ID, productId],
            )
          ).rows[0];
          return fail(new HttpError(409, 'INSUFFICIENT_STOCK', `only ${current?.branch} available at ${branch.name}`));
        }
        const after = Number(moved.rows[0].branch);
        await sql(client, `insert into stock_movements (${MOVEMENT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [
          randomUUID(), BUSINESS_ID, productId, -q, after + q, after, 'SALE', null, null, USER_ID, now, saleId, branch.id,
        ]);
      }
      // The API's order: the stock events in the outbox, then (FREE plan only) the month's counter,
      // the lines, and the receipt counter with the sale in one statement right before the commit.
      const outbox = (type: string, payload: unknown) =>
        sql(client, 'insert into outbox (id, type, business_id, payload, occurred_at, next_attempt_at) values ($1, $2, $3, $4::jsonb, $5, $6)', [
          randomUUID(), type, BUSINESS_ID, JSON.stringify(payload), now, new Date(now.getTime() + 5000),
        ]);
      if (wanted.size > 0) await outbox('StockChanged', { saleId, products: [...wanted.keys()] });
      if (business.plan === 'FREE') {
        const month = new Date(now.getTime() + 3_600_000).toISOString().slice(0, 7);
        const count = (
          await sql(client,
            `insert into monthly_sale_counts (business_id, month, count) values ($1, $2, 1)
             on conflict (business_id, month) do update set count = monthly_sale_counts.count + 1 returning count`,
            [BUSINESS_ID, month],
          )
        ).rows[0].count;
        if (Number(count) > 50) return fail(new HttpError(402, 'PLAN_LIMIT_EXCEEDED', 'plan limit'));
      }
      const costOfGoods = lines.reduce((n, l) => n + (l.p.cost_price === null ? 0 : Number(l.p.cost_price) * l.quantity), 0);
      const sale = {
        id: saleId, business_id: BUSINESS_ID, branch_id: branch.id, receipt_number: '', customer_id: cart.customer_id ?? null,
        payment_method: cart.payment_method, subtotal: total, discount: 0, total, amount_paid: paid, balance_due: total - paid, status: 'COMPLETED',
        note: null, created_by: USER_ID, created_at: now, voided_at: null, void_reason: null, voided_by: null,
        credit_outstanding: customer ? total - paid : 0, refund_amount: null,
      };
      // the sale's tenders (as the API writes them, docs/adr/0055), in the lines' statement
      const paidTender = paid > 0 ? [[cart.payment_method === 'CREDIT' ? 'CASH' : cart.payment_method, paid]] : [];
      const owedTender = total > paid ? [['CREDIT', total - paid]] : [];
      const tenders = [...paidTender, ...owedTender].length > 0 ? [...paidTender, ...owedTender] : [[cart.payment_method, 0]];
      const t = tenders.length * 5;
      await sql(client,
        `with tenders as (insert into sale_payments (business_id, sale_id, position, method, amount) values ${tenders
          .map((_, i) => `(${Array.from({ length: 5 }, (_, j) => `$${i * 5 + j + 1}`).join(', ')})`)
          .join(', ')})
         insert into sale_items (sale_id, position, business_id, product_id, name, sku, quantity, unit_price, discount, line_total, cost_price) values ${lines
          .map((_, i) => `(${Array.from({ length: 11 }, (_, j) => `$${t + i * 11 + j + 1}`).join(', ')})`)
          .join(', ')}`,
        [
          ...tenders.flatMap(([method, amount], i) => [BUSINESS_ID, saleId, i, method, amount]),
          ...lines.flatMap((l, i) => [saleId, i, BUSINESS_ID, l.p.id, l.p.name, l.p.sku, l.quantity, l.unitPrice, 0, l.lineTotal, l.p.cost_price]),
        ],
      );
      const { receipt_number: receiptNumber } = (
        await sql(client,
          `with counter as (
             insert into receipt_counters (business_id, value) values ($1, 1)
             on conflict (business_id) do update set value = receipt_counters.value + 1 returning value
           )
           insert into sales (${SALE_COLUMNS}, cost_of_goods)
           select $2, $1, $3, 'RCP-' || lpad(counter.value::text, greatest(6, length(counter.value::text)), '0'),
             $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20
           from counter returning receipt_number`,
          [BUSINESS_ID, saleId, branch.id, sale.customer_id, sale.payment_method, sale.subtotal, sale.discount, sale.total, sale.amount_paid, sale.balance_due,
            sale.status, sale.note, sale.created_by, sale.created_at, sale.voided_at, sale.void_reason, sale.voided_by, sale.credit_outstanding, sale.refund_amount, costOfGoods],
        )
      ).rows[0] as { receipt_number: string };
      sale.receipt_number = receiptNumber;
      if (customer) {
        const balanceAfter = Number(customer.credit_balance) + (total - paid);
        await sql(client, 
          'insert into credit_entries (id, business_id, customer_id, kind, amount, balance_after, sale_id, method, note, created_by, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
          [randomUUID(), BUSINESS_ID, customer.id, 'SALE', total - paid, balanceAfter, saleId, null, receiptNumber, USER_ID, now],
        );
        if (total - paid > 0) {
          await sql(client, 'update customers set credit_balance = $1, updated_at = $2 where business_id = $3 and id = $4', [balanceAfter, now, BUSINESS_ID, customer.id]);
        }
      }
      await outbox('SaleRecorded', { saleId, receiptNumber });
      return done({
        ...saleJson(sale),
        items: lines.map((l) => ({
          product_id: l.p.id, name: l.p.name, sku: l.p.sku, quantity: l.quantity, unit_price: naira(l.unitPrice), discount: 0,
          line_total: naira(l.lineTotal), cost_price: naira(l.p.cost_price),
        })),
      });
    } catch (e) {
      if (!(e instanceof HttpError)) await sql(client, 'rollback').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  };

  /** Harness only: sets a product's stock at a branch to `quantity` through one ledger row. */
  const restock = async (productId: string, quantity: number, branchId: string) => {
    const client = await pool.connect();
    try {
      await sql(client, 'begin');
      const held = await sql(client, CHANGE_STOCK, [BUSINESS_ID, productId, branchId, 0, new Date(), MAX_STOCK]);
      const current = Number(held.rows[0].branch);
      if (current !== quantity) {
        const moved = await sql(client, CHANGE_STOCK, [BUSINESS_ID, productId, branchId, quantity - current, new Date(), MAX_STOCK]);
        if (moved.rows[0]?.total === null || moved.rows[0]?.total === undefined) throw new Error('restock refused');
        await sql(client, `insert into stock_movements (${MOVEMENT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), null, $11)`, [
          randomUUID(), BUSINESS_ID, productId, quantity - current, current, quantity, quantity > current ? 'RESTOCK' : 'CORRECTION', 'bench', null, USER_ID, branchId,
        ]);
      }
      await sql(client, 'commit');
      return { before: current, after: quantity };
    } catch (e) {
      await sql(client, 'rollback').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  };

  const readJson = async (ctx: Context): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const c of ctx.req) chunks.push(c as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  };

  const app = new Koa();
  app.use(async (ctx) => {
    try {
      const path = ctx.path.replace(/^\/api\/v1/, '');
      if (ctx.method === 'GET' && path === '/products') return await page(ctx, 'products', PRODUCT_COLUMNS, PRODUCT_SEARCH, productJson);
      if (ctx.method === 'GET' && path === '/sales') return await page(ctx, 'sales', SALE_LIST_COLUMNS, 'receipt_number', saleJson);
      if (ctx.method === 'GET' && path === '/credit/aging-report') return await aging(ctx);
      if (ctx.method === 'POST' && path === '/sales') {
        const sale = await recordSale((await readJson(ctx)) as Cart);
        ctx.status = 201;
        ctx.body = envelope('Sale recorded', sale);
        return;
      }
      if (ctx.method === 'POST' && path === '/restock') {
        const b = (await readJson(ctx)) as { product_id: string; quantity: number; branch_id: string };
        ctx.body = envelope('Restocked', await restock(b.product_id, b.quantity, b.branch_id));
        return;
      }
      if (ctx.method === 'GET' && path === '/health') {
        await sql(pool, 'select 1');
        ctx.body = envelope('UP', {});
        return;
      }
      ctx.status = 404;
      ctx.body = { success: false, message: 'no route' };
    } catch (e) {
      if (e instanceof HttpError) {
        ctx.status = e.status;
        ctx.body = { success: false, message: e.message, error: { code: e.code } };
        return;
      }
      console.error(JSON.stringify({ level: 50, msg: 'unexpected fault', err: e instanceof Error ? e.message : String(e) }));
      ctx.status = 500;
      ctx.body = { success: false, message: 'internal' };
    }
  });

  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(PORT, '127.0.0.1', resolve));
  const address = server.address();
  console.log(JSON.stringify({ msg: 'baseline listening', port: typeof address === 'object' && address ? address.port : PORT }));

  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await pool.end();
    await embedded?.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
