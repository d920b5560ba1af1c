/**
 * Bulk product seeding for benchmarks: set-based SQL (`insert ... select ... from generate_series`),
 * one statement a batch, so 100,000 products take seconds on PostgreSQL (docs/adr/0010).
 *
 * The rows are what the app itself would write: unique SKUs (ignoring case), integer kobo prices from
 * ₦50 to ₦250,000, millisecond timestamps (the keyset cursor compares them exactly), and an opening
 * stock-ledger row of reason INITIAL for every product with stock, so the ledger sums to each quantity
 * (a product opened with 0 gets no row, like `addProduct`: the ledger refuses a zero change).
 *
 * Values come from a hash of the row number (`hashtext`), not `random()`: the same call seeds the
 * same catalogue, so benchmark runs compare. Works on PostgreSQL and on PGlite.
 *
 * `execute` runs one SQL statement without parameters: `(sql) => em.execute(sql)`,
 * `(sql) => client.query(sql)` (pg), `(sql) => pglite.exec(sql)`. The SQL holds no `?`, so knex-based
 * executors do not mistake anything for a binding.
 */

export type Execute = (sql: string) => Promise<unknown>;

export interface SeedProductsOptions {
  /** Row numbers start after this (SKUs are numbered): seed the same business twice with distinct offsets. Default 0. */
  readonly offset?: number;
  /** Products a statement (default 10,000). */
  readonly batchSize?: number;
  /** The newest product's created_at (default: now, to the millisecond). */
  readonly now?: Date;
  /** created_at spreads evenly over this many days before `now` (default 365). */
  readonly spanDays?: number;
  /** The ledger rows' created_by (default null: written by the system). */
  readonly createdBy?: string | null;
  /** Called after each batch. */
  readonly onBatch?: (done: number, count: number) => void;
}

export interface SeedResult {
  readonly products: number;
  readonly ms: number;
}

/** A catalogue line: brand + item, sold in sizes; price range in whole naira. */
interface Line {
  readonly brand: string;
  readonly item: string;
  readonly category: string;
  readonly unit: string;
  readonly sizes: readonly string[];
  readonly lo: number;
  readonly hi: number;
  readonly service?: boolean;
}

const l = (brand: string, item: string, category: string, unit: string, sizes: string, lo: number, hi: number, service = false): Line => ({
  brand,
  item,
  category,
  unit,
  sizes: sizes.split('|'),
  lo,
  hi,
  service,
});

/**
 * 100 lines in 30 categories. A line is picked uniformly, so every line's words are in about 1% of
 * names (the benchmark searches "Sardine", only in the Titus line).
 */
