import type { ReturnReceipt } from '../../application/returns/read-returns.js';
import { lagosDateTime } from '../../domain/lagos-time.js';
import { formatNaira } from '../../domain/money.js';
import type { RefundMethod } from '../../domain/sale-return.js';
import { MARGIN, Pen, renderRollPdf, SIZE } from './pdf-receipt.js';

/**
 * A return's refund receipt as a PDF for an 80 mm thermal printer (docs/adr/0058), drawn as the sale's
 * receipt is: the goods that came back, what they were sold for, what cleared the customer's debt and
 * what was handed back, and how.
 */

const REFUND_LABELS: Record<RefundMethod, string> = { CASH: 'Cash', TRANSFER: 'Bank transfer', CARD: 'Card', POS: 'POS', CREDIT_NOTE: 'Credit note (on account)' };

type Doc = PDFKit.PDFDocument;

const draw = (doc: Doc, { saleReturn: x, business, branch, cashier, customer }: ReturnReceipt): number => {
  const pen = new Pen(doc);
  pen.text(business.name, { font: 'bold', size: SIZE.title, align: 'center' });
  if (business.address) pen.text(business.address, { align: 'center' });
  if (business.phone) pen.text(`Tel: ${business.phone}`, { align: 'center' });
  if (branch) pen.text(`Branch: ${branch.name}`, { align: 'center' });
  pen.rule();
  pen.text('REFUND RECEIPT', { font: 'bold', size: SIZE.total, align: 'center' });
  pen.gap(2);
  pen.row('Return', x.returnNumber, { font: 'bold' });
  pen.row('Sale receipt', x.receiptNumber);
  pen.row('Date', `${lagosDateTime(x.createdAt)} WAT`);
  if (cashier) pen.row('Cashier', `${cashier.firstName} ${cashier.lastName}`);
  if (customer) pen.row('Customer', customer.phone ? `${customer.name} (${customer.phone})` : customer.name);
  pen.text(`Reason: ${x.reason}`, { size: SIZE.small });
  pen.rule();
  x.lines.forEach((line, i) => {
    if (i > 0) pen.gap(2);
    pen.text(line.name, { font: 'bold' });
    pen.row(`${line.quantity} returned`, formatNaira(line.amount), { indent: 8 });
  });
  pen.rule();
  pen.row('RETURNED', formatNaira(x.amount), { font: 'bold', size: SIZE.total });
  if (x.debtReduced > 0) pen.row('Taken off what is owed', formatNaira(x.debtReduced));
  pen.row(x.refundMethod === 'CREDIT_NOTE' ? 'Credited to account' : 'Refunded', formatNaira(x.refundAmount), { font: 'bold' });
  pen.row('Refund by', REFUND_LABELS[x.refundMethod]);
  pen.row('Goods', x.restock ? 'Back in stock' : 'Not restocked (damaged)', { size: SIZE.small });
  pen.rule();
  pen.gap(2);
  pen.text('Thank you for your patronage!', { align: 'center' });
  return pen.y + MARGIN;
};

/** The refund receipt as a one-page PDF, as tall as its content. */
export const renderRefundReceiptPdf = (receipt: ReturnReceipt): Promise<Buffer> =>
  renderRollPdf(
    { title: receipt.saleReturn.returnNumber, author: receipt.business.name, subject: `Refund receipt ${receipt.saleReturn.returnNumber}` },
    (doc) => draw(doc, receipt),
  );
