import type { EntityManager } from '@mikro-orm/postgresql';
import type { MovementSort, ProductRepository, ProductSort, StockLedger } from '../../../application/ports/repositories.js';
import type { IdempotencyStore } from '../../../application/ports/idempotency-store.js';
import { MAX_STOCK, type MovementReason, type Product, type ProductType, type StockMovement } from '../../../domain/product.js';
import { kobo } from '../../../domain/money.js';
import { randomUUID } from 'node:crypto';
import { ambientTransaction } from './ambient-transaction.js';
import { asDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.mikro-orm.js';

// Products and the ledger are read and written as plain rows (ARCHITECTURE "Hot paths stay lean").

const PRODUCT_COLUMNS =
  'id, business_id, name, sku, price, cost_price, quantity, category, type, low_stock_threshold, barcode, unit, created_at, updated_at';

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

export const productFromRow = (r: Record<string, unknown>): Product => ({
  id: String(r.id),
  businessId: String(r.business_id),
  name: String(r.name),
  sku: String(r.sku),
  price: kobo(int(r.price)),
  costPrice: r.cost_price === null || r.cost_price === undefined ? null : kobo(int(r.cost_price)),
  quantity: int(r.quantity),
  category: (r.category as string | null) ?? null,
  type: r.type as ProductType,
  lowStockThreshold: optionalInt(r.low_stock_threshold),
  barcode: (r.barcode as string | null) ?? null,
  unit: (r.unit as string | null) ?? null,
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505' || (e as { name?: string }).name === 'UniqueConstraintViolationException';

export const mikroOrmProducts = (em: EntityManager): ProductRepository => ({
  async findById(businessId, id) {
    const rows = await em.execute<Record<string, unknown>[]>(`select ${PRODUCT_COLUMNS} from products where business_id = ? and id = ?`, [businessId, id]);
    return rows[0] ? productFromRow(rows[0]) : undefined;
  },
  async findMany(businessId, ids) {
    if (ids.length === 0) return [];
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${PRODUCT_COLUMNS} from products where business_id = ? and id in (${ids.map(() => '?').join(', ')})`,
      [businessId, ...ids],
    );
    return rows.map(productFromRow);
  },
  async findBySku(businessId, sku) {
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${PRODUCT_COLUMNS} from products where business_id = ? and lower(sku) = lower(?)`,
      [businessId, sku],
    );
    return rows[0] ? productFromRow(rows[0]) : undefined;
  },
  async lockBySkus(businessId, skus) {
    if (skus.length === 0) return;
    await em.execute(`select id from products where business_id = ? and lower(sku) in (${skus.map(() => '?').join(', ')}) order by id for update`, [
      businessId,
      ...skus.map((s) => s.toLowerCase()),
    ]);
  },
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = [];
    if (filter.category !== undefined) conditions.push({ sql: 'lower(category) = lower(?)', params: [filter.category] });
    if (filter.type) conditions.push({ sql: 'type = ?', params: [filter.type] });
    if (filter.lowStock) conditions.push({ sql: "type = 'PRODUCT' and low_stock_threshold is not null and quantity <= low_stock_threshold", params: [] });
    return keysetPage(em, PRODUCTS, businessId, page, conditions, productFromRow);
  },
  async categories(businessId) {
    const rows = await em.execute<{ name: string; product_count: string }[]>(
      `select min(category) as name, count(*) as product_count from products
       where business_id = ? and category is not null group by lower(category) order by lower(category)`,
      [businessId],
    );
    return rows.map((r) => ({ name: r.name, productCount: Number(r.product_count) }));
  },
  async add(p) {
    const rows = await em.execute<unknown[]>(
      `insert into products (${PRODUCT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (business_id, lower(sku)) do nothing returning id`,
      [p.id, p.businessId, p.name, p.sku, p.price, p.costPrice, p.quantity, p.category, p.type, p.lowStockThreshold, p.barcode, p.unit, p.createdAt, p.updatedAt],
    );
    return rows.length === 1 ? 'added' : 'duplicate_sku';
  },
  async save(p) {
    try {
      // a savepoint, so a duplicate sku leaves the surrounding transaction usable
      await em.execute('savepoint product_save');
      await em.execute(
        `update products set name = ?, sku = ?, price = ?, cost_price = ?, category = ?, type = ?, low_stock_threshold = ?,
         barcode = ?, unit = ?, updated_at = ? where business_id = ? and id = ?`,
        [p.name, p.sku, p.price, p.costPrice, p.category, p.type, p.lowStockThreshold, p.barcode, p.unit, p.updatedAt, p.businessId, p.id],
      );
      await em.execute('release savepoint product_save');
      return 'saved';
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      await em.execute('rollback to savepoint product_save');
      return 'duplicate_sku';
    }
  },
  async changeQuantity(businessId, id, change, at) {
    const rows = await em.execute<{ quantity: number }[]>(
      'update products set quantity = quantity + ?, updated_at = ? where business_id = ? and id = ? and quantity + ? between 0 and ? returning quantity',
      [change, at, businessId, id, change, MAX_STOCK],
    );
    if (rows[0]) return { ok: true, before: int(rows[0].quantity) - change, after: int(rows[0].quantity) };
    const current = await em.execute<{ quantity: number }[]>('select quantity from products where business_id = ? and id = ?', [businessId, id]);
    if (!current[0]) return undefined;
    const available = int(current[0].quantity);
    return { ok: false, available, reason: available + change < 0 ? 'INSUFFICIENT' : 'LIMIT' };
  },
});

const MOVEMENT_COLUMNS =
  'id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, note, unit_cost, created_by, created_at, sale_id';

const MOVEMENTS: KeysetSource<MovementSort> = {
  select: MOVEMENT_COLUMNS,
  from: 'stock_movements',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['note'],
  dateColumn: 'created_at',
};

const movementFromRow = (r: Record<string, unknown>): StockMovement => ({
  id: String(r.id),
  businessId: String(r.business_id),
  productId: String(r.product_id),
  quantityChange: int(r.quantity_change),
  quantityBefore: int(r.quantity_before),
  quantityAfter: int(r.quantity_after),
  reason: r.reason as MovementReason,
  note: (r.note as string | null) ?? null,
  unitCost: r.unit_cost === null || r.unit_cost === undefined ? null : kobo(int(r.unit_cost)),
  createdBy: (r.created_by as string | null) ?? null,
  createdAt: asDate(r.created_at),
  saleId: (r.sale_id as string | null) ?? null,
});

export const mikroOrmStockLedger = (em: EntityManager): StockLedger => ({
  async add(m) {
    // The product's row is locked by the caller (its quantity just moved), so the previous movement's time is settled.
    const rows = await em.execute<{ created_at: unknown }[]>(
      `insert into stock_movements (${MOVEMENT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
         greatest(?::timestamptz, (select max(created_at) + interval '1 millisecond' from stock_movements where business_id = ? and product_id = ?)), ?)
       returning created_at`,
      [
        m.id, m.businessId, m.productId, m.quantityChange, m.quantityBefore, m.quantityAfter, m.reason, m.note, m.unitCost, m.createdBy, m.createdAt,
        m.businessId, m.productId, m.saleId ?? null,
      ],
    );
    return asDate(rows[0]!.created_at);
  },
  async findById(businessId, id) {
    const rows = await em.execute<Record<string, unknown>[]>(`select ${MOVEMENT_COLUMNS} from stock_movements where business_id = ? and id = ?`, [businessId, id]);
    return rows[0] ? movementFromRow(rows[0]) : undefined;
  },
  list(businessId, page, filter) {
    const conditions: SqlCondition[] = [];
    if (filter.productId) conditions.push({ sql: 'product_id = ?', params: [filter.productId] });
    if (filter.reason) conditions.push({ sql: 'reason = ?', params: [filter.reason] });
    return keysetPage(em, MOVEMENTS, businessId, page, conditions, movementFromRow);
  },
  async forSale(businessId, saleId) {
    const rows = await em.execute<Record<string, unknown>[]>(
      `select ${MOVEMENT_COLUMNS} from stock_movements where business_id = ? and sale_id = ? order by product_id`,
      [businessId, saleId],
    );
    return rows.map(movementFromRow);
  },
});

const KEY_TTL_MS = 24 * 3_600_000;

/**
 * Idempotency keys in PostgreSQL. `claim` and `release` are short statements of their own; `complete`
 * runs in the ambient transaction when there is one, so the answer commits with the work.
 */
export const mikroOrmIdempotencyStore = (fork: () => EntityManager, options: { leaseMs: number }): IdempotencyStore => ({
  async claim(businessId, key, requestHash, now) {
    const em = fork();
    const token = randomUUID();
    const leaseUntil = new Date(now.getTime() + options.leaseMs);
    // An expired key is forgotten first, so it can be claimed again.
    await em.execute('delete from idempotency_keys where business_id = ? and key = ? and created_at < ?', [businessId, key, new Date(now.getTime() - KEY_TTL_MS)]);
    const inserted = await em.execute<unknown[]>(
      `insert into idempotency_keys (business_id, key, request_hash, created_at, lease_until, claim_token)
       values (?, ?, ?, ?, ?, ?) on conflict do nothing returning key`,
      [businessId, key, requestHash, now, leaseUntil, token],
    );
    if (inserted.length === 1) return { state: 'claimed', token };
    // A claim whose lease ran out without an answer (its process died) is taken over.
    const takenOver = await em.execute<unknown[]>(
      `update idempotency_keys set lease_until = ?, claim_token = ?
        where business_id = ? and key = ? and request_hash = ? and response_status is null and (lease_until is null or lease_until < ?)
        returning key`,
      [leaseUntil, token, businessId, key, requestHash, now],
    );
    if (takenOver.length === 1) return { state: 'claimed', token };
    const rows = await em.execute<{ request_hash: string; response_status: number | null; response_body: unknown }[]>(
      'select request_hash, response_status, response_body from idempotency_keys where business_id = ? and key = ?',
      [businessId, key],
    );
    const row = rows[0];
    if (!row) return this.claim(businessId, key, requestHash, now); // released meanwhile
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.response_status === null) return { state: 'in_progress' };
    const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
    return { state: 'replay', response: { status: row.response_status, body } };
  },
  async complete(businessId, key, token, response) {
    const tx = ambientTransaction();
    const updated = await (tx ? await tx.manager() : fork()).execute<unknown[]>(
      `update idempotency_keys set response_status = ?, response_body = ?, lease_until = null
        where business_id = ? and key = ? and claim_token = ? and response_status is null returning key`,
      [response.status, JSON.stringify(response.body), businessId, key, token],
    );
    return updated.length === 1;
  },
  async release(businessId, key, token) {
    await fork().execute('delete from idempotency_keys where business_id = ? and key = ? and claim_token = ? and response_status is null', [businessId, key, token]);
  },
});
