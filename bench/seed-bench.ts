/**
 * The benchmark's data set (`npm run bench`, docs/performance.md), written with set-based SQL into
 * the migrated schema, in one transaction:
 *
 * - one large business on plan PRO: its owner (a real, verified user who signs in through the API),
 *   the default branch, 100,000 products (bench/seed-products.ts), 5,000 customers created over the
 *   last 200 days, and 200,000 sales over the last 200 days with their lines, the SALE stock
 *   movements (quantity before/after chained per product), the monthly counters, the receipt counter
 *   (RCP-000001.. and the counter at the last number), and the credit ledger: credit sales, one
 *   payment a paying customer allocated oldest debt first, `credit_outstanding` of every sale, and
 *   `customers.credit_balance` = the sum of the customer's entries; and a year of expenses
 *   (EXPENSES_PER_YEAR over the last 365 Lagos days, today included, in its 11 default categories, mixed
 *   payment methods, ~1.5% soft-deleted);
 * - 100 small businesses, each with an owner, a default branch and 24 to 60 products;
 * - every business has the 11 default expense categories registration gives (domain/expense.ts).
 *
 * The products' quantities at the default branch stay what seed-products gave them: the INITIAL ledger
 * row of a product that was sold is raised by what it sold, so `INITIAL - sold = quantity` holds for
 * every product there. The large business has a second branch, Lekki, holding as many units of every
 * stocked product again (its own INITIAL row): products.quantity is the total of the two (docs/adr/0032).
 *
 * A row in `bench_seed` (written last, in the same transaction) marks a complete seed; `readSeed`
 * finds it, so a later run reuses the data. Works on PostgreSQL and on PGlite.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_EXPENSE_CATEGORIES } from '../domain/expense.js';
import { seedProducts } from './seed-products.js';

/** Runs one statement (no parameters) and returns its rows. */
export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

/** 2: expenses and the default expense categories (issue 13). 4: stock per branch and a second branch, Lekki (issue 17).
 * 5: credit allocations carry business_id (the tenant keys of issue 20). */
export const SEED_VERSION = 6;

export interface SeedSize {
  readonly products: number;
  readonly sales: number;
  readonly customers: number;
  readonly smallBusinesses: number;
}

export const FULL_SIZE: SeedSize = { products: 100_000, sales: 200_000, customers: 5_000, smallBusinesses: 100 };
/** `--history` (issue 37): ten times the sales at the same rate a day, so over ten times the days. */
export const HISTORY_SIZE: SeedSize = { ...FULL_SIZE, sales: 2_000_000 };

export interface Seed {
  readonly version: number;
  readonly businessId: string;
  readonly ownerUserId: string;
  readonly ownerPhone: string;
  readonly branchId: string;
  readonly seededAt: Date;
  readonly seedMs: number;
  readonly size: SeedSize;
}

export const LARGE_OWNER_PHONE = '+2348090000000';
const DAY_MS = 86_400_000;
const SALES_SPAN_DAYS = 200;
/** The days the sales of `size` are spread over: 200 for the full size, the same 1,000 a day for any other. */
export const salesSpanDays = (size: SeedSize): number => Math.max(1, Math.round((SALES_SPAN_DAYS * size.sales) / FULL_SIZE.sales));
/** Expenses of the large business over the last 365 Lagos days. */
export const EXPENSES_PER_YEAR = 20_000;
const EXPENSE_DAYS = 365;

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** A deterministic 0..2^32-1 from a row number and a salt (as in seed-products). */
const h = (expr: string, salt: string) => `(hashtext(${expr}::text || ':${salt}')::bigint + 2147483648)`;

const FIRST_NAMES = [
  'Adaeze', 'Chinedu', 'Ngozi', 'Emeka', 'Funmilayo', 'Tunde', 'Aisha', 'Ibrahim', 'Yetunde', 'Olumide', 'Chiamaka', 'Babajide',
  'Halima', 'Musa', 'Ifeoma', 'Segun', 'Zainab', 'Kelechi', 'Bukola', 'Uche', 'Amina', 'Femi', 'Nneka', 'Obinna', 'Temitope',
  'Sani', 'Blessing', 'Godwin', 'Folake', 'Chukwuma',
];
const LAST_NAMES = [
  'Okafor', 'Adeyemi', 'Bello', 'Eze', 'Okonkwo', 'Abubakar', 'Ogunleye', 'Nwosu', 'Balogun', 'Ibe', 'Danjuma', 'Olawale',
  'Chukwu', 'Lawal', 'Onyeka', 'Adebayo', 'Yusuf', 'Obi', 'Salami', 'Nnamdi', 'Akande', 'Umeh', 'Garba', 'Ojo', 'Afolabi',
];

