import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { getReceipt, getSale, listSales, Receipt } from '../../../application/sales/read-sales.js';
import type { recordSale, SaleFailure } from '../../../application/sales/record-sale.js';
import type { voidSale } from '../../../application/sales/void-sale.js';
import { SALE_SORTS } from '../../../application/ports/repositories.js';
import { lagosDateTime } from '../../../domain/lagos-time.js';
import { PAYMENT_METHODS, type Sale } from '../../../domain/sale.js';
import { dateTime, doc, Documented, enumOf, int, positiveInteger, jsonSchemaOf, money, nairaJson, nullableStr, object, shape, str, text, uuid, uuidInput } from '../codecs.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { problem } from '../problem.js';
import { created, ok, okFile, OWNER_AND_STAFF, OWNER_ONLY, route, type Reply } from '../route.js';

export interface SaleUseCases {
  readonly recordSale: ReturnType<typeof recordSale>;
  readonly listSales: ReturnType<typeof listSales>;
  readonly getSale: ReturnType<typeof getSale>;
  readonly voidSale: ReturnType<typeof voidSale>;
  readonly getReceipt: ReturnType<typeof getReceipt>;
  /** Renders a receipt as a PDF (the pdfkit adapter, wired in compose). */
  readonly renderReceiptPdf: (receipt: Receipt) => Promise<Buffer>;
  readonly paging: Paging;
}

const TAG = 'Sales';
const naira = doc('naira', { type: 'number' });
const nullableNaira = doc('naira or null', { type: ['number', 'null'] });
const nullableTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });
const nullableUuid = doc('uuid or null', { type: ['string', 'null'], format: 'uuid' });

const lineJson = (l: Sale['lines'][number]) => ({
  product_id: l.productId,
  name: l.name,
  sku: l.sku,
  quantity: l.quantity,
  unit_price: nairaJson(l.unitPrice),
  discount: nairaJson(l.discount),
  line_total: nairaJson(l.lineTotal),
  cost_price: nairaJson(l.costPrice),
});

const lineShape = shape('SaleItem', {
  product_id: uuid,
  name: str,
  sku: str,
  quantity: int,
  unit_price: naira,
  discount: naira,
  line_total: naira,
  cost_price: nullableNaira,
});

const saleSummary = (s: Sale) => ({
  id: s.id,
  receipt_number: s.receiptNumber,
  subtotal: nairaJson(s.subtotal),
  discount: nairaJson(s.discount),
  total: nairaJson(s.total),
  payment_method: s.paymentMethod,
  amount_paid: nairaJson(s.amountPaid),
  balance_due: nairaJson(s.balanceDue),
  customer_id: s.customerId,
  status: s.status,
  note: s.note,
  created_by: s.createdBy,
  branch_id: s.branchId,
  created_at: s.createdAt.toISOString(),
  voided_at: s.voidedAt?.toISOString() ?? null,
  void_reason: s.voidReason,
  credit_outstanding: nairaJson(s.creditOutstanding),
  refund_amount: nairaJson(s.refundAmount),
});
const saleJson = (s: Sale) => ({ ...saleSummary(s), items: s.lines.map(lineJson) });

const summaryProps = {
  id: uuid,
  receipt_number: str,
  subtotal: naira,
  discount: naira,
  total: naira,
  payment_method: doc('payment method', { type: 'string', enum: [...PAYMENT_METHODS] }),
  amount_paid: naira,
  balance_due: naira,
  customer_id: nullableUuid,
  status: doc('status', { type: 'string', enum: ['COMPLETED', 'VOIDED'] }),
  note: nullableStr,
  created_by: uuid,
  branch_id: uuid,
  created_at: dateTime,
  voided_at: nullableTime,
  void_reason: nullableStr,
  credit_outstanding: naira,
  refund_amount: nullableNaira,
};
const saleSummaryShape = shape('SaleSummary', summaryProps);
const saleShape = shape('Sale', { ...summaryProps, items: doc('items', { type: 'array', items: jsonSchemaOf(lineShape) }) });

