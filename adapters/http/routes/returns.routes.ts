import * as t from 'io-ts';
import type { getReturn, getReturnReceipt, listReturns, ReturnReceipt } from '../../../application/returns/read-returns.js';
import type { recordReturn } from '../../../application/returns/record-return.js';
import { RETURN_SORTS } from '../../../application/returns/ports.js';
import { MAX_RETURN_QUANTITY, REFUND_METHODS } from '../../../domain/sale-return.js';
import { booleanInput, doc, Documented, enumOf, jsonSchemaOf, object, positiveInteger, text, uuidInput } from '../codecs.js';
import { CLIENT_FIELDS, CLIENT_FIELDS_DESCRIPTION, clientMade, createdOnce, REPLAYED_HEADER } from '../client-made.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { ok, okFile, OWNER_AND_STAFF, route, type Reply } from '../route.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';
import { returnJson, returnReceiptJson, returnReceiptShape, returnShape, returnSummary, returnSummaryShape } from './returns.views.js';
import { PDF } from './sales.views.js';

// Returns of sales (docs/adr/0058): a customer brings back part of what they bought.

export interface ReturnUseCases {
  readonly recordReturn: ReturnType<typeof recordReturn>;
  readonly listReturns: ReturnType<typeof listReturns>;
  readonly getReturn: ReturnType<typeof getReturn>;
  readonly getReturnReceipt: ReturnType<typeof getReturnReceipt>;
  /** Renders a refund receipt as a PDF (the pdfkit adapter). */
  readonly renderRefundReceiptPdf: (receipt: ReturnReceipt) => Promise<Buffer>;
  readonly paging: Paging;
}

const TAG = 'Returns';
const MAX_ITEMS = 200;

const itemCodec = object('ReturnItemRequest', { product_id: uuidInput, quantity: positiveInteger(MAX_RETURN_QUANTITY) });
const items = new Documented<t.TypeOf<typeof itemCodec>[]>(
  'items',
  { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: jsonSchemaOf(itemCodec) },
  (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > MAX_ITEMS) return t.failure(u, c, `must be a list of 1 to ${MAX_ITEMS} items`);
    return t.array(itemCodec).validate(u, c);
  },
);

const receiptReply = async (uc: ReturnUseCases, receipt: ReturnReceipt, mediaType: string): Promise<Reply> =>
  mediaType === PDF
    ? okFile('Refund receipt PDF', { contentType: PDF, body: await uc.renderRefundReceiptPdf(receipt) }, { 'Content-Disposition': `inline; filename="${receipt.saleReturn.returnNumber}.pdf"` })
    : ok('Refund receipt', returnReceiptJson(receipt));

