import { pdfKit, type PdfKit } from './pdf-kit.js';
import type { Receipt } from '../../application/sales/read-sales.js';
import { lagosDateTime } from '../../domain/lagos-time.js';
import { formatNaira } from '../../domain/money.js';
import { vatBreakdown, type PaymentMethod } from '../../domain/sale.js';
import { basisPointsToPercent } from '../../domain/vat.js';

/**
 * A sale's receipt as a PDF for an 80 mm thermal printer: one page 226.77 pt (80 mm) wide and as tall
 * as its content, black on white, text in DejaVu Sans (embedded, subset) because the PDF standard
 * fonts have no naira sign (U+20A6).
 */

const MM = 72 / 25.4;
/** 80 mm roll paper. */
export const RECEIPT_WIDTH_PT = Math.round(80 * MM * 100) / 100; // 226.77
export const MARGIN = Math.round(4 * MM * 100) / 100; // 11.34
const CONTENT = RECEIPT_WIDTH_PT - 2 * MARGIN;
const GAP = 6; // between a left text and its right-aligned amount

export const SIZE = { title: 11, body: 8, small: 7, total: 10, banner: 14 } as const;

/** Re-exported for the report PDFs: the formatter lives in the domain (texts use it too). */
export { formatNaira };

const PAYMENT_LABELS: Record<PaymentMethod, string> = { CASH: 'Cash', TRANSFER: 'Bank transfer', CARD: 'Card', POS: 'POS', CREDIT: 'Credit' };

type Doc = PDFKit.PDFDocument;
type Font = 'regular' | 'bold';

/** Draws top to bottom from `y`; the same drawing measures the page first and then fills it (the refund receipt draws with it too). */
export class Pen {
  y = MARGIN;
  constructor(private readonly doc: Doc) {}

  private use(font: Font, size: number) {
    this.doc.font(font).fontSize(size);
  }

  gap(pt: number) {
    this.y += pt;
  }

  /** A paragraph across the content width, wrapped. */
  text(s: string, o: { font?: Font; size?: number; align?: 'left' | 'center' | 'right'; indent?: number } = {}) {
    this.use(o.font ?? 'regular', o.size ?? SIZE.body);
    const indent = o.indent ?? 0;
    const options = { width: CONTENT - indent, align: o.align ?? 'left', lineGap: 1 } as const;
    this.doc.text(s, MARGIN + indent, this.y, options);
    this.y += this.doc.heightOfString(s, options);
  }

  /** A label on the left (wrapped if need be) and an amount right-aligned on the same line. */
  row(left: string, right: string, o: { font?: Font; size?: number; indent?: number } = {}) {
    this.use(o.font ?? 'regular', o.size ?? SIZE.body);
    const indent = o.indent ?? 0;
    const rightWidth = this.doc.widthOfString(right);
    const leftOptions = { width: Math.max(CONTENT - indent - rightWidth - GAP, 40), lineGap: 1 } as const;
    this.doc.text(left, MARGIN + indent, this.y, leftOptions);
    this.doc.text(right, MARGIN, this.y, { width: CONTENT, align: 'right' });
    this.y += Math.max(this.doc.heightOfString(left, leftOptions), this.doc.currentLineHeight(true));
  }

  /** A dashed rule across the content width. */
  rule() {
    this.y += 3;
    this.doc.save().lineWidth(0.6).dash(2, { space: 1.5 }).moveTo(MARGIN, this.y).lineTo(MARGIN + CONTENT, this.y).stroke().restore();
    this.y += 4;
  }

  /** Bold text in a box across the content width (the VOIDED banner). */
  banner(s: string, notes: readonly string[]) {
    const top = this.y;
    this.y += 4;
    this.text(s, { font: 'bold', size: SIZE.banner, align: 'center' });
    for (const note of notes) this.text(note, { size: SIZE.small, align: 'center' });
    this.y += 3;
    this.doc.save().lineWidth(1.2).rect(MARGIN, top, CONTENT, this.y - top).stroke().restore();
    this.y += 2;
  }
}

