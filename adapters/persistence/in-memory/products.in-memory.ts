import type { ProductRepositories, QuantityChange, StockChangeOptions } from '../../../application/products/ports.js';
import { isLowStock, MAX_STOCK, type BranchStock, type Product, type StockMovement, type StockTransfer } from '../../../domain/product.js';
import type { Branch } from '../../../domain/business.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, after, rowKey, values } from './rows.js';

/** One product's stock at one branch (keyed `productId:branchId`). */
export interface ProductStockRow {
  readonly businessId: string;
  readonly productId: string;
  readonly branchId: string;
  quantity: number;
}

/** The products module's tables: the catalogue, the stock per branch, the ledger and the transfers (headers). */
export interface ProductTables {
  products: Map<string, Product>;
  productStock: Map<string, ProductStockRow>;
  stockMovements: Map<string, StockMovement>;
  stockTransfers: Map<string, Omit<StockTransfer, 'items'>>;
}

/** The business module's branches table, read for the branches' names (the join the SQL adapter makes). */
type BranchReads = { branches: Map<string, Branch> };

/** A stock row's key. */
const stockKey = (productId: string, branchId: string) => `${productId}:${branchId}`;

/** The lines of a transfer: its TRANSFER_OUT rows. */
const transferItems = (t: ProductTables, transferId: string) =>
  values(t.stockMovements)
    .filter((m) => m.transferId === transferId && m.reason === 'TRANSFER_OUT')
    .sort((a, b) => (a.productId < b.productId ? -1 : 1))
    .map((m) => ({ productId: m.productId, quantity: -m.quantityChange }));

/** Copies of the business's products (only those: a lookup row by row must not copy every table, ADR 0079). */
const productsOf = (t: ProductTables, businessId: string) => [...t.products.values()].filter((p) => p.businessId === businessId).map(copy);
/** A copy of the business's first product that `match` accepts (read in place, one copied). */
const productWhere = (t: ProductTables, businessId: string, match: (p: Product) => boolean) => {
  for (const p of t.products.values()) if (p.businessId === businessId && match(p)) return copy(p);
  return undefined;
};
const skuTaken = (t: ProductTables, p: Product) => productWhere(t, p.businessId, (x) => x.id !== p.id && x.sku.toLowerCase() === p.sku.toLowerCase()) !== undefined;

