import * as E from 'fp-ts/lib/Either.js';
import type { Kobo } from '../../domain/money.js';
import { serviceWithStock, checkProduct, generateSku, type Product, type ProductRuleViolation, type ProductType } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import { moveStock } from './move-stock.js';
import { withBranchStock, type ProductWithStock } from './branch-stock.js';
import type { ProductFilter, ProductRepositories, ProductSort } from './ports.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { BusinessRepositories } from '../business/ports.js';

export type DuplicateSku = { readonly _tag: 'DuplicateSku'; readonly sku: string };
export type ProductRulesBroken = { readonly _tag: 'ProductRulesBroken'; readonly violations: ProductRuleViolation[] };

export interface ProductFields {
  readonly name: string;
  readonly sku?: string;
  readonly price: Kobo;
  readonly costPrice?: Kobo | null;
  readonly quantity?: number;
  readonly category?: string | null;
  readonly type?: ProductType;
  readonly lowStockThreshold?: number | null;
  readonly barcode?: string | null;
  readonly unit?: string | null;
  /** VAT-exempt (docs/adr/0054): its lines carry a VAT rate of 0 when the business is VAT-registered. */
  readonly vatExempt?: boolean;
}

type Products = Pick<ProductRepositories, 'products'>;
type Writers = ProductRepositories & EventRepositories & Pick<BusinessRepositories, 'branches'>;
type Deps = { uow: UnitOfWork<Writers>; clock: Clock; crypto: Crypto };

