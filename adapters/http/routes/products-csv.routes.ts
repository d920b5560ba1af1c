import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { exportProducts } from '../../../application/products/export-products.js';
import type { getVatSettings } from '../../../application/business/get-business.js';
import { MAX_IMPORT_ROWS, type importProducts, type ImportReport, type ImportRow, type ImportRowError } from '../../../application/products/import-products.js';
import type { ProductFields } from '../../../application/products/manage-products.js';
import { MAX_KOBO, nairaToKobo, type Kobo } from '../../../domain/money.js';
import { PRODUCT_TYPES, type Product } from '../../../domain/product.js';
import type { ProductWithStock } from '../../../application/products/branch-stock.js';
import { bool, doc, int, object, queryFlag, shape } from '../codecs.js';
import { MULTIPART_OVERHEAD, readCsvUpload, type CsvRecord } from '../csv-upload.js';
import { coalesce } from '../../csv/coalesce.js';
import { guardCell, nairaCell, unguardCell } from '../../csv/cells.js';
import { problem } from '../problem.js';
import { ok, OWNER_ONLY, route } from '../route.js';

export interface ProductCsvUseCases {
  readonly importProducts: ReturnType<typeof importProducts>;
  readonly exportProducts: ReturnType<typeof exportProducts>;
  readonly getVatSettings: ReturnType<typeof getVatSettings>;
}

/** An import file may be at most this large. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** The file's columns, in the order the export writes them; the import accepts any order and subset holding sku. */
export const CSV_COLUMNS = ['sku', 'name', 'price', 'cost_price', 'quantity', 'category', 'type', 'low_stock_threshold', 'barcode', 'unit'] as const;
/**
 * `true` or `false` (docs/adr/0054): the import reads it from any file; the export writes it after `unit` for a
 * VAT-registered business only, so an unregistered business's file stays as it was.
 */
export const VAT_EXEMPT_COLUMN = 'vat_exempt';
type Column = (typeof CSV_COLUMNS)[number] | typeof VAT_EXEMPT_COLUMN;
const REQUIRED_COLUMNS: readonly string[] = ['sku'];
/** The optional column naming the branch (name or id) whose quantity a row holds; without it, the default branch's. */
const BRANCH = 'branch';
const KNOWN_COLUMNS: readonly string[] = [...CSV_COLUMNS, VAT_EXEMPT_COLUMN, BRANCH];

// ---- export: a product as a CSV record ----

const optionalText = (s: string | null) => (s === null ? '' : guardCell(s));

export const productRecord = (p: Product, quantity = p.quantity, vatColumn = false): string[] => [
  guardCell(p.sku),
  guardCell(p.name),
  nairaCell(p.price),
  p.costPrice === null ? '' : nairaCell(p.costPrice),
  String(quantity),
  optionalText(p.category),
  p.type,
  p.lowStockThreshold === null ? '' : String(p.lowStockThreshold),
  optionalText(p.barcode),
  optionalText(p.unit),
  ...(vatColumn ? [String(p.vatExempt)] : []),
];

/** By branch: a record per branch (its quantity, its name in the branch column); a service's one record has no branch. */
const branchRecords = (p: ProductWithStock, vatColumn: boolean): string[][] =>
  p.type === 'SERVICE' ? [[...productRecord(p, p.quantity, vatColumn), '']] : p.stock.map((s) => [...productRecord(p, s.quantity, vatColumn), guardCell(s.branchName)]);

// ---- import: the header and the cells ----

type Cell = { ok: true; value: unknown } | { ok: false; message: string };
const fail = (message: string): Cell => ({ ok: false, message });
const value = (v: unknown): Cell => ({ ok: true, value: v });

