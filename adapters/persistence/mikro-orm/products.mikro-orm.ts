import type { Sql } from './sql-session.js';
import type { MovementSort, ProductRepositories, ProductRepository, ProductSort, QuantityChange, StockChangeOptions, StockLedger } from '../../../application/products/ports.js';
import { MAX_STOCK, type BranchStock, type MovementReason, type Product, type ProductType, type StockMovement } from '../../../domain/product.js';
import { mikroOrmStockTransfers } from './stock-transfers.mikro-orm.js';
import { kobo } from '../../../domain/money.js';
import { asDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.mikro-orm.js';
import { optionalKobo, unlessDuplicate, type Row } from './sql.mikro-orm.js';

// Products and the ledger are read and written as plain rows (ARCHITECTURE "Hot paths stay lean").

const PRODUCT_COLUMNS =
  'id, business_id, name, sku, price, cost_price, quantity, category, type, low_stock_threshold, barcode, unit, created_at, updated_at, archived_at';

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

/** ProductRepository.changeQuantity. */
const changeQuantityIn = async (db: Sql, businessId: string, id: string, branchId: string, change: number, at: Date, options: StockChangeOptions): Promise<QuantityChange | undefined> => {
  // Zero is the floor of every move but a synced offline sale's (docs/adr/0034): the check lives here, not in the table.
  const floor = options.belowZero ? -MAX_STOCK : 0;
  // The product's row is locked first (p), then the branch's stock row: the one order of every stock
  // writer. The stock row is written by an upsert, never a plain update: an upsert sees a row another
  // transaction inserted after this statement's snapshot (a plain update would miss it). A take from a
  // branch without a row inserts 0 and is refused (inserted); the total moves only with the branch.
  const rows = await db.execute<{ branch: number; total: number | null; inserted: boolean }[]>(
    `with p as (select id, quantity, type from products where business_id = ? and id = ? for update),
     s as (insert into product_stock (business_id, product_id, branch_id, quantity, updated_at)
             select ?, p.id, ?, greatest(?::integer, ?::integer), ? from p where p.type = 'PRODUCT' and p.quantity + ? <= ?
           on conflict (product_id, branch_id, business_id) do update set quantity = product_stock.quantity + ?, updated_at = excluded.updated_at
             where product_stock.quantity + ? >= ?::integer
           returning quantity, (xmax = 0) as inserted),
     t as (update products set quantity = products.quantity + ?, updated_at = ? from s
           where products.id = ? and (?::integer >= 0 or not s.inserted or ?::boolean) returning products.quantity)
     select s.quantity as branch, s.inserted, t.quantity as total from s left join t on true`,
    [businessId, id, businessId, branchId, change, floor, at, change, MAX_STOCK, change, change, floor, change, at, id, change, options.belowZero === true],
  );
  if (rows[0] && rows[0].total !== null) return { ok: true, before: int(rows[0].branch) - change, after: int(rows[0].branch), total: int(rows[0].total) };
  return notChanged(db, businessId, id, branchId, change);
};

export const mikroOrmProducts = (db: Sql): ProductRepository => ({
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
    return keysetPage(db, PRODUCTS, businessId, page, conditions, productFromRow);
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
      `insert into products (${PRODUCT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (business_id, lower(sku)) do nothing returning id`,
      [p.id, p.businessId, p.name, p.sku, p.price, p.costPrice, p.quantity, p.category, p.type, p.lowStockThreshold, p.barcode, p.unit, p.createdAt, p.updatedAt, p.archivedAt],
    );
    return rows.length === 1 ? 'added' : 'duplicate_sku';
  },
  async save(p) {
    const saved = await unlessDuplicate(
      db,
      `update products set name = ?, sku = ?, price = ?, cost_price = ?, category = ?, type = ?, low_stock_threshold = ?,
       barcode = ?, unit = ?, updated_at = ?, archived_at = ? where business_id = ? and id = ?`,
      [p.name, p.sku, p.price, p.costPrice, p.category, p.type, p.lowStockThreshold, p.barcode, p.unit, p.updatedAt, p.archivedAt, p.businessId, p.id],
    );
    return saved === 'done' ? 'saved' : 'duplicate_sku';
  },
  changeQuantity: (businessId, id, branchId, change, at, options = {}) => changeQuantityIn(db, businessId, id, branchId, change, at, options),
  async changeQuantities(businessId, branchId, changes, at, options = {}) {
    if (changes.length === 1) return [await changeQuantityIn(db, businessId, changes[0]!.productId, branchId, changes[0]!.change, at, options)];
    if (new Set(changes.map((c) => c.productId)).size !== changes.length) throw new Error('changeQuantities takes each product once');
    if (changes.length === 0) return [];
    const floor = options.belowZero ? -MAX_STOCK : 0;
    // changeQuantity's statement over a set: the products locked in id order (the sort runs below the
    // lock), then each one's stock row, then its total. The change of a stock row that exists comes from
    // w: the upsert's excluded row holds the inserted quantity, not the change.
    const rows = await db.execute<{ product_id: string; branch: number; total: number | null }[]>(
      `with w as (select * from unnest(?::uuid[], ?::integer[]) as w(product_id, change)),
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
             returning products.id, products.quantity)
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
  },
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

const MOVEMENT_COLUMNS =
  'id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, sale_id, branch_id, transfer_id';

const MOVEMENTS: KeysetSource<MovementSort> = {
  select: MOVEMENT_COLUMNS,
  from: 'stock_movements',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['note'],
  dateColumn: 'created_at',
};

const movementFromRow = (r: Row): StockMovement => ({
  id: String(r.id),
  businessId: String(r.business_id),
  productId: String(r.product_id),
  quantityChange: int(r.quantity_change),
  quantityBefore: int(r.quantity_before),
  quantityAfter: int(r.quantity_after),
  reason: r.reason as MovementReason,
  note: (r.note as string | null) ?? null,
  unitCost: optionalKobo(r.unit_cost),
  createdBy: (r.created_by as string | null) ?? null,
  createdAt: asDate(r.created_at),
  saleId: (r.sale_id as string | null) ?? null,
  branchId: String(r.branch_id),
  transferId: (r.transfer_id as string | null) ?? null,
});

export const mikroOrmStockLedger = (db: Sql): StockLedger => ({
  async add(m) {
    // The product's row is locked by the caller (its quantity just moved), so the previous movement's time is settled.
    const rows = await db.execute<{ created_at: unknown }[]>(
      `insert into stock_movements (${MOVEMENT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
         greatest(?::timestamptz, (select max(created_at) + interval '1 millisecond' from stock_movements where business_id = ? and product_id = ?)), ?, ?, ?)
       returning created_at`,
      [
        m.id, m.businessId, m.productId, m.quantityChange, m.quantityBefore, m.quantityAfter, m.reason, m.note, m.unitCost, m.createdBy, m.createdAt,
        m.businessId, m.productId, m.saleId ?? null, m.branchId, m.transferId ?? null,
      ],
    );
    return asDate(rows[0]!.created_at);
  },
  async addMany(movements) {
    if (new Set(movements.map((m) => m.productId)).size !== movements.length) throw new Error('addMany takes each product once');
    if (movements.length === 0) return [];
    // add's statement over a set, in a statement of its own after the stock moved: its snapshot then sees
    // every earlier movement of these (locked) products, so each time follows its product's chain.
    const column = <K extends keyof StockMovement>(k: K) => movements.map((m) => m[k] ?? null);
    const rows = await db.execute<{ id: string; created_at: unknown }[]>(
      `insert into stock_movements (${MOVEMENT_COLUMNS})
       select m.id, m.business_id, m.product_id, m.quantity_change, m.quantity_before, m.quantity_after, m.reason, m.note, m.unit_cost, m.created_by,
         greatest(m.created_at, (select max(created_at) + interval '1 millisecond' from stock_movements x where x.business_id = m.business_id and x.product_id = m.product_id)),
         m.sale_id, m.branch_id, m.transfer_id
       from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::integer[], ?::integer[], ?::integer[], ?::text[], ?::text[], ?::bigint[], ?::uuid[], ?::timestamptz[], ?::uuid[], ?::uuid[], ?::uuid[])
         as m(id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, sale_id, branch_id, transfer_id)
       returning id, created_at`,
      [
        column('id'), column('businessId'), column('productId'), column('quantityChange'), column('quantityBefore'), column('quantityAfter'), column('reason'),
        column('note'), column('unitCost'), column('createdBy'), column('createdAt'), column('saleId'), column('branchId'), column('transferId'),
      ],
    );
    const times = new Map(rows.map((r) => [String(r.id), asDate(r.created_at)]));
    return movements.map((m) => times.get(m.id)!);
  },
  async findById(businessId, id) {
    const rows = await db.execute<Row[]>(`select ${MOVEMENT_COLUMNS} from stock_movements where business_id = ? and id = ?`, [businessId, id]);
    return rows[0] ? movementFromRow(rows[0]) : undefined;
  },
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = [];
    if (filter.productId) conditions.push({ sql: 'product_id = ?', params: [filter.productId] });
    if (filter.reason) conditions.push({ sql: 'reason = ?', params: [filter.reason] });
    if (filter.branchId) conditions.push({ sql: 'branch_id = ?', params: [filter.branchId] });
    return keysetPage(db, MOVEMENTS, businessId, page, conditions, movementFromRow);
  },
  async forSale(businessId, saleId) {
    const rows = await db.execute<Row[]>(
      `select ${MOVEMENT_COLUMNS} from stock_movements where business_id = ? and sale_id = ? order by product_id`,
      [businessId, saleId],
    );
    return rows.map(movementFromRow);
  },
});

/** The products module over one transaction's Sql: the catalogue, the stock ledger and the transfers. */
export const mikroOrmProductsModule = (db: Sql): ProductRepositories => ({
  products: mikroOrmProducts(db),
  stockLedger: mikroOrmStockLedger(db),
  stockTransfers: mikroOrmStockTransfers(db),
});
