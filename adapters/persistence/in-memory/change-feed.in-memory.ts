import type { Change, ChangeData, ChangeFeed, ChangeKind } from '../../../application/sync/ports.js';
import type { Customer } from '../../../domain/customer.js';
import type { Product } from '../../../domain/product.js';
import type { Sale } from '../../../domain/sale.js';
import type { ProductStockRow } from './products.in-memory.js';

// The change feed in memory: the same contract as the SQL one (docs/adr/0034 addendum) with a counter
// for versions. Rows are stamped when the feed looks (every write is committed by then: transactions
// run one at a time here): a row whose feed content differs from what was last seen gets the next
// number, so a change committed after a pull's horizon always has a version at or above it.

export interface ChangeFeedTables {
  /** Per feed key (`kind:key`): the version and the content it was given for. */
  changeVersions: Map<string, { version: number; content: string }>;
  changeCounter: Map<'last', number>;
}

interface FeedSources {
  products: Map<string, Product>;
  productStock: Map<string, ProductStockRow>;
  customers: Map<string, unknown>;
  sales: Map<string, Sale>;
}

interface Current {
  readonly businessId: string;
  readonly kind: ChangeKind;
  readonly id: string;
  readonly key: string;
  readonly data: ChangeData | null;
  readonly branchId?: string;
}

const current = (t: FeedSources): Current[] => [
  ...[...t.customers.values()].map((raw): Current => {
    const c = raw as Customer;
    return { businessId: c.businessId, kind: 'customer', id: c.id, key: c.id, data: { kind: 'customer', id: c.id, name: c.name, phone: c.phone, creditLimit: c.creditLimit, creditBalance: c.creditBalance } };
  }),
  ...[...t.products.values()].map((p): Current => ({
    businessId: p.businessId, kind: 'product', id: p.id, key: p.id,
    data: p.archivedAt ? null : { kind: 'product', id: p.id, name: p.name, sku: p.sku, price: p.price, type: p.type, category: p.category, barcode: p.barcode, unit: p.unit, lowStockThreshold: p.lowStockThreshold, vatExempt: p.vatExempt },
  })),
  ...[...t.sales.values()]
    .filter((s) => s.status === 'VOIDED' && s.voidedAt)
    .map((s): Current => ({ businessId: s.businessId, kind: 'sale', id: s.id, key: s.id, data: { kind: 'sale', id: s.id, receiptNumber: s.receiptNumber, status: 'VOIDED', voidedAt: s.voidedAt! } })),
  ...[...t.productStock.values()].map((s): Current => ({
    businessId: s.businessId, kind: 'stock', id: s.productId, key: `${s.productId}:${s.branchId}`, branchId: s.branchId,
    data: { kind: 'stock', productId: s.productId, branchId: s.branchId, quantity: s.quantity },
  })),
];

/** Gives each row whose feed content changed since it was last seen the next version. */
const stamp = (t: ChangeFeedTables & FeedSources): Map<string, number> => {
  let last = t.changeCounter.get('last') ?? 0;
  for (const row of current(t)) {
    const id = `${row.businessId}:${row.kind}:${row.key}`; // ids are per business (docs/adr/0039)
    const content = JSON.stringify(row.data);
    if (t.changeVersions.get(id)?.content !== content) t.changeVersions.set(id, { version: ++last, content });
  }
  t.changeCounter.set('last', last);
  return new Map([...t.changeVersions].map(([k, v]) => [k, v.version]));
};

const compare = (a: Change, b: { version: string; kind: string; key: string }): number =>
  Number(a.version) - Number(b.version) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export const inMemoryChangeFeed = (t: ChangeFeedTables & FeedSources): ChangeFeed => ({
  horizon: async () => {
    stamp(t);
    // nothing is ever in flight here: every version below the next one is seen
    const next = (t.changeCounter.get('last') ?? 0) + 1;
    return { snapshot: `${next}:${next}:`, next: String(next) };
  },
  changes: async (businessId, q) => {
    const versions = stamp(t);
    const [xmin, xmax, xip] = q.since.split(':') as [string, string, string];
    const unseen = (v: bigint) => v >= BigInt(xmax) || (xip !== '' && xip.split(',').map(BigInt).includes(v));
    return current(t)
      .filter((r) => r.businessId === businessId && (r.kind !== 'stock' || !q.branchId || r.branchId === q.branchId))
      .map((r): Change => ({ kind: r.kind, id: r.id, key: r.key, version: String(versions.get(`${r.businessId}:${r.kind}:${r.key}`)!), data: structuredClone(r.data) }))
      .filter((c) => BigInt(c.version) >= BigInt(xmin) && unseen(BigInt(c.version)) && (!q.after || compare(c, q.after) > 0))
      .sort(compare)
      .slice(0, q.limit);
  },
});