export const receiptJson = ({ sale, business, branch, cashier }: Receipt) => ({
  receipt_number: sale.receiptNumber,
  sale_id: sale.id,
  status: sale.status,
  business: { name: business.name, address: business.address, phone: business.phone },
  branch: branch ? { name: branch.name, address: branch.address, phone: branch.phone } : null,
  date_time: lagosDateTime(sale.createdAt),
  timezone: 'Africa/Lagos',
  created_at: sale.createdAt.toISOString(),
  cashier: cashier ? `${cashier.firstName} ${cashier.lastName}` : null,
  lines: sale.lines.map(({ name, sku, quantity, unitPrice, discount, lineTotal }) => ({
    name,
    sku,
    quantity,
    unit_price: nairaJson(unitPrice),
    discount: nairaJson(discount),
    line_total: nairaJson(lineTotal),
  })),
  subtotal: nairaJson(sale.subtotal),
  discount: nairaJson(sale.discount),
  total: nairaJson(sale.total),
  payment_method: sale.paymentMethod,
  amount_paid: nairaJson(sale.amountPaid),
  balance_due: nairaJson(sale.balanceDue),
  currency: business.currency,
  voided_at: sale.voidedAt?.toISOString() ?? null,
  void_reason: sale.voidReason,
});

const place = doc('place or null', {
  type: ['object', 'null'],
  properties: { name: { type: 'string' }, address: { type: ['string', 'null'] }, phone: { type: ['string', 'null'] } },
});
export const receiptShape = shape(
  'Receipt',
  {
    receipt_number: str,
    sale_id: uuid,
    status: str,
    business: place,
    branch: place,
    date_time: doc('Lagos local date-time', { type: 'string', examples: ['2026-11-22 15:04'] }),
    timezone: str,
    created_at: dateTime,
    cashier: nullableStr,
    lines: doc('lines', {
      type: 'array',
      items: jsonSchemaOf(shape('ReceiptLine', { name: str, sku: str, quantity: int, unit_price: naira, discount: naira, line_total: naira })),
    }),
    subtotal: naira,
    discount: naira,
    total: naira,
    payment_method: str,
    amount_paid: naira,
    balance_due: naira,
    currency: str,
    voided_at: nullableTime,
    void_reason: nullableStr,
  },
  { date_time: 'when the sale was made, Lagos wall-clock time' },
);

const PDF = 'application/pdf';
/** The success of both receipt routes: the JSON receipt, or with Accept: application/pdf the PDF. */
const receiptSuccess = {
  status: 200,
  description: 'The receipt: JSON, or with Accept: application/pdf the PDF',
  data: receiptShape,
  alternatives: { [PDF]: 'The receipt as a one-page PDF for 80 mm thermal paper: 226.77 pt wide, as tall as its content' },
  headers: { 'Content-Disposition': 'with the PDF: inline; filename="RCP-000042.pdf" (the receipt number)' },
} as const;
const receiptDescription =
  'The JSON receipt; with `Accept: application/pdf`, a PDF of it for an 80 mm thermal printer (naira amounts with the ₦ sign, ' +
  'Lagos local time). Errors are Problem Details JSON whatever the Accept header says.';
const receiptReply = async (uc: SaleUseCases, receipt: Receipt, mediaType: string): Promise<Reply> =>
  mediaType === PDF
    ? okFile('Receipt PDF', { contentType: PDF, body: await uc.renderReceiptPdf(receipt) }, { 'Content-Disposition': `inline; filename="${receipt.sale.receiptNumber}.pdf"` })
    : ok('Receipt', receiptJson(receipt));

const receiptSummary = (s: Sale) => ({
  receipt_number: s.receiptNumber,
  sale_id: s.id,
  total: nairaJson(s.total),
  payment_method: s.paymentMethod,
  status: s.status,
  created_at: s.createdAt.toISOString(),
});
const receiptSummaryShape = shape('ReceiptSummary', {
  receipt_number: str,
  sale_id: uuid,
  total: naira,
  payment_method: str,
  status: str,
  created_at: dateTime,
});

const itemCodec = object('SaleItemRequest', { product_id: uuidInput, quantity: positiveInteger(1_000_000) }, { unit_price: money, discount: money });
const items = new Documented<t.TypeOf<typeof itemCodec>[]>(
  'items',
  { type: 'array', minItems: 1, maxItems: 200, items: jsonSchemaOf(itemCodec) },
  (u, c) => {
    if (!Array.isArray(u) || u.length < 1 || u.length > 200) return t.failure(u, c, 'must be a list of 1 to 200 items');
    return t.array(itemCodec).validate(u, c);
  },
);

