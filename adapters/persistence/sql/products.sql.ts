import type { Sql } from './sql-session.js';
import type { ProductRepositories, ProductRepository, ProductSort, QuantityChange, QuantityChangeOf, StockChangeOptions } from '../../../application/products/ports.js';
import { MAX_STOCK, type BranchStock, type Product, type ProductType } from '../../../domain/product.js';
import { sqlStockLedger } from './stock-ledger.sql.js';
import { sqlStockTransfers } from './stock-transfers.sql.js';
import { kobo } from '../../../domain/money.js';
import { asDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import { optionalKobo, unlessDuplicate, type Row } from './sql-helpers.js';

// Products and the ledger are read and written as plain rows (ARCHITECTURE "Hot paths stay lean").

export const PRODUCT_COLUMNS =
  'id, business_id, name, sku, price, cost_price, quantity, category, type, low_stock_threshold, barcode, unit, created_at, updated_at, archived_at, vat_exempt';

/** The searched text: one expression, so one trigram index answers `ILIKE '%term%'`. */
export const PRODUCT_SEARCH = "(name || ' ' || sku || ' ' || coalesce(category, '') || ' ' || coalesce(barcode, ''))";

const PRODUCTS: KeysetSource<ProductSort> = {
  select: PRODUCT_COLUMNS,
  from: 'products',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: {
    created_at: { column: 'created_at', type: 'timestamptz' },
    updated_at: { column: 'updated_at', type: 'timestamptz' },
    name: { column: 'name', type: 'text' },
    price: { column: 'price', type: 'bigint' },
    quantity: { column: 'quantity', type: 'bigint' },
  },
  search: [PRODUCT_SEARCH],
  dateColumn: 'created_at',
};

/**
 * The list sorted by quantity or updated_at walks product_sort_keys, whose indexes hold those two keys:
 * on products they made every sale's update of its products rewrite all of products' indexes (docs/adr/0087).
 */
const PRODUCTS_BY_SORT_KEYS: KeysetSource<ProductSort> = {
  ...PRODUCTS,
  select: PRODUCT_COLUMNS.split(', ').map((c) => `products.${c}`).join(', '),
  from: 'products join product_sort_keys k on k.product_id = products.id and k.business_id = products.business_id',
  tenantColumn: 'k.business_id',
  idColumn: 'k.product_id',
  sort: {
    ...PRODUCTS.sort,
    updated_at: { column: 'k.updated_sort', type: 'timestamptz' },
    quantity: { column: 'k.quantity_sort', type: 'bigint' },
  },
};

const int = (v: unknown): number => Number(v);
const optionalInt = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export const productFromRow = (r: Row): Product => ({
  id: String(r.id),
  businessId: String(r.business_id),
  name: String(r.name),
  sku: String(r.sku),
  price: kobo(int(r.price)),
  costPrice: optionalKobo(r.cost_price),
  quantity: int(r.quantity),
  category: (r.category as string | null) ?? null,
  type: r.type as ProductType,
  lowStockThreshold: optionalInt(r.low_stock_threshold),
  barcode: (r.barcode as string | null) ?? null,
  unit: (r.unit as string | null) ?? null,
  vatExempt: r.vat_exempt === true,
  archivedAt: r.archived_at === null || r.archived_at === undefined ? null : asDate(r.archived_at),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

/** Why a change was not made (read after its statement wrote nothing): undefined for an unknown product. */
const notChanged = async (db: Sql, businessId: string, id: string, branchId: string, change: number): Promise<QuantityChange | undefined> => {
  const current = await db.execute<{ total: number; branch: number }[]>(
    `select p.quantity as total, coalesce((select quantity from product_stock where product_id = p.id and branch_id = ?), 0) as branch
     from products p where p.business_id = ? and p.id = ?`,
    [branchId, businessId, id],
  );
  if (!current[0]) return undefined;
  const available = int(current[0].branch);
  // a service keeps no stock rows: a change of nothing is still answered
  if (change === 0) return { ok: true, before: available, after: available, total: int(current[0].total) };
  return { ok: false, available, reason: available + change < 0 ? 'INSUFFICIENT' : 'LIMIT' };
};

/**
 * The stock of every product of a change at one branch, and its total, moved in one statement (the WITH
 * part; its SELECT reads `s`, the branch rows, and `t`, the products): values in the order of
 * changeQuantities' parameters. Also run by the bench's pgbench pass (bench/pgbench.ts).
 */
export const STOCK_CHANGE = `with w as (select * from unnest(?::uuid[], ?::integer[]) as w(product_id, change)),
     p as (select products.id, products.quantity, products.type, w.change from products join w on w.product_id = products.id
           where products.business_id = ? order by products.id for update of products),
     s as (insert into product_stock (business_id, product_id, branch_id, quantity, updated_at)
             select ?, p.id, ?, greatest(p.change, ?::integer), ? from p where p.type = 'PRODUCT' and p.quantity + p.change <= ?
           on conflict (product_id, branch_id, business_id) do update
             set quantity = product_stock.quantity + (select w.change from w where w.product_id = excluded.product_id), updated_at = excluded.updated_at
             where product_stock.quantity + (select w.change from w where w.product_id = excluded.product_id) >= ?::integer
           returning product_id, quantity, (xmax = 0) as inserted),
     t as (update products set quantity = products.quantity + w.change, updated_at = ? from s join w on w.product_id = s.product_id
           where products.business_id = ? and products.id = s.product_id and (w.change >= 0 or not s.inserted or ?::boolean)
           returning products.id, products.quantity)`;

/**
 * ProductRepository.changeQuantities (and changeQuantity, a set of one). Every product's row is locked
 * first, in id order (the sort runs below the lock), then its stock row: the one order of every stock
 * writer. The stock row is written by an upsert, never a plain update: an upsert sees a row another
 * transaction inserted after this statement's snapshot (a plain update would miss it). A take from a
 * branch without a row inserts 0 and is refused (inserted); the total moves only with the branch. The
 * change of a stock row that exists comes from w: the upsert's excluded row holds the inserted
 * quantity, not the change. Zero is the floor of every move but a synced offline sale's (docs/adr/0034):
 * the check lives here, not in the table.
 */
const changeQuantities = async (
  db: Sql,
  businessId: string,
  branchId: string,
  changes: readonly QuantityChangeOf[],
  at: Date,
  options: StockChangeOptions,
): Promise<(QuantityChange | undefined)[]> => {
  if (new Set(changes.map((c) => c.productId)).size !== changes.length) throw new Error('changeQuantities takes each product once');
  if (changes.length === 0) return [];
  const floor = options.belowZero ? -MAX_STOCK : 0;
  const rows = await db.execute<{ product_id: string; branch: number; total: number | null }[]>(
    `${STOCK_CHANGE}
     select s.product_id, s.quantity as branch, t.quantity as total from s left join t on t.id = s.product_id`,
    [changes.map((c) => c.productId), changes.map((c) => c.change), businessId, businessId, branchId, floor, at, MAX_STOCK, floor, at, businessId, options.belowZero === true],
  );
  const moved = new Map(rows.filter((r) => r.total !== null).map((r) => [String(r.product_id), r]));
  const out: (QuantityChange | undefined)[] = [];
  for (const c of changes) {
    const r = moved.get(c.productId);
    out.push(r ? { ok: true, before: int(r.branch) - c.change, after: int(r.branch), total: int(r.total) } : await notChanged(db, businessId, c.productId, branchId, c.change));
  }
  return out;
};

export const sqlProducts = (db: Sql): ProductRepository => ({
  async findById(businessId, id) {
    const rows = await db.execute<Row[]>(`select ${PRODUCT_COLUMNS} from products where business_id = ? and id = ?`, [businessId, id]);
    return rows[0] ? productFromRow(rows[0]) : undefined;
  },
  async findMany(businessId, ids) {
    if (ids.length === 0) return [];
    const rows = await db.execute<Row[]>(
      `select ${PRODUCT_COLUMNS} from products where business_id = ? and id in (${ids.map(() => '?').join(', ')})`,
      [businessId, ...ids],
    );
    return rows.map(productFromRow);
  },
  async findBySku(businessId, sku) {
    const rows = await db.execute<Row[]>(
      `select ${PRODUCT_COLUMNS} from products where business_id = ? and lower(sku) = lower(?)`,
      [businessId, sku],
    );
    return rows[0] ? productFromRow(rows[0]) : undefined;
  },
  async lockBySkus(businessId, skus) {
    if (skus.length === 0) return;
    await db.execute(`select id from products where business_id = ? and lower(sku) in (${skus.map(() => '?').join(', ')}) order by id for update`, [
      businessId,
      ...skus.map((s) => s.toLowerCase()),
    ]);
  },
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = [{ sql: filter.archived ? 'archived_at is not null' : 'archived_at is null', params: [] }];
    if (filter.category !== undefined) conditions.push({ sql: 'lower(category) = lower(?)', params: [filter.category] });
    if (filter.type) conditions.push({ sql: 'type = ?', params: [filter.type] });
    if (filter.lowStock) conditions.push({ sql: "type = 'PRODUCT' and low_stock_threshold is not null and quantity <= low_stock_threshold", params: [] });
    const bySortKeys = page.sortBy === 'quantity' || page.sortBy === 'updated_at';
    return keysetPage(db, bySortKeys ? PRODUCTS_BY_SORT_KEYS : PRODUCTS, businessId, page, conditions, productFromRow);
  },
  async categories(businessId) {
    const rows = await db.execute<{ name: string; product_count: string }[]>(
      `select min(category) as name, count(*) as product_count from products
       where business_id = ? and category is not null and archived_at is null group by lower(category) order by lower(category)`,
      [businessId],
    );
    return rows.map((r) => ({ name: r.name, productCount: Number(r.product_count) }));
  },
  async add(p) {
    const rows = await db.execute<unknown[]>(
      `insert into products (${PRODUCT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (business_id, lower(sku)) do nothing returning id`,
      [p.id, p.businessId, p.name, p.sku, p.price, p.costPrice, p.quantity, p.category, p.type, p.lowStockThreshold, p.barcode, p.unit, p.createdAt, p.updatedAt, p.archivedAt, p.vatExempt],
    );
    return rows.length === 1 ? 'added' : 'duplicate_sku';
  },
  async save(p) {
    const saved = await unlessDuplicate(
      db,
      `update products set name = ?, sku = ?, price = ?, cost_price = ?, category = ?, type = ?, low_stock_threshold = ?,
       barcode = ?, unit = ?, updated_at = ?, archived_at = ?, vat_exempt = ? where business_id = ? and id = ?`,
      [p.name, p.sku, p.price, p.costPrice, p.category, p.type, p.lowStockThreshold, p.barcode, p.unit, p.updatedAt, p.archivedAt, p.vatExempt, p.businessId, p.id],
    );
    return saved === 'done' ? 'saved' : 'duplicate_sku';
  },
  async changeQuantity(businessId, id, branchId, change, at, options = {}) {
    return (await changeQuantities(db, businessId, branchId, [{ productId: id, change }], at, options))[0];
  },
  changeQuantities: (businessId, branchId, changes, at, options = {}) => changeQuantities(db, businessId, branchId, changes, at, options),
  async stockOf(businessId, ids) {
    const out = new Map<string, BranchStock[]>();
    if (ids.length === 0) return out;
    // The branches with the stock rows of these products: two tables, not three (the products are
    // the caller's, already read), which halves the planning of this per-page query.
    const rows = await db.execute<Row[]>(
      `select ps.product_id, b.id as branch_id, b.name as branch_name, ps.quantity
       from branches b left join product_stock ps
         on ps.branch_id = b.id and ps.business_id = b.business_id and ps.product_id in (${ids.map(() => '?').join(', ')})
       where b.business_id = ? and b.archived_at is null
       order by b.is_default desc, b.created_at, b.id`,
      [...ids, businessId],
    );
    // Built with few objects: this runs on every products page. The rows come branch by branch (the
    // order by), so a branch is new when it differs from the one before.
    const branches: { readonly id: string; readonly name: string }[] = [];
    const held = new Map<string, Map<string, number>>(); // product -> branch -> quantity
    for (const r of rows) {
      const branchId = String(r.branch_id);
      if (branches.length === 0 || branches[branches.length - 1]!.id !== branchId) branches.push({ id: branchId, name: String(r.branch_name) });
      if (r.product_id === null || r.product_id === undefined) continue;
      const productId = String(r.product_id);
      let atBranch = held.get(productId);
      if (!atBranch) held.set(productId, (atBranch = new Map()));
      atBranch.set(branchId, int(r.quantity));
    }
    for (const id of ids) {
      const atBranch = held.get(id);
      out.set(id, branches.map((b) => ({ branchId: b.id, branchName: b.name, quantity: atBranch?.get(b.id) ?? 0 })));
    }
    return out;
  },
});

/** The products module over one transaction's Sql: the catalogue, the stock ledger and the transfers. */
export const sqlProductsModule = (db: Sql): ProductRepositories => ({
  products: sqlProducts(db),
  stockLedger: sqlStockLedger(db),
  stockTransfers: sqlStockTransfers(db),
});
