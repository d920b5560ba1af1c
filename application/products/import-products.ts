import * as E from 'fp-ts/lib/Either.js';
import { serviceWithStock, checkProduct, MAX_STOCK, type Product } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { addProduct, recordPriceChange, setQuantity, stockElsewhere, tooMuchStock, type ProductFields } from './manage-products.js';
import type { ProductRepositories } from './ports.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Branch } from '../../domain/business.js';

/** A file may hold at most this many data rows (the header not counted). */
export const MAX_IMPORT_ROWS = 10_000;

/** What is wrong with one row: the row as a spreadsheet numbers it (the header is row 1) and the column. */
export interface ImportRowError {
  readonly row: number;
  readonly field: string;
  readonly message: string;
}

/**
 * One data row, its cells already decoded. A field is absent when its column is absent or its cell
 * is blank (then the product keeps its value, or gets the default); null when the file asked to clear
 * an optional field (the HTTP adapter's marker, ADR 0015). No sku: a new product, sku generated.
 */
export interface ImportRow {
  readonly row: number;
  readonly fields: Partial<ProductFields>;
  /** The `branch` cell (a branch's name, ignoring case, or its id): whose quantity the row sets; absent: the default branch's. */
  readonly branch?: string;
}

export interface ImportCommand {
  readonly rows: readonly ImportRow[];
  /** Cells that could not be decoded; a row with any is not applied, but its sku still counts for duplicates. */
  readonly decodeErrors: readonly ImportRowError[];
  /** Run everything, report, write nothing. */
  readonly dryRun: boolean;
}

export interface ImportReport {
  readonly dryRun: boolean;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Every invalid row's problems, by row then field order; those rows were not applied. */
  readonly errors: ImportRowError[];
}

type Repos = ProductRepositories & EventRepositories & Pick<BusinessRepositories, 'branches'>;
type Deps = { uow: UnitOfWork<Repos>; clock: Clock; crypto: Crypto };

/** The business's active branches, every page of them, to match the file's `branch` cells against. */
const activeBranches = async (deps: Deps, businessId: string): Promise<Branch[]> => {
  const all: Branch[] = [];
  let after: { value: string | number; id: string } | undefined;
  do {
    const page = await deps.uow.read((r) => r.branches.list(businessId, { sortBy: 'created_at', sortDir: 'asc', limit: 100, ...(after ? { after } : {}) }));
    all.push(...page.items);
    after = page.hasNext ? page.next : undefined;
  } while (after);
  return all;
};

/** The branch a `branch` cell names: its id, or its name ignoring case (the default branch when absent). */
const branchNamed = (branches: readonly Branch[], cell: string | undefined): Branch | undefined =>
  cell === undefined ? branches.find((b) => b.isDefault) : (branches.find((b) => b.id === cell) ?? branches.find((b) => b.name.toLowerCase() === cell.toLowerCase()));

const COMPARED = ['name', 'price', 'costPrice', 'category', 'type', 'lowStockThreshold', 'barcode', 'unit', 'vatExempt'] as const;

/**
 * How long a chunk's transaction should take where one transaction holds up every other (the embedded
 * PGlite, docs/adr/0041): every other request waits for the chunk under way. The rows of the next chunk
 * follow from the last one's time (a row costs a few ms on PGlite, more on a loaded machine), between
 * these bounds and at most doubling or halving from one chunk to the next. Where transactions run side
 * by side (PostgreSQL) a chunk holds only its own rows' locks: chunks of `sideBySide` rows from the second on.
 */
export const IMPORT_CHUNK_MS = 100;
export const IMPORT_CHUNK_ROWS = { first: 20, min: 10, max: 500, sideBySide: 200 } as const;

/** The next chunk's rows: about IMPORT_CHUNK_MS at the rate the last chunk went. */
export const nextChunkRows = (rows: number, ms: number): number => {
  const aimed = Math.round((rows * IMPORT_CHUNK_MS) / Math.max(ms, 1));
  return Math.max(IMPORT_CHUNK_ROWS.min, Math.ceil(rows / 2), Math.min(IMPORT_CHUNK_ROWS.max, rows * 2, aimed));
};