const textCell = (max: number) => (s: string): Cell => {
  const t = unguardCell(s);
  return t.length > max ? fail(`must be at most ${max} characters long`) : value(t);
};
const moneyCell = (s: string): Cell => {
  if (!/^-?\d+(\.\d+)?$/.test(s)) return fail('must be an amount of naira with at most 2 decimals, e.g. 1500.50 (no currency sign or thousands separator)');
  const r = nairaToKobo(Number(s));
  if (r.ok) return value(r.value);
  return fail(r.reason === 'TOO_MANY_DECIMALS' ? 'must have at most 2 decimals' : `must be at most ${MAX_KOBO / 100}.00`);
};
const integerCell = (s: string): Cell =>
  !/^-?\d+$/.test(s) ? fail('must be a whole number') : Math.abs(Number(s)) > 1_000_000_000 ? fail('must be at most 1000000000') : value(Number(s));
const booleanCell = (s: string): Cell => {
  const t = s.toLowerCase();
  return t === 'true' ? value(true) : t === 'false' ? value(false) : fail('must be true or false');
};
const typeCell = (s: string): Cell => {
  const t = s.toUpperCase();
  return (PRODUCT_TYPES as readonly string[]).includes(t) ? value(t) : fail(`must be one of ${PRODUCT_TYPES.join(', ')}`);
};

/**
 * A cell holding only this clears an optional field. A blank cell leaves the product's value as it is
 * (or the default, or "is required" for a new product), so a file with a few columns filled in changes
 * only those (ADR 0015). A text whose value really is "-" is written '- (the export does so: it starts
 * like a formula), and the import reads that back as "-".
 */
export const CLEAR_MARKER = '-';

/** How each column reads: into which field, and whether CLEAR_MARKER may clear it (optional fields only). */
const COLUMN_READERS: Record<Column, { field: keyof ProductFields; clearable: boolean; read: (s: string) => Cell }> = {
  sku: { field: 'sku', clearable: false, read: textCell(64) },
  name: { field: 'name', clearable: false, read: textCell(200) },
  price: { field: 'price', clearable: false, read: moneyCell },
  cost_price: { field: 'costPrice', clearable: true, read: moneyCell },
  quantity: { field: 'quantity', clearable: false, read: integerCell },
  category: { field: 'category', clearable: true, read: textCell(80) },
  type: { field: 'type', clearable: false, read: typeCell },
  low_stock_threshold: { field: 'lowStockThreshold', clearable: true, read: integerCell },
  barcode: { field: 'barcode', clearable: true, read: textCell(64) },
  unit: { field: 'unit', clearable: true, read: textCell(20) },
  vat_exempt: { field: 'vatExempt', clearable: false, read: booleanCell },
};
const CLEARABLE = CSV_COLUMNS.filter((c) => COLUMN_READERS[c].clearable);

