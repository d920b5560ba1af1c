import type { Receipt } from '../../../application/sales/read-sales.js';
import { lagosIsoDateTime } from '../../../domain/lagos-time.js';
import { netOfVat, PAYMENT_METHODS, vatBreakdown, type Sale } from '../../../domain/sale.js';
import { basisPointsToPercent } from '../../../domain/vat.js';
import { bool, dateTime, doc, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { nairaJson, nairaSchema, dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';
import type { SaleReturn } from '../../../domain/sale-return.js';
import { SALE_RETURNS_DESCRIPTIONS, saleReturnsJson, saleReturnsProps } from './returns.views.js';

// The JSON views of a sale and its receipt, and the shapes the OpenAPI document gives them.

const naira = doc('naira', nairaSchema());
const nullableNaira = doc('naira or null', nairaSchema({ type: ['number', 'null'] }));
const nullableTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });
const nullableUuid = doc('uuid or null', { type: ['string', 'null'], format: 'uuid' });
const vatRate = doc('VAT rate', { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01, description: 'a percentage, e.g. 7.5', examples: [7.5] });
const nullableVatRate = doc('VAT rate or null', { type: ['number', 'null'], minimum: 0, maximum: 100, multipleOf: 0.01, description: 'a percentage, e.g. 7.5; null when the sale carries no VAT', examples: [7.5] });
const nullableBool = doc('boolean or null', { type: ['boolean', 'null'] });
const paymentMethod = doc('payment method', { type: 'string', enum: [...PAYMENT_METHODS] });

/** A sale's tenders (docs/adr/0055). */
const paymentsJson = (s: Sale) => s.payments.map((p) => ({ method: p.method, amount: nairaJson(p.amount) }));
const paymentsShape = doc('payments', {
  type: 'array',
  minItems: 1,
  maxItems: 4,
  items: jsonSchemaOf(shape('SalePayment', { method: paymentMethod, amount: naira }, { amount: 'what this tender settled; a CREDIT tender is what the customer owed at the till' })),
});

/** A sale's VAT as the JSON shows it (docs/adr/0054): nothing changes for a business that is not VAT-registered. */
const vatFieldsJson = (s: Sale) => ({
  vat_total: nairaJson(s.vat?.total ?? 0),
  prices_include_vat: s.vat ? s.vat.pricesIncludeVat : null,
});
/** A registered business's sale shows its subtotal net of VAT (subtotal + vat_total = total); else the line totals' sum, as before. */
const subtotalOf = (s: Sale) => (s.vat ? netOfVat(s) : s.subtotal);

const lineJson = (l: Sale['lines'][number]) => ({
  product_id: l.productId,
  name: l.name,
  sku: l.sku,
  quantity: l.quantity,
  unit_price: nairaJson(l.unitPrice),
  discount: nairaJson(l.discount),
  line_total: nairaJson(l.lineTotal),
  cost_price: nairaJson(l.costPrice),
  vat_rate: l.vat ? basisPointsToPercent(l.vat.rate) : null,
  vat_amount: nairaJson(l.vat?.amount ?? 0),
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
  vat_rate: nullableVatRate,
  vat_amount: naira,
}, {
  vat_rate: "the line's VAT rate when sold (0 for a VAT-exempt product); null when the business was not VAT-registered",
  vat_amount: 'the VAT of what the line was sold for (after its share of the sale discount), half up to the kobo; 0.00 without VAT',
});

export const saleSummary = (s: Sale) => ({
  id: s.id,
  receipt_number: s.receiptNumber,
  subtotal: nairaJson(subtotalOf(s)),
  discount: nairaJson(s.discount),
  line_discount_total: nairaJson(s.lineDiscountTotal),
  total: nairaJson(s.total),
  ...vatFieldsJson(s),
  payment_method: s.paymentMethod,
  payments: paymentsJson(s),
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
  vat_total: naira,
  prices_include_vat: nullableBool,
  payment_method: paymentMethod,
  payments: paymentsShape,
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
  subtotal:
    'sum of the line totals (each already net of its line discount); for a VAT-registered business the sale net of VAT, after every discount (subtotal + vat_total = total)',
  discount: "the sale's own discount, taken off the subtotal",
  line_discount_total: 'sum of the line discounts (already inside the subtotal), shown beside the sale discount',
  total: 'what the customer pays: subtotal - discount; for a VAT-registered business subtotal + vat_total (with VAT-exclusive prices the VAT is added on top)',
  vat_total: "the sum of the lines' VAT (docs/adr/0054); 0.00 when the business was not VAT-registered",
  prices_include_vat: 'whether the prices held the VAT when sold (true) or it was added (false); null when the sale carries no VAT',
  payment_method: "the first tender's method (a sale sent with payment_method: that method); read payments for how the total was settled",
  payments: 'how the total was settled: 1 to 4 tenders adding up to it; CREDIT is what the customer owed at the till (docs/adr/0055)',
  amount_paid: 'what the sale received, at most the total (every tender but CREDIT)',
  amount_tendered: 'cash handed over for the CASH tender (or, sent the old way, for the amount paid), when sent; null when not recorded',
  change_due: 'amount_tendered - the CASH tender (the old way: - amount_paid), handed back; null when amount_tendered was not sent',
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
  lines: sale.lines.map(({ name, sku, quantity, unitPrice, discount, lineTotal, vat }) => ({
    name,
    sku,
    quantity,
    unit_price: nairaJson(unitPrice),
    discount: nairaJson(discount),
    line_total: nairaJson(lineTotal),
    vat_rate: vat ? basisPointsToPercent(vat.rate) : null,
    vat_amount: nairaJson(vat?.amount ?? 0),
  })),
  subtotal: nairaJson(subtotalOf(sale)),
  discount: nairaJson(sale.discount),
  line_discount_total: nairaJson(sale.lineDiscountTotal),
  total: nairaJson(sale.total),
  ...vatFieldsJson(sale),
  tin: sale.vat ? business.tin : null,
  vat_breakdown: vatBreakdown(sale).map((b) => ({ rate: basisPointsToPercent(b.rate), net: nairaJson(b.net), vat: nairaJson(b.vat) })),
  payment_method: sale.paymentMethod,
  payments: paymentsJson(sale),
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
      items: jsonSchemaOf(shape('ReceiptLine', { name: str, sku: str, quantity: int, unit_price: naira, discount: naira, line_total: naira, vat_rate: nullableVatRate, vat_amount: naira })),
    }),
    ...moneyProps,
    tin: nullableStr,
    vat_breakdown: doc('VAT breakdown', {
      type: 'array',
      items: jsonSchemaOf(shape('VatBand', { rate: vatRate, net: naira, vat: naira }, { net: 'what the lines at this rate earned net of VAT', vat: 'their VAT' })),
    }),
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
    tin: "the business's Tax Identification Number, on a sale that carries VAT; null otherwise",
    vat_breakdown: 'a sale that carries VAT, by rate (highest first): net and VAT; the bands add up to the total. Empty without VAT',
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