const saleFailure = (f: SaleFailure, items: readonly { product_id: string }[]) => {
  switch (f._tag) {
    case 'UnknownProducts':
      return problem('UNKNOWN_PRODUCT', 'Some items name no product of this business.', {
        errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is not a product of this business' })),
      });
    case 'UnknownCustomer':
      return problem('UNKNOWN_CUSTOMER', 'customer_id names no customer of this business.', { errors: [{ field: 'customer_id', message: 'is not a customer of this business' }] });
    case 'CustomerRequired':
      return problem('CUSTOMER_REQUIRED', 'A credit sale (CREDIT, or paid less than the total) needs a customer_id.', {
        errors: [{ field: 'customer_id', message: 'is required for a credit sale' }],
      });
    case 'CreditLimitExceeded':
      return problem('CREDIT_LIMIT_EXCEEDED', `This sale would take the customer over their credit limit of ${nairaJson(f.limit)} (they owe ${nairaJson(f.balance)}).`, {
        errors: [{ field: 'customer_id', message: 'credit limit exceeded' }],
      });
    case 'CreditBalanceLimitExceeded':
      return problem(
        'CREDIT_BALANCE_LIMIT_EXCEEDED',
        f.scope === 'customer'
          ? `A customer can owe at most 1,000,000,000,000.00; this customer owes ${nairaJson(f.balance)}.`
          : "The business's customers together would owe more than the books can hold (2^53 kobo); take payments first.",
        { errors: [{ field: 'customer_id', message: 'outstanding credit would pass the maximum' }] },
      );
    case 'UnknownBranch':
      return problem('UNKNOWN_BRANCH', 'branch_id does not name a branch of this business.', { errors: [{ field: 'branch_id', message: 'is not a branch of this business' }] });
    case 'LineDiscountTooLarge':
      return problem('DISCOUNT_TOO_LARGE', `The discount of item ${f.index} is larger than its line.`, { errors: [{ field: `items.${f.index}.discount`, message: 'is larger than the line' }] });
    case 'SaleDiscountTooLarge':
      return problem('DISCOUNT_TOO_LARGE', 'The discount is larger than the sale.', { errors: [{ field: 'discount', message: 'is larger than the subtotal' }] });
    case 'AmountPaidExceedsTotal':
      return problem('AMOUNT_PAID_EXCEEDS_TOTAL', 'amount_paid is more than the total.', { errors: [{ field: 'amount_paid', message: 'is more than the total' }] });
    case 'AmountTooLarge':
      return problem('AMOUNT_TOO_LARGE', 'The sale comes to more than 1,000,000,000,000.00.', { errors: [{ field: 'items', message: 'total too large' }] });
    case 'InsufficientStock':
      return problem('INSUFFICIENT_STOCK', `Not enough ${f.name} in stock: ${f.available} available, ${f.requested} wanted.`, {
        errors: [{ field: `items.${items.findIndex((i) => i.product_id === f.productId)}.quantity`, message: `only ${f.available} of ${f.name} available` }],
      });
    case 'PlanLimitExceeded':
      return problem('PLAN_LIMIT_EXCEEDED', `The ${f.plan} plan records at most ${f.limit} sales a month; upgrade to record more.`);
  }
};

const negative = (fields: [string, number | undefined][]) => {
  const bad = fields.filter(([, v]) => v !== undefined && v < 0);
  if (bad.length > 0) {
    throw problem('NEGATIVE_PRICE', `Amounts must not be negative: ${bad.map(([f]) => f).join(', ')}.`, {
      errors: bad.map(([field]) => ({ field, message: 'must not be negative' })),
    });
  }
};

