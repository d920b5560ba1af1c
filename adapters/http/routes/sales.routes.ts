import * as t from 'io-ts';
import type { getReceipt, getSale, listSales, Receipt } from '../../../application/sales/read-sales.js';
import type { recordSale, RecordedSale } from '../../../application/sales/record-sale.js';
import type { voidSale } from '../../../application/sales/void-sale.js';
import type { returnsOfSale } from '../../../application/returns/read-returns.js';
import { SALE_SORTS } from '../../../application/sales/ports.js';
import { MAX_TENDERS, PAYMENT_METHODS, PROVISIONAL_RECEIPT_NUMBER } from '../../../domain/sale.js';
import { problem } from '../problem.js';
import { doc, Documented, enumOf, positiveInteger, jsonSchemaOf, money, object, text, uuidInput } from '../codecs.js';
import { CLIENT_FIELDS, CLIENT_FIELDS_DESCRIPTION, clientMade, createdOnce, REPLAYED_HEADER } from '../client-made.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { successOf } from '../failures.js';
import { created, ok, okFile, OWNER_AND_STAFF, OWNER_ONLY, route, type Reply } from '../route.js';
import { PDF, receiptDescription, receiptJson, receiptSuccess, receiptSummary, receiptSummaryShape, saleJson, saleShape, saleSummary, saleSummaryShape } from './sales.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface SaleUseCases {
  readonly recordSale: ReturnType<typeof recordSale>;
  readonly listSales: ReturnType<typeof listSales>;
  readonly getSale: ReturnType<typeof getSale>;
  readonly voidSale: ReturnType<typeof voidSale>;
  readonly getReceipt: ReturnType<typeof getReceipt>;
  readonly returnsOfSale: ReturnType<typeof returnsOfSale>;
  /** Renders a receipt as a PDF (the pdfkit adapter, wired in compose). */
  readonly renderReceiptPdf: (receipt: Receipt) => Promise<Buffer>;
  readonly paging: Paging;
}

const TAG = 'Sales';

const receiptReply = async (uc: SaleUseCases, receipt: Receipt, mediaType: string): Promise<Reply> =>
  mediaType === PDF
    ? okFile('Receipt PDF', { contentType: PDF, body: await uc.renderReceiptPdf(receipt) }, { 'Content-Disposition': `inline; filename="${receipt.sale.receiptNumber}.pdf"` })
    : ok('Receipt', receiptJson(receipt));

const itemCodec = object('SaleItemRequest', { product_id: uuidInput, quantity: positiveInteger(1_000_000) }, { unit_price: money, discount: money });
const items = new Documented<t.TypeOf<typeof itemCodec>[]>(
  'items',
  { type: 'array', minItems: 1, maxItems: 200, items: jsonSchemaOf(itemCodec) },
  (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > 200) return t.failure(u, c, 'must be a list of 1 to 200 items');
    return t.array(itemCodec).validate(u, c);
  },
);

const tenderCodec = object('SaleTender', { method: enumOf('method', PAYMENT_METHODS), amount: money });
const payments = new Documented<t.TypeOf<typeof tenderCodec>[]>(
  'payments',
  {
    type: 'array',
    minItems: 1,
    maxItems: MAX_TENDERS,
    items: jsonSchemaOf(tenderCodec),
    description:
      `split payments (docs/adr/0055), instead of payment_method and amount_paid: 1 to ${MAX_TENDERS} tenders, each method once, adding up to the ` +
      "total exactly (422 PAYMENTS_DO_NOT_MATCH_TOTAL); a CREDIT tender is what the customer (customer_id) owes; amount_tendered is the cash handed over for the CASH tender",
    examples: [[{ method: 'CASH', amount: 3000 }, { method: 'TRANSFER', amount: 2000 }]],
  },
  (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > MAX_TENDERS) return t.failure(u, c, `must be a list of 1 to ${MAX_TENDERS} tenders`);
    return t.array(tenderCodec).validate(u, c);
  },
);