export const CATALOGUE: readonly Line[] = [
  l('Indomie', 'Chicken', 'Noodles & Pasta', 'pack', '70g|120g|Hungry Man 200g', 100, 450),
  l('Indomie', 'Onion Chicken', 'Noodles & Pasta', 'pack', '70g|120g', 100, 400),
  l('Golden Penny', 'Spaghetti', 'Noodles & Pasta', 'pack', '500g|1kg', 700, 1800),
  l('Dangote', 'Macaroni', 'Noodles & Pasta', 'pack', '500g|1kg', 650, 1700),
  l('Tummy Tummy', 'Noodles', 'Noodles & Pasta', 'carton', '40 x 70g|40 x 120g', 6500, 16000),
  l('Peak', 'Milk', 'Dairy', 'tin', '400g|170g|Refill 380g', 600, 4500),
  l('Peak', 'Evaporated Milk', 'Dairy', 'tin', '160g|410g', 400, 1200),
  l('Dano', 'Full Cream Milk', 'Dairy', 'pack', '360g|750g|Refill 400g', 900, 6500),
  l('Cowbell', 'Milk Sachet', 'Dairy', 'sachet', '14g|20g|Pack of 10', 50, 1500),
  l('Hollandia', 'Yoghurt', 'Dairy', 'bottle', '315ml|1L', 500, 2800),
  l('Milo', 'Chocolate Drink', 'Beverages', 'tin', '400g|500g|Refill 900g', 1500, 9000),
  l('Bournvita', 'Food Drink', 'Beverages', 'tin', '400g|500g|900g', 1500, 8500),
  l('Ovaltine', 'Malted Drink', 'Beverages', 'tin', '400g|800g', 1400, 7000),
  l('Chivita', 'Orange Juice', 'Beverages', 'pack', '315ml|1L', 400, 2500),
  l('Coca-Cola', 'Coke', 'Soft Drinks', 'bottle', '35cl|50cl|1.5L|Crate 24', 200, 9000),
  l('Fanta', 'Orange', 'Soft Drinks', 'bottle', '35cl|50cl|1.5L', 200, 1200),
  l('Sprite', 'Lemon Lime', 'Soft Drinks', 'bottle', '35cl|50cl|1.5L', 200, 1200),
  l('Pepsi', 'Cola', 'Soft Drinks', 'bottle', '35cl|50cl|1L', 200, 1000),
  l('Malta Guinness', 'Malt', 'Malt Drinks', 'can', '33cl|Pack of 6|Crate 24', 400, 12000),
  l('Maltina', 'Malt Drink', 'Malt Drinks', 'can', '33cl|Pack of 6', 400, 3000),
  l('Amstel Malta', 'Malt', 'Malt Drinks', 'bottle', '33cl|Pack of 6', 400, 3000),
  l('Eva', 'Table Water', 'Water', 'bottle', '75cl|1.5L|Pack of 12', 150, 2500),
  l('Nestle Pure Life', 'Water', 'Water', 'bottle', '60cl|1.5L|Pack of 12', 150, 2500),
  l('Aquafina', 'Water', 'Water', 'bottle', '50cl|75cl', 150, 500),
  l('Golden Penny', 'Semovita', 'Grains & Flour', 'bag', '1kg|2kg|10kg', 1200, 16000),
  l('Honeywell', 'Wheat Meal', 'Grains & Flour', 'bag', '1kg|2kg|5kg', 1300, 9000),
  l('Dangote', 'Flour', 'Grains & Flour', 'bag', '2kg|10kg|50kg', 2000, 65000),
  l('Ijebu', 'Garri', 'Grains & Flour', 'bag', '1kg|5kg|Paint Bucket', 800, 9000),
  l('Mama Gold', 'Rice', 'Rice & Beans', 'bag', '5kg|10kg|25kg|50kg', 8000, 95000),
  l('Royal Stallion', 'Rice', 'Rice & Beans', 'bag', '5kg|25kg|50kg', 8000, 95000),
  l('Ofada', 'Local Rice', 'Rice & Beans', 'bag', '1kg|5kg|Paint Bucket', 1800, 14000),
  l('Oloyin', 'Honey Beans', 'Rice & Beans', 'bag', '1kg|Paint Bucket|50kg', 1800, 120000),
  l('Power Oil', 'Vegetable Oil', 'Cooking Oil', 'bottle', '75cl|1.4L|3L|5L', 1500, 18000),
  l('Kings', 'Vegetable Oil', 'Cooking Oil', 'bottle', '75cl|2L|5L|25L', 1500, 70000),
  l('Mamador', 'Pure Vegetable Oil', 'Cooking Oil', 'bottle', '90cl|1.8L|4.5L', 1800, 16000),
  l('Devon King\'s', 'Palm Oil', 'Cooking Oil', 'bottle', '1L|4L|25L', 1700, 60000),
  l('Maggi', 'Star Cubes', 'Seasoning & Spices', 'pack', '4g|Pack of 50|Pack of 100', 50, 2500),
  l('Knorr', 'Chicken Cubes', 'Seasoning & Spices', 'pack', '8g|Pack of 50|Pack of 100', 50, 3000),
  l('Onga', 'Classic Seasoning', 'Seasoning & Spices', 'pack', '10g|Pack of 50', 50, 2500),
  l('Mr Chef', 'Curry Powder', 'Seasoning & Spices', 'tin', '10g|50g|100g', 100, 1500),
  l('Dangote', 'Salt', 'Seasoning & Spices', 'bag', '250g|500g|1kg', 200, 900),
  l('Gino', 'Tomato Paste', 'Canned Foods', 'tin', '70g|210g|400g|Sachet 65g', 100, 1800),
  l('Tasty Tom', 'Tomato Mix', 'Canned Foods', 'sachet', '65g|Pack of 50', 100, 4500),
  l('Titus', 'Sardine', 'Canned Foods', 'tin', '125g|Pack of 5', 800, 4500),
  l('Geisha', 'Mackerel', 'Canned Foods', 'tin', '155g|425g', 700, 2500),
  l('Heinz', 'Baked Beans', 'Canned Foods', 'tin', '415g', 1200, 2200),
  l('Gala', 'Sausage Roll', 'Snacks & Biscuits', 'piece', 'Regular|Big Gala', 100, 300),
  l('Digestive', 'Biscuits', 'Snacks & Biscuits', 'pack', '250g|400g', 600, 1500),
  l('Cabin', 'Biscuit', 'Snacks & Biscuits', 'pack', '100g|Carton 24', 100, 4500),
  l('Pringles', 'Original Crisps', 'Snacks & Biscuits', 'can', '40g|165g', 800, 4000),
  l('Plantain', 'Chips', 'Snacks & Biscuits', 'pack', '50g|150g', 200, 800),
  l('Tom Tom', 'Mint Sweet', 'Confectionery', 'pack', 'Roll|Jar 100', 50, 2500),
  l('Cadbury', 'Chocolate Bar', 'Confectionery', 'bar', '40g|90g', 500, 2000),
  l('Trebor', 'Peppermint', 'Confectionery', 'pack', 'Roll|Jar 50', 50, 2200),
  l('Kellogg\'s', 'Corn Flakes', 'Breakfast Cereals', 'box', '350g|500g|750g', 1500, 6500),
  l('Quaker', 'Oats', 'Breakfast Cereals', 'tin', '500g|1kg', 1800, 5500),
  l('Nasco', 'Cornflakes', 'Breakfast Cereals', 'box', '350g|500g', 1200, 3500),
  l('Lipton', 'Yellow Label Tea', 'Tea & Coffee', 'box', '25 bags|50 bags|100 bags', 600, 4000),
  l('Nescafe', 'Classic Coffee', 'Tea & Coffee', 'jar', '50g|100g|200g', 1200, 9000),
  l('Top Tea', 'Green Tea', 'Tea & Coffee', 'box', '20 bags|50 bags', 500, 2500),
  l('Butterfield', 'Sliced Bread', 'Bakery', 'loaf', 'Small|Family Size', 900, 2200),
  l('UAC', 'Gala Chicken Pie', 'Bakery', 'piece', 'Regular', 500, 1500),
  l('Chi', 'Frozen Chicken', 'Frozen Foods', 'kg', '1kg|Carton 10kg', 3500, 45000),
  l('Ocean Fresh', 'Frozen Fish', 'Frozen Foods', 'kg', '1kg|Carton 20kg', 3000, 70000),
  l('Lux', 'Beauty Soap', 'Toiletries', 'bar', '70g|150g|Pack of 3', 300, 2500),
  l('Dettol', 'Antiseptic Soap', 'Toiletries', 'bar', '70g|175g|Liquid 500ml', 400, 4500),
  l('Close-Up', 'Toothpaste', 'Toiletries', 'tube', '70g|140g', 500, 2200),
  l('Pepsodent', 'Toothpaste', 'Toiletries', 'tube', '70g|140g|Toothbrush Combo', 450, 2500),
  l('Omo', 'Detergent', 'Detergents', 'pack', '400g|900g|2kg', 700, 7500),
  l('Ariel', 'Washing Powder', 'Detergents', 'pack', '500g|1kg|2kg', 900, 9000),
  l('Morning Fresh', 'Dishwashing Liquid', 'Household Cleaning', 'bottle', '400ml|900ml|4L', 800, 9500),
  l('Hypo', 'Bleach', 'Household Cleaning', 'bottle', '500ml|2L', 500, 2500),
  l('Harpic', 'Toilet Cleaner', 'Household Cleaning', 'bottle', '500ml|1L', 1200, 3500),
  l('Mortein', 'Insecticide', 'Household Cleaning', 'can', '300ml|600ml', 1500, 4500),
  l('Molfix', 'Diapers', 'Baby Care', 'pack', 'Size 3 x 34|Size 4 x 30|Size 5 x 28', 5500, 16000),
  l('Pampers', 'Baby Wipes', 'Baby Care', 'pack', '64|Pack of 3', 1800, 6500),
  l('Cerelac', 'Wheat Baby Food', 'Baby Care', 'tin', '400g|1kg', 3500, 12000),
  l('Dark and Lovely', 'Hair Relaxer', 'Hair Care', 'kit', 'Regular|Super', 2500, 6500),
  l('Darling', 'Braids', 'Hair Care', 'pack', 'Attachment|Super Star', 800, 5000),
  l('Nivea', 'Body Lotion', 'Cosmetics', 'bottle', '200ml|400ml', 2000, 8000),
  l('Vaseline', 'Petroleum Jelly', 'Cosmetics', 'jar', '50ml|100ml|250ml', 500, 3500),
  l('Zaron', 'Lipstick', 'Cosmetics', 'piece', 'Matte|Gloss', 2000, 6000),
  l('Emzor', 'Paracetamol', 'Pharmacy', 'pack', '500mg x 12|500mg x 96', 100, 2500),
  l('Panadol', 'Extra Tablets', 'Pharmacy', 'pack', '12 Tablets|96 Tablets', 500, 6500),
  l('Vitamin C', 'Tablets', 'Pharmacy', 'bottle', '100mg x 100|1000mg x 30', 800, 6000),
  l('Bic', 'Biro Pen', 'Stationery', 'piece', 'Blue|Black|Pack of 20', 50, 3500),
  l('Olympic', 'Exercise Book', 'Stationery', 'piece', '40 Leaves|80 Leaves|Pack of 12', 150, 6000),
  l('Oraimo', 'Power Bank', 'Phone Accessories', 'piece', '10000mAh|20000mAh', 9000, 35000),
  l('Oraimo', 'Earbuds', 'Phone Accessories', 'piece', 'FreePods|Riff', 8000, 30000),
  l('Tecno', 'USB Charger', 'Phone Accessories', 'piece', 'Type-C|Micro USB', 1500, 8000),
  l('Binatone', 'Standing Fan', 'Electronics', 'piece', '16 inch|18 inch', 25000, 85000),
  l('Thermocool', 'Chest Freezer', 'Electronics', 'piece', '150L|300L', 150000, 250000),
  l('Philips', 'LED Bulb', 'Electronics', 'piece', '9W|15W|Pack of 4', 800, 6500),
  l('Sterling', 'Gas Cylinder', 'Kitchenware', 'piece', '3kg|6kg|12.5kg', 15000, 65000),
  l('Rite Time', 'Cooler', 'Kitchenware', 'piece', '20L|45L', 12000, 45000),
  l('Star', 'Lager Beer', 'Alcoholic Drinks', 'bottle', '60cl|Crate 12', 700, 9500),
  l('Orijin', 'Bitters', 'Alcoholic Drinks', 'bottle', '20cl|75cl', 600, 4500),
  l('Delivery', 'Within Town', 'Services', 'trip', 'Same Day|Next Day', 500, 5000, true),
  l('Phone Repair', 'Screen Replacement', 'Services', 'job', 'Small Phone|Big Phone', 5000, 60000, true),
];

