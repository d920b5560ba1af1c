import type { ProductRepositories } from '../../../application/products/ports.js';
import { isLowStock, MAX_STOCK, type Product, type StockMovement } from '../../../domain/product.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, after, values } from './rows.js';

/** The products module's tables: the catalogue and the stock ledger. */
export interface ProductTables {
  products: Map<string, Product>;
  stockMovements: Map<string, StockMovement>;
}

const productsOf = (t: ProductTables, businessId: string) => values(t.products).filter((p) => p.businessId === businessId);
const skuTaken = (t: ProductTables, p: Product) =>
  productsOf(t, p.businessId).some((x) => x.id !== p.id && x.sku.toLowerCase() === p.sku.toLowerCase());

/** The products module in memory: the catalogue and the stock ledger. */
export const inMemoryProductsModule: InMemoryModule<ProductTables, ProductRepositories> = {
  tables: () => ({ products: new Map(), stockMovements: new Map() }),
  repositories: (t) => ({
    products: {
      findById: async (businessId, id) => productsOf(t, businessId).find((p) => p.id === id),
      findMany: async (businessId, ids) => productsOf(t, businessId).filter((p) => ids.includes(p.id)),
      lockBySkus: async () => undefined, // transactions are already serialised
      findBySku: async (businessId, sku) => productsOf(t, businessId).find((p) => p.sku.toLowerCase() === sku.toLowerCase()),
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
      changeQuantity: async (businessId, id, change, at) => {
        const p = t.products.get(id);
        if (!p || p.businessId !== businessId) return undefined;
        if (p.quantity + change < 0) return { ok: false, available: p.quantity, reason: 'INSUFFICIENT' };
        if (p.quantity + change > MAX_STOCK) return { ok: false, available: p.quantity, reason: 'LIMIT' };
        const before = p.quantity;
        p.quantity += change;
        p.updatedAt = at;
        return { ok: true, before, after: p.quantity };
      },
    },
    stockLedger: {
      add: async (m) => {
        const createdAt = after(values(t.stockMovements).filter((x) => x.businessId === m.businessId && x.productId === m.productId), m.createdAt);
        t.stockMovements.set(m.id, copy({ ...m, createdAt }));
        return createdAt;
      },
      findById: async (businessId, id) => {
        const m = t.stockMovements.get(id);
        return m && m.businessId === businessId ? copy(m) : undefined;
      },
      list: async (businessId, page, filter) =>
        keysetPageInMemory(
          values(t.stockMovements).filter(
            (m) => m.businessId === businessId && (!filter.productId || m.productId === filter.productId) && (!filter.reason || m.reason === filter.reason),
          ),
          page,
          { sortValue: (m) => m.createdAt.toISOString(), id: (m) => m.id, searchText: (m) => [m.note], date: (m) => m.createdAt },
        ),
      forSale: async (businessId, saleId) =>
        values(t.stockMovements)
          .filter((m) => m.businessId === businessId && m.saleId === saleId)
          .sort((a, b) => (a.productId < b.productId ? -1 : 1)),
    },
  }),
};