/** The seed in the database, or undefined when there is none (or an older version, or another size). */
export const readSeed = async (query: Query, size: SeedSize): Promise<Seed | undefined> => {
  const exists = await query("select to_regclass('public.bench_seed') is not null as ok");
  if (!exists[0]?.ok) return undefined;
  const rows = await query('select * from bench_seed order by seeded_at desc limit 1');
  const r = rows[0];
  if (!r || Number(r.version) !== SEED_VERSION) return undefined;
  const got: SeedSize = { products: Number(r.products), sales: Number(r.sales), customers: Number(r.customers), smallBusinesses: Number(r.small_businesses) };
  if (JSON.stringify(got) !== JSON.stringify(size)) return undefined;
  const business = await query(`select 1 from businesses where id = ${lit(String(r.business_id))}`);
  if (business.length === 0) return undefined;
  return {
    version: SEED_VERSION,
    businessId: String(r.business_id),
    ownerUserId: String(r.owner_user_id),
    ownerPhone: String(r.owner_phone),
    branchId: String(r.branch_id),
    seededAt: new Date(String(r.seeded_at)),
    seedMs: Number(r.seed_ms),
    size: got,
  };
};

/** A business with its owner (ACTIVE, verified), default branch, membership and default expense categories. */
const businessSql = (o: { businessId: string; userId: string; branchId: string; phone: string; name: string; plan: string; first: string; last: string; createdAt: string }) => `
insert into users (id, phone, email, first_name, last_name, verified_at, created_at, updated_at)
  values (${lit(o.userId)}, ${lit(o.phone)}, null, ${lit(o.first)}, ${lit(o.last)}, ${o.createdAt}, ${o.createdAt}, ${o.createdAt});
insert into businesses (id, name, phone, email, address, category, logo_url, plan, currency, timezone, created_at, updated_at)
  values (${lit(o.businessId)}, ${lit(o.name)}, ${lit(o.phone)}, null, 'Lagos', 'Retail', null, ${lit(o.plan)}, 'NGN', 'Africa/Lagos', ${o.createdAt}, ${o.createdAt});
insert into branches (id, business_id, name, address, phone, is_default, archived_at, created_at, updated_at)
  values (${lit(o.branchId)}, ${lit(o.businessId)}, 'Main branch', 'Lagos', null, true, null, ${o.createdAt}, ${o.createdAt});
insert into memberships (id, business_id, user_id, role, branch_id, status, created_at, updated_at)
  values (${lit(randomUUID())}, ${lit(o.businessId)}, ${lit(o.userId)}, 'BUSINESS_OWNER', null, 'ACTIVE', ${o.createdAt}, ${o.createdAt});
insert into expense_categories (id, business_id, name, is_default, created_at, updated_at)
  select gen_random_uuid(), ${lit(o.businessId)}, d.name, true, ${o.createdAt}, ${o.createdAt}
  from unnest(array[${DEFAULT_EXPENSE_CATEGORIES.map(lit).join(', ')}]) as d (name)`;

export interface SeedProgress {
  (step: string, ms: number): void;
}

/**
 * Seeds everything into an empty, migrated schema (the caller wipes and migrates first), in one
 * transaction, then ANALYZE. `query` runs one statement (several separated by `;` are fine on pg).
 */
