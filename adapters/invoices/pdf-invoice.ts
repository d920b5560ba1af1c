import type { PublicInvoice } from '../../application/invoices/public-invoice.js';
import { balanceDue } from '../../domain/invoice.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { textDay } from '../../domain/message-format.js';
import { basisPointsToPercent } from '../../domain/vat.js';
import { formatNaira } from '../receipts/pdf-receipt.js';
import { pdfKit } from '../receipts/pdf-kit.js';
import { INVOICE_TITLES } from './html-invoice.js';

// An invoice as an A4 PDF (pdfkit, DejaVu Sans for the naira sign, as receipts and loan packs): the
// business's name and contact, the lines, the VAT breakdown by rate, the bank details, a PAID mark once
// paid, and a QR code of the share link (the customer's page, where it can be paid).

type Doc = PDFKit.PDFDocument;
const MARGIN = 40;
const WIDTH = 595.28 - 2 * MARGIN;

export const renderInvoicePdf = async ({ invoice: i, business: b }: PublicInvoice, shareUrl: string): Promise<Buffer> => {
  const { default: QRCode } = await import('qrcode'); // loaded with the first PDF, not at start (docs/adr/0080)
  const qr = await QRCode.toBuffer(shareUrl, { type: 'png', margin: 1, width: 220, errorCorrectionLevel: 'M' });
  const title = `${INVOICE_TITLES[i.type]} ${i.number ?? '(draft)'}`;
  const doc: Doc = (await pdfKit()).document({ size: 'A4', margins: { top: MARGIN, bottom: 30, left: MARGIN, right: MARGIN }, info: { Title: title, Author: b.name, Subject: `${title} for ${i.customerName}` } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => ok(Buffer.concat(chunks)));
    doc.on('error', fail);
  });

  // header: the business (its branding: name and contact) left, the QR code of the share link right
  doc.image(qr, MARGIN + WIDTH - 90, MARGIN, { width: 90 });
  doc.font('regular').fontSize(7).fillColor('#555').text('Scan to view and pay', MARGIN + WIDTH - 90, MARGIN + 92, { width: 90, align: 'center' });
  doc.font('bold').fontSize(18).fillColor('#0a5c36').text(b.name, MARGIN, MARGIN, { width: WIDTH - 110 });
  doc.font('regular').fontSize(9).fillColor('#333');
  for (const line of [b.address, [b.phone, b.email].filter(Boolean).join('  ·  ')]) if (line) doc.text(line, { width: WIDTH - 110 });
  if (i.type === 'TAX_INVOICE' && b.tin) doc.text(`TIN ${b.tin}  ·  VAT registered`, { width: WIDTH - 110 });

  doc.y = Math.max(doc.y, MARGIN + 110);
  doc.font('bold').fontSize(14).fillColor('#000').text(title, MARGIN, doc.y);
  const facts: [string, string][] = [
    ['Billed to', i.customerName + (i.customerPhone ? `  ·  ${i.customerPhone}` : '')],
    ['Issued', textDay(i.issueDate)],
    ['Due', textDay(i.dueDate)],
  ];
  for (const [k, v] of facts) {
    const y = doc.y + 2;
    doc.font('regular').fontSize(9).fillColor('#555').text(k, MARGIN, y, { width: 80 });
    doc.font('bold').fillColor('#000').text(v, MARGIN + 85, y, { width: WIDTH - 85 });
  }

  // the lines
  const cols = [{ w: WIDTH - 330, a: 'left' }, { w: 50, a: 'right' }, { w: 85, a: 'right' }, { w: 70, a: 'right' }, { w: 40, a: 'right' }, { w: 85, a: 'right' }] as const;
  const row = (cells: readonly string[], font: 'regular' | 'bold') => {
    if (doc.y > 760) doc.addPage();
    const y = doc.y;
    let x = MARGIN;
    let bottom = y;
    doc.font(font).fontSize(9).fillColor('#000');
    cells.forEach((c, n) => {
      doc.text(c, x, y, { width: cols[n]!.w - 4, align: cols[n]!.a });
      bottom = Math.max(bottom, doc.y);
      x += cols[n]!.w;
    });
    doc.y = bottom + 3;
  };
  doc.moveDown(1);
  row(['Description', 'Qty', 'Unit price', 'Discount', 'VAT', 'Amount'], 'bold');
  doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + WIDTH, doc.y).strokeColor('#999').stroke();
  doc.y += 3;
  for (const l of i.lines) row([l.description, String(l.quantity), formatNaira(l.unitPrice), l.discount > 0 ? formatNaira(l.discount) : '-', `${basisPointsToPercent(l.vatRate)}%`, formatNaira(l.lineTotal)], 'regular');
  doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + WIDTH, doc.y).strokeColor('#999').stroke();
  doc.y += 6;

  // totals, with the VAT broken down by rate
  const byRate = new Map<number, { base: number; vat: number }>();
  for (const l of i.lines) {
    const r = byRate.get(l.vatRate) ?? { base: 0, vat: 0 };
    byRate.set(l.vatRate, { base: r.base + (i.pricesIncludeVat ? l.lineTotal - l.vatAmount : l.lineTotal), vat: r.vat + l.vatAmount });
  }
  const total = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'bold' : 'regular').fontSize(bold ? 11 : 9).fillColor('#000');
    doc.text(label, MARGIN + WIDTH - 330, y, { width: 240, align: 'right' });
    doc.text(amount, MARGIN + WIDTH - 85, y, { width: 85, align: 'right' });
    doc.y = Math.max(doc.y, y + 13);
  };
  total('Subtotal (before VAT)', formatNaira(i.subtotal));
  if (i.discountTotal > 0) total('Discounts (in the lines)', formatNaira(i.discountTotal));
  if (i.pricesIncludeVat !== null) {
    for (const [rate, r] of [...byRate].sort(([a], [b2]) => b2 - a)) total(`VAT ${basisPointsToPercent(rate)}% on ${formatNaira(r.base)}`, formatNaira(r.vat));
    total(`VAT total${i.pricesIncludeVat ? ' (included in prices)' : ''}`, formatNaira(i.vatTotal));
  }
  total('Total', formatNaira(i.total), true);
  if (i.amountPaid > 0) {
    for (const p of i.payments) total(`Paid ${textDay(lagosDate(p.paidAt))} (${p.method.toLowerCase()})`, formatNaira(p.amount));
    total('Balance due', formatNaira(balanceDue(i)), true);
  }

  if (i.status === 'PAID') {
    const y = doc.y + 10;
    doc.save().rotate(-8, { origin: [MARGIN + 80, y + 20] }).roundedRect(MARGIN, y, 160, 44, 6).lineWidth(3).strokeColor('#0a7d3b').stroke();
    doc.font('bold').fontSize(26).fillColor('#0a7d3b').text('PAID', MARGIN, y + 8, { width: 160, align: 'center' });
    doc.restore();
    doc.y = y + 60;
  }

  if (b.bankName || b.accountNumber || b.accountName) {
    doc.moveDown(1).font('bold').fontSize(11).fillColor('#000').text('Pay by bank transfer', MARGIN, doc.y);
    doc.font('regular').fontSize(9.5);
    if (b.bankName) doc.text(`Bank: ${b.bankName}`);
    if (b.accountNumber) doc.text(`Account number: ${b.accountNumber}`);
    if (b.accountName) doc.text(`Account name: ${b.accountName}`);
    if (i.number) doc.text(`Reference: ${i.number}`);
  }
  doc.moveDown(0.8).font('regular').fontSize(8.5).fillColor('#333').text(`View and pay online: ${shareUrl}`, MARGIN, doc.y, { width: WIDTH, link: shareUrl });
  if (i.notes) doc.moveDown(0.5).text(i.notes, { width: WIDTH });
  if (b.invoiceFooter) doc.moveDown(0.5).fillColor('#555').text(b.invoiceFooter, { width: WIDTH });
  doc.end();
  return done;
};