/**
 * Creates or updates products from an import, matched on sku ignoring case. Invalid rows are
 * reported and skipped; a sku may appear once per branch in a file. A row's quantity is its branch's
 * (the `branch` column; the default branch without it), and a change of it writes one IMPORT ledger row.
 * Valid rows are written in chunks of about IMPORT_CHUNK_MS each, each its own transaction, in sku order
 * with the existing rows locked in id order first (no deadlock with another import or a sale); between
 * two chunks the import gives way to the requests waiting for the database, for at most as long as the
 * last chunk took (ADR 0041). A failure midway keeps the chunks already written; the file's quantities
 * are absolute, so sending it again completes it (ADR 0012). A dry run does exactly the same work and
 * rolls each chunk back.
 */
export const importProducts =
  (deps: Deps) =>
  async (actor: Actor, command: ImportCommand): Promise<ImportReport> => {
    const errors: ImportRowError[] = [...command.decodeErrors];
    const broken = new Set(command.decodeErrors.map((e) => e.row));
    const branches = await activeBranches(deps, actor.businessId);
    const firstRowOfSku = new Map<string, number>();
    const applicable: (ImportRow & { branchId: string })[] = [];
    for (const entry of [...command.rows].sort((a, b) => a.row - b.row)) {
      const { row, fields } = entry;
      const branch = branchNamed(branches, entry.branch);
      if (!branch) {
        errors.push({ row, field: 'branch', message: 'is not an active branch of the business (its name or id)' });
        continue;
      }
      if (fields.sku !== undefined) {
        const key = `${fields.sku.toLowerCase()}\u0000${branch.id}`;
        const first = firstRowOfSku.get(key);
        if (first !== undefined) {
          const where = entry.branch === undefined ? '' : ` for branch ${entry.branch}`;
          errors.push({ row, field: 'sku', message: `appears more than once${where} in the file (first on row ${first})` });
          continue;
        }
        firstRowOfSku.set(key, row);
      }
      if (!broken.has(row)) applicable.push({ ...entry, branchId: branch.id });
    }
    // One order for every writer of products: by sku (rows without one, new products, last).
    const skuKey = (r: ImportRow) => (r.fields.sku === undefined ? '\uffff' : r.fields.sku.toLowerCase());
    applicable.sort((a, b) => (skuKey(a) < skuKey(b) ? -1 : skuKey(a) > skuKey(b) ? 1 : a.row - b.row));
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    let rows: number = IMPORT_CHUNK_ROWS.first;
    let lastMs = 0;
    for (let start = 0; start < applicable.length; start += rows) {
      if (start > 0) {
        const oneAtATime = await deps.uow.giveWay(lastMs);
        rows = oneAtATime ? nextChunkRows(rows, lastMs) : IMPORT_CHUNK_ROWS.sideBySide;
      }
      const chunk = applicable.slice(start, start + rows);
      // The database's pace, not the business's time: the monotonic clock, not the Clock port.
      const began = performance.now();
      const outcomes = await deps.uow.run(async (r) => {
        const skus = chunk.flatMap((c) => (c.fields.sku === undefined ? [] : [c.fields.sku]));
        await r.products.lockBySkus(actor.businessId, skus);
        const out: { row: number; outcome: Awaited<ReturnType<typeof applyRow>> }[] = [];
        for (const { row, fields, branchId } of chunk) out.push({ row, outcome: await applyRow(deps, r, actor, fields, branchId) });
        return command.dryRun ? rollback(out) : out;
      });
      lastMs = performance.now() - began;
      for (const { row, outcome } of outcomes) {
        if (outcome === 'created') created += 1;
        else if (outcome === 'updated') updated += 1;
        else if (outcome === 'unchanged') unchanged += 1;
        else errors.push(...outcome.map((v) => ({ row, field: v.field, message: v.message })));
      }
    }
    errors.sort((a, b) => a.row - b.row);
    return { dryRun: command.dryRun, created, updated, unchanged, errors };
  };