export const seedBench = async (query: Query, size: SeedSize, progress: SeedProgress = () => undefined): Promise<Seed> => {
  const started = performance.now();
  let stepStarted = started;
  const step = (name: string) => {
    const now = performance.now();
    progress(name, now - stepStarted);
    stepStarted = now;
  };
  const nowMs = Math.floor(Date.now() / 1000) * 1000 - 60_000; // the newest seeded sale: a minute before the seed
  const spanMs = salesSpanDays(size) * DAY_MS;
  const saleStep = Math.floor(spanMs / size.sales);
  const customerStep = Math.floor(spanMs / size.customers);
  const startMs = nowMs - spanMs;
  const ts = (msExpr: string) => `date_trunc('milliseconds', to_timestamp((${msExpr})::double precision / 1000))`;
  const at = (ms: number) => `${ts(String(ms))}`;

  const L = randomUUID();
  const owner = randomUUID();
  const branch = randomUUID();
  const lb = lit(L);
  const lu = lit(owner);

  await query('begin');
  try {
    await query(
      businessSql({ businessId: L, userId: owner, branchId: branch, phone: LARGE_OWNER_PHONE, name: 'Mama Nkechi Superstores', plan: 'PRO', first: 'Nkechi', last: 'Okafor', createdAt: at(startMs - 220 * DAY_MS) }),
    );
    // Products were created 400 to 200 days ago: before every seeded sale.
    await seedProducts((sql) => query(sql), L, size.products, { createdBy: owner, now: new Date(startMs - DAY_MS), spanDays: 200 });
    step(`${size.products.toLocaleString('en')} products with their INITIAL ledger rows`);

    // Customers: created one after another over the last 200 days (customer j at start + j*step).
    await query(`
insert into customers (id, business_id, name, phone, email, address, notes, credit_limit, credit_balance, created_at, updated_at)
select gen_random_uuid(), ${lb}::uuid,
  (array[${FIRST_NAMES.map(lit).join(', ')}])[(1 + ${h('j', 'first')} % ${FIRST_NAMES.length})::int] || ' ' ||
  (array[${LAST_NAMES.map(lit).join(', ')}])[(1 + ${h('j', 'last')} % ${LAST_NAMES.length})::int],
  '+234802' || lpad(j::text, 7, '0'), null, null, null, null, 0,
  ${ts(`${startMs} + j * ${customerStep}::bigint`)}, ${ts(`${startMs} + j * ${customerStep}::bigint`)}
from generate_series(0, ${size.customers - 1}) as j`);
    await query(`create temp table b_cust on commit drop as
      select (row_number() over (order by created_at, id) - 1)::int as j, id from customers where business_id = ${lb}::uuid`);
    await query('create unique index on b_cust (j)');
    await query(`create temp table b_pp on commit drop as
      select row_number() over (order by id)::int as rn, id, name, sku, price, cost_price, quantity, created_at
      from products where business_id = ${lb}::uuid and type = 'PRODUCT'`);
    await query('create unique index on b_pp (rn)');
    const pp = Number((await query('select count(*) as n from b_pp'))[0]!.n);
    if (pp < 4000) throw new Error(`too few stocked products to seed sales (${pp})`);
    step(`${size.customers.toLocaleString('en')} customers`);

    // Sales: k = 1..N, at start + k*step; a customer only among those created by then.
    // Payment: 55% CASH, 25% TRANSFER, 8% CARD, 12% CREDIT (30% of those pay half at the till);
    // 15% of the others name a customer too (a paid sale in the customer's ledger, amount 0).
    await query(`create temp table b_sales on commit drop as
select k, gen_random_uuid() as id,
  ${ts(`${startMs} + k * ${saleStep}::bigint`)} as created_at,
  case when p < 55 then 'CASH' when p < 80 then 'TRANSFER' when p < 88 then 'CARD' else 'CREDIT' end as method,
  case when p >= 88 or ${h('k', 'withcust')} % 100 < 15
       then ${h('k', 'cust')} % (1 + (k::bigint * ${size.customers} / ${size.sales})) end as cust_j,
  p >= 88 and ${h('k', 'partial')} % 10 < 3 as pays_half,
  1 + ${h('k', 'lines')} % 3 as n_lines
from (select k, ${h('k', 'pay')} % 100 as p from generate_series(1, ${size.sales}) as k) s`);
    await query('create unique index on b_sales (k)');
    // Lines: 1-3 distinct products a sale (offsets 0, g, 2g from a random product), 1-3 units each.
    await query(`create temp table b_lines on commit drop as
select s.k, s.id as sale_id, s.created_at, pos, pp.id as product_id, pp.name, pp.sku, pp.price, pp.cost_price,
  (1 + ${h("s.k || '.' || pos", 'qty')} % 3)::int as qty
from b_sales s
cross join lateral generate_series(0, s.n_lines - 1) as pos
join b_pp pp on pp.rn = 1 + ((${h('s.k', 'prod')} + pos * (1 + ${h('s.k', 'gap')} % 1000)) % ${pp})`);
    await query(`create temp table b_totals on commit drop as
      select k, sum(price * qty)::bigint as subtotal, sum(coalesce(cost_price, 0) * qty)::bigint as cost from b_lines group by k`);
    await query('create unique index on b_totals (k)');
    step('sales and lines planned');

    // Every seeded sale is on a day that is over: the day totals' trigger (docs/adr/0086) would mark days of an
    // empty table stale, once a row. Off for this insert; the bench rolls the days up after the seed. (A table
    // with foreign-key checks still pending cannot be altered: they run first.)
    const salesTrigger = (state: 'enable' | 'disable') =>
      query(`set constraints all immediate; alter table sales ${state} trigger sales_day_stale_insert; set constraints all deferred`);
    await salesTrigger('disable');
    await query(`
insert into sales (id, business_id, branch_id, receipt_number, customer_id, payment_method, subtotal, discount, total, amount_paid,
  balance_due, status, note, created_by, created_at, voided_at, void_reason, voided_by, credit_outstanding, refund_amount, cost_of_goods)
select s.id, ${lb}::uuid, ${lit(branch)}::uuid, 'RCP-' || lpad(s.k::text, greatest(6, length(s.k::text)), '0'), c.id, s.method, t.subtotal, 0, t.subtotal,
  x.paid, t.subtotal - x.paid, 'COMPLETED', null, ${lu}::uuid, s.created_at, null, null, null,
  case when c.id is null then 0 else t.subtotal - x.paid end, null, t.cost
from b_sales s
join b_totals t on t.k = s.k
left join b_cust c on c.j = s.cust_j
cross join lateral (select case when s.method <> 'CREDIT' then t.subtotal when s.pays_half then t.subtotal / 2 else 0 end as paid) x
order by s.k`);
    await salesTrigger('enable');
    // their tenders, by the migration's rule (docs/adr/0055): what was paid by the method (a CREDIT deposit as CASH), then CREDIT
    await query(`
insert into sale_payments (business_id, sale_id, position, method, amount)
select business_id, id, 0, case when payment_method = 'CREDIT' then 'CASH' else payment_method end, amount_paid from sales where business_id = ${lb}::uuid and amount_paid > 0
union all
select business_id, id, case when amount_paid > 0 then 1 else 0 end, 'CREDIT', total - amount_paid from sales where business_id = ${lb}::uuid and total > amount_paid`);
    step(`${size.sales.toLocaleString('en')} sales`);
    await query(`
insert into sale_items (sale_id, position, business_id, product_id, name, sku, quantity, unit_price, discount, line_total, cost_price)
select sale_id, pos, ${lb}::uuid, product_id, name, sku, qty, price, 0, price * qty, cost_price from b_lines order by k, pos`);
    step('sale items');

    // Stock: the opening row of every sold product is raised by what it sold (a product opened at 0
    // gets one), then one SALE row a line, quantity before/after chained per product in sale order.
    await query(`create temp table b_sold on commit drop as select product_id, sum(qty)::int as sold from b_lines group by product_id`);
    await query(`update stock_movements m set quantity_change = m.quantity_change + s.sold, quantity_after = m.quantity_after + s.sold
      from b_sold s where m.business_id = ${lb}::uuid and m.product_id = s.product_id and m.reason = 'INITIAL'`);
    await query(`
insert into stock_movements (id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, branch_id)
select gen_random_uuid(), ${lb}::uuid, p.id, s.sold, 0, s.sold, 'INITIAL', null, p.cost_price, ${lu}::uuid, p.created_at, ${lit(branch)}::uuid
from b_sold s join b_pp p on p.id = s.product_id where p.quantity = 0`);
    await query(`
insert into stock_movements (id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, sale_id, branch_id)
select gen_random_uuid(), ${lb}::uuid, l.product_id, -l.qty,
  p.quantity + s.sold - c.cum + l.qty, p.quantity + s.sold - c.cum, 'SALE', null, null, ${lu}::uuid, l.created_at, l.sale_id, ${lit(branch)}::uuid
from (select product_id, k, pos, sum(qty) over (partition by product_id order by k, pos rows unbounded preceding) as cum from b_lines) c
join b_lines l on l.k = c.k and l.pos = c.pos
join b_sold s on s.product_id = l.product_id
join b_pp p on p.id = l.product_id
order by l.k, l.pos`);
    step('stock movements of the sales');

    // A second branch, Lekki, opened with as many units of every stocked product as the default branch holds.
    const lekki = randomUUID();
    await query(`insert into branches (id, business_id, name, address, phone, is_default, archived_at, created_at, updated_at)
      values (${lit(lekki)}, ${lb}::uuid, 'Lekki', 'Lekki Phase 1', null, false, null, ${at(startMs - 210 * DAY_MS)}, ${at(startMs - 210 * DAY_MS)})`);
    await query(`create temp table b_lekki on commit drop as
      select id, quantity as q, cost_price, created_at from products where business_id = ${lb}::uuid and type = 'PRODUCT' and quantity > 0`);
    await query(`insert into product_stock (business_id, product_id, branch_id, quantity, updated_at)
      select ${lb}::uuid, id, ${lit(lekki)}::uuid, q, created_at from b_lekki`);
    await query(`update products p set quantity = p.quantity + l.q from b_lekki l where p.id = l.id`);
    await query(`
insert into stock_movements (id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, branch_id)
select gen_random_uuid(), ${lb}::uuid, id, q, 0, q, 'INITIAL', null, cost_price, ${lu}::uuid, created_at, ${lit(lekki)}::uuid from b_lekki`);
    step('the Lekki branch and its stock');

    await query(`
insert into monthly_sale_counts (business_id, month, count)
select ${lb}::uuid, to_char((created_at at time zone 'UTC') + interval '1 hour', 'YYYY-MM'), count(*) from b_sales group by 2`);
    await query(`insert into receipt_counters (business_id, value) values (${lb}::uuid, ${size.sales})`);

    // Credit: each customer who bought on credit may have paid once, 5 to 44 days ago, a part of the
    // debts made before that day (40% all of it, 30% half, 30% nothing), oldest debt first.
    await query(`create temp table b_debts on commit drop as
select s.id as sale_id, s.customer_id, s.created_at, s.balance_due as balance
from sales s where s.business_id = ${lb}::uuid and s.customer_id is not null and s.balance_due > 0`);
    await query(`create temp table b_pay on commit drop as
select c.id as customer_id, gen_random_uuid() as payment_id,
  ${ts(`${nowMs} - (5 + ${h('c.j', 'paywhen')} % 40) * ${DAY_MS}::bigint`)} as paid_at,
  ${h('c.j', 'payshare')} % 10 as share
from b_cust c where exists (select 1 from b_debts d where d.customer_id = c.id)`);
    await query(`create temp table b_alloc on commit drop as
with eligible as (
  select d.*, p.payment_id, p.paid_at, p.share,
    sum(d.balance) over (partition by d.customer_id order by d.created_at, d.sale_id rows unbounded preceding) as cum,
    sum(d.balance) over (partition by d.customer_id) as owed_before
  from b_debts d join b_pay p on p.customer_id = d.customer_id
  where d.created_at < p.paid_at and p.share < 7
),
amounts as (
  select *, case when share < 4 then owed_before else floor(owed_before / 2) end as paying from eligible
)
select sale_id, customer_id, payment_id, paid_at, paying, greatest(0, least(balance, paying - (cum - balance))) as amount from amounts`);
    await query(`update sales s set credit_outstanding = s.credit_outstanding - a.amount
      from b_alloc a where s.business_id = ${lb}::uuid and s.id = a.sale_id and a.amount > 0`);
    await query(`
insert into credit_allocations (payment_id, sale_id, business_id, amount) select payment_id, sale_id, ${lb}::uuid, amount from b_alloc where amount > 0`);
    // The ledger: a SALE entry for every sale to a customer (its unpaid part), a PAYMENT entry for
    // each payment, balance_after running per customer in time order.
    await query(`
insert into credit_entries (id, business_id, customer_id, kind, amount, balance_after, sale_id, method, note, created_by, created_at)
select id, ${lb}::uuid, customer_id, kind, amount,
  sum(amount) over (partition by customer_id order by created_at, seq, id rows unbounded preceding), sale_id, method, note, ${lu}::uuid, created_at
from (
  select gen_random_uuid() as id, s.customer_id, 'SALE' as kind, s.balance_due as amount, s.id as sale_id, null as method,
    s.receipt_number as note, s.created_at, 0 as seq
  from sales s where s.business_id = ${lb}::uuid and s.customer_id is not null
  union all
  select payment_id, customer_id, 'PAYMENT', -sum(amount), null, 'CASH', null, min(paid_at), 1
  from b_alloc group by payment_id, customer_id having sum(amount) > 0
) e`);
    await query(`update customers c set credit_balance = e.balance from (
      select customer_id, sum(amount) as balance from credit_entries where business_id = ${lb}::uuid group by customer_id) e
      where c.business_id = ${lb}::uuid and c.id = e.customer_id`);
    step('credit ledger, payments and allocations');

    // Expenses: expense j (1..N) on Lagos day today - (364 - floor((j-1) * 365 / N)), so every one of the
    // last 365 Lagos days (today included) has 54 or 55; entered that day between 07:00 and 19:00 Lagos
    // (never after the seed's clock). Category: one of the 11 defaults, Stock purchase, Transport and
    // Fuel and generator more often (8, 10 and 2 in name order); payment 45% CASH, 30% TRANSFER, 12% POS,
    // 8% CARD, 5% OTHER; 1.5% deleted an hour after they were entered.
    await query(`create temp table b_excat on commit drop as
      select (row_number() over (order by name) - 1)::int as c, id, name from expense_categories where business_id = ${lb}::uuid`);
    const lagosToday = `(${ts(String(nowMs))} at time zone 'Africa/Lagos')::date`;
    await query(`
insert into expenses (id, business_id, branch_id, category_id, amount, description, vendor, payment_method, spent_on, reference,
  created_by, created_at, updated_at, deleted_at, deleted_by)
select gen_random_uuid(), ${lb}::uuid, ${lit(branch)}::uuid, c.id, e.amount, c.name || ' #' || e.j,
  case when ${h('e.j', 'vendor')} % 3 = 0 then null else (array['Ikeja Market', 'NEPA office', 'Total filling station', 'GIG Logistics', 'Landlord', 'Dangote depot'])[(1 + ${h('e.j', 'vname')} % 6)::int] end,
  e.method, e.spent_on, case when e.method = 'TRANSFER' then 'TRF-' || lpad(e.j::text, 6, '0') end,
  ${lu}::uuid, e.created_at, e.created_at,
  case when e.deleted then e.created_at + interval '1 hour' end, case when e.deleted then ${lu}::uuid end
from (
  select j, spent_on,
    least(${ts(String(nowMs))}, (spent_on + time '07:00' + (${h('j', 'exmin')} % 720) * interval '1 minute') at time zone 'Africa/Lagos') as created_at,
    (100 + ${h('j', 'examount')} % 49901) * 100 as amount,
    case when p < 45 then 'CASH' when p < 75 then 'TRANSFER' when p < 87 then 'POS' when p < 95 then 'CARD' else 'OTHER' end as method,
    ${h('j', 'exdel')} % 1000 < 15 as deleted,
    case when q < 11 then q else (array[8, 8, 10, 10, 2])[(q - 10)::int] end as cat
  from (
    select j, ${lagosToday} - (${EXPENSE_DAYS - 1} - ((j - 1) * ${EXPENSE_DAYS} / ${EXPENSES_PER_YEAR}))::int as spent_on,
      ${h('j', 'expay')} % 100 as p, ${h('j', 'excat')} % 16 as q
    from generate_series(1, ${EXPENSES_PER_YEAR}) as j
  ) x
) e
join b_excat c on c.c = e.cat`);
    step(`${EXPENSES_PER_YEAR.toLocaleString('en')} expenses over ${EXPENSE_DAYS} Lagos days`);

    // 100 small businesses: an owner, a branch, 24 to 60 products each.
    for (let i = 1; i <= size.smallBusinesses; i++) {
      const biz = randomUUID();
      const user = randomUUID();
      await query(
        businessSql({
          businessId: biz,
          userId: user,
          branchId: randomUUID(),
          phone: `+23480910${String(i).padStart(5, '0')}`,
          name: `Small Shop ${i}`,
          plan: i % 3 === 0 ? 'STARTER' : 'FREE',
          first: FIRST_NAMES[i % FIRST_NAMES.length]!,
          last: LAST_NAMES[i % LAST_NAMES.length]!,
          createdAt: at(startMs - (i % 90) * DAY_MS),
        }),
      );
      await seedProducts((sql) => query(sql), biz, 24 + ((i * 37) % 37), { createdBy: user, now: new Date(startMs + i * DAY_MS), spanDays: 60 });
    }
    step(`${size.smallBusinesses} small businesses`);

    const seedMs = Math.round(performance.now() - started);
    await query(`create table bench_seed (version int not null, business_id uuid not null, owner_user_id uuid not null, owner_phone text not null,
      branch_id uuid not null, products int not null, sales int not null, customers int not null, small_businesses int not null,
      seeded_at timestamptz not null, seed_ms int not null)`);
    await query(`insert into bench_seed values (${SEED_VERSION}, ${lb}, ${lu}, ${lit(LARGE_OWNER_PHONE)}, ${lit(branch)}, ${size.products}, ${size.sales},
      ${size.customers}, ${size.smallBusinesses}, now(), ${seedMs})`);
    await query('commit');
  } catch (e) {
    await query('rollback').catch(() => undefined);
    throw e;
  }
  await query('vacuum analyze');
  step('vacuum analyze');
  await query(`update bench_seed set seed_ms = ${Math.round(performance.now() - started)}`); // with the vacuum
  return {
    version: SEED_VERSION,
    businessId: L,
    ownerUserId: owner,
    ownerPhone: LARGE_OWNER_PHONE,
    branchId: branch,
    seededAt: new Date(),
    seedMs: Math.round(performance.now() - started),
    size,
  };
};