const draw = (doc: Doc, { sale, business, branch, cashier, customer, partner }: Receipt): number => {
  const pen = new Pen(doc);
  pen.text(business.name, { font: 'bold', size: SIZE.title, align: 'center' });
  if (business.address) pen.text(business.address, { align: 'center' });
  if (business.phone) pen.text(`Tel: ${business.phone}`, { align: 'center' });
  if (branch) {
    pen.text(`Branch: ${branch.name}`, { align: 'center' });
    if (branch.address && branch.address !== business.address) pen.text(branch.address, { size: SIZE.small, align: 'center' });
    if (branch.phone && branch.phone !== business.phone) pen.text(`Tel: ${branch.phone}`, { size: SIZE.small, align: 'center' });
  }
  // a sale that carries VAT is a tax receipt: the business's TIN on it (docs/adr/0054)
  if (sale.vat && business.tin) pen.text(`TIN: ${business.tin}`, { align: 'center' });
  pen.rule();

  pen.row('Receipt', sale.receiptNumber, { font: 'bold' });
  pen.row('Date', `${lagosDateTime(sale.createdAt)} WAT`);
  if (cashier) pen.row('Cashier', `${cashier.firstName} ${cashier.lastName}`);
  if (customer) pen.row('Customer', customer.phone ? `${customer.name} (${customer.phone})` : customer.name);
  if (sale.status === 'VOIDED') {
    pen.gap(4);
    pen.banner('VOIDED', [
      ...(sale.voidedAt ? [`on ${lagosDateTime(sale.voidedAt)} WAT`] : []),
      ...(sale.voidReason ? [`Reason: ${sale.voidReason}`] : []),
    ]);
  }
  pen.rule();

  sale.lines.forEach((line, i) => {
    if (i > 0) pen.gap(2);
    pen.text(line.name, { font: 'bold' });
    // unit price x quantity on the right, the line discount below it: the right column adds up to the subtotal
    pen.row(`${line.quantity} x ${formatNaira(line.unitPrice)}`, formatNaira(line.lineTotal + line.discount), { indent: 8 });
    if (line.discount > 0) pen.row('Discount', formatNaira(-line.discount), { indent: 8 });
  });
  pen.rule();

  pen.row('Subtotal', formatNaira(sale.subtotal));
  if (sale.lineDiscountTotal > 0) pen.row('(line discounts included)', formatNaira(-sale.lineDiscountTotal), { size: SIZE.small });
  if (sale.discount > 0) pen.row('Discount', formatNaira(-sale.discount));
  const bands = vatBreakdown(sale);
  if (sale.vat && !sale.vat.pricesIncludeVat) pen.row('VAT', formatNaira(sale.vat.total)); // added on top of the prices
  pen.gap(1);
  pen.row('TOTAL', formatNaira(sale.total), { font: 'bold', size: SIZE.total });
  if (sale.vat) {
    // the VAT breakdown: per rate, what the lines earned net of VAT and their VAT
    pen.gap(2);
    pen.text(sale.vat.pricesIncludeVat ? 'VAT included in the prices' : 'VAT added to the prices', { size: SIZE.small });
    for (const b of bands) {
      const label = b.rate === 0 ? 'Exempt (0%)' : `VAT ${basisPointsToPercent(b.rate)}%`;
      pen.row(`${label} on ${formatNaira(b.net)}`, formatNaira(b.vat), { size: SIZE.small, indent: 8 });
    }
    pen.row('Net of VAT', formatNaira(sale.total - sale.vat.total), { size: SIZE.small });
    pen.row('VAT total', formatNaira(sale.vat.total), { size: SIZE.small });
  }
  pen.gap(2);
  // one tender: the method as before; split payments: each tender (docs/adr/0055)
  if (sale.payments.length === 1) pen.row('Payment', PAYMENT_LABELS[sale.paymentMethod]);
  else for (const p of sale.payments) pen.row(PAYMENT_LABELS[p.method], formatNaira(p.amount));
  if (sale.amountTendered !== null) pen.row('Tendered', formatNaira(sale.amountTendered));
  pen.row('Amount paid', formatNaira(sale.amountPaid));
  if (sale.changeDue !== null) pen.row('Change', formatNaira(sale.changeDue), { font: 'bold' });
  pen.row('Balance due', formatNaira(sale.balanceDue), sale.balanceDue > 0 ? { font: 'bold' } : {});
  if (sale.refundAmount !== null) pen.row('Refunded', formatNaira(sale.refundAmount), { font: 'bold' });
  pen.rule();

  pen.gap(2);
  pen.text('Thank you for your patronage!', { align: 'center' });
  if (partner) {
    // the partner whose network the business joined (docs/adr/0033), with its support contacts
    const b = partner.branding;
    pen.gap(4);
    pen.text(`In partnership with ${b.displayName ?? partner.name}`, { size: SIZE.small, align: 'center' });
    const support = [b.supportPhone, b.supportEmail].filter((x): x is string => x !== null);
    if (support.length > 0) pen.text(`Support: ${support.join(' | ')}`, { size: SIZE.small, align: 'center' });
  }
  return pen.y + MARGIN;
};

/** What a roll document says of itself (its PDF info). */
export interface RollInfo {
  readonly title: string;
  readonly author: string;
  readonly subject: string;
}

const rollDocument = (kit: PdfKit, height: number, info: RollInfo): Doc =>
  kit.document({
    size: [RECEIPT_WIDTH_PT, height],
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 0 },
    info: { Title: info.title, Author: info.author, Subject: info.subject, Creator: 'Business Operations API' },
    displayTitle: true,
  });

/**
 * A one-page PDF on the 80 mm roll, as tall as what `draw` puts on it (`draw` answers the height it used).
 * pdfkit needs the page size up front: draw once on a page that is tall enough, to measure.
 */
export const renderRollPdf = async (info: RollInfo, draw: (doc: Doc) => number): Promise<Buffer> => {
  const kit = await pdfKit();
  const height = Math.ceil(draw(rollDocument(kit, 14_400, info)));
  const doc = rollDocument(kit, height, info);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => ok(Buffer.concat(chunks)));
    doc.on('error', fail);
  });
  draw(doc);
  doc.end();
  return done;
};

/** The receipt as a one-page PDF, as tall as its content. */
export const renderReceiptPdf = (receipt: Receipt): Promise<Buffer> =>
  renderRollPdf(
    { title: receipt.sale.receiptNumber, author: receipt.business.name, subject: `Receipt ${receipt.sale.receiptNumber}` },
    (doc) => draw(doc, receipt),
  );
