import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { getReceipt, getSale, listSales, Receipt } from '../../../application/sales/read-sales.js';
import type { recordSale, RecordedSale, SaleFailure } from '../../../application/sales/record-sale.js';
import type { voidSale } from '../../../application/sales/void-sale.js';
import { SALE_SORTS } from '../../../application/sales/ports.js';
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
  line_discount_total: nairaJson(s.lineDiscountTotal),
  total: nairaJson(s.total),
  payment_method: s.paymentMethod,
  amount_paid: nairaJson(s.amountPaid),
  amount_tendered: nairaJson(s.amountTendered),
  change_due: nairaJson(s.changeDue),
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
  line_discount_total: naira,
  total: naira,
  payment_method: doc('payment method', { type: 'string', enum: [...PAYMENT_METHODS] }),
  amount_paid: naira,
  amount_tendered: nullableNaira,
  change_due: nullableNaira,
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
/** What the money fields of a sale mean (the document's descriptions; ADR 0015). */
const SALE_FIELD_DESCRIPTIONS: Record<string, string> = {
  subtotal: 'sum of the line totals (each already net of its line discount)',
  discount: "the sale's own discount, taken off the subtotal",
  line_discount_total: 'sum of the line discounts (already inside the subtotal), shown beside the sale discount',
  total: 'subtotal - discount',
  amount_paid: 'what the sale received, at most the total',
  amount_tendered: 'cash (or transfer) handed over, when sent; null when not recorded',
  change_due: 'amount_tendered - amount_paid, handed back; null when amount_tendered was not sent',
  balance_due: 'what was left unpaid at the till (total - amount_paid); 0 on a voided sale, which owes nothing',
  credit_outstanding: 'what of balance_due the customer still owes after later payments; 0 once voided',
  refund_amount:
    'only on a voided sale (null otherwise): what the customer had paid for it (amount_paid at the till plus later credit payments toward it), to hand back',
};
const saleSummaryShape = shape('SaleSummary', summaryProps, SALE_FIELD_DESCRIPTIONS);
const saleShape = shape('Sale', { ...summaryProps, items: doc('items', { type: 'array', items: jsonSchemaOf(lineShape) }) }, SALE_FIELD_DESCRIPTIONS);