/** Variants in 60% of names (and a pack size `x6`..`x48` in half), so names are mostly distinct, as in a large catalogue. */
export const VARIANTS: readonly string[] = [
  'Original', 'Classic', 'Lite', 'Extra', 'Premium', 'Value Pack', 'Family', 'Mini', 'Jumbo', 'Plus', 'Gold', 'Export',
  'Promo', 'Spicy', 'Vanilla', 'Strawberry', 'Chocolate Flavour', 'Lemon', 'Red', 'Blue', 'Green', 'Black', 'White', 'New Pack',
];

/** The distinct categories (30). */
export const CATEGORIES: readonly string[] = [...new Set(CATALOGUE.map((x) => x.category))];

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `values` list of the catalogue, as SQL. */
const linesSql = () =>
  CATALOGUE.map(
    (x, n) =>
      `(${n}, ${lit(x.brand)}, ${lit(x.item)}, ${lit(x.category)}, ${lit(x.unit)}, array[${x.sizes.map(lit).join(', ')}]::text[], ${x.lo}, ${x.hi}, ${x.service ? 'true' : 'false'})`,
  ).join(',\n  ');

/**
 * One batch: products numbered `first..last` (inclusive). A data-modifying CTE inserts the products
 * and, in the same statement, their stock at the business's default branch and their opening ledger rows.
 */
