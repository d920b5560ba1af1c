import * as t from 'io-ts';
import { decodeSyncCursor, encodeSyncCursor, type pullChanges } from '../../../application/sync/changes.js';
import type { Change } from '../../../application/sync/ports.js';
import { bool, doc, Documented, jsonSchemaOf, object, shape, str, text } from '../codecs.js';
import { nairaJson, dateTimeJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { problem } from '../problem.js';
import { ok, OWNER_AND_STAFF, route } from '../route.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

// GET /sync/changes (docs/adr/0034 addendum, docs/offline-sync.md): the pull side of offline sync.

export const MAX_CHANGES = 500;
const DEFAULT_CHANGES = 200;

const changesLimit = new Documented<number>(
  'limit',
  { type: 'integer', minimum: 1, maximum: MAX_CHANGES, default: DEFAULT_CHANGES, description: 'changes per page' },
  (u, c) => {
    const n = typeof u === 'string' && /^\d{1,4}$/.test(u) ? Number(u) : NaN;
    return n >= 1 && n <= MAX_CHANGES ? t.success(n) : t.failure(u, c, `must be an integer from 1 to ${MAX_CHANGES}`);
  },
);

const EXAMPLE_ID = '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c';
const changeSchema = doc('SyncChange', {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['customer', 'product', 'sale', 'stock'] },
    id: { type: 'string', maxLength: 73, description: "the record's id; for stock `<product_id>:<branch_id>`" },
    deleted: { type: 'boolean', description: 'true: a tombstone (an archived product): remove it locally; no data' },
    data: {
      type: 'object',
      description:
        'the whole current record, to upsert. product: id, name, sku, price (naira), type, category, barcode, unit, low_stock_threshold, vat_exempt; ' +
        'stock: product_id, branch_id, quantity (may be below zero after an offline oversell); customer: id, name, phone, credit_limit, ' +
        'credit_balance (naira); sale (voided sales only): id, receipt_number, status VOIDED, voided_at',
    },
  },
  required: ['type', 'id', 'deleted'],
  examples: [
    { type: 'product', id: EXAMPLE_ID, deleted: false, data: { id: EXAMPLE_ID, name: 'Peak Milk 400g', sku: 'PEAK-400', price: 1500, type: 'PRODUCT', category: 'Provisions', barcode: null, unit: 'tin', low_stock_threshold: 6, vat_exempt: false } },
    { type: 'product', id: EXAMPLE_ID, deleted: true },
  ],
});
const changesPage = shape(
  'SyncChangesPage',
  { changes: doc('SyncChanges', { type: 'array', items: jsonSchemaOf(changeSchema) }), cursor: str, has_more: bool },
  {
    cursor: 'opaque: pass it back as `since`; keep it once has_more is false (the next pull starts there)',
    has_more: 'true: this pull has more pages, ask again at once with `cursor`',
  },
);

const changeJson = (c: Change) => {
  const base = { type: c.kind, id: c.kind === 'stock' ? c.key : c.id };
  const d = c.data;
  if (d === null) return { ...base, deleted: true };
  const data =
    d.kind === 'product'
      ? { id: d.id, name: d.name, sku: d.sku, price: nairaJson(d.price), type: d.type, category: d.category, barcode: d.barcode, unit: d.unit, low_stock_threshold: d.lowStockThreshold, vat_exempt: d.vatExempt }
      : d.kind === 'stock'
        ? { product_id: d.productId, branch_id: d.branchId, quantity: d.quantity }
        : d.kind === 'customer'
          ? { id: d.id, name: d.name, phone: d.phone, credit_limit: nairaJson(d.creditLimit), credit_balance: nairaJson(d.creditBalance) }
          : { id: d.id, receipt_number: d.receiptNumber, status: d.status, voided_at: dateTimeJson(d.voidedAt) };
  return { ...base, deleted: false, data };
};

export const syncChangesRoute = (pull: ReturnType<typeof pullChanges>) =>
  route({
    method: 'get',
    path: '/sync/changes',
    operationId: 'listSyncChanges',
    tag: 'Offline sync',
    summary: 'What changed since the till last pulled',
    description:
      'Products (an archived one as a tombstone, `deleted: true`), stock levels, customers with their balances and voided sales that ' +
      'changed since `since` (omit it the first time: everything), oldest change first, at most `limit` a page. Upsert each `data` ' +
      'into the local catalogue, remove each tombstone. While has_more is true ask again at once with `cursor`; when it is false, keep ' +
      '`cursor` for the next pull. At least once: a record may come again (upserts are idempotent); a change that commits late is ' +
      'never skipped. Stock: the owner gets every branch; a staff member with a branch gets that branch. A `since` this API did not ' +
      'make (damaged, or ahead of this server, e.g. after the database was restored from an earlier copy) is 400 VALIDATION_FAILED: pull again without it. ' +
      'Not the page object of the lists, on purpose: this is a change feed, not a list. Its ' +
      'cursor is a position in the feed, so it is never null (the last page\'s cursor is the one to keep for the next pull, days later) ' +
      'and it is passed back as `since`; has_more means "ask again now", not "another page of this list"; there is one order (the order ' +
      'the changes were committed) and no sort_by, search or date filter. See docs/offline-sync.md.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: object('SyncChangesQuery', {}, { since: text(1, 2000, 'the cursor of the last pull; omit for everything'), limit: changesLimit }),
    success: { status: 200, description: 'A page of changes and where to go on from', data: changesPage },
    failures: failuresOf<FailureOf<typeof pull>>({ SyncCursorAhead: true }),
    errors: [],
    handler: async ({ actor, query }) => {
      const cursor = query.since === undefined ? null : decodeSyncCursor(query.since);
      if (query.since !== undefined && cursor === null) {
        throw problem('VALIDATION_FAILED', 'The since cursor is not one this API made; pull again without it.', { errors: [{ field: 'since', message: 'is not a cursor of GET /sync/changes' }] });
      }
      const page = successOf(await pull(actor, { cursor, limit: query.limit ?? DEFAULT_CHANGES }), 'business');
      return ok('Changes', { changes: page.changes.map(changeJson), cursor: encodeSyncCursor(page.cursor), has_more: page.hasMore });
    },
  });