/** The header's columns in file order; unknown, repeated or missing required columns are 400. */
const columnsOf = (header: CsvRecord): (Column | typeof BRANCH)[] => {
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const errors: { field: string; message: string }[] = [];
  names.forEach((name, i) => {
    if (name === '') errors.push({ field: `column ${i + 1}`, message: 'has no name in the header' });
    else if (!KNOWN_COLUMNS.includes(name)) errors.push({ field: name, message: `is not a known column; the columns are ${KNOWN_COLUMNS.join(', ')}` });
    else if (names.indexOf(name) !== i) errors.push({ field: name, message: 'appears more than once in the header' });
  });
  for (const required of REQUIRED_COLUMNS) if (!names.includes(required)) errors.push({ field: required, message: 'is a required column' });
  if (errors.length > 0) {
    throw problem('VALIDATION_FAILED', `The CSV header is not usable: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, { errors });
  }
  return names as (Column | typeof BRANCH)[];
};

/** One record as the use case's row, and what could not be read in it. */
const decodeRecord = (columns: (Column | typeof BRANCH)[], record: CsvRecord): { row: ImportRow; errors: ImportRowError[] } => {
  const fields: Record<string, unknown> = {};
  const errors: ImportRowError[] = [];
  let branch: string | undefined;
  const extra = record.cells.slice(columns.length).filter((c) => c.trim() !== '').length;
  if (extra > 0) errors.push({ row: record.row, field: '(row)', message: `has ${extra} more cell(s) than the header has columns` });
  columns.forEach((column, i) => {
    const cell = (record.cells[i] ?? '').trim();
    if (cell === '') return; // blank: the field is left as it is (a blank branch: the default branch)
    if (column === BRANCH) {
      const named = textCell(200)(cell);
      if (named.ok) branch = String(named.value);
      else errors.push({ row: record.row, field: column, message: named.message });
      return;
    }
    const reader = COLUMN_READERS[column];
    if (cell === CLEAR_MARKER) {
      if (reader.clearable) fields[reader.field] = null;
      else errors.push({ row: record.row, field: column, message: `cannot be cleared (${CLEAR_MARKER} clears only ${CLEARABLE.join(', ')})` });
      return;
    }
    const r = reader.read(cell);
    if (r.ok) fields[reader.field] = r.value;
    else errors.push({ row: record.row, field: column, message: r.message });
  });
  return { row: { row: record.row, fields: fields as Partial<ProductFields>, ...(branch !== undefined ? { branch } : {}) }, errors };
};

const reportJson = (r: ImportReport) => ({
  dry_run: r.dryRun,
  created: r.created,
  updated: r.updated,
  unchanged: r.unchanged,
  errors: r.errors.map((e) => ({ row: e.row, field: e.field, message: e.message })),
});

const TAG = 'Products';
const columnList = CSV_COLUMNS.join(',');

export const productCsvRoutes = (uc: ProductCsvUseCases) => [
  route({
    method: 'get',
    path: '/products/export',
    operationId: 'exportProducts',
    tag: TAG,
    summary: 'Export the products as CSV (owner)',
    description:
      `Every active product (archived ones are left out), oldest first, streamed from the database. Columns: ${columnList} ` +
      `(and ${VAT_EXEMPT_COLUMN}, true or false, for a VAT-registered business); prices in naira with 2 decimals; ` +
      'UTF-8 with a byte-order mark (so Excel reads it as UTF-8), CRLF line ends. A text cell starting with = + - @, tab or CR ' +
      "is prefixed with a single quote (OWASP's CSV-injection guard); the import removes it again, so the file round-trips. " +
      'quantity is the total over the branches; by_branch=true writes one row per product and active branch instead, with that ' +
      'branch\'s quantity and its name in a last column, branch (a service: one row, branch blank), which the import reads back.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: object('ProductExportQuery', {}, { by_branch: queryFlag }),
    success: {
      status: 200,
      description: 'The CSV file',
      contentType: 'text/csv; charset=utf-8',
      data: doc('ProductCsv', { type: 'string', description: `CSV with the header ${columnList}` }),
      headers: { 'Content-Disposition': 'attachment; filename="products-YYYY-MM-DD.csv" (the Lagos date of the export)' },
    },
    errors: [],
    handler: async ({ actor, ctx, query }) => {
      const byBranch = query.by_branch ?? false;
      const { vatRegistered } = await uc.getVatSettings(actor);
      const { lagosDay, products } = uc.exportProducts(actor, { byBranch });
      const recordsOf = (p: Product): string[][] => (byBranch ? branchRecords(p as ProductWithStock, vatRegistered) : [productRecord(p, p.quantity, vatRegistered)]);
      // The first batch is read before the answer starts, so a database fault is still a proper error.
      const first = await products.next();
      const records = async function* () {
        if (first.done) return;
        yield* recordsOf(first.value);
        for await (const p of products) yield* recordsOf(p);
      };
      const columns = [...CSV_COLUMNS, ...(vatRegistered ? [VAT_EXEMPT_COLUMN] : []), ...(byBranch ? [BRANCH] : [])];
      const csv = pipeline(Readable.from(records()), stringify({ header: true, columns, bom: true, record_delimiter: 'windows' }), coalesce(), (e) => {
        if (e) ctx.res.destroy(e); // cut the download off rather than end a truncated file normally
      });
      return { status: 200, message: 'Products CSV', data: csv, headers: { 'Content-Disposition': `attachment; filename="products-${lagosDay}.csv"` } };
    },
  }),
  route({
    method: 'post',
    path: '/products/import',
    operationId: 'importProducts',
    tag: TAG,
    summary: 'Import products from CSV (owner)',
    description:
      `Creates or updates products from a CSV with a header row (the export's columns, ${columnList}, ${VAT_EXEMPT_COLUMN} (true or false), in any order; sku required). ` +
      'Rows are matched on sku ignoring case: a new sku (or a blank one, which gets a generated sku) creates a product and needs name ' +
      'and price; a known sku updates the columns present. A blank cell leaves the field as it is; a cell holding only `-` clears an ' +
      `optional field (${CLEARABLE.join(', ')}; on another column it is a row error). A text that really is "-" is written '- ` +
      '(as the export writes it). Invalid rows are skipped and reported as {row, field, message}, the header being row 1; ' +
      'valid rows are applied in chunks, each its own transaction (other requests are served between them): an import that ' +
      'fails midway keeps the chunks already applied, and sending the same file again completes it (rows already applied ' +
      'answer unchanged; a row with a blank sku creates a new product each time). An optional column branch (a branch\'s name or id) says ' +
      'whose quantity the row sets; without it (or blank) the default branch\'s. A sku may appear once per branch in a file. A change ' +
      'of quantity is recorded in the stock ledger with reason IMPORT. dry_run=true reports exactly what would happen and writes nothing. ' +
      `At most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS} rows (413 beyond).`,
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    query: object('ProductImportQuery', {}, { dry_run: queryFlag }),
    rawBody: {
      description: 'The CSV, UTF-8 (a byte-order mark is allowed), as the body itself or as the form field `file`',
      maxBytes: MAX_IMPORT_BYTES + MULTIPART_OVERHEAD,
      content: {
        // the file's bytes, not a JSON string: no `type` (OpenAPI 3.1 describes a raw file by its media type alone), which
        // a generated client types `unknown`, so it can send a Blob, a string or a FormData (issue 32)
        'text/csv': { contentMediaType: 'text/csv', description: `CSV with a header row, e.g. ${columnList}` },
        'multipart/form-data': {
          type: 'object',
          properties: { file: { type: 'string', format: 'binary', contentMediaType: 'text/csv', description: 'the CSV file' } },
          required: ['file'],
        },
      },
    },
    success: {
      status: 200,
      description: 'What was (or, in a dry run, would be) created, updated and left unchanged, and the rows that were skipped',
      data: shape('ProductImportReport', {
        dry_run: bool,
        created: int,
        updated: int,
        unchanged: int,
        errors: doc('ImportRowErrors', {
          type: 'array',
          items: {
            type: 'object',
            required: ['row', 'field', 'message'],
            properties: {
              row: { type: 'integer', description: 'the row as a spreadsheet numbers it; the header is row 1' },
              field: { type: 'string', description: 'the column, or (row) for the row as a whole' },
              message: { type: 'string' },
            },
          },
        }),
      }),
    },
    errors: [],
    handler: async ({ actor, query, ctx }) => {
      const upload = await readCsvUpload(ctx, { maxBytes: MAX_IMPORT_BYTES, maxRows: MAX_IMPORT_ROWS });
      const columns = columnsOf(upload.header);
      const rows: ImportRow[] = [];
      const decodeErrors: ImportRowError[] = [];
      for (const record of upload.records) {
        const decoded = decodeRecord(columns, record);
        rows.push(decoded.row);
        decodeErrors.push(...decoded.errors);
      }
      const report = await uc.importProducts(actor, { rows, decodeErrors, dryRun: query.dry_run ?? false });
      const counts = `${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged, ${new Set(report.errors.map((e) => e.row)).size} rows skipped`;
      return ok(report.dryRun ? `Dry run, nothing written: ${counts}` : `Import applied: ${counts}`, reportJson(report));
    },
  }),
];
