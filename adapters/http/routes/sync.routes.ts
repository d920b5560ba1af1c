import * as t from 'io-ts';
import type { listConflicts, resolveConflict } from '../../../application/sync/conflicts.js';
import { CONFLICT_RESOLUTIONS, CONFLICT_SORTS, type SaleConflict } from '../../../application/sync/ports.js';
import { dateTime, doc, Documented, enumOf, int, jsonSchemaOf, nonZeroInteger, nullableStr, object, shape, str, text, uuid, uuidInput, type JsonSchema } from '../codecs.js';
import { dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { problem } from '../problem.js';
import { ok, OWNER_AND_STAFF, OWNER_ONLY, route, type RouteDef } from '../route.js';
import type { pullChanges } from '../../../application/sync/changes.js';
import { syncChangesRoute } from './sync-changes.route.js';
import { PATH_FIELDS, runSyncBatch, SYNC_OPERATION_TYPES, SYNC_TARGETS, type SyncBatchDeps, type SyncOperationType } from '../sync-batch.js';
import { PROBLEM_REF } from '../openapi.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

// Offline sync (docs/adr/0034, docs/offline-sync.md): a till's queued operations, applied in order.

export interface SyncUseCases {
  readonly sync: SyncBatchDeps;
  readonly listConflicts: ReturnType<typeof listConflicts>;
  readonly resolveConflict: ReturnType<typeof resolveConflict>;
  readonly pullChanges: ReturnType<typeof pullChanges>;
  readonly paging: Paging;
}

const nullableTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });
const nullableInt = doc('integer or null', { type: ['integer', 'null'] });
const conflictShape = shape(
  'SaleConflict',
  {
    id: uuid, sale_id: uuid, receipt_number: str, provisional_receipt_number: nullableStr, product_id: uuid, product_name: str, branch_id: uuid,
    requested: int, available: int, shortfall: int, status: doc('conflict status', { type: 'string', enum: ['OPEN', 'RESOLVED'] }),
    resolution: doc('resolution or null', { type: ['string', 'null'], enum: [...CONFLICT_RESOLUTIONS, null] }), quantity_change: nullableInt, note: nullableStr,
    resolved_by: doc('uuid or null', { type: ['string', 'null'], format: 'uuid' }), resolved_at: nullableTime, created_at: dateTime,
  },
  {
    requested: 'units the offline sale took', available: 'what the branch held when it synced', shortfall: 'requested - available: units sold that the branch did not hold',
    quantity_change: 'on a STOCK_CORRECTION: the units the correction added (or took)',
  },
);
const conflictJson = (c: SaleConflict) => ({
  id: c.id, sale_id: c.saleId, receipt_number: c.receiptNumber, provisional_receipt_number: c.provisionalReceiptNumber, product_id: c.productId, product_name: c.productName,
  branch_id: c.branchId, requested: c.requested, available: c.available, shortfall: c.shortfall, status: c.status, resolution: c.resolution,
  quantity_change: c.quantityChange, note: c.note, resolved_by: c.resolvedBy, resolved_at: dateTimeJsonOrNull(c.resolvedAt), created_at: dateTimeJson(c.createdAt),
});

const TAG = 'Offline sync';
const MAX_OPERATIONS = 100;

/** The body of one operation: the single endpoint's request body (checked by that endpoint's codec, per operation). */
const payload = new Documented<Record<string, unknown>>(
  'operation payload',
  { type: 'object', maxProperties: 20 },
  (u, c) => (u !== null && typeof u === 'object' && !Array.isArray(u) ? t.success(u as Record<string, unknown>) : t.failure(u, c, 'must be an object')),
);
const operation = object('SyncOperation', { op_id: uuidInput, type: enumOf('type', SYNC_OPERATION_TYPES), payload });

/** `sale.create` → `SaleCreateOperation`, `credit_payment.create` → `CreditPaymentCreateOperation`. */
const operationName = (type: SyncOperationType) => `${type.split(/[._]/).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}Operation`;

/**
 * The payload of an operation type as the document gives it: its single endpoint's body codec's schema (the
 * codec each payload is checked with), plus the path's fields (credit_payment.create: customer_id) as
 * `Sync<Body>` (issue 32: a bare object let no real payload type-check in a generated client).
 */
const payloadSchema = (type: SyncOperationType, target: RouteDef<any, any>): JsonSchema => {
  const body = jsonSchemaOf(target.body!) as { title: string; properties: Record<string, unknown>; required: string[] };
  const pathFields = Object.keys(PATH_FIELDS[type] ?? {});
  if (pathFields.length === 0) return body;
  const fields = Object.fromEntries(pathFields.map((f) => [f, { type: 'string', format: 'uuid', description: `the ${f.replace(/_id$/, '')} (the id in the path of ${target.path.replace(/:(\w+)/g, '{$1}')})` }]));
  return { ...body, title: `Sync${body.title}`, properties: { ...fields, ...body.properties }, required: [...pathFields, ...body.required] };
};

