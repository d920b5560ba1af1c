import * as E from 'fp-ts/lib/Either.js';
import { checkProduct, type Product } from '../../domain/product.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Repositories } from '../ports/repositories.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { addProduct, setQuantity, type ProductFields } from './manage-products.js';

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
 * is blank and the field cannot be empty (then the product keeps its value, or gets the default);
 * a blank cell of an optional field is null (it clears the value). No sku: a new product, sku generated.
 */
export interface ImportRow {
  readonly row: number;
  readonly fields: Partial<ProductFields>;
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

type Deps = { uow: UnitOfWork; clock: Clock; crypto: Crypto };

const COMPARED = ['name', 'price', 'costPrice', 'category', 'type', 'lowStockThreshold', 'barcode', 'unit'] as const;

/**
 * Creates or updates products from an import, matched on sku ignoring case. Valid rows are applied
 * in one transaction, invalid ones are reported and skipped; a sku may appear once per file. A change
 * of quantity writes one IMPORT ledger row. A dry run does exactly the same work and rolls it back.
 */
export const importProducts =
  (deps: Deps) =>
  (actor: Actor, command: ImportCommand): Promise<ImportReport> =>
    deps.uow.run<ImportReport>(async (r) => {
      const errors: ImportRowError[] = [...command.decodeErrors];
      const broken = new Set(command.decodeErrors.map((e) => e.row));
      const firstRowOfSku = new Map<string, number>();
      let created = 0;
      let updated = 0;
      let unchanged = 0;
      const toApply: { row: number; fields: Partial<ProductFields>; existing: Product | undefined }[] = [];
      for (const { row, fields } of [...command.rows].sort((a, b) => a.row - b.row)) {
        if (fields.sku !== undefined) {
          const key = fields.sku.toLowerCase();
          const first = firstRowOfSku.get(key);
          if (first !== undefined) {
            errors.push({ row, field: 'sku', message: `appears more than once in the file (first on row ${first})` });
            continue;
          }
          firstRowOfSku.set(key, row);
        }
        if (broken.has(row)) continue;
        toApply.push({ row, fields, existing: fields.sku === undefined ? undefined : await r.products.findBySku(actor.businessId, fields.sku) });
      }
      // Rows are written in lock order, whatever the file's order: existing products by id (as a sale
      // takes them), then new ones by sku (their unique index entries), so two imports or an import
      // and a sale never wait for each other in a circle (a deadlock).
      toApply.sort((a, b) => (lockOrder(a) < lockOrder(b) ? -1 : lockOrder(a) > lockOrder(b) ? 1 : 0));
      for (const { row, fields, existing } of toApply) {
        const outcome = existing ? await updateFromRow(deps, r, actor, existing, fields) : await createFromRow(deps, r, actor, fields);
        if (outcome === 'created') created += 1;
        else if (outcome === 'updated') updated += 1;
        else if (outcome === 'unchanged') unchanged += 1;
        else errors.push(...outcome.map((v) => ({ row, field: v.field, message: v.message })));
      }
      errors.sort((a, b) => a.row - b.row);
      const report: ImportReport = { dryRun: command.dryRun, created, updated, unchanged, errors };
      return command.dryRun ? rollback(report) : report;
    });

const lockOrder = (a: { fields: Partial<ProductFields>; existing: Product | undefined }) =>
  a.existing ? `0 ${a.existing.id}` : `1 ${(a.fields.sku ?? '').toLowerCase()}`;

type Violation = { readonly field: string; readonly message: string };

const createFromRow = async (deps: Deps, r: Repositories, actor: Actor, fields: Partial<ProductFields>): Promise<'created' | Violation[]> => {
  const missing: Violation[] = [];
  if (fields.name === undefined) missing.push({ field: 'name', message: 'is required for a new product' });
  if (fields.price === undefined) missing.push({ field: 'price', message: 'is required for a new product' });
  if (missing.length > 0) return missing;
  const added = await addProduct(deps, r, actor, fields as ProductFields, 'IMPORT');
  if (E.isRight(added)) return 'created';
  // DuplicateSku: another import or request created the sku after our lookup.
  return added.left._tag === 'DuplicateSku' ? [{ field: 'sku', message: 'is already used' }] : added.left.violations;
};

/** The fields present replace the product's (as PUT /products/:id does); nothing written when nothing differs. */
const updateFromRow = async (
  deps: Deps,
  r: Repositories,
  actor: Actor,
  product: Product,
  fields: Partial<ProductFields>,
): Promise<'updated' | 'unchanged' | Violation[]> => {
  const { quantity, sku: _matchedOn, ...changes } = fields; // the sku is the key: its stored spelling is kept
  const next: Product = { ...product };
  for (const [k, v] of Object.entries(changes)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
  const violations: Violation[] = checkProduct({ ...next, quantity: quantity ?? (next.type === 'SERVICE' ? 0 : next.quantity) });
  if (next.type === 'SERVICE' && quantity === undefined && product.quantity !== 0) {
    violations.push({ field: 'type', message: 'a product with stock cannot become a service; set quantity to 0 too' });
  }
  if (violations.length > 0) return violations;
  const fieldsChanged = COMPARED.some((k) => next[k] !== product[k]);
  const quantityChanged = quantity !== undefined && quantity !== product.quantity;
  if (!fieldsChanged && !quantityChanged) return 'unchanged';
  // A service keeps no stock (the database checks it too): its quantity goes to 0 before the row becomes one.
  const quantityFirst = quantityChanged && next.type === 'SERVICE';
  if (quantityFirst) await setQuantity(deps, r, actor, next, quantity, 'IMPORT');
  if (fieldsChanged) {
    next.updatedAt = deps.clock.now();
    if ((await r.products.save(next)) === 'duplicate_sku') return [{ field: 'sku', message: 'is already used' }];
  }
  if (quantityChanged && !quantityFirst) await setQuantity(deps, r, actor, next, quantity, 'IMPORT');
  return 'updated';
};
