import type { adjustStock, getStockMovement, listStockMovements } from '../../../application/products/adjust-stock.js';
import type { archiveProduct, createProduct, getProduct, listCategories, listProducts, restoreProduct, updateProduct, ProductFields } from '../../../application/products/manage-products.js';
import type { productsWithStock } from '../../../application/products/branch-stock.js';
import type { Product } from '../../../domain/product.js';
import type { Actor } from '../../../domain/roles.js';
import { MOVEMENT_SORTS, PRODUCT_SORTS } from '../../../application/products/ports.js';
import { ADJUSTMENT_REASONS, MOVEMENT_REASONS, PRODUCT_TYPES } from '../../../domain/product.js';
import { booleanInput, doc, enumOf, int, integer, nonZeroInteger, jsonSchemaOf, money, object, orNull, queryFlag, shape, str, text, uuidInput } from '../codecs.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { created, ok, OWNER_AND_STAFF, OWNER_ONLY, route } from '../route.js';
import { movementJson, movementShape, productJson, productShape } from './products.views.js';

export interface ProductUseCases {
  readonly createProduct: ReturnType<typeof createProduct>;
  readonly getProduct: ReturnType<typeof getProduct>;
  readonly listProducts: ReturnType<typeof listProducts>;
  readonly listCategories: ReturnType<typeof listCategories>;
  readonly updateProduct: ReturnType<typeof updateProduct>;
  readonly archiveProduct: ReturnType<typeof archiveProduct>;
  readonly restoreProduct: ReturnType<typeof restoreProduct>;
  readonly adjustStock: ReturnType<typeof adjustStock>;
  readonly listStockMovements: ReturnType<typeof listStockMovements>;
  readonly getStockMovement: ReturnType<typeof getStockMovement>;
  readonly productsWithStock: ReturnType<typeof productsWithStock>;
  readonly paging: Paging;
}

/** A product as answered: with its stock per branch. */
const productView = async (uc: ProductUseCases, actor: Actor, product: Product) => productJson((await uc.productsWithStock(actor, [product]))[0]!);

const TAG = 'Products';

const productFields = {
  sku: text(1, 64),
  cost_price: orNull(money),
  quantity: integer(),
  category: orNull(text(1, 80)),
  type: enumOf('type', PRODUCT_TYPES),
  low_stock_threshold: orNull(integer()),
  barcode: orNull(text(1, 64)),
  unit: orNull(text(1, 20)),
  vat_exempt: booleanInput,
};

type ProductBody = {
  name?: string;
  price?: ProductFields['price'];
  sku?: string;
  cost_price?: ProductFields['costPrice'];
  quantity?: number;
  category?: string | null;
  type?: ProductFields['type'];
  low_stock_threshold?: number | null;
  barcode?: string | null;
  unit?: string | null;
  vat_exempt?: boolean;
};