export const receiptJson = ({ sale, business, branch, cashier, customer }: Receipt) => ({
  receipt_number: sale.receiptNumber,
  sale_id: sale.id,
  status: sale.status,
  business: { name: business.name, address: business.address, phone: business.phone },
  branch: branch ? { name: branch.name, address: branch.address, phone: branch.phone } : null,
  date_time: lagosDateTime(sale.createdAt),
  timezone: 'Africa/Lagos',
  created_at: sale.createdAt.toISOString(),
  cashier: cashier ? `${cashier.firstName} ${cashier.lastName}` : null,
  customer: customer ? { name: customer.name, phone: customer.phone } : null,
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
  line_discount_total: nairaJson(sale.lineDiscountTotal),
  total: nairaJson(sale.total),
  payment_method: sale.paymentMethod,
  amount_paid: nairaJson(sale.amountPaid),
  amount_tendered: nairaJson(sale.amountTendered),
  change_due: nairaJson(sale.changeDue),
  balance_due: nairaJson(sale.balanceDue),
  currency: business.currency,
  voided_at: sale.voidedAt?.toISOString() ?? null,
  void_reason: sale.voidReason,
  refund_amount: nairaJson(sale.refundAmount),
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
    status: doc('status', { type: 'string', enum: ['COMPLETED', 'VOIDED'] }),
    business: place,
    branch: place,
    date_time: doc('Lagos local date-time', { type: 'string', examples: ['2026-11-22 15:04'] }),
    timezone: str,
    created_at: dateTime,
    cashier: nullableStr,
    customer: doc('customer or null', {
      type: ['object', 'null'],
      required: ['name', 'phone'],
      properties: { name: { type: 'string' }, phone: { type: ['string', 'null'] } },
    }),
    lines: doc('lines', {
      type: 'array',
      items: jsonSchemaOf(shape('ReceiptLine', { name: str, sku: str, quantity: int, unit_price: naira, discount: naira, line_total: naira })),
    }),
    subtotal: naira,
    discount: naira,
    line_discount_total: naira,
    total: naira,
    payment_method: doc('payment method', { type: 'string', enum: [...PAYMENT_METHODS] }),
    amount_paid: naira,
    amount_tendered: nullableNaira,
    change_due: nullableNaira,
    balance_due: naira,
    currency: str,
    voided_at: nullableTime,
    void_reason: nullableStr,
    refund_amount: nullableNaira,
  },
  {
    ...SALE_FIELD_DESCRIPTIONS,
    date_time: 'when the sale was made, Lagos wall-clock time',
    customer: "the sale's customer (name and phone), null when the sale has none",
  },
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
    case 'ArchivedProducts':
      return problem('PRODUCT_ARCHIVED', 'Some items name an archived product; restore it (POST /products/{id}/restore) to sell it again.', {
        errors: f.indexes.map((i) => ({ field: `items.${i}.product_id`, message: 'is an archived product' })),
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
      return problem(
        'AMOUNT_PAID_EXCEEDS_TOTAL',
        'amount_paid is more than the total. amount_paid is what the sale receives; send the cash handed over as amount_tendered and the change comes back as change_due.',
        { errors: [{ field: 'amount_paid', message: 'is more than the total' }] },
      );
    case 'AmountTenderedTooSmall':
      return problem('AMOUNT_TENDERED_TOO_SMALL', `amount_tendered is less than the amount paid (${nairaJson(f.amountPaid)}).`, {
        errors: [{ field: 'amount_tendered', message: 'is less than amount_paid' }],
      });
    case 'AmountTooLarge':
      return problem('AMOUNT_TOO_LARGE', 'The sale comes to more than 1,000,000,000,000.00.', { errors: [{ field: 'items', message: 'total too large' }] });
    case 'InsufficientStock':
      return problem('INSUFFICIENT_STOCK', `Not enough ${f.name} in stock: ${f.available} available, ${f.requested} wanted.`, {
        errors: [{ field: `items.${items.findIndex((i) => i.product_id === f.productId)}.quantity`, message: `only ${f.available} of ${f.name} available` }],
      });
    case 'PlanLimitExceeded':
      return problem('PLAN_LIMIT_EXCEEDED', `The ${f.plan} plan records at most ${f.limit} sales a month; upgrade to record more.`, {
        headers: { 'Plan-Sales-Limit': String(f.limit), 'Plan-Sales-Remaining': '0' },
      });
  }
};

/** A price (NEGATIVE_PRICE) or another amount (AMOUNT_MUST_NOT_BE_NEGATIVE) below zero: one code per rule. */
const negative = (code: 'NEGATIVE_PRICE' | 'AMOUNT_MUST_NOT_BE_NEGATIVE', fields: [string, number | undefined][]) => {
  const bad = fields.filter(([, v]) => v !== undefined && v < 0);
  if (bad.length > 0) {
    throw problem(code, `${code === 'NEGATIVE_PRICE' ? 'Prices' : 'Amounts'} must not be negative: ${bad.map(([f]) => f).join(', ')}.`, {
      errors: bad.map(([field]) => ({ field, message: 'must not be negative' })),
    });
  }
};

/** The plan's monthly sales cap and what is left of it, on plans that have one. */
const planHeaders = (u: RecordedSale['monthlySales']): Record<string, string> =>
  u && u.limit !== null ? { 'Plan-Sales-Limit': String(u.limit), 'Plan-Sales-Remaining': String(u.remaining) } : {};

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
      'number. Owner or staff. amount_paid is what the sale receives (at most the total, else 422 AMOUNT_PAID_EXCEEDS_TOTAL); it ' +
      'defaults to the total (0 on CREDIT), or to the smaller of amount_tendered and the total when amount_tendered (the cash handed ' +
      'over) is sent. change_due = amount_tendered - amount_paid (amount_tendered below amount_paid is 422 AMOUNT_TENDERED_TOO_SMALL). ' +
      'A credit sale (CREDIT, or paid less than the total) needs customer_id. An archived product is 422 PRODUCT_ARCHIVED. ' +
      'On a plan with a monthly cap (FREE: 50 a Lagos month) the answer carries Plan-Sales-Limit and Plan-Sales-Remaining, and the ' +
      'sale past the cap is 402 PLAN_LIMIT_EXCEEDED. Fetch product ids from GET /products and customer ids from GET /customers first. ' +
      'Honours Idempotency-Key.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    body: object(
      'SaleRequest',
      { items, payment_method: enumOf('payment_method', PAYMENT_METHODS) },
      { amount_paid: money, amount_tendered: money, customer_id: uuidInput, discount: money, note: text(1, 500), branch_id: uuidInput },
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
      'AMOUNT_TENDERED_TOO_SMALL',
      'PRODUCT_ARCHIVED',
      'AMOUNT_TOO_LARGE',
      'NEGATIVE_PRICE',
      'AMOUNT_MUST_NOT_BE_NEGATIVE',
      'IDEMPOTENCY_IN_PROGRESS',
      'IDEMPOTENCY_KEY_REUSED',
    ],
    handler: async ({ actor, body }) => {
      negative('NEGATIVE_PRICE', body.items.map((i, n): [string, number | undefined] => [`items.${n}.unit_price`, i.unit_price]));
      negative('AMOUNT_MUST_NOT_BE_NEGATIVE', [
        ['amount_paid', body.amount_paid],
        ['amount_tendered', body.amount_tendered],
        ['discount', body.discount],
        ...body.items.map((i, n): [string, number | undefined] => [`items.${n}.discount`, i.discount]),
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
        ...(body.amount_tendered !== undefined ? { amountTendered: body.amount_tendered } : {}),
        ...(body.customer_id ? { customerId: body.customer_id } : {}),
        ...(body.discount !== undefined ? { discount: body.discount } : {}),
        ...(body.note ? { note: body.note } : {}),
        ...(body.branch_id ? { branchId: body.branch_id } : {}),
      });
      if (E.isLeft(r)) throw saleFailure(r.left, body.items);
      return { ...created('Sale recorded', saleJson(r.right.sale)), headers: planHeaders(r.right.monthlySales) };
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
    description: 'Owner or staff. The sale with its lines, line_discount_total, amount_tendered and change_due; on a voided sale, refund_amount.',
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
    description:
      'Owner only. Status VOIDED; the stock the sale took goes back with SALE_VOID ledger rows. The voided sale owes nothing: ' +
      'balance_due and credit_outstanding become 0 (what the customer still owed is reversed in their credit ledger), and ' +
      'refund_amount = what the customer had paid for it (amount_paid at the till plus later credit payments toward it), which ' +
      'the merchant hands back. A second void is 409 SALE_ALREADY_VOIDED. Voided sales still count toward the plan month.',
    bodyExample: { reason: 'Customer returned the goods' },
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