/** Adds a product inside a transaction, with its opening stock (at `branchId`) as the first ledger row. */
export const addProduct = async (
  deps: Deps,
  r: Writers,
  actor: Actor,
  fields: ProductFields,
  openingReason: 'INITIAL' | 'IMPORT',
  branchId: string,
): Promise<E.Either<DuplicateSku | ProductRulesBroken, Product>> => {
  const now = deps.clock.now();
  const product: Product = {
    id: deps.crypto.uuid(),
    businessId: actor.businessId,
    name: fields.name,
    sku: fields.sku ?? generateSku(fields.name, deps.crypto.uuid().replace(/-/g, '').slice(0, 8)),
    price: fields.price,
    costPrice: fields.costPrice ?? null,
    quantity: 0,
    category: fields.category ?? null,
    type: fields.type ?? 'PRODUCT',
    lowStockThreshold: fields.lowStockThreshold ?? null,
    barcode: fields.barcode ?? null,
    unit: fields.unit ?? null,
    vatExempt: fields.vatExempt ?? false,
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const opening = fields.quantity ?? 0;
  const violations = checkProduct({ ...product, quantity: opening });
  if (violations.length > 0) return E.left({ _tag: 'ProductRulesBroken', violations });
  if ((await r.products.add(product)) === 'duplicate_sku') return E.left({ _tag: 'DuplicateSku', sku: product.sku });
  if (opening !== 0) {
    const moved = await moveStock(deps, r, actor, { productId: product.id, branchId, change: opening, reason: openingReason, at: now, unitCost: product.costPrice });
    if (!moved?.ok) throw new Error('opening stock could not be recorded');
    product.quantity = moved.total;
  }
  return E.right(product);
};

/** Creates a product (sku generated when absent, unique per business ignoring case); its opening stock is the default branch's. */
export const createProduct =
  (deps: Deps) =>
  (actor: Actor, fields: ProductFields): Promise<E.Either<DuplicateSku | ProductRulesBroken, Product>> =>
    deps.uow.run<E.Either<DuplicateSku | ProductRulesBroken, Product>>(async (r) => {
      const main = await r.branches.findDefault(actor.businessId);
      const result = await addProduct(deps, r, actor, fields, 'INITIAL', main.id);
      return E.isLeft(result) ? rollback(result) : result;
    });

export const getProduct =
  (deps: { uow: UnitOfWork<Products> }) =>
  async (actor: Actor, productId: string): Promise<E.Either<NotFound, Product>> => {
    const p = await deps.uow.read((r) => r.products.findById(actor.businessId, productId));
    return p ? E.right(p) : E.left(notFound);
  };

/** A page of products with their stock at every active branch; the stock is read right after the page, in turn. */
export const listProducts =
  (deps: { uow: UnitOfWork<Products> }) =>
  (actor: Actor, page: PageRequest<ProductSort>, filter: ProductFilter): Promise<Page<ProductWithStock>> =>
    deps.uow.readInTurn(async (r) => {
      const found = await r.products.list(actor.businessId, page, filter);
      return { ...found, items: await withBranchStock(r, actor.businessId, found.items) };
    });

export const listCategories =
  (deps: { uow: UnitOfWork<Products> }) =>
  (actor: Actor): Promise<{ name: string; productCount: number }[]> =>
    deps.uow.read((r) => r.products.categories(actor.businessId));

/**
 * Sets the product's quantity at `branchId` to `target` through the ledger (one row), inside the
 * caller's transaction; `product.quantity` becomes the new total over the branches. 'limit' (nothing
 * written) when the total would pass MAX_STOCK.
 */
export const setQuantity = async (
  deps: Deps,
  r: Writers,
  actor: Actor,
  product: Product,
  target: number,
  reason: 'CORRECTION' | 'IMPORT',
  branchId: string,
): Promise<'unchanged' | 'changed' | 'limit'> => {
  const now = deps.clock.now();
  // The change is worked out from the quantity as it is now, not as it was read: a change of 0 locks
  // the rows and answers the current quantities, so an adjustment committed meanwhile is not overwritten.
  const current = await r.products.changeQuantity(actor.businessId, product.id, branchId, 0, now);
  if (!current?.ok) throw new Error('the product to set a quantity on is gone');
  product.quantity = current.total;
  const change = target - current.after;
  if (change === 0) return 'unchanged';
  const note = reason === 'CORRECTION' ? 'quantity set on the product' : 'quantity set by an import';
  const moved = await moveStock(deps, r, actor, { productId: product.id, branchId, change, reason, at: now, note });
  if (moved && !moved.ok && moved.reason === 'LIMIT') return 'limit';
  if (!moved?.ok) throw new Error('a quantity set to a non-negative value cannot fail');
  product.quantity = moved.total;
  return 'changed';
};

export const tooMuchStock = (): ProductRulesBroken => ({ _tag: 'ProductRulesBroken', violations: [{ rule: 'STOCK_LIMIT_EXCEEDED', field: 'quantity', message: 'the total over the branches must be at most 1000000000' }] });
export const stockElsewhere = (): ProductRulesBroken => ({
  _tag: 'ProductRulesBroken',
  violations: [serviceWithStock('other branches still hold stock of the product; transfer or adjust it to 0 first')],
});

/** A ProductPriceChanged when the selling or cost price of `before` differs in `after` (an edit or an import). */
export const recordPriceChange = async (r: Pick<EventRepositories, 'events'>, before: Product, after: Product): Promise<void> => {
  const price = before.price !== after.price;
  const cost = before.costPrice !== after.costPrice;
  if (!price && !cost) return;
  await r.events.record(after.updatedAt, {
    _tag: 'ProductPriceChanged',
    businessId: after.businessId,
    productId: after.id,
    name: after.name,
    before: { ...(price ? { price: before.price } : {}), ...(cost ? { costPrice: before.costPrice } : {}) },
    after: { ...(price ? { price: after.price } : {}), ...(cost ? { costPrice: after.costPrice } : {}) },
  });
};

/**
 * Updates the fields present. A new quantity is the default branch's, recorded as a CORRECTION in the
 * stock ledger, so the ledger always explains the quantity; the answer's quantity is the new total.
 */
export const updateProduct =
  (deps: Deps) =>
  (actor: Actor, productId: string, changes: Partial<ProductFields>): Promise<E.Either<NotFound | DuplicateSku | ProductRulesBroken, Product>> =>
    deps.uow.run(async (r) => {
      const product = await r.products.findById(actor.businessId, productId);
      if (!product) return E.left(notFound);
      const { quantity, ...fields } = changes;
      const next: Product = { ...product };
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
      next.updatedAt = deps.clock.now();
      const violations = checkProduct({ ...next, quantity: quantity ?? (next.type === 'SERVICE' ? 0 : next.quantity) });
      if (next.type === 'SERVICE' && quantity === undefined && product.quantity !== 0) {
        violations.push(serviceWithStock('a product with stock cannot become a service; set quantity to 0 first'));
      }
      if (violations.length > 0) return E.left({ _tag: 'ProductRulesBroken' as const, violations });
      // A service keeps no stock (the database checks it too): its quantity goes to 0 before the row becomes one.
      const quantityFirst = quantity !== undefined && next.type === 'SERVICE';
      const main = quantity !== undefined ? (await r.branches.findDefault(actor.businessId)).id : '';
      if (quantityFirst) {
        await setQuantity(deps, r, actor, next, quantity, 'CORRECTION', main);
        if (next.quantity !== 0) return rollback(E.left(stockElsewhere()));
      }
      if ((await r.products.save(next)) === 'duplicate_sku') return rollback(E.left({ _tag: 'DuplicateSku' as const, sku: next.sku }));
      if (quantity !== undefined && !quantityFirst && (await setQuantity(deps, r, actor, next, quantity, 'CORRECTION', main)) === 'limit') {
        return rollback(E.left(tooMuchStock()));
      }
      await recordPriceChange(r, product, next);
      return E.right(next);
    });

/**
 * Archives a product: it leaves the lists, the export and new sales, and keeps its history (old sales,
 * receipts and ledger rows still name it; GET /products/{id} still answers it). Its sku stays taken.
 * Archiving an archived product changes nothing.
 */
export const archiveProduct =
  (deps: { uow: UnitOfWork<Products>; clock: Clock }) =>
  (actor: Actor, productId: string): Promise<E.Either<NotFound, Product>> =>
    setArchived(deps, actor, productId, true);

/** Brings an archived product back into lists and sales; restoring an active product changes nothing. */
export const restoreProduct =
  (deps: { uow: UnitOfWork<Products>; clock: Clock }) =>
  (actor: Actor, productId: string): Promise<E.Either<NotFound, Product>> =>
    setArchived(deps, actor, productId, false);

const setArchived = (deps: { uow: UnitOfWork<Products>; clock: Clock }, actor: Actor, productId: string, archived: boolean): Promise<E.Either<NotFound, Product>> =>
  deps.uow.run(async (r) => {
    const product = await r.products.findById(actor.businessId, productId);
    if (!product) return E.left(notFound);
    if ((product.archivedAt !== null) === archived) return E.right(product);
    const now = deps.clock.now();
    product.archivedAt = archived ? now : null;
    product.updatedAt = now;
    await r.products.save(product); // the sku is unchanged, so it cannot clash
    return E.right(product);
  });