/** The products module in memory: the catalogue and the stock ledger. */
export const inMemoryProductsModule: InMemoryModule<ProductTables, ProductRepositories, BranchReads> = {
  tables: () => ({ products: new Map(), productStock: new Map(), stockMovements: new Map(), stockTransfers: new Map() }),
  repositories: (t) => {
    const changeQuantity = (businessId: string, id: string, branchId: string, change: number, at: Date, options: StockChangeOptions): QuantityChange | undefined => {
      const p = t.products.get(id);
      if (!p || p.businessId !== businessId) return undefined;
      const row = t.productStock.get(stockKey(id, branchId));
      const before = row?.quantity ?? 0;
      if (change === 0) return { ok: true, before, after: before, total: p.quantity };
      if (p.type === 'SERVICE') return { ok: false, available: 0, reason: change < 0 ? 'INSUFFICIENT' : 'LIMIT' };
      if (before + change < (options.belowZero ? -MAX_STOCK : 0)) return { ok: false, available: before, reason: 'INSUFFICIENT' };
      if (p.quantity + change > MAX_STOCK) return { ok: false, available: before, reason: 'LIMIT' };
      t.productStock.set(stockKey(id, branchId), { businessId, productId: id, branchId, quantity: before + change });
      p.quantity += change;
      p.updatedAt = at;
      return { ok: true, before, after: before + change, total: p.quantity };
    };
    const addMovement = (m: StockMovement): Date => {
      const createdAt = after([...t.stockMovements.values()].filter((x) => x.businessId === m.businessId && x.productId === m.productId), m.createdAt);
      t.stockMovements.set(rowKey(m.businessId, m.id), copy({ ...m, createdAt }));
      return createdAt;
    };
    return {
      products: {
        findById: async (businessId, id) => productWhere(t, businessId, (p) => p.id === id),
        findMany: async (businessId, ids) => productsOf(t, businessId).filter((p) => ids.includes(p.id)),
        lockBySkus: async () => undefined, // transactions are already serialised
        findBySku: async (businessId, sku) => productWhere(t, businessId, (p) => p.sku.toLowerCase() === sku.toLowerCase()),
        list: async (businessId, page, filter) =>
          keysetPageInMemory(
            productsOf(t, businessId).filter(
              (p) =>
                (filter.archived ? p.archivedAt !== null : p.archivedAt === null) &&
                (filter.category === undefined || p.category?.toLowerCase() === filter.category.toLowerCase()) &&
                (!filter.type || p.type === filter.type) &&
                (!filter.lowStock || isLowStock(p)),
            ),
            page,
            {
              sortValue: (p, by) =>
                by === 'name' ? p.name : by === 'price' ? p.price : by === 'quantity' ? p.quantity : (by === 'updated_at' ? p.updatedAt : p.createdAt).toISOString(),
              id: (p) => p.id,
              searchText: (p) => [`${p.name} ${p.sku} ${p.category ?? ''} ${p.barcode ?? ''}`],
              date: (p) => p.createdAt,
            },
          ),
        categories: async (businessId) => {
          const counts = new Map<string, { name: string; productCount: number }>();
          for (const p of productsOf(t, businessId)) {
            if (p.category === null || p.archivedAt !== null) continue;
            const key = p.category.toLowerCase();
            const entry = counts.get(key) ?? { name: p.category, productCount: 0 };
            if (p.category < entry.name) entry.name = p.category;
            entry.productCount += 1;
            counts.set(key, entry);
          }
          return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
        },
        add: async (p) => {
          if (skuTaken(t, p)) return 'duplicate_sku';
          t.products.set(p.id, copy(p));
          return 'added';
        },
        save: async (p) => {
          if (skuTaken(t, p)) return 'duplicate_sku';
          const stored = t.products.get(p.id);
          if (stored && stored.businessId === p.businessId) t.products.set(p.id, { ...copy(p), quantity: stored.quantity });
          return 'saved';
        },
        changeQuantity: async (businessId, id, branchId, change, at, options = {}) => changeQuantity(businessId, id, branchId, change, at, options),
        changeQuantities: async (businessId, branchId, changes, at, options = {}) => {
          if (new Set(changes.map((c) => c.productId)).size !== changes.length) throw new Error('changeQuantities takes each product once');
          return changes.map((c) => changeQuantity(businessId, c.productId, branchId, c.change, at, options));
        },
        stockOf: async (businessId, ids) => {
          const branches = values(t.branches)
            .filter((b) => b.businessId === businessId && b.archivedAt === null)
            .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
          const held = (id: string, branchId: string) => {
            const row = t.productStock.get(stockKey(id, branchId));
            return row && row.businessId === businessId ? row.quantity : 0;
          };
          const out = new Map<string, BranchStock[]>();
          for (const id of ids) out.set(id, branches.map((b) => ({ branchId: b.id, branchName: b.name, quantity: held(id, b.id) })));
          return out;
        },
      },
      stockLedger: {
        add: async (m) => addMovement(m),
        addMany: async (movements) => {
          if (new Set(movements.map((m) => m.productId)).size !== movements.length) throw new Error('addMany takes each product once');
          return movements.map(addMovement);
        },
        findById: async (businessId, id) => {
          const m = t.stockMovements.get(rowKey(businessId, id));
          return m ? copy(m) : undefined;
        },
        list: async (businessId, page, filter) =>
          keysetPageInMemory(
            values(t.stockMovements).filter(
              (m) =>
                m.businessId === businessId &&
                (!filter.productId || m.productId === filter.productId) &&
                (!filter.reason || m.reason === filter.reason) &&
                (!filter.branchId || m.branchId === filter.branchId),
            ),
            page,
            { sortValue: (m) => m.createdAt.toISOString(), id: (m) => m.id, searchText: (m) => [m.note], date: (m) => m.createdAt },
          ),
        forSale: async (businessId, saleId) =>
          values(t.stockMovements)
            .filter((m) => m.businessId === businessId && m.saleId === saleId)
            .sort((a, b) => (a.productId < b.productId ? -1 : 1)),
      },
      stockTransfers: {
        add: async (transfer) => {
          const { items: _items, ...header } = transfer;
          t.stockTransfers.set(transfer.id, copy(header));
        },
        findById: async (businessId, id) => {
          const h = t.stockTransfers.get(id);
          return h && h.businessId === businessId ? { ...copy(h), items: transferItems(t, id) } : undefined;
        },
        list: async (businessId, page, filter) => {
          const headers = keysetPageInMemory(
            values(t.stockTransfers).filter(
              (h) => h.businessId === businessId && (!filter.branchId || h.fromBranchId === filter.branchId || h.toBranchId === filter.branchId),
            ),
            page,
            { sortValue: (h) => h.createdAt.toISOString(), id: (h) => h.id, searchText: (h) => [h.note], date: (h) => h.createdAt },
          );
          return { ...headers, items: headers.items.map((h) => ({ ...h, items: transferItems(t, h.id) })) };
        },
      },
    };
  },
};
