import type { BranchStock, MovementReason, Product, ProductType, StockMovement, StockTransfer } from '../../domain/product.js';
import type { Page, PageRequest } from '../ports/list.js';

// The products module's ports: the catalogue and the stock ledger.

export const PRODUCT_SORTS = ['created_at', 'updated_at', 'name', 'price', 'quantity'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export interface ProductFilter {
  readonly category?: string;
  readonly type?: ProductType;
  /** Only products at or below their low-stock threshold. */
  readonly lowStock?: boolean;
  /** Archived products only (true) instead of the active ones (the default). */
  readonly archived?: boolean;
}

/** before and after: the branch's quantity; total: the product's over every branch, after the change. */
/** `belowZero`: a synced offline sale takes what it sold even past zero (docs/adr/0034); every other move stops at zero. */
export interface StockChangeOptions {
  readonly belowZero?: boolean;
}

/** One product's change in `changeQuantities`. */
export interface QuantityChangeOf {
  readonly productId: string;
  readonly change: number;
}

export type QuantityChange =
  | { readonly ok: true; readonly before: number; readonly after: number; readonly total: number }
  /** INSUFFICIENT: the branch's would go below zero (available: the branch's); LIMIT: the product's total above MAX_STOCK. */
  | { readonly ok: false; readonly available: number; readonly reason: 'INSUFFICIENT' | 'LIMIT' };

/** Products of one business. SKUs are unique per business, case-insensitively. */
export interface ProductRepository {
  findById(businessId: string, productId: string): Promise<Product | undefined>;
  findBySku(businessId: string, sku: string): Promise<Product | undefined>;
  /**
   * Locks the business's products with these skus (any case) to the end of the transaction, in id
   * order: the order a sale locks its lines in, so an import and a sale never wait on each other in a cycle.
   */
  lockBySkus(businessId: string, skus: readonly string[]): Promise<void>;
  /** The products among `productIds` that belong to the business (one query for a whole cart). */
  findMany(businessId: string, productIds: readonly string[]): Promise<Product[]>;
  list(businessId: string, page: PageRequest<ProductSort>, filter: ProductFilter): Promise<Page<Product>>;
  /** Category names with how many products each has. */
  categories(businessId: string): Promise<{ name: string; productCount: number }[]>;
  add(product: Product): Promise<'added' | 'duplicate_sku'>;
  /** Saves every field but the quantity, which only `changeQuantity` moves. */
  save(product: Product): Promise<'saved' | 'duplicate_sku'>;
  /**
   * Adds `change` (negative to take) to the product's stock at the branch, and to its total, in one
   * conditional statement that locks the product's row first, then the branch's stock row (the one
   * lock order of every stock writer), so concurrent changes never lose one, no branch goes below
   * zero and the total stays at most MAX_STOCK. undefined when the product does not exist.
   */
  changeQuantity(businessId: string, productId: string, branchId: string, change: number, at: Date, options?: StockChangeOptions): Promise<QuantityChange | undefined>;
  /**
   * `changeQuantity` for several distinct products at one branch, in one statement where the store
   * can (a sale of three products: one round trip, not three), with the same lock order: every
   * product's row in id order, then its stock row. Answers in the order of `changes`. Every change
   * that can be made is made, so a caller that meets a refusal rolls its transaction back.
   */
  changeQuantities(businessId: string, branchId: string, changes: readonly QuantityChangeOf[], at: Date, options?: StockChangeOptions): Promise<(QuantityChange | undefined)[]>;
  /**
   * Each given product's stock at every active branch of the business, default branch first (0 where
   * none is held). The caller passes its own PRODUCTs (a service keeps no stock); only the business's
   * stock rows are read, so another business's id reads as 0 everywhere.
   */
  stockOf(businessId: string, productIds: readonly string[]): Promise<Map<string, BranchStock[]>>;
}

export const MOVEMENT_SORTS = ['created_at'] as const;
export type MovementSort = (typeof MOVEMENT_SORTS)[number];

/** The append-only stock ledger. */
export interface StockLedger {
  /**
   * Appends a movement; answers the time recorded: its createdAt, or 1 ms after the product's previous
   * movement when the clock has not passed it, so the ledger ordered by time reads as a chain.
   */
  add(movement: StockMovement): Promise<Date>;
  /** `add` for movements of distinct products, in one statement where the store can; the times in their order. */
  addMany(movements: readonly StockMovement[]): Promise<Date[]>;
  findById(businessId: string, movementId: string): Promise<StockMovement | undefined>;
  list(businessId: string, page: PageRequest<MovementSort>, filter: MovementFilter): Promise<Page<StockMovement>>;
  /** The rows a sale wrote (what its void must give back). */
  forSale(businessId: string, saleId: string): Promise<StockMovement[]>;
}

export interface MovementFilter {
  readonly productId?: string;
  readonly reason?: MovementReason;
  readonly branchId?: string;
}

export const TRANSFER_SORTS = ['created_at'] as const;
export type TransferSort = (typeof TRANSFER_SORTS)[number];

/** Transfers of stock between branches: the header; the lines are the ledger's TRANSFER_OUT rows. */
export interface StockTransferRepository {
  /** Stores the header (call it after the ledger rows, in the same transaction). */
  add(transfer: StockTransfer): Promise<void>;
  findById(businessId: string, transferId: string): Promise<StockTransfer | undefined>;
  list(businessId: string, page: PageRequest<TransferSort>, filter: { branchId?: string }): Promise<Page<StockTransfer>>;
}

/** The products module's repositories, as a unit of work hands them to a use case. */
export interface ProductRepositories {
  readonly products: ProductRepository;
  readonly stockLedger: StockLedger;
  readonly stockTransfers: StockTransferRepository;
}