export const returnRoutes = (uc: ReturnUseCases) => [
  route({
    method: 'post',
    path: '/sales/:id/returns',
    operationId: 'recordReturn',
    tag: TAG,
    summary: 'Return goods of a sale',
    description:
      'Owner or staff (staff assigned to a branch: only that branch\'s sales, else 403 WRONG_BRANCH). Each item names a product of the sale ' +
      'and how many units come back: at most what the sale sold of it less what earlier returns took back (422 RETURN_EXCEEDS_SOLD, nothing ' +
      'written; two returns racing for the last unit: one wins); a product the sale did not sell is 422 PRODUCT_NOT_IN_SALE; a voided sale ' +
      'is 409 SALE_ALREADY_VOIDED. Each unit is worth its share of what its line was sold for (after the line discount and the line\'s share of ' +
      'the sale discount), exact to the kobo: a line\'s returns add up to it exactly once every unit is back, never more (the last return ' +
      'takes the remainder). On a sale with something still owed (credit_outstanding), the return first takes that off (debt_reduced); ' +
      'only the rest is refunded (refund_amount). refund_method CASH, TRANSFER, CARD or POS is money handed back (a CASH refund leaves the ' +
      'till: the daily summary\'s cash_expected counts it); CREDIT_NOTE keeps it on the customer\'s credit account (their other debts first, ' +
      'then their balance goes below zero and their next credit sales use it first) and needs a sale with a customer (else 422 ' +
      'CREDIT_NOTE_NEEDS_CUSTOMER). restock (default true) puts the goods back at the sale\'s branch with RETURN rows in the stock ledger; false ' +
      '(damaged) moves no stock, and their cost stays in the cost of goods. The return gets its own gap-free number (RTN-000001). ' +
      'A sale with returns cannot be voided (409 SALE_HAS_RETURNS): return the rest instead. Take the sale\'s id from GET /sales (or ' +
      'GET /sales/receipts/{receipt_number}) and its product_ids from GET /sales/{id}. Honours Idempotency-Key.' +
      CLIENT_FIELDS_DESCRIPTION,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    body: object(
      'ReturnRequest',
      { items, refund_method: enumOf('refund_method', REFUND_METHODS), reason: text(1, 500, 'why the goods came back (printed on the refund receipt)') },
      { restock: booleanInput, ...CLIENT_FIELDS },
    ),
    bodyExample: {
      items: [{ product_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', quantity: 1 }],
      refund_method: 'CASH',
      reason: 'Wrong size',
    },
    success: { status: 201, description: 'The return', data: returnShape, headers: REPLAYED_HEADER },
    failures: failuresOf<FailureOf<typeof uc.recordReturn>>({
      QuantityNotPositive: true, NotFound: true, WrongBranch: true, SaleAlreadyVoided: true, ProductNotInSale: true, ReturnExceedsSold: true,
      CreditNoteNeedsCustomer: true, StockLimitExceeded: true, ClientIdConflict: true,
    }),
    errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
    handler: async ({ actor, params, body, sync }) => {
      const recorded = successOf(
        await uc.recordReturn(actor, {
          saleId: params.id,
          items: body.items.map((i) => ({ productId: i.product_id, quantity: i.quantity })),
          restock: body.restock ?? true,
          refundMethod: body.refund_method,
          reason: body.reason,
          ...clientMade(body),
          ...(sync ? { offline: { deviceId: sync.deviceId } } : {}),
        }),
        'return',
      );
      return createdOnce('Return recorded', returnJson(recorded), recorded.replayed);
    },
  }),
  route({
    method: 'get',
    path: '/returns',
    operationId: 'listReturns',
    tag: TAG,
    summary: 'Returns',
    description:
      'Owner or staff. Paged (keyset), newest first; items are not included (GET /returns/{id}). start_date and end_date bound when the ' +
      'goods came back; branch_id (the sale\'s branch), created_by (who took them back), sale_id and refund_method filter. search: ' +
      'return_number, the sale\'s receipt_number, reason.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('ReturnListQuery', RETURN_SORTS, {
      branch_id: uuidInput,
      created_by: uuidInput,
      sale_id: uuidInput,
      refund_method: enumOf('refund_method', REFUND_METHODS),
    }),
    success: { status: 200, description: 'A page of returns', data: doc('ReturnPage', pageSchema(jsonSchemaOf(returnSummaryShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listReturns', query, 'created_at');
      const page = await uc.listReturns(actor, req, {
        ...(query.branch_id ? { branchId: query.branch_id } : {}),
        ...(query.created_by ? { createdBy: query.created_by } : {}),
        ...(query.sale_id ? { saleId: query.sale_id } : {}),
        ...(query.refund_method ? { refundMethod: query.refund_method } : {}),
      });
      return ok('Returns', uc.paging.render('listReturns', query, req, page, returnSummary));
    },
  }),
  route({
    method: 'get',
    path: '/returns/:id',
    operationId: 'getReturn',
    tag: TAG,
    summary: 'A return with its items',
    description: 'Owner or staff.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The return', data: returnShape },
    failures: failuresOf<FailureOf<typeof uc.getReturn>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => ok('Return', returnJson(successOf(await uc.getReturn(actor, params.id), 'return'))),
  }),
  route({
    method: 'get',
    path: '/returns/:id/receipt',
    operationId: 'getRefundReceipt',
    tag: TAG,
    summary: "A return's refund receipt",
    description:
      'Owner or staff. The JSON refund receipt; with `Accept: application/pdf`, a PDF of it for an 80 mm thermal printer (naira with the ₦ ' +
      'sign, Lagos local time). Errors are Problem Details JSON whatever the Accept header says.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: {
      status: 200,
      description: 'The refund receipt: JSON, or with Accept: application/pdf the PDF',
      data: returnReceiptShape,
      alternatives: { [PDF]: 'The refund receipt as a one-page PDF for 80 mm thermal paper: 226.77 pt wide, as tall as its content' },
      headers: { 'Content-Disposition': 'with the PDF: inline; filename="RTN-000042.pdf" (the return number)' },
    },
    failures: failuresOf<FailureOf<typeof uc.getReturnReceipt>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params, mediaType }) => receiptReply(uc, successOf(await uc.getReturnReceipt(actor, params.id), 'return'), mediaType),
  }),
];
