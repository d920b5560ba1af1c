import type { Kobo } from './money.js';

/** A SERVICE (a haircut, a repair) is sold like a product but keeps no stock. */
export const PRODUCT_TYPES = ['PRODUCT', 'SERVICE'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** `quantity` is the total over the business's branches; each branch's share is in product_stock (docs/adr/0032). */
export interface Product {
  readonly id: string;
  readonly businessId: string;
  name: string;
  sku: string;
  price: Kobo;
  costPrice: Kobo | null;
  quantity: number;
  category: string | null;
  type: ProductType;
  lowStockThreshold: number | null;
  barcode: string | null;
  unit: string | null;
  /** VAT-exempt (basic food, medical and educational items in Nigeria): its lines carry a VAT rate of 0 (docs/adr/0054). */
  vatExempt: boolean;
  /** When the product was archived: hidden from lists and sales, kept for history; null while active. */
  archivedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** Why stock moved. The first six are what a person records; the rest are written by the system. */
export const ADJUSTMENT_REASONS = ['RESTOCK', 'DAMAGE', 'LOSS', 'RETURN', 'CORRECTION', 'OTHER'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];
export const MOVEMENT_REASONS = [...ADJUSTMENT_REASONS, 'INITIAL', 'IMPORT', 'SALE', 'SALE_VOID', 'TRANSFER_OUT', 'TRANSFER_IN', 'INVOICE', 'INVOICE_CANCEL'] as const;
export type MovementReason = (typeof MOVEMENT_REASONS)[number];

/** One branch's stock of a product. */
export interface BranchStock {
  readonly branchId: string;
  readonly branchName: string;
  readonly quantity: number;
}

/**
 * One row of the stock ledger: every change of a product's quantity at a branch writes exactly one;
 * quantityBefore and quantityAfter are the branch's (the ledger chains per product and branch).
 */
export interface StockMovement {
  readonly id: string;
  readonly businessId: string;
  readonly productId: string;
  readonly branchId: string;
  readonly quantityChange: number;
  readonly quantityBefore: number;
  readonly quantityAfter: number;
  readonly reason: MovementReason;
  readonly note: string | null;
  readonly unitCost: Kobo | null;
  readonly createdBy: string | null;
  readonly createdAt: Date;
  /** The sale that moved the stock (SALE and SALE_VOID rows). */
  readonly saleId?: string | null;
  /** The transfer that moved the stock (TRANSFER_OUT and TRANSFER_IN rows). */
  readonly transferId?: string | null;
}

/** Stock moved from one branch to another; its lines are the TRANSFER_OUT / TRANSFER_IN ledger rows. */
export interface StockTransfer {
  readonly id: string;
  readonly businessId: string;
  readonly fromBranchId: string;
  readonly toBranchId: string;
  readonly note: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly items: readonly { readonly productId: string; readonly quantity: number }[];
}

/** Not enough of the product at the branch (`available`: what the branch holds). */
export type InsufficientStock = {
  readonly _tag: 'InsufficientStock';
  readonly productId: string;
  readonly available: number;
  readonly requested: number;
  readonly branchId: string;
  readonly branchName: string;
  /** The request's list the line is in, when not a sale's `items` (an invoice's `lines`). */
  readonly list?: 'items' | 'lines';
};
/** The change would take the product above MAX_STOCK units. */
export type StockLimitExceeded = { readonly _tag: 'StockLimitExceeded'; readonly productId: string; readonly available: number; readonly max: number };

/** The most units of one product a business can hold (the column is a 32-bit integer; documented in ADR 0012). */
export const MAX_STOCK = 1_000_000_000;

/** The rules a product keeps, each with its own name (the API answers each with its own error code). */
export type ProductRule = 'NEGATIVE_PRICE' | 'QUANTITY_MUST_NOT_BE_NEGATIVE' | 'STOCK_LIMIT_EXCEEDED' | 'SERVICE_HAS_NO_STOCK';
export type ProductRuleViolation = { readonly rule: ProductRule; readonly field: string; readonly message: string };

/** A product with stock cannot become a service (a service keeps none) unless its quantity goes to 0 too. */
export const serviceWithStock = (message: string): ProductRuleViolation => ({ rule: 'SERVICE_HAS_NO_STOCK', field: 'type', message });

/** Rules a product must keep (422 when broken): no negative money or counts, at most MAX_STOCK, services hold no stock. */
export const checkProduct = (p: Pick<Product, 'price' | 'costPrice' | 'quantity' | 'type' | 'lowStockThreshold'>): ProductRuleViolation[] => {
  const v: ProductRuleViolation[] = [];
  if (p.price < 0) v.push({ rule: 'NEGATIVE_PRICE', field: 'price', message: 'must not be negative' });
  if (p.costPrice !== null && p.costPrice < 0) v.push({ rule: 'NEGATIVE_PRICE', field: 'cost_price', message: 'must not be negative' });
  if (p.quantity < 0) v.push({ rule: 'QUANTITY_MUST_NOT_BE_NEGATIVE', field: 'quantity', message: 'must not be negative' });
  if (p.quantity > MAX_STOCK) v.push({ rule: 'STOCK_LIMIT_EXCEEDED', field: 'quantity', message: `must be at most ${MAX_STOCK}` });
  if (p.type === 'SERVICE' && p.quantity !== 0) v.push({ rule: 'SERVICE_HAS_NO_STOCK', field: 'quantity', message: 'a service keeps no stock' });
  if (p.lowStockThreshold !== null && p.lowStockThreshold < 0) {
    v.push({ rule: 'QUANTITY_MUST_NOT_BE_NEGATIVE', field: 'low_stock_threshold', message: 'must not be negative' });
  }
  return v;
};

/** True when a product's stock is at or below its low-stock threshold. */
export const isLowStock = (p: Pick<Product, 'type' | 'quantity' | 'lowStockThreshold'>): boolean =>
  p.type === 'PRODUCT' && p.lowStockThreshold !== null && p.quantity <= p.lowStockThreshold;

/** A generated SKU: readable prefix from the name plus random characters (unique per business). */
export const generateSku = (name: string, random: string): string => {
  const prefix = name.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 4) || 'ITEM';
  return `${prefix}-${random.toUpperCase()}`;
};