export const seedProductsSql = (
  businessId: string,
  first: number,
  last: number,
  o: { total: number; offset: number; nowMs: number; spanMs: number; createdBy: string | null },
): string => {
  // row k (0-based from the business's first seeded product) is created at now - (total-1-k)*step - jitter
  const step = Math.max(1, Math.floor(o.spanMs / Math.max(1, o.total)));
  // a deterministic 0..2^32-1 per row and salt
  const h = (salt: string) => `(hashtext(g::text || ':${salt}')::bigint + 2147483648)`;
  const n = CATALOGUE.length;
  return `
with lines (n, brand, item, category, unit, sizes, lo, hi, service) as (values
  ${linesSql()}
),
src as (
  select g,
    ${h('line')} % ${n} as line,
    ${h('size')} as h_size, ${h('price')} as h_price, ${h('cost')} as h_cost, ${h('qty')} as h_qty,
    ${h('low')} as h_low, ${h('barcode')} as h_barcode, ${h('upd')} as h_upd, ${h('jit')} as h_jit,
    to_timestamp((${o.nowMs} - (${o.total + o.offset} - g) * ${step}::bigint - ${h('jit')} % ${step}) / 1000.0) as created
  from generate_series(${first}, ${last}) as g
),
rows as (
  select s.*, l.*,
    -- whole naira in the line's range, rounded down to ₦5 (never below the range), as kobo
    greatest(l.lo, (l.lo + s.h_price % (l.hi - l.lo + 1)) / 5 * 5)::bigint * 100 as price_kobo,
    case when l.service then 0
         when s.h_qty % 100 < 6 then 0
         when s.h_qty % 100 < 16 then 1 + (s.h_qty / 100) % 20
         else 21 + (s.h_qty / 100) % 480 end as qty
  from src s join lines l on l.n = s.line
),
inserted as (
  insert into products (id, business_id, name, sku, price, cost_price, quantity, category, type, low_stock_threshold, barcode, unit, created_at, updated_at)
  select gen_random_uuid(), ${lit(businessId)}::uuid,
    brand || ' ' || item || ' ' || sizes[(1 + h_size % array_length(sizes, 1))::int]
      || case when (h_size / 16) % 10 < 4 then '' else ' ' || (array[${VARIANTS.map(lit).join(', ')}])[(1 + (h_size / 256) % ${VARIANTS.length})::int] end
      || case when (h_size / 65536) % 2 = 0 then '' else ' x' || (array[6, 12, 24, 48])[(1 + (h_size / 131072) % 4)::int] end,
    upper(left(regexp_replace(brand, '[^A-Za-z]', '', 'g'), 4)) || '-' || lpad(g::text, greatest(6, length(g::text)), '0'),
    price_kobo,
    case when service or h_cost % 5 = 0 then null else price_kobo * (65 + h_cost % 26) / 100 / 500 * 500 end,
    qty,
    category,
    case when service then 'SERVICE' else 'PRODUCT' end,
    case when service or h_low % 10 >= 7 then null else (array[5, 10, 20])[(1 + h_low % 3)::int] end,
    case when service or h_barcode % 10 >= 6 then null else '615' || lpad((h_barcode % 10000000000)::text, 10, '0') end,
    unit,
    date_trunc('milliseconds', created),
    -- most products were never edited; the rest up to 30 days later (never after now)
    case when h_upd % 10 < 7 then date_trunc('milliseconds', created)
         else least(date_trunc('milliseconds', created + (h_upd % 2592000000) * interval '1 millisecond'), to_timestamp(${o.nowMs} / 1000.0)) end
  from rows
  order by g
  returning id, business_id, quantity, cost_price, created_at, type
),
main as (select id from branches where business_id = ${lit(businessId)}::uuid and is_default),
stocked as (
  -- the stock is the default branch's (docs/adr/0032)
  insert into product_stock (business_id, product_id, branch_id, quantity, updated_at)
  select i.business_id, i.id, main.id, i.quantity, i.created_at from inserted i cross join main where i.type = 'PRODUCT'
)
insert into stock_movements (id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, branch_id)
select gen_random_uuid(), i.business_id, i.id, i.quantity, 0, i.quantity, 'INITIAL', null, i.cost_price, ${o.createdBy ? `${lit(o.createdBy)}::uuid` : 'null'}, i.created_at, main.id
from inserted i cross join main where i.quantity > 0`;
};

/**
 * Seeds `count` products into `businessId` (which must exist, in a migrated schema), in batches.
 * Returns how long it took. Call ANALYZE afterwards before measuring anything.
 */
export const seedProducts = async (execute: Execute, businessId: string, count: number, options: SeedProductsOptions = {}): Promise<SeedResult> => {
  if (!UUID.test(businessId)) throw new Error(`not a uuid: ${businessId}`);
  if (options.createdBy && !UUID.test(options.createdBy)) throw new Error(`not a uuid: ${options.createdBy}`);
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a whole number: ${count}`);
  const offset = options.offset ?? 0;
  const batchSize = options.batchSize ?? 10_000;
  const nowMs = (options.now ?? new Date()).getTime();
  const spanMs = Math.round((options.spanDays ?? 365) * 86_400_000);
  const started = performance.now();
  for (let done = 0; done < count; done += batchSize) {
    const first = offset + done + 1;
    const last = offset + Math.min(count, done + batchSize);
    await execute(seedProductsSql(businessId, first, last, { total: count, offset, nowMs, spanMs, createdBy: options.createdBy ?? null }));
    options.onBatch?.(last - offset, count);
  }
  return { products: count, ms: performance.now() - started };
};