/** The plan's monthly sales cap and what is left of it, on plans that have one. */
const planHeaders = (u: RecordedSale['monthlySales']): Record<string, string> =>
  u && u.limit !== null ? { 'Plan-Sales-Limit': String(u.limit), 'Plan-Sales-Remaining': String(u.remaining) } : {};

const RECEIPT_NUMBER = {
  receipt_number: {
    pattern: new RegExp(`^RCP-\\d{6,}$|${PROVISIONAL_RECEIPT_NUMBER.source}`),
    description: "a receipt number, e.g. RCP-000042, or an offline sale's provisional number, e.g. TILL1-000042",
  },
};

const provisionalNumber = new Documented<string>(
  'provisional receipt number',
  { type: 'string', maxLength: 26, pattern: PROVISIONAL_RECEIPT_NUMBER.source, description: 'an offline sale (POST /sync/batch only): `<device code>-<sequence>` as printed on its paper receipt, e.g. TILL1-000042' },
  (u, c) => (typeof u === 'string' && PROVISIONAL_RECEIPT_NUMBER.test(u) ? t.success(u) : t.failure(u, c, 'must be <device code>-<sequence>: 2 to 16 capitals or digits (not RCP), a hyphen, 1 to 9 digits')),
);

export const salesRoutes = (uc: SaleUseCases) => [
  route({
    method: 'post',
    path: '/sales',
    operationId: 'recordSale',
    tag: TAG,
    summary: 'Record a sale',
    description:
      'Prices the cart in kobo (unit_price defaults to the product price), takes stock for every line in one transaction ' +
      '(409 INSUFFICIENT_STOCK and nothing written when any line lacks it; services take none) and gives the next receipt ' +
      'number. Owner or staff. amount_paid is what the sale receives (at most the total, else 422 AMOUNT_PAID_EXCEEDS_TOTAL); it ' +
      'defaults to the total (0 on CREDIT), or to the smaller of amount_tendered and the total when amount_tendered (the cash handed ' +
      'over) is sent. change_due = amount_tendered - amount_paid (amount_tendered below amount_paid is 422 AMOUNT_TENDERED_TOO_SMALL). ' +
      'A credit sale (CREDIT, or paid less than the total) needs customer_id. An archived product is 422 PRODUCT_ARCHIVED. ' +
      'Split payments: send payments [{method, amount}] instead of payment_method and amount_paid (exactly one of payment_method or ' +
      'payments, else 400): the tenders add up to the total (422 PAYMENTS_DO_NOT_MATCH_TOTAL), a CREDIT tender is owed by the customer ' +
      '(the credit limit applies), amount_tendered and change_due concern the CASH tender only. Either way the sale answers its payments ' +
      '(the old shape: what was paid by payment_method, a CREDIT sale\'s deposit by CASH, then the rest as CREDIT). ' +
      'A VAT-registered business (PUT /businesses/me) charges VAT per line on what the line was sold for (after its share of the sale ' +
      'discount), at its rate or 0 for a vat_exempt product: included in the prices (prices_include_vat) or added to the total. ' +
      'Stock is taken from the sale\'s branch: branch_id, else the staff member\'s assigned branch, else the default branch; not ' +
      'enough there is 409 INSUFFICIENT_STOCK naming the branch and what it holds, whatever other branches hold. Staff with an ' +
      'assigned branch sell only there (another branch_id is 403 WRONG_BRANCH). ' +
      'On a plan with a monthly cap (FREE: 50 a Lagos month) the answer carries Plan-Sales-Limit and Plan-Sales-Remaining, and the ' +
      'sale past the cap is 402 PLAN_LIMIT_EXCEEDED. Fetch product ids from GET /products and customer ids from GET /customers first. ' +
      'Honours Idempotency-Key.' + CLIENT_FIELDS_DESCRIPTION,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    body: object(
      'SaleRequest',
      { items },
      { payment_method: enumOf('payment_method', PAYMENT_METHODS, 'how the sale is paid (the old shape); or send payments instead'), payments, amount_paid: money, amount_tendered: money, customer_id: uuidInput, discount: money, note: text(1, 500), branch_id: uuidInput, provisional_receipt_number: provisionalNumber, ...CLIENT_FIELDS },
    ),
    bodyExample: {
      items: [{ product_id: '3f1c2a4e-8b7d-4c6e-9a1b-2d3e4f5a6b7c', quantity: 2 }],
      payment_method: 'CASH',
      amount_tendered: 5000,
    },
    success: {
      status: 201,
      description: 'The sale',
      data: saleShape,
      headers: {
        'Plan-Sales-Limit': 'only on a plan with a monthly sales cap: the sales it allows in a Lagos month (e.g. 50)',
        'Plan-Sales-Remaining': 'only on a plan with a monthly sales cap: the sales left this Lagos month after this one',
        ...REPLAYED_HEADER,
      },
    },
    failures: failuresOf<FailureOf<typeof uc.recordSale>>({
      NegativeAmount: true, ClientIdConflict: true, UnknownBranch: true, UnknownCustomer: true, NegativePrice: true, WrongBranch: true,
      QuantityNotPositive: true, CreditBalanceLimitExceeded: true, UnknownProducts: true, ArchivedProducts: true, CustomerRequired: true,
      CreditLimitExceeded: true, LineDiscountTooLarge: true, AmountTooLarge: true, SaleDiscountTooLarge: true, AmountPaidExceedsTotal: true,
      AmountTenderedTooSmall: true, InsufficientStock: true, PlanLimitExceeded: true, ProvisionalReceiptNumberTaken: true,
      PaymentsDoNotMatchTotal: true, InvalidTenders: true,
    }),
    errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
    handler: async ({ actor, body, sync }) => {
      if (body.provisional_receipt_number && !sync) {
        throw problem('VALIDATION_FAILED', 'provisional_receipt_number is for sales a till made offline: send them through POST /sync/batch.', {
          errors: [{ field: 'provisional_receipt_number', message: 'only through POST /sync/batch' }],
        });
      }
      const recorded = successOf(await uc.recordSale(actor, {
        items: body.items.map((i) => ({
          productId: i.product_id,
          quantity: i.quantity,
          ...(i.unit_price !== undefined ? { unitPrice: i.unit_price } : {}),
          ...(i.discount !== undefined ? { discount: i.discount } : {}),
        })),
        ...(body.payment_method !== undefined ? { paymentMethod: body.payment_method } : {}),
        ...(body.payments !== undefined ? { payments: body.payments } : {}),
        ...(body.amount_paid !== undefined ? { amountPaid: body.amount_paid } : {}),
        ...(body.amount_tendered !== undefined ? { amountTendered: body.amount_tendered } : {}),
        ...(body.customer_id ? { customerId: body.customer_id } : {}),
        ...(body.discount !== undefined ? { discount: body.discount } : {}),
        ...(body.note ? { note: body.note } : {}),
        ...(body.branch_id ? { branchId: body.branch_id } : {}),
        ...clientMade(body),
        ...(sync ? { offline: { deviceId: sync.deviceId, ...(body.provisional_receipt_number ? { provisionalReceiptNumber: body.provisional_receipt_number } : {}) } } : {}),
      }), 'sale');
      return createdOnce('Sale recorded', saleJson(recorded.sale), recorded.replayed, planHeaders(recorded.monthlySales));
    },
  }),
  route({
    method: 'get',
    path: '/sales',
    operationId: 'listSales',
    tag: TAG,
    summary: 'Sales',
    description: 'Paged (keyset), newest first; items are not included (GET /sales/{id}). search: receipt_number.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('SaleListQuery', SALE_SORTS, {
      payment_method: enumOf('payment_method', PAYMENT_METHODS),
      status: enumOf('status', ['COMPLETED', 'VOIDED'] as const),
      customer_id: uuidInput,
      created_by: uuidInput,
      branch_id: uuidInput,
    }),
    success: { status: 200, description: 'A page of sales', data: doc('SalePage', pageSchema(jsonSchemaOf(saleSummaryShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listSales', query, 'created_at');
      const page = await uc.listSales(actor, req, {
        ...(query.payment_method ? { paymentMethod: query.payment_method } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.customer_id ? { customerId: query.customer_id } : {}),
        ...(query.created_by ? { createdBy: query.created_by } : {}),
        ...(query.branch_id ? { branchId: query.branch_id } : {}),
      });
      return ok('Sales', uc.paging.render('listSales', query, req, page, saleSummary));
    },
  }),
  route({
    method: 'get',
    path: '/sales/receipts',
    operationId: 'listReceipts',
    tag: TAG,
    summary: 'Receipts',
    description: 'Paged (keyset), newest first. search: receipt_number.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('ReceiptListQuery', SALE_SORTS, {}),
    success: { status: 200, description: 'A page of receipts', data: doc('ReceiptPage', pageSchema(jsonSchemaOf(receiptSummaryShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listReceipts', query, 'created_at');
      const page = await uc.listSales(actor, req, {});
      return ok('Receipts', uc.paging.render('listReceipts', query, req, page, receiptSummary));
    },
  }),
  route({
    method: 'get',
    path: '/sales/receipts/:receipt_number',
    operationId: 'getReceiptByNumber',
    tag: TAG,
    summary: 'A receipt by its number',
    description: receiptDescription,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    pathParams: RECEIPT_NUMBER,
    success: receiptSuccess,
    failures: failuresOf<FailureOf<typeof uc.getReceipt>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params, mediaType }) => {
      return receiptReply(uc, successOf(await uc.getReceipt(actor, { receiptNumber: params.receipt_number }), 'receipt'), mediaType);
    },
  }),
  route({
    method: 'get',
    path: '/sales/:id',
    operationId: 'getSale',
    tag: TAG,
    summary: 'A sale with its items',
    description:
      'Owner or staff. The sale with its lines, line_discount_total, amount_tendered and change_due; on a voided sale, refund_amount; its ' +
      'returns (POST /sales/{id}/returns), what they took back (returned_amount) and its net_total.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The sale', data: saleShape },
    failures: failuresOf<FailureOf<typeof uc.getSale>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => {
      const [sale, returns] = await Promise.all([uc.getSale(actor, params.id), uc.returnsOfSale(actor, params.id)]);
      return ok('Sale', saleJson(successOf(sale, 'sale'), returns));
    },
  }),
  route({
    method: 'get',
    path: '/sales/:id/receipt',
    operationId: 'getReceipt',
    tag: TAG,
    summary: "A sale's receipt",
    description: receiptDescription,
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: receiptSuccess,
    failures: failuresOf<FailureOf<typeof uc.getReceipt>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params, mediaType }) => {
      return receiptReply(uc, successOf(await uc.getReceipt(actor, { saleId: params.id }), 'sale'), mediaType);
    },
  }),
  route({
    method: 'post',
    path: '/sales/:id/void',
    operationId: 'voidSale',
    tag: TAG,
    summary: 'Void a sale (owner)',
    description:
      'Owner only. Status VOIDED; the stock the sale took goes back with SALE_VOID ledger rows. The voided sale owes nothing: ' +
      'balance_due and credit_outstanding become 0 (what the customer still owed is reversed in their credit ledger), and ' +
      'refund_amount = what the customer had paid for it (amount_paid at the till plus later credit payments toward it), which ' +
      'the merchant hands back. A second void is 409 SALE_ALREADY_VOIDED. A sale with returns is 409 SALE_HAS_RETURNS: return the rest ' +
      'instead (POST /sales/{id}/returns). Voided sales still count toward the plan month.',
    bodyExample: { reason: 'Customer returned the goods' },
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    idempotent: true,
    body: object('VoidSaleRequest', { reason: text(1, 500) }),
    success: { status: 200, description: 'The voided sale', data: saleShape },
    failures: failuresOf<FailureOf<typeof uc.voidSale>>({ NotFound: true, StockLimitExceeded: true, SaleAlreadyVoided: true, SaleHasReturns: true }),
    errors: [],
    handler: async ({ actor, params, body }) => {
      return ok('Sale voided', saleJson(successOf(await uc.voidSale(actor, params.id, body.reason), 'sale')));
    },
  }),
];
