import type { Receipt } from '../../../application/sales/read-sales.js';
import { lagosIsoDateTime } from '../../../domain/lagos-time.js';
import { PAYMENT_METHODS, type Sale } from '../../../domain/sale.js';
import { bool, dateTime, doc, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { nairaJson, nairaSchema, dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';
import type { SaleReturn } from '../../../domain/sale-return.js';
import { SALE_RETURNS_DESCRIPTIONS, saleReturnsJson, saleReturnsProps } from './returns.views.js';

// The JSON views of a sale and its receipt, and the shapes the OpenAPI document gives them.

const naira = doc('naira', nairaSchema());
const nullableNaira = doc('naira or null', nairaSchema({ type: ['number', 'null'] }));
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

export const saleSummary = (s: Sale) => ({
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
  created_at: dateTimeJson(s.createdAt),
  voided_at: dateTimeJsonOrNull(s.voidedAt),
  void_reason: s.voidReason,
  credit_outstanding: nairaJson(s.creditOutstanding),
  refund_amount: nairaJson(s.refundAmount),
  provisional_receipt_number: s.offline?.provisionalReceiptNumber ?? null,
  device_id: s.offline?.deviceId ?? null,
  client_created_at: dateTimeJsonOrNull(s.offline?.clientCreatedAt),
  needs_review: s.offline?.needsReview ?? false,
});
/** A sale with its items, its returns and its total net of them (a sale just made or voided has none). */
export const saleJson = (s: Sale, returns: readonly SaleReturn[] = []) => ({ ...saleSummary(s), items: s.lines.map(lineJson), ...saleReturnsJson(s.total, returns) });

/** The money of a sale, as a sale and its receipt both show it. */
const moneyProps = {
  subtotal: naira,
  discount: naira,
  line_discount_total: naira,
  total: naira,
  payment_method: doc('payment method', { type: 'string', enum: [...PAYMENT_METHODS] }),
  amount_paid: naira,
  amount_tendered: nullableNaira,
  change_due: nullableNaira,
  balance_due: naira,
};

const summaryProps = {
  id: uuid,
  receipt_number: str,
  ...moneyProps,
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
  provisional_receipt_number: nullableStr,
  device_id: nullableStr,
  client_created_at: nullableTime,
  needs_review: bool,
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
  provisional_receipt_number: 'a sale a till made offline: the number printed on its paper receipt (`<device code>-<sequence>`); GET /sales/receipts/{number} finds the sale by either number',
  device_id: 'a sale synced from a till (POST /sync/batch): the device that made it; null for a sale made online',
  client_created_at: "a synced sale: when the till made it, by the till's clock",
  needs_review: 'a synced offline sale that took more stock than its branch held: true until the owner resolves its conflicts (GET /sync/conflicts)',
  refund_amount:
    'only on a voided sale (null otherwise): what the customer had paid for it (amount_paid at the till plus later credit payments toward it), to hand back',
};
export const saleSummaryShape = shape('SaleSummary', summaryProps, SALE_FIELD_DESCRIPTIONS);
export const saleShape = shape(
  'Sale',
  { ...summaryProps, items: doc('items', { type: 'array', items: jsonSchemaOf(lineShape) }), ...saleReturnsProps },
  { ...SALE_FIELD_DESCRIPTIONS, ...SALE_RETURNS_DESCRIPTIONS },
);

export const receiptJson = ({ sale, business, branch, cashier, customer }: Receipt) => ({
  receipt_number: sale.receiptNumber,
  provisional_receipt_number: sale.offline?.provisionalReceiptNumber ?? null,
  sale_id: sale.id,
  status: sale.status,
  business: { name: business.name, address: business.address, phone: business.phone },
  branch: branch ? { name: branch.name, address: branch.address, phone: branch.phone } : null,
  date_time: dateTimeJson(sale.createdAt),
  local_date_time: lagosIsoDateTime(sale.createdAt),
  timezone: 'Africa/Lagos',
  created_at: dateTimeJson(sale.createdAt),
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
  voided_at: dateTimeJsonOrNull(sale.voidedAt),
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
    provisional_receipt_number: nullableStr,
    sale_id: uuid,
    status: doc('status', { type: 'string', enum: ['COMPLETED', 'VOIDED'] }),
    business: place,
    branch: place,
    date_time: dateTime,
    local_date_time: doc('Lagos local date-time', { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+01:00$', examples: ['2026-11-28T04:32:00+01:00'] }),
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
    ...moneyProps,
    currency: str,
    voided_at: nullableTime,
    void_reason: nullableStr,
    refund_amount: nullableNaira,
  },
  {
    ...SALE_FIELD_DESCRIPTIONS,
    date_time: 'when the sale was made: ISO 8601 UTC, like every other time (the same instant as created_at)',
    local_date_time: 'when the sale was made, Africa/Lagos wall-clock time in ISO 8601 with its +01:00 offset: what the receipt prints',
    customer: "the sale's customer (name and phone), null when the sale has none",
  },
);

export const PDF = 'application/pdf';
/** The success of both receipt routes: the JSON receipt, or with Accept: application/pdf the PDF. */
export const receiptSuccess = {
  status: 200,
  description: 'The receipt: JSON, or with Accept: application/pdf the PDF',
  data: receiptShape,
  alternatives: { [PDF]: 'The receipt as a one-page PDF for 80 mm thermal paper: 226.77 pt wide, as tall as its content' },
  headers: { 'Content-Disposition': 'with the PDF: inline; filename="RCP-000042.pdf" (the receipt number)' },
} as const;
export const receiptDescription =
  'The JSON receipt; with `Accept: application/pdf`, a PDF of it for an 80 mm thermal printer (naira amounts with the ₦ sign, ' +
  'Lagos local time). Errors are Problem Details JSON whatever the Accept header says.';

export const receiptSummary = (s: Sale) => ({
  receipt_number: s.receiptNumber,
  sale_id: s.id,
  total: nairaJson(s.total),
  payment_method: s.paymentMethod,
  status: s.status,
  created_at: dateTimeJson(s.createdAt),
});
export const receiptSummaryShape = shape('ReceiptSummary', {
  receipt_number: str,
  sale_id: uuid,
  total: naira,
  payment_method: str,
  status: str,
  created_at: dateTime,
});
