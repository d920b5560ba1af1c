import { balanceDue, INVOICE_PAYMENT_METHODS, INVOICE_STATUSES, INVOICE_TYPES, isOverdue, type Invoice } from '../../../domain/invoice.js';
import { basisPointsToPercent } from '../../../domain/vat.js';
import { bool, dateTime, doc, int, jsonSchemaOf, nullableStr, shape, str, uuid } from '../codecs.js';
import { dateTimeJson, dateTimeJsonOrNull, nairaJson, nairaSchema } from '../json-values.js';

// The JSON views of an invoice and the shapes the OpenAPI document gives them (docs/adr/0072).

const naira = doc('naira', nairaSchema());
const date = doc('date', { type: 'string', format: 'date', examples: ['2026-11-21'] });
const nullableDate = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });
const nullableUuid = doc('uuid or null', { type: ['string', 'null'], format: 'uuid' });

/** The share link of an invoice: {PUBLIC_BASE_URL}/api/v1/public/invoices/{token} (docs/adr/0074). */
export const shareUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/public/invoices/${token}`;

export const lineJson = (l: Invoice['lines'][number]) => ({
  position: l.position,
  product_id: l.productId,
  description: l.description,
  quantity: l.quantity,
  unit_price: nairaJson(l.unitPrice),
  discount: nairaJson(l.discount),
  vat_rate: basisPointsToPercent(l.vatRate),
  vat_amount: nairaJson(l.vatAmount),
  line_total: nairaJson(l.lineTotal),
});
export const lineShape = shape(
  'InvoiceLine',
  {
    position: int, product_id: nullableUuid, description: str, quantity: int, unit_price: naira, discount: naira,
    vat_rate: doc('VAT rate', { type: 'number', minimum: 0, maximum: 100, examples: [7.5] }), vat_amount: naira, line_total: naira,
  },
  { product_id: 'null for an ad-hoc line ("Delivery fee"), which moves no stock', line_total: 'quantity x unit_price - discount', vat_amount: "the line's VAT (inside line_total when prices include VAT, else added to the total)" },
);

const paymentJson = (p: Invoice['payments'][number]) => ({ id: p.id, amount: nairaJson(p.amount), method: p.method, paid_at: dateTimeJson(p.paidAt), reference: p.reference });
const paymentShape = shape('InvoicePayment', { id: uuid, amount: naira, method: doc('invoice payment method', { type: 'string', enum: [...INVOICE_PAYMENT_METHODS] }), paid_at: dateTime, reference: nullableStr });

export const invoiceSummary = (x: Invoice, now: Date, publicBaseUrl: string) => ({
  id: x.id,
  type: x.type,
  number: x.number,
  status: x.status,
  is_overdue: isOverdue(x, now),
  customer: { id: x.customerId, name: x.customerName, phone: x.customerPhone },
  branch_id: x.branchId,
  issue_date: x.issueDate,
  due_date: x.dueDate,
  payment_terms_days: x.paymentTermsDays,
  subtotal: nairaJson(x.subtotal),
  discount_total: nairaJson(x.discountTotal),
  vat_total: nairaJson(x.vatTotal),
  total: nairaJson(x.total),
  amount_paid: nairaJson(x.amountPaid),
  balance_due: nairaJson(balanceDue(x)),
  notes: x.notes,
  share_url: x.status === 'CANCELLED' ? null : shareUrl(publicBaseUrl, x.shareToken),
  converted_from: x.convertedFrom,
  created_by: x.createdBy,
  created_at: dateTimeJson(x.createdAt),
  updated_at: dateTimeJson(x.updatedAt),
  sent_at: dateTimeJsonOrNull(x.sentAt),
  cancelled_at: dateTimeJsonOrNull(x.cancelledAt),
});
export const invoiceJson = (x: Invoice, now: Date, publicBaseUrl: string) => ({ ...invoiceSummary(x, now, publicBaseUrl), lines: x.lines.map(lineJson), payments: x.payments.map(paymentJson) });

const summaryProps = {
  id: uuid,
  type: doc('invoice type', { type: 'string', enum: [...INVOICE_TYPES] }),
  number: doc('string or null', { type: ['string', 'null'], examples: ['INV-000001'] }),
  status: doc('invoice status', { type: 'string', enum: [...INVOICE_STATUSES] }),
  is_overdue: bool,
  customer: shape('InvoiceCustomer', { id: uuid, name: str, phone: nullableStr }),
  branch_id: uuid,
  issue_date: date,
  due_date: date,
  payment_terms_days: int,
  subtotal: naira,
  discount_total: naira,
  vat_total: naira,
  total: naira,
  amount_paid: naira,
  balance_due: naira,
  notes: nullableStr,
  share_url: nullableStr,
  converted_from: nullableUuid,
  created_by: uuid,
  created_at: dateTime,
  updated_at: dateTime,
  sent_at: nullableDate,
  cancelled_at: nullableDate,
};
const summaryDescriptions = {
  number: 'null while DRAFT; gap-free per business and series once sent: INV-000001 (invoices and tax invoices), PRF-000001 (proformas)',
  is_overdue: 'the due date has passed in Lagos and a balance is left',
  subtotal: 'total - vat_total',
  total: "the lines' totals, plus their VAT where prices exclude it",
  share_url: "the customer's page (null once cancelled)",
};
export const invoiceSummaryShape = shape('InvoiceSummary', summaryProps, summaryDescriptions);
export const invoiceShape = shape(
  'Invoice',
  { ...summaryProps, lines: doc('InvoiceLines', { type: 'array', items: jsonSchemaOf(lineShape) }), payments: doc('InvoicePayments', { type: 'array', items: jsonSchemaOf(paymentShape) }) },
  summaryDescriptions,
);