const RECEIPT_NUMBER = { receipt_number: { pattern: /^RCP-\d{6,}$/, description: 'a receipt number, e.g. RCP-000042' } };

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
      'number. amount_paid defaults to the total (0 on CREDIT); a credit sale needs customer_id. On the Free plan the 51st sale ' +
      'of a Lagos month is 402 PLAN_LIMIT_EXCEEDED. Honours Idempotency-Key.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    body: object(
      'SaleRequest',
      { items, payment_method: enumOf('payment_method', PAYMENT_METHODS) },
      { amount_paid: money, customer_id: uuidInput, discount: money, note: text(1, 500), branch_id: uuidInput },
    ),
    success: {
      status: 201,
      description: 'The sale',
      data: saleShape,
      headers: {
        'Plan-Sales-Limit': 'on a plan with a monthly sales cap (FREE: 50): the cap of this Lagos month',
        'Plan-Sales-Remaining': 'on a plan with a monthly sales cap: sales left this Lagos month after this one',
      },
    },
    errors: [
      'INSUFFICIENT_STOCK',
      'PLAN_LIMIT_EXCEEDED',
      'UNKNOWN_PRODUCT',
      'UNKNOWN_CUSTOMER',
      'CUSTOMER_REQUIRED',
      'CREDIT_LIMIT_EXCEEDED',
      'CREDIT_BALANCE_LIMIT_EXCEEDED',
      'UNKNOWN_BRANCH',
      'DISCOUNT_TOO_LARGE',
      'AMOUNT_PAID_EXCEEDS_TOTAL',
      'AMOUNT_TOO_LARGE',
      'NEGATIVE_PRICE',
      'IDEMPOTENCY_IN_PROGRESS',
      'IDEMPOTENCY_KEY_REUSED',
    ],
    handler: async ({ actor, body }) => {
      negative([
        ['amount_paid', body.amount_paid],
        ['discount', body.discount],
        ...body.items.flatMap((i, n): [string, number | undefined][] => [
          [`items.${n}.unit_price`, i.unit_price],
          [`items.${n}.discount`, i.discount],
        ]),
      ]);
      const r = await uc.recordSale(actor!, {
        items: body.items.map((i) => ({
          productId: i.product_id,
          quantity: i.quantity,
          ...(i.unit_price !== undefined ? { unitPrice: i.unit_price } : {}),
          ...(i.discount !== undefined ? { discount: i.discount } : {}),
        })),
        paymentMethod: body.payment_method,
        ...(body.amount_paid !== undefined ? { amountPaid: body.amount_paid } : {}),
        ...(body.customer_id ? { customerId: body.customer_id } : {}),
        ...(body.discount !== undefined ? { discount: body.discount } : {}),
        ...(body.note ? { note: body.note } : {}),
        ...(body.branch_id ? { branchId: body.branch_id } : {}),
      });
      if (E.isLeft(r)) throw saleFailure(r.left, body.items);
      const usage = r.right.planUsage;
      // On a plan with a monthly cap, the client learns how close the 402 is (not on an idempotent replay).
      const headers = usage ? { 'Plan-Sales-Limit': String(usage.limit), 'Plan-Sales-Remaining': String(usage.remaining) } : undefined;
      return { ...created('Sale recorded', saleJson(r.right)), ...(headers ? { headers } : {}) };
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
      const page = await uc.listSales(actor!, req, {
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
      const page = await uc.listSales(actor!, req, {});
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
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params, mediaType }) => {
      const r = await uc.getReceipt(actor!, { receiptNumber: params.receipt_number! });
      if (E.isLeft(r)) throw problem('RESOURCE_NOT_FOUND', 'No such receipt.');
      return receiptReply(uc, r.right, mediaType);
    },
  }),
  route({
    method: 'get',
    path: '/sales/:id',
    operationId: 'getSale',
    tag: TAG,
    summary: 'A sale with its items',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The sale', data: saleShape },
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params }) => {
      const r = await uc.getSale(actor!, params.id!);
      if (E.isLeft(r)) throw problem('RESOURCE_NOT_FOUND', 'No such sale.');
      return ok('Sale', saleJson(r.right));
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
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ actor, params, mediaType }) => {
      const r = await uc.getReceipt(actor!, { saleId: params.id! });
      if (E.isLeft(r)) throw problem('RESOURCE_NOT_FOUND', 'No such sale.');
      return receiptReply(uc, r.right, mediaType);
    },
  }),
  route({
    method: 'post',
    path: '/sales/:id/void',
    operationId: 'voidSale',
    tag: TAG,
    summary: 'Void a sale (owner)',
    description: 'Status VOIDED; the stock the sale took goes back with SALE_VOID ledger rows. A second void is 409. Voided sales still count toward the plan month.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    body: object('VoidSaleRequest', { reason: text(1, 500) }),
    success: { status: 200, description: 'The voided sale', data: saleShape },
    errors: ['RESOURCE_NOT_FOUND', 'SALE_ALREADY_VOIDED', 'STOCK_LIMIT_EXCEEDED'],
    handler: async ({ actor, params, body }) => {
      const r = await uc.voidSale(actor!, params.id!, body.reason);
      if (E.isLeft(r)) {
        const f = r.left;
        switch (f._tag) {
          case 'NotFound':
            throw problem('RESOURCE_NOT_FOUND', 'No such sale.');
          case 'SaleAlreadyVoided':
            throw problem('SALE_ALREADY_VOIDED', 'This sale is already voided.');
          case 'StockLimitExceeded':
            throw problem('STOCK_LIMIT_EXCEEDED', `Returning the stock would take a product above ${f.max} units (it has ${f.available}); adjust it down first.`);
        }
      }
      return ok('Sale voided', saleJson(r.right));
    },
  }),
];