/**
 * The operations of a batch. They decode as `operation` (each payload is checked by its endpoint's codec when it
 * runs, so one bad payload is one rejected operation, not a 400 for the batch); the document gives each type its
 * own schema, `SyncOperation` being their `oneOf` discriminated on `type`.
 */
const operationsOf = (targets: Record<SyncOperationType, RouteDef<any, any>>) => {
  const operationSchema = {
    title: 'SyncOperation',
    oneOf: SYNC_OPERATION_TYPES.map((type) => ({
      title: operationName(type),
      type: 'object',
      properties: { op_id: uuidInput.schema, type: { type: 'string', enum: [type] }, payload: payloadSchema(type, targets[type]) },
      required: ['op_id', 'type', 'payload'],
      additionalProperties: false,
    })),
    discriminator: { propertyName: 'type', mapping: Object.fromEntries(SYNC_OPERATION_TYPES.map((type) => [type, `#/components/schemas/${operationName(type)}`])) },
  };
  return new Documented<t.TypeOf<typeof operation>[]>('operations', { type: 'array', minItems: 1, maxItems: MAX_OPERATIONS, items: operationSchema }, (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > MAX_OPERATIONS) return t.failure(u, c, `must be a list of 1 to ${MAX_OPERATIONS} operations`);
    return t.array(operation).validate(u, c);
  });
};

const resultShape = doc('SyncOperationResult', {
  type: 'object',
  properties: {
    op_id: { type: 'string', format: 'uuid' },
    type: { type: 'string', enum: [...SYNC_OPERATION_TYPES] },
    status: { type: 'string', enum: ['applied', 'duplicate', 'rejected'] },
    http_status: { type: 'integer', minimum: 200, maximum: 599, description: 'what the single endpoint answered (201) or would answer (4xx)' },
    data: { description: "applied and duplicate: the record, as the single endpoint's data" },
    error: { ...PROBLEM_REF, description: "rejected: the Problem Details the single endpoint would answer (its `error` object)" },
  },
  required: ['op_id', 'type', 'status', 'http_status'],
});
const batchShape = shape('SyncBatchResult', { device_id: str, applied: int, duplicates: int, rejected: int, results: doc('SyncOperationResults', { type: 'array', items: jsonSchemaOf(resultShape) }) });

