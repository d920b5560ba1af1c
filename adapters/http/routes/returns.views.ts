import type { ReturnReceipt } from '../../../application/returns/read-returns.js';
import { lagosIsoDateTime } from '../../../domain/lagos-time.js';
import { kobo } from '../../../domain/money.js';
import { REFUND_METHODS, type SaleReturn } from '../../../domain/sale-return.js';
import { bool, dateTime, doc, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { dateTimeJson, dateTimeJsonOrNull, nairaJson, nairaSchema } from '../json-values.js';

// The JSON views of a return, its refund receipt and a sale's returns, and the shapes the OpenAPI document gives them (docs/adr/0058).

const naira = doc('naira', nairaSchema());
const nullableNaira = doc('naira or null', nairaSchema({ type: ['number', 'null'] }));
const nullableTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });
const nullableUuid = doc('uuid or null', { type: ['string', 'null'], format: 'uuid' });
const refundMethod = doc('refund method', { type: 'string', enum: [...REFUND_METHODS] });

const lineJson = (l: SaleReturn['lines'][number]) => ({
  product_id: l.productId,
  name: l.name,
  sku: l.sku,
  sale_item_index: l.position,
  quantity: l.quantity,
  amount: nairaJson(l.amount),
  line_amount: nairaJson(l.lineAmount),
  vat_amount: nairaJson(l.vatAmount),
  unit_cost: nairaJson(l.unitCost),
  cost_returned: nairaJson(l.costReturned),
});
const lineShape = shape(
  'ReturnItem',
  { product_id: uuid, name: str, sku: str, sale_item_index: int, quantity: int, amount: naira, line_amount: naira, vat_amount: naira, unit_cost: nullableNaira, cost_returned: naira },
  {
    sale_item_index: "the sale line returned: its index in the sale's items (a product sold on two lines is returned from the first first)",
    amount:
      'the returned share of what the line was sold for, after its discount and its share of the sale discount, plus its VAT where the prices excluded it (what the customer gets back for it)',
    line_amount: "the same share of the line's line_total, before the sale discount",
    vat_amount: "the returned share of the line's VAT, inside amount (0.00 for a sale without VAT, docs/adr/0054)",
    unit_cost: 'the cost price stored on the sale line (null when unknown)',
    cost_returned: 'quantity x unit_cost when restocked (it leaves the cost of goods), else 0',
  },
);

export const returnSummary = (x: SaleReturn) => ({
  id: x.id,
  return_number: x.returnNumber,
  sale_id: x.saleId,
  receipt_number: x.receiptNumber,
  branch_id: x.branchId,
  customer_id: x.customerId,
  restock: x.restock,
  refund_method: x.refundMethod,
  reason: x.reason,
  amount: nairaJson(x.amount),
  vat_amount: nairaJson(x.vatAmount),
  debt_reduced: nairaJson(x.debtReduced),
  refund_amount: nairaJson(x.refundAmount),
  cost_returned: nairaJson(x.costReturned),
  created_by: x.createdBy,
  created_at: dateTimeJson(x.createdAt),
  device_id: x.offline?.deviceId ?? null,
  client_created_at: dateTimeJsonOrNull(x.offline?.clientCreatedAt),
});
export const returnJson = (x: SaleReturn) => ({ ...returnSummary(x), items: x.lines.map(lineJson) });

const summaryProps = {
  id: uuid,
  return_number: str,
  sale_id: uuid,
  receipt_number: str,
  branch_id: uuid,
  customer_id: nullableUuid,
  restock: bool,
  refund_method: refundMethod,
  reason: str,
  amount: naira,
  vat_amount: naira,
  debt_reduced: naira,
  refund_amount: naira,
  cost_returned: naira,
  created_by: uuid,
  created_at: dateTime,
  device_id: nullableStr,
  client_created_at: nullableTime,
};
const RETURN_FIELD_DESCRIPTIONS: Record<string, string> = {
  return_number: 'the return\'s own number, gap-free per business: RTN-000001, RTN-000002, …',
  receipt_number: 'the receipt number of the sale the goods came from',
  branch_id: "the sale's branch: restocked goods went back there",
  restock: 'true: the goods went back in stock (RETURN rows in the stock ledger); false: damaged, no stock moved',
  amount: 'what the returned goods were sold for: the items\' amounts added up',
  vat_amount: 'the VAT in amount: the returned lines\' VAT (0.00 for a sale without VAT, docs/adr/0054)',
  debt_reduced: 'the part of amount that cleared what the customer still owed on the sale',
  refund_amount: 'amount - debt_reduced: handed back by refund_method (CREDIT_NOTE: kept on the customer\'s credit account)',
  cost_returned: 'the cost of the restocked units, which leaves the cost of goods (0 when not restocked)',
  device_id: 'a return synced from a till (POST /sync/batch): the device that made it; null when made online',
  client_created_at: "a synced return: when the till made it, by the till's clock",
};
export const returnSummaryShape = shape('ReturnSummary', summaryProps, RETURN_FIELD_DESCRIPTIONS);
export const returnShape = shape('Return', { ...summaryProps, items: doc('items', { type: 'array', items: jsonSchemaOf(lineShape) }) }, RETURN_FIELD_DESCRIPTIONS);