/** Invariants of the seed, as numbers a run prints (and docs/performance.md quotes). */
export const checkSeed = async (query: Query, businessId: string): Promise<string[]> => {
  const b = lit(businessId);
  const problems: string[] = [];
  const one = async (sql: string) => Number((await query(sql))[0]?.n ?? 0);
  const stockDrift = await one(`select count(*) as n from products p left join (
      select product_id, sum(quantity_change) as q from stock_movements where business_id = ${b} group by product_id) m on m.product_id = p.id
    where p.business_id = ${b} and p.type = 'PRODUCT' and p.quantity <> coalesce(m.q, 0)`);
  if (stockDrift > 0) problems.push(`${stockDrift} products whose ledger does not sum to their quantity`);
  const branchDrift = await one(`select count(*) as n from product_stock s left join (
      select product_id, branch_id, sum(quantity_change) as q from stock_movements where business_id = ${b} group by product_id, branch_id) m
      on m.product_id = s.product_id and m.branch_id = s.branch_id
    where s.business_id = ${b} and s.quantity <> coalesce(m.q, 0)`);
  if (branchDrift > 0) problems.push(`${branchDrift} branch stocks whose ledger does not sum to them`);
  const totalDrift = await one(`select count(*) as n from products p left join (select product_id, sum(quantity) as q from product_stock where business_id = ${b} group by product_id) s
      on s.product_id = p.id where p.business_id = ${b} and p.type = 'PRODUCT' and p.quantity <> coalesce(s.q, 0)`);
  if (totalDrift > 0) problems.push(`${totalDrift} products whose quantity is not the sum of their branches`);
  const sortKeyDrift = await one(`select count(*) as n from products p left join product_sort_keys k on k.business_id = p.business_id and k.product_id = p.id
    where p.business_id = ${b} and (k.product_id is null or k.quantity_sort <> p.quantity or k.updated_sort <> p.updated_at)`);
  if (sortKeyDrift > 0) problems.push(`${sortKeyDrift} products whose sort keys (docs/adr/0087) are not their quantity and updated_at`);
  const balanceDrift = await one(`select count(*) as n from customers c left join (
      select customer_id, sum(amount) as s from credit_entries where business_id = ${b} group by customer_id) e on e.customer_id = c.id
    where c.business_id = ${b} and c.credit_balance <> coalesce(e.s, 0)`);
  if (balanceDrift > 0) problems.push(`${balanceDrift} customers whose balance is not the sum of their entries`);
  const outstandingDrift = await one(`select count(*) as n from customers c left join (
      select customer_id, sum(credit_outstanding) as s from sales where business_id = ${b} and customer_id is not null group by customer_id) o on o.customer_id = c.id
    where c.business_id = ${b} and c.credit_balance <> coalesce(o.s, 0)`);
  if (outstandingDrift > 0) problems.push(`${outstandingDrift} customers whose balance is not what their sales still owe`);
  const counter = await one(`select (select value from receipt_counters where business_id = ${b}) - (select max(substring(receipt_number from 5)::int) from sales where business_id = ${b}) as n`);
  if (counter !== 0) problems.push(`the receipt counter is ${counter} off the last receipt number`);
  return problems;
};
