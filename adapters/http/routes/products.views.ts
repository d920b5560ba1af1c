import { isLowStock, MOVEMENT_REASONS, PRODUCT_TYPES, type StockMovement } from '../../../domain/product.js';
import type { ProductWithStock } from '../../../application/products/branch-stock.js';
import { dateTime, doc, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { nairaJson, nairaSchema, dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';

// The JSON views of a product and a stock ledger row, and the shapes the OpenAPI document gives them.

export const productJson = (p: ProductWithStock) => ({
  id: p.id,
  business_id: p.businessId,
  name: p.name,
  sku: p.sku,
  price: nairaJson(p.price),
  cost_price: nairaJson(p.costPrice),
  quantity: p.quantity,
  stock: p.stock.map((s) => ({ branch_id: s.branchId, branch_name: s.branchName, quantity: s.quantity })),
  category: p.category,
  type: p.type,
  low_stock_threshold: p.lowStockThreshold,
  is_low_stock: isLowStock(p),
  barcode: p.barcode,
  unit: p.unit,
  vat_exempt: p.vatExempt,
  archived_at: dateTimeJsonOrNull(p.archivedAt),
  created_at: dateTimeJson(p.createdAt),
  updated_at: dateTimeJson(p.updatedAt),
});

const nullableNaira = doc('naira or null', nairaSchema({ type: ['number', 'null'] }));
export const branchStockShape = shape('BranchStock', { branch_id: uuid, branch_name: str, quantity: int });
const nullableInt = doc('integer or null', { type: ['integer', 'null'] });
export const productShape = shape('Product', {
  id: uuid,
  business_id: uuid,
  name: str,
  sku: str,
  price: doc('naira', nairaSchema()),
  cost_price: nullableNaira,
  quantity: int,
  stock: doc('stock', { type: 'array', items: jsonSchemaOf(branchStockShape) }),
  category: nullableStr,
  type: doc('type', { type: 'string', enum: [...PRODUCT_TYPES] }),
  low_stock_threshold: nullableInt,
  is_low_stock: doc('boolean', { type: 'boolean' }),
  barcode: nullableStr,
  unit: nullableStr,
  vat_exempt: doc('boolean', { type: 'boolean' }),
  archived_at: doc('date-time or null', { type: ['string', 'null'], format: 'date-time' }),
  created_at: dateTime,
  updated_at: dateTime,
}, {
  archived_at: 'when the product was archived (DELETE /products/{id}); null while it is active and can be sold',
  quantity: 'the total over the business\'s branches',
  vat_exempt: 'exempt from VAT (basic food, medical and educational items): sold at a VAT rate of 0 by a VAT-registered business (docs/adr/0054)',
  stock: 'the quantity at each active branch, the default branch first (empty for a service)',
});

export const movementJson = (m: StockMovement) => ({
  id: m.id,
  product_id: m.productId,
  branch_id: m.branchId,
  quantity_change: m.quantityChange,
  quantity_before: m.quantityBefore,
  quantity_after: m.quantityAfter,
  reason: m.reason,
  note: m.note,
  unit_cost: nairaJson(m.unitCost),
  created_by: m.createdBy,
  created_at: dateTimeJson(m.createdAt),
  transfer_id: m.transferId ?? null,
});

export const movementShape = shape('StockAdjustment', {
  id: uuid,
  product_id: uuid,
  branch_id: uuid,
  quantity_change: int,
  quantity_before: int,
  quantity_after: int,
  reason: doc('reason', { type: 'string', enum: [...MOVEMENT_REASONS] }),
  note: nullableStr,
  unit_cost: nullableNaira,
  created_by: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }),
  created_at: dateTime,
  transfer_id: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }),
}, { quantity_before: 'the branch\'s quantity before', quantity_after: 'the branch\'s quantity after', transfer_id: 'the stock transfer (TRANSFER_OUT and TRANSFER_IN rows)' });
