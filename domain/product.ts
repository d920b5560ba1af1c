import type { Kobo } from './money.js';

/** A SERVICE (a haircut, a repair) is sold like a product but keeps no stock. */
export const PRODUCT_TYPES = ['PRODUCT', 'SERVICE'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** Branch stock is not split yet: one quantity per product (docs/adr/0009). */
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
  readonly createdAt: Date;
  updatedAt: Date;
}

/** Why stock moved. The first six are what a person records; the rest are written by the system. */
export const ADJUSTMENT_REASONS = ['RESTOCK', 'DAMAGE', 'LOSS', 'RETURN', 'CORRECTION', 'OTHER'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];
export const MOVEMENT_REASONS = [...ADJUSTMENT_REASONS, 'INITIAL', 'IMPORT', 'SALE', 'SALE_VOID'] as const;
export type MovementReason = (typeof MOVEMENT_REASONS)[number];

/** One row of the stock ledger: every change of a product's quantity writes exactly one. */
export interface StockMovement {
  readonly id: string;
  readonly businessId: string;
  readonly productId: string;
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
}

/** The most units of one product a business can hold (the column is a 32-bit integer; documented in ADR 0012). */
export const MAX_STOCK = 1_000_000_000;

export type ProductRuleViolation = { readonly field: string; readonly message: string };

/** Rules a product must keep (422 when broken): no negative money, services hold no stock. */
export const checkProduct = (p: Pick<Product, 'price' | 'costPrice' | 'quantity' | 'type' | 'lowStockThreshold'>): ProductRuleViolation[] => {
  const v: ProductRuleViolation[] = [];
  if (p.price < 0) v.push({ field: 'price', message: 'must not be negative' });
  if (p.costPrice !== null && p.costPrice < 0) v.push({ field: 'cost_price', message: 'must not be negative' });
  if (p.quantity < 0) v.push({ field: 'quantity', message: 'must not be negative' });
  if (p.quantity > MAX_STOCK) v.push({ field: 'quantity', message: `must be at most ${MAX_STOCK}` });
  if (p.type === 'SERVICE' && p.quantity !== 0) v.push({ field: 'quantity', message: 'a service keeps no stock' });
  if (p.lowStockThreshold !== null && p.lowStockThreshold < 0) v.push({ field: 'low_stock_threshold', message: 'must not be negative' });
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