/** What GET /sales/{id} (and every sale answer) adds about the sale's returns: each one in short, and its total net of them. */
export const saleReturnsJson = (total: number, returns: readonly SaleReturn[]) => {
  const returned = returns.reduce((n, x) => n + x.amount, 0);
  return {
    returns: returns.map((x) => ({
      id: x.id,
      return_number: x.returnNumber,
      amount: nairaJson(x.amount),
      refund_amount: nairaJson(x.refundAmount),
      refund_method: x.refundMethod,
      created_at: dateTimeJson(x.createdAt),
    })),
    returned_amount: nairaJson(returned),
    net_total: nairaJson(kobo(total - returned)),
  };
};
const saleReturnShape = shape('SaleReturnSummary', { id: uuid, return_number: str, amount: naira, refund_amount: naira, refund_method: refundMethod, created_at: dateTime });
export const saleReturnsProps = {
  returns: doc('returns', { type: 'array', items: jsonSchemaOf(saleReturnShape) }),
  returned_amount: naira,
  net_total: naira,
};
export const SALE_RETURNS_DESCRIPTIONS: Record<string, string> = {
  returns: "the sale's returns, oldest first (GET /returns/{id} for one in full)",
  returned_amount: "what the sale's returned goods were sold for, all returns added up",
  net_total: 'total - returned_amount: what the sale comes to once its returns are taken off',
};

export const returnReceiptJson = ({ saleReturn: x, business, branch, cashier, customer }: ReturnReceipt) => ({
  return_number: x.returnNumber,
  return_id: x.id,
  sale_id: x.saleId,
  receipt_number: x.receiptNumber,
  business: { name: business.name, address: business.address, phone: business.phone },
  branch: branch ? { name: branch.name, address: branch.address, phone: branch.phone } : null,
  date_time: dateTimeJson(x.createdAt),
  local_date_time: lagosIsoDateTime(x.createdAt),
  timezone: 'Africa/Lagos',
  cashier: cashier ? `${cashier.firstName} ${cashier.lastName}` : null,
  customer: customer ? { name: customer.name, phone: customer.phone } : null,
  lines: x.lines.map((l) => ({ name: l.name, sku: l.sku, quantity: l.quantity, amount: nairaJson(l.amount) })),
  amount: nairaJson(x.amount),
  debt_reduced: nairaJson(x.debtReduced),
  refund_amount: nairaJson(x.refundAmount),
  refund_method: x.refundMethod,
  restock: x.restock,
  reason: x.reason,
  currency: business.currency,
});

const place = doc('place or null', {
  type: ['object', 'null'],
  properties: { name: { type: 'string' }, address: { type: ['string', 'null'] }, phone: { type: ['string', 'null'] } },
});
export const returnReceiptShape = shape(
  'RefundReceipt',
  {
    return_number: str,
    return_id: uuid,
    sale_id: uuid,
    receipt_number: str,
    business: place,
    branch: place,
    date_time: dateTime,
    local_date_time: doc('Lagos local date-time', { type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+01:00$', examples: ['2026-11-28T04:32:00+01:00'] }),
    timezone: str,
    cashier: nullableStr,
    customer: doc('customer or null', { type: ['object', 'null'], required: ['name', 'phone'], properties: { name: { type: 'string' }, phone: { type: ['string', 'null'] } } }),
    lines: doc('lines', { type: 'array', items: jsonSchemaOf(shape('RefundReceiptLine', { name: str, sku: str, quantity: int, amount: naira })) }),
    amount: naira,
    debt_reduced: naira,
    refund_amount: naira,
    refund_method: refundMethod,
    restock: bool,
    reason: str,
    currency: str,
  },
  {
    ...RETURN_FIELD_DESCRIPTIONS,
    date_time: 'when the goods came back: ISO 8601 UTC',
    local_date_time: 'the same instant, Africa/Lagos wall-clock time with its +01:00 offset: what the receipt prints',
  },
);