const applyRow = async (deps: Deps, r: Repos, actor: Actor, fields: Partial<ProductFields>, branchId: string) => {
  const existing = fields.sku === undefined ? undefined : await r.products.findBySku(actor.businessId, fields.sku);
  return existing ? updateFromRow(deps, r, actor, existing, fields, branchId) : createFromRow(deps, r, actor, fields, branchId);
};

type Violation = { readonly field: string; readonly message: string };

const createFromRow = async (deps: Deps, r: Repos, actor: Actor, fields: Partial<ProductFields>, branchId: string): Promise<'created' | Violation[]> => {
  const missing: Violation[] = [];
  if (fields.name === undefined) missing.push({ field: 'name', message: 'is required for a new product' });
  if (fields.price === undefined) missing.push({ field: 'price', message: 'is required for a new product' });
  if (missing.length > 0) return missing;
  const added = await addProduct(deps, r, actor, fields as ProductFields, 'IMPORT', branchId);
  if (E.isRight(added)) return 'created';
  // DuplicateSku: another import or request created the sku after our lookup.
  return added.left._tag === 'DuplicateSku' ? [{ field: 'sku', message: 'is already used' }] : added.left.violations;
};

/** The fields present replace the product's (as PUT /products/:id does); nothing written when nothing differs. */
const updateFromRow = async (
  deps: Deps,
  r: Repos,
  actor: Actor,
  product: Product,
  fields: Partial<ProductFields>,
  branchId: string,
): Promise<'updated' | 'unchanged' | Violation[]> => {
  const { quantity, sku: _matchedOn, ...changes } = fields; // the sku is the key: its stored spelling is kept
  const next: Product = { ...product };
  for (const [k, v] of Object.entries(changes)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
  const violations: Violation[] = checkProduct({ ...next, quantity: quantity ?? (next.type === 'SERVICE' ? 0 : next.quantity) });
  if (next.type === 'SERVICE' && quantity === undefined && product.quantity !== 0) {
    violations.push(serviceWithStock('a product with stock cannot become a service; set quantity to 0 too'));
  }
  if (violations.length > 0) return violations;
  const fieldsChanged = COMPARED.some((k) => next[k] !== product[k]);
  // The chunk holds the product's lock (lockBySkus), so its stock read here stays as read until the commit.
  const held = quantity === undefined || product.type === 'SERVICE' ? 0 : await branchQuantity(r, actor.businessId, product.id, branchId);
  const elsewhere = product.quantity - held;
  if (quantity !== undefined && next.type === 'SERVICE' && elsewhere !== 0) return stockElsewhere().violations;
  if (quantity !== undefined && elsewhere + quantity > MAX_STOCK) return tooMuchStock().violations;
  const quantityChanged = quantity !== undefined && quantity !== held;
  if (!fieldsChanged && !quantityChanged) return 'unchanged';
  // A service keeps no stock (the database checks it too): its quantity goes to 0 before the row becomes one.
  const quantityFirst = quantityChanged && next.type === 'SERVICE';
  if (quantityFirst) await setQuantity(deps, r, actor, next, quantity, 'IMPORT', branchId);
  if (fieldsChanged) {
    next.updatedAt = deps.clock.now();
    if ((await r.products.save(next)) === 'duplicate_sku') return [{ field: 'sku', message: 'is already used' }];
    await recordPriceChange(r, product, next);
  }
  if (quantityChanged && !quantityFirst) await setQuantity(deps, r, actor, next, quantity, 'IMPORT', branchId);
  return 'updated';
};

/** What the branch holds of the product. */
const branchQuantity = async (r: Repos, businessId: string, productId: string, branchId: string): Promise<number> =>
  (await r.products.stockOf(businessId, [productId])).get(productId)?.find((s) => s.branchId === branchId)?.quantity ?? 0;
