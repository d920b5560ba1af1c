import * as t from 'io-ts';
import type { getStockTransfer, listStockTransfers, transferStock } from '../../../application/products/transfer-stock.js';
import { TRANSFER_SORTS } from '../../../application/products/ports.js';
import type { StockTransfer } from '../../../domain/product.js';
import { dateTime, doc, Documented, int, jsonSchemaOf, nullableStr, object, positiveInteger, shape, text, uuid, uuidInput } from '../codecs.js';
import { dateTimeJson } from '../json-values.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { created, ok, OWNER_ONLY, route } from '../route.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

// Stock moved between branches (docs/adr/0032): owner only, one transaction per transfer.

export interface StockTransferUseCases {
  readonly transferStock: ReturnType<typeof transferStock>;
  readonly listStockTransfers: ReturnType<typeof listStockTransfers>;
  readonly getStockTransfer: ReturnType<typeof getStockTransfer>;
  readonly paging: Paging;
}

const TAG = 'Products';

/** A line moves at most what one sale line may take; a transfer at most 200 lines, as a sale. */
const itemCodec = object('StockTransferItemRequest', { product_id: uuidInput, quantity: positiveInteger(1_000_000) });
const items = new Documented<t.TypeOf<typeof itemCodec>[]>(
  'items',
  { type: 'array', minItems: 1, maxItems: 200, items: jsonSchemaOf(itemCodec) },
  (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > 200) return t.failure(u, c, 'must be a list of 1 to 200 items');
    return t.array(itemCodec).validate(u, c);
  },
);

const transferShape = shape(
  'StockTransfer',
  {
    id: uuid,
    from_branch_id: uuid,
    to_branch_id: uuid,
    items: doc('items', { type: 'array', items: jsonSchemaOf(shape('StockTransferItem', { product_id: uuid, quantity: int })) }),
    note: nullableStr,
    created_by: uuid,
    created_at: dateTime,
  },
  { items: 'per product, the units moved (lines naming one product are added up); the ledger rows carry transfer_id' },
);

const transferJson = (x: StockTransfer) => ({
  id: x.id,
  from_branch_id: x.fromBranchId,
  to_branch_id: x.toBranchId,
  items: x.items.map((i) => ({ product_id: i.productId, quantity: i.quantity })),
  note: x.note,
  created_by: x.createdBy,
  created_at: dateTimeJson(x.createdAt),
});

export const stockTransferRoutes = (uc: StockTransferUseCases) => [
  route({
    method: 'post',
    path: '/products/stock-transfers',
    operationId: 'transferStock',
    tag: TAG,
    summary: 'Move stock between branches (owner)',
    description:
      'Moves each line\'s quantity from from_branch_id to to_branch_id in one transaction: a TRANSFER_OUT and a TRANSFER_IN ledger ' +
      'row per product. Not enough at the source for any line is 409 INSUFFICIENT_STOCK naming the branch and what it holds, and ' +
      'nothing moves. A service is 422 SERVICE_HAS_NO_STOCK; the same branch twice is 400. Honours Idempotency-Key. Take branch ids ' +
      'from GET /businesses/{id}/branches and product ids from GET /products.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    body: object('StockTransferRequest', { from_branch_id: uuidInput, to_branch_id: uuidInput, items }, { note: text(1, 500) }),
    bodyExample: {
      from_branch_id: '5b0e6a52-6a3f-4c59-9e0c-3a1d2b4c5d6e',
      to_branch_id: '8c2f7b63-7b4a-4d6a-8f1d-4b2e3c5d6f7a',
      items: [{ product_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', quantity: 12 }],
      note: 'Two cartons to the Lekki shop',
    },
    success: { status: 201, description: 'The transfer', data: transferShape },
    failures: failuresOf<FailureOf<typeof uc.transferStock>>({
      UnknownBranch: true, SameBranch: true, UnknownProducts: true, ServiceItems: true, InsufficientStock: true,
    }),
    errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
    handler: async ({ actor, body }) => {
      const transfer = successOf(
        await uc.transferStock(actor, {
          fromBranchId: body.from_branch_id,
          toBranchId: body.to_branch_id,
          items: body.items.map((i) => ({ productId: i.product_id, quantity: i.quantity })),
          ...(body.note !== undefined ? { note: body.note } : {}),
        }),
        'stock transfer',
      );
      return created('Stock transferred', transferJson(transfer));
    },
  }),
  route({
    method: 'get',
    path: '/products/stock-transfers',
    operationId: 'listStockTransfers',
    tag: TAG,
    summary: 'Stock transfers (owner)',
    description: 'Paged (keyset), newest first. Filter branch_id: transfers from or to that branch. search: note.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    query: listQuery('StockTransferListQuery', TRANSFER_SORTS, { branch_id: uuidInput }),
    success: { status: 200, description: 'A page of transfers', data: doc('StockTransferPage', pageSchema(jsonSchemaOf(transferShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listStockTransfers', query, 'created_at');
      const page = await uc.listStockTransfers(actor, req, query.branch_id ? { branchId: query.branch_id } : {});
      return ok('Stock transfers', uc.paging.render('listStockTransfers', query, req, page, transferJson));
    },
  }),
  route({
    method: 'get',
    path: '/products/stock-transfers/:id',
    operationId: 'getStockTransfer',
    tag: TAG,
    summary: 'One stock transfer (owner)',
    description: 'The transfer with its lines; its ledger rows are GET /products/stock-adjustments?reason=TRANSFER_OUT (or TRANSFER_IN).',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The transfer', data: transferShape },
    failures: failuresOf<FailureOf<typeof uc.getStockTransfer>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => ok('Stock transfer', transferJson(successOf(await uc.getStockTransfer(actor, params.id), 'stock transfer'))),
  }),
];