/** The sync routes; `routes` is the route table the operations run through (their single endpoints). */
export const syncRoutes = (uc: SyncUseCases, routes: readonly RouteDef<any, any>[]) => {
  const targets = Object.fromEntries(
    SYNC_OPERATION_TYPES.map((type) => {
      const target = routes.find((r) => r.operationId === SYNC_TARGETS[type]);
      if (!target?.body) throw new Error(`the sync operation ${type} has no route ${SYNC_TARGETS[type]} with a body`);
      return [type, target];
    }),
  ) as Record<SyncOperationType, RouteDef<any, any>>;
  const run = runSyncBatch(uc.sync, targets);
  return [
    syncChangesRoute(uc.pullChanges),
    route({
      method: 'post',
      path: '/sync/batch',
      operationId: 'syncBatch',
      tag: TAG,
      summary: "Apply a till's queued offline operations",
      description:
        `Up to ${MAX_OPERATIONS} operations, applied in order, each in its own transaction, each exactly as its single endpoint ` +
        '(sale.create: POST /sales; customer.create: POST /customers; credit_payment.create: POST /customers/{customer_id}/credit/payment ' +
        'with customer_id in the payload; expense.create: POST /expenses; stock_adjustment.create: POST /products/stock-adjustment; ' +
        'return.create: POST /sales/{sale_id}/returns with sale_id in the payload). ' +
        'Each answers `applied` (with the record), `duplicate` (this device already applied this op_id, or the record\'s client id ' +
        'already exists with the same content: the same record again) or `rejected` (with the Problem Details its endpoint would answer); ' +
        'one rejected operation never stops the others. An op_id is remembered per device for 24 hours once applied; a rejected one is ' +
        'not, so it may be sent again once its cause is gone. The same op_id with another payload is rejected 422 IDEMPOTENCY_KEY_REUSED. ' +
        'Give every record a client id (`id`, UUID v4) and `client_created_at`: the record itself then stays idempotent after the 24 hours. ' +
        'A sale counts toward the plan\'s month it is synced in (FREE: past 50 this Lagos month it is rejected 402 PLAN_LIMIT_EXCEEDED, ' +
        'whatever month its client_created_at names); its client_created_at is kept between the business\'s creation, the device\'s ' +
        'previous sync (its last sale synced more than 30 minutes before) and now plus 5 minutes: a time outside is set to the nearest bound. ' +
        'Take product_id from GET /products, customer_id from GET /customers (or a customer created in an earlier operation), category_id from ' +
        'GET /expenses/categories and branch_id from GET /businesses/me/branches while online. See docs/offline-sync.md.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      body: object('SyncBatchRequest', { device_id: text(1, 64, 'the till: any stable name unique in the business, e.g. its install UUID'), operations: operationsOf(targets) }),
      bodyExample: {
        device_id: 'till-1',
        operations: [
          {
            op_id: '8d0f6c1e-2a4b-4c3d-9e5f-6a7b8c9d0e1f',
            type: 'customer.create',
            payload: { id: '5b2e7c9a-1d3f-4e6a-8b0c-2d4f6a8b0c1e', client_created_at: '2026-11-22T09:15:00.000Z', name: 'Mama Chioma' },
          },
        ],
      },
      success: { status: 200, description: 'One result per operation, in order', data: batchShape },
      errors: [],
      handler: async ({ ctx, actor, sessionId, body }) => {
        const results = await run(ctx, actor, sessionId, body.device_id, body.operations as never);
        const count = (s: string) => results.filter((r) => r.status === s).length;
        return ok('Batch applied', { device_id: body.device_id, applied: count('applied'), duplicates: count('duplicate'), rejected: count('rejected'), results });
      },
    }),
    route({
      method: 'get',
      path: '/sync/conflicts',
      operationId: 'listSyncConflicts',
      tag: TAG,
      summary: 'Offline sales that oversold',
      description:
        'Owner only. One row per (offline sale, product) that took more than its branch held when it synced: the stock went below zero ' +
        'and the sale has needs_review. Paged (keyset), newest first; status=OPEN for those awaiting a decision. search: product name, receipt numbers.',
      access: { roles: OWNER_ONLY },
      rateLimit: 'user',
      query: listQuery('SyncConflictListQuery', CONFLICT_SORTS, { status: enumOf('status', ['OPEN', 'RESOLVED'] as const) }),
      success: { status: 200, description: 'A page of conflicts', data: doc('SaleConflictPage', pageSchema(jsonSchemaOf(conflictShape))) },
      errors: [],
      handler: async ({ actor, query }) => {
        const req = uc.paging.request('listSyncConflicts', query, 'created_at');
        const page = await uc.listConflicts(actor, req, query.status ? { status: query.status } : {});
        return ok('Conflicts', uc.paging.render('listSyncConflicts', query, req, page, conflictJson));
      },
    }),
    route({
      method: 'post',
      path: '/sync/conflicts/:id/resolve',
      operationId: 'resolveSyncConflict',
      tag: TAG,
      summary: "Record the owner's decision on an oversell",
      description:
        'Owner only. STOCK_CORRECTION with quantity_change: the goods were there after all (a miscount): the branch\'s stock moves by ' +
        'quantity_change with a CORRECTION ledger row, exactly as POST /products/stock-adjustment. VOID: the sale is voided (POST ' +
        '/sales/{id}/void: its stock goes back) and every open conflict of that sale is resolved. Once none is open the sale\'s ' +
        'needs_review is false. A conflict already decided is 409 CONFLICT_ALREADY_RESOLVED.',
      access: { roles: OWNER_ONLY },
      rateLimit: 'user',
      idempotent: true,
      body: object('ResolveSyncConflictRequest', { resolution: enumOf('resolution', CONFLICT_RESOLUTIONS) }, { quantity_change: nonZeroInteger, note: text(1, 500) }),
      bodyExample: { resolution: 'STOCK_CORRECTION', quantity_change: 1, note: 'One carton was behind the counter' },
      success: { status: 200, description: 'The conflict, resolved', data: conflictShape },
      failures: failuresOf<FailureOf<typeof uc.resolveConflict>>({
        NotFound: true, ClientIdConflict: true, UnknownBranch: true, NegativePrice: true, ZeroQuantityChange: true, InsufficientStock: true,
        ServiceHasNoStock: true, StockLimitExceeded: true, WrongBranch: true, SaleAlreadyVoided: true, SaleHasReturns: true, ConflictAlreadyResolved: true,
      }),
    errors: [],
      handler: async ({ actor, params, body }) => {
        const note = body.note !== undefined ? { note: body.note } : {};
        if ((body.resolution === 'STOCK_CORRECTION') !== (body.quantity_change !== undefined)) {
          throw problem('VALIDATION_FAILED', 'quantity_change is required with STOCK_CORRECTION and not allowed with VOID.', {
            errors: [{ field: 'quantity_change', message: body.resolution === 'VOID' ? 'is not allowed with VOID' : 'is required with STOCK_CORRECTION' }],
          });
        }
        const decision =
          body.resolution === 'STOCK_CORRECTION' ? { resolution: 'STOCK_CORRECTION' as const, quantityChange: body.quantity_change!, ...note } : { resolution: 'VOID' as const, ...note };
        return ok('Conflict resolved', conflictJson(successOf(await uc.resolveConflict(actor, params.id, decision), 'conflict')));
      },
    }),
  ];
};