/** The JSON body's snake_case fields as the use case's fields (only those present). */
export const productFieldsOf = (b: ProductBody): Partial<ProductFields> => {
  const out: Record<string, unknown> = {
    name: b.name,
    sku: b.sku,
    price: b.price,
    costPrice: b.cost_price,
    quantity: b.quantity,
    category: b.category,
    type: b.type,
    lowStockThreshold: b.low_stock_threshold,
    barcode: b.barcode,
    unit: b.unit,
    vatExempt: b.vat_exempt,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Partial<ProductFields>;
};

import { CLIENT_FIELDS, CLIENT_FIELDS_DESCRIPTION, clientMade, createdOnce, REPLAYED_HEADER } from '../client-made.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export const productRoutes = (uc: ProductUseCases) => [
  route({
    method: 'get',
    path: '/products/categories',
    operationId: 'listProductCategories',
    tag: TAG,
    summary: 'Product categories with their product counts',
    description: 'Every category of the business (case-insensitive), as one page.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: {
      status: 200,
      description: 'Categories',
      data: doc('CategoryPage', pageSchema(jsonSchemaOf(shape('Category', { name: str, product_count: int })))),
    },
    errors: [],
    handler: async ({ actor }) => {
      const categories = await uc.listCategories(actor);
      return ok('Categories', {
        content: categories.map((c) => ({ name: c.name, product_count: c.productCount })),
        cursor: null,
        has_next: false,
        limit: categories.length,
      });
    },
  }),
  route({
    method: 'post',
    path: '/products/stock-adjustment',
    operationId: 'adjustStock',
    tag: TAG,
    summary: 'Record a stock adjustment',
    description:
      'Moves the quantity at a branch (branch_id, else your assigned branch, else the default) by quantity_change (non-zero; negative ' +
      'takes stock) and writes a ledger row in the same transaction. Going below zero at the branch is 409 INSUFFICIENT_STOCK; a total ' +
      'above 1,000,000,000 units (the most a product holds) is 422 STOCK_LIMIT_EXCEEDED. Staff with an assigned branch adjust only ' +
      'there (403 WRONG_BRANCH). Honours Idempotency-Key. ' +
      'Take product_id from GET /products first.' + CLIENT_FIELDS_DESCRIPTION,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { product_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', quantity_change: 24, reason: 'RESTOCK', note: 'Two cartons from the supplier', unit_cost: 450 },
    body: object(
      'StockAdjustmentRequest',
      { product_id: uuidInput, quantity_change: nonZeroInteger, reason: enumOf('reason', ADJUSTMENT_REASONS) },
      { note: text(1, 500), unit_cost: money, branch_id: uuidInput, ...CLIENT_FIELDS },
    ),
    success: { status: 201, description: 'The ledger row, with quantity before and after', data: movementShape, headers: REPLAYED_HEADER },
    failures: failuresOf<FailureOf<typeof uc.adjustStock>>({
      NotFound: true, ClientIdConflict: true, UnknownBranch: true, NegativePrice: true, ZeroQuantityChange: true, InsufficientStock: true,
      ServiceHasNoStock: true, StockLimitExceeded: true, WrongBranch: true,
    }),
    errors: [],
    handler: async ({ actor, body }) => {
      const movement = successOf(await uc.adjustStock(actor, {
        productId: body.product_id,
        quantityChange: body.quantity_change,
        reason: body.reason,
        ...(body.note !== undefined ? { note: body.note } : {}),
        ...(body.unit_cost !== undefined ? { unitCost: body.unit_cost } : {}),
        ...(body.branch_id !== undefined ? { branchId: body.branch_id } : {}),
        ...clientMade(body),
      }), 'product');
      return createdOnce('Stock adjusted', movementJson(movement), movement.replayed);
    },
  }),
  route({
    method: 'get',
    path: '/products/stock-adjustments',
    operationId: 'listStockAdjustments',
    tag: TAG,
    summary: 'The stock ledger',
    description:
      'Every change of quantity at a branch (adjustments, product updates, imports, sales, voids, transfers), newest first. Filters ' +
      'product_id, reason, branch_id. Each row\'s quantity_before and quantity_after are its branch\'s.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('StockAdjustmentListQuery', MOVEMENT_SORTS, { product_id: uuidInput, reason: enumOf('reason', MOVEMENT_REASONS), branch_id: uuidInput }),
    success: { status: 200, description: 'A page of ledger rows', data: doc('StockAdjustmentPage', pageSchema(jsonSchemaOf(movementShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listStockAdjustments', query, 'created_at');
      const page = await uc.listStockMovements(actor, req, {
        ...(query.product_id ? { productId: query.product_id } : {}),
        ...(query.reason ? { reason: query.reason } : {}),
        ...(query.branch_id ? { branchId: query.branch_id } : {}),
      });
      return ok('Stock adjustments', uc.paging.render('listStockAdjustments', query, req, page, movementJson));
    },
  }),
  route({
    method: 'get',
    path: '/products/stock-adjustments/:id',
    operationId: 'getStockAdjustment',
    tag: TAG,
    summary: 'One ledger row',
    description:
      'One row of the stock ledger (a sale, a void, an adjustment or an import): the quantity before and after, who made it and why. Rows are never changed or deleted.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The ledger row', data: movementShape },
    failures: failuresOf<FailureOf<typeof uc.getStockMovement>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      return ok('Stock adjustment', movementJson(successOf(await uc.getStockMovement(actor, params.id), 'stock adjustment')));
    },
  }),
  route({
    method: 'post',
    path: '/products',
    operationId: 'createProduct',
    tag: TAG,
    summary: 'Create a product or service',
    description:
      'name and price are required; sku is generated when absent (unique per business, ignoring case); quantity defaults to 0 ' +
      'and is the default branch\'s opening stock, recorded in the stock ledger; a SERVICE keeps no stock. The answer\'s quantity is the ' +
      'total over the branches and stock lists each branch\'s (move stock between branches with POST /products/stock-transfers).',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { name: 'Peak Milk 400g', price: 1500, sku: 'PEAK-400', cost_price: 1200, quantity: 48, category: 'Provisions', low_stock_threshold: 6, unit: 'tin' },
    body: object('CreateProductRequest', { name: text(1, 200), price: money }, productFields),
    success: { status: 201, description: 'The product', data: productShape },
    failures: failuresOf<FailureOf<typeof uc.createProduct>>({ DuplicateSku: true, ProductRulesBroken: true }),
    errors: [],
    handler: async ({ actor, body }) => {
      return created('Product created', await productView(uc, actor, successOf(await uc.createProduct(actor, productFieldsOf(body) as ProductFields), 'product')));
    },
  }),
  route({
    method: 'get',
    path: '/products',
    operationId: 'listProducts',
    tag: TAG,
    summary: 'Products',
    description:
      'Owner or staff. Paged (keyset). search: name, sku, category, barcode. Filters category, type, low_stock=true. ' +
      'Archived products are not listed; archived=true lists only them (to restore one).',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('ProductListQuery', PRODUCT_SORTS, {
      category: text(1, 80),
      type: enumOf('type', PRODUCT_TYPES),
      low_stock: queryFlag,
      archived: queryFlag,
    }),
    success: { status: 200, description: 'A page of products', data: doc('ProductPage', pageSchema(jsonSchemaOf(productShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listProducts', query, 'created_at');
      const page = await uc.listProducts(actor, req, {
        ...(query.category !== undefined ? { category: query.category } : {}),
        ...(query.type ? { type: query.type } : {}),
        ...(query.low_stock ? { lowStock: true } : {}),
        ...(query.archived ? { archived: true } : {}),
      });
      return ok('Products', uc.paging.render('listProducts', query, req, page, productJson));
    },
  }),
  route({
    method: 'get',
    path: '/products/:id',
    operationId: 'getProduct',
    tag: TAG,
    summary: 'A product',
    description: 'Owner or staff. An archived product is still answered (archived_at set), so old sales and receipts can link to it.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The product', data: productShape },
    failures: failuresOf<FailureOf<typeof uc.getProduct>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      return ok('Product', await productView(uc, actor, successOf(await uc.getProduct(actor, params.id), 'product')));
    },
  }),
  route({
    method: 'put',
    path: '/products/:id',
    operationId: 'updateProduct',
    tag: TAG,
    summary: 'Update a product (owner)',
    description:
      'Fields present are updated (null clears an optional one). A new quantity is the default branch\'s, recorded as a CORRECTION in ' +
      'the stock ledger (other branches\' stock moves with POST /products/stock-adjustment and stock-transfers); the answer\'s quantity is the total.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: { price: 1550, low_stock_threshold: 10 },
    body: object('UpdateProductRequest', {}, { name: text(1, 200), price: money, ...productFields }),
    success: { status: 200, description: 'The product', data: productShape },
    failures: failuresOf<FailureOf<typeof uc.updateProduct>>({ NotFound: true, DuplicateSku: true, ProductRulesBroken: true }),
    errors: [],
    handler: async ({ actor, params, body }) => {
      return ok('Product updated', await productView(uc, actor, successOf(await uc.updateProduct(actor, params.id, productFieldsOf(body)), 'product')));
    },
  }),
  route({
    method: 'delete',
    path: '/products/:id',
    operationId: 'archiveProduct',
    tag: TAG,
    summary: 'Archive a product (owner)',
    description:
      'Owner only. Archives rather than erases (Stripe\'s "active: false"): the product leaves GET /products, the categories, the ' +
      'export and new sales (POST /sales answers 422 PRODUCT_ARCHIVED), and keeps its history: old sales, receipts and ledger rows ' +
      'still name it, GET /products/{id} still answers it with archived_at set, and GET /products?archived=true lists it. Its sku ' +
      'stays taken (a new product with it is 409 DUPLICATE_SKU; restore it instead). Archiving an archived product changes nothing (200).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The archived product', data: productShape },
    failures: failuresOf<FailureOf<typeof uc.archiveProduct>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      return ok('Product archived', await productView(uc, actor, successOf(await uc.archiveProduct(actor, params.id), 'product')));
    },
  }),
  route({
    method: 'post',
    path: '/products/:id/restore',
    operationId: 'restoreProduct',
    tag: TAG,
    summary: 'Restore an archived product (owner)',
    description: 'Owner only. Brings an archived product back into the lists and sales (archived_at null). Restoring an active product changes nothing (200).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The restored product', data: productShape },
    failures: failuresOf<FailureOf<typeof uc.restoreProduct>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      return ok('Product restored', await productView(uc, actor, successOf(await uc.restoreProduct(actor, params.id), 'product')));
    },
  }),
];
