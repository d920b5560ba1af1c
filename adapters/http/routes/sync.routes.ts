import * as t from 'io-ts';
import { doc, Documented, enumOf, int, jsonSchemaOf, object, shape, str, text, uuidInput } from '../codecs.js';
import { ok, OWNER_AND_STAFF, route, type RouteDef } from '../route.js';
import { runSyncBatch, SYNC_OPERATION_TYPES, SYNC_TARGETS, type SyncBatchDeps, type SyncOperationType } from '../sync-batch.js';

// Offline sync (docs/adr/0034, docs/offline-sync.md): a till's queued operations, applied in order.

export interface SyncUseCases {
  readonly sync: SyncBatchDeps;
}

const TAG = 'Offline sync';
const MAX_OPERATIONS = 100;

/** The body of one operation: the single endpoint's request body (checked by that endpoint's codec, per operation). */
const payload = new Documented<Record<string, unknown>>(
  'operation payload',
  {
    type: 'object',
    maxProperties: 20,
    description:
      "the single endpoint's request body (SaleRequest, CreateCustomerRequest, CreditPaymentRequest plus customer_id, CreateExpenseRequest, StockAdjustmentRequest)",
  },
  (u, c) => (u !== null && typeof u === 'object' && !Array.isArray(u) ? t.success(u as Record<string, unknown>) : t.failure(u, c, 'must be an object')),
);

const operation = object('SyncOperation', { op_id: uuidInput, type: enumOf('type', SYNC_OPERATION_TYPES), payload });
const operations = new Documented<t.TypeOf<typeof operation>[]>(
  'operations',
  { type: 'array', minItems: 1, maxItems: MAX_OPERATIONS, items: jsonSchemaOf(operation) },
  (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > MAX_OPERATIONS) return t.failure(u, c, `must be a list of 1 to ${MAX_OPERATIONS} operations`);
    return t.array(operation).validate(u, c);
  },
);

const resultShape = doc('SyncOperationResult', {
  type: 'object',
  properties: {
    op_id: { type: 'string', format: 'uuid' },
    type: { type: 'string', enum: [...SYNC_OPERATION_TYPES] },
    status: { type: 'string', enum: ['applied', 'duplicate', 'rejected'] },
    http_status: { type: 'integer', minimum: 200, maximum: 599, description: 'what the single endpoint answered (201) or would answer (4xx)' },
    data: { description: "applied and duplicate: the record, as the single endpoint's data" },
    error: { type: 'object', description: "rejected: the Problem Details the single endpoint would answer (its `error` object)" },
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
    route({
      method: 'post',
      path: '/sync/batch',
      operationId: 'syncBatch',
      tag: TAG,
      summary: "Apply a till's queued offline operations",
      description:
        `Up to ${MAX_OPERATIONS} operations, applied in order, each in its own transaction, each exactly as its single endpoint ` +
        '(sale.create: POST /sales; customer.create: POST /customers; credit_payment.create: POST /customers/{customer_id}/credit/payment ' +
        'with customer_id in the payload; expense.create: POST /expenses; stock_adjustment.create: POST /products/stock-adjustment). ' +
        'Each answers `applied` (with the record), `duplicate` (this device already applied this op_id, or the record\'s client id ' +
        'already exists with the same content: the same record again) or `rejected` (with the Problem Details its endpoint would answer); ' +
        'one rejected operation never stops the others. An op_id is remembered per device for 24 hours once applied; a rejected one is ' +
        'not, so it may be sent again once its cause is gone. The same op_id with another payload is rejected 422 IDEMPOTENCY_KEY_REUSED. ' +
        'Give every record a client id (`id`, UUID v4) and `client_created_at`: the record itself then stays idempotent after the 24 hours. ' +
        'See docs/offline-sync.md.',
      access: { roles: OWNER_AND_STAFF },
      rateLimit: 'user',
      body: object('SyncBatchRequest', { device_id: text(1, 64, 'the till: any stable name unique in the business, e.g. its install UUID'), operations }),
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
        const results = await run(ctx, actor!, sessionId, body.device_id, body.operations as never);
        const count = (s: string) => results.filter((r) => r.status === s).length;
        return ok('Batch applied', { device_id: body.device_id, applied: count('applied'), duplicates: count('duplicate'), rejected: count('rejected'), results });
      },
    }),
  ];
};
