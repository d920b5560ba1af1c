import { readLoanPackDocument } from '../../application/loan-packs/document.js';
import type { LoanPack } from '../../application/loan-packs/ports.js';
import { lagosDateTime } from '../../domain/lagos-time.js';
import type { Naira } from '../../domain/loan-pack.js';
import { formatNaira } from '../receipts/pdf-receipt.js';
import { pdfKit } from '../receipts/pdf-kit.js';

// A loan pack as a PDF on A4 (pdfkit, DejaVu Sans for the naira sign, as receipts and report exports):
// identity, the months, stock, credit and data quality, and on every page the reference and the
// SHA-256 of the pack's JSON; the last page has a QR code of the lender's verification URL.

type Doc = PDFKit.PDFDocument;
const MARGIN = 40;
const WIDTH = 595.28 - 2 * MARGIN;
const ROW = 13;

const money = (n: Naira) => formatNaira(n.kobo); // a bigint past 2^53 kobo too, exactly (docs/adr/0038)
const monthName = (m: string) => new Date(`${m}-01T00:00:00Z`).toLocaleString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

const heading = (doc: Doc, text: string) => {
  if (doc.y > 720) doc.addPage();
  doc.moveDown(0.6).font('bold').fontSize(11).fillColor('#000').text(text, MARGIN, doc.y).moveDown(0.2);
};

const pairs = (doc: Doc, rows: readonly [string, string][]) => {
  for (const [k, v] of rows) {
    const y = doc.y;
    doc.font('regular').fontSize(9).fillColor('#444').text(k, MARGIN, y, { width: 170 });
    doc.font('bold').fillColor('#000').text(v, MARGIN + 175, y, { width: WIDTH - 175 });
    doc.y = Math.max(doc.y, y + ROW);
  }
};

/** A table: first column left-aligned, the others right-aligned; `total` is drawn bold under a rule. */
const table = (doc: Doc, head: readonly string[], rows: readonly (readonly string[])[], total?: readonly string[]) => {
  const first = 62;
  const w = (WIDTH - first) / (head.length - 1);
  const line = (cells: readonly string[], font: 'regular' | 'bold') => {
    if (doc.y > 770) doc.addPage();
    const y = doc.y;
    doc.font(font).fontSize(7.5).fillColor('#000');
    cells.forEach((c, i) => doc.text(c, i === 0 ? MARGIN : MARGIN + first + (i - 1) * w, y, { width: i === 0 ? first : w - 2, align: i === 0 ? 'left' : 'right', lineBreak: false }));
    doc.y = y + ROW - 2;
  };
  line(head, 'bold');
  for (const r of rows) line(r, 'regular');
  if (total) {
    doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + WIDTH, doc.y).lineWidth(0.5).stroke('#888');
    doc.y += 2;
    line(total, 'bold');
  }
};

const footer = (doc: Doc, pack: LoanPack) => {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.font('regular').fontSize(7).fillColor('#555');
    doc.text(`${pack.reference}  ·  SHA-256 ${pack.sha256}  ·  page ${i + 1} of ${range.count}`, MARGIN, 812, { width: WIDTH, align: 'center', lineBreak: false });
  }
};

/** The pack's PDF; `verifyUrl` is where a lender checks it (encoded in the QR code and printed). */
export const renderLoanPackPdf = async (pack: LoanPack, verifyUrl: string): Promise<Buffer> => {
  const d = readLoanPackDocument(pack.document);
  const { default: QRCode } = await import('qrcode'); // loaded with the first PDF, not at start (docs/adr/0080)
  const qr = await QRCode.toBuffer(verifyUrl, { type: 'png', margin: 1, width: 220, errorCorrectionLevel: 'M' });
  const doc: Doc = (await pdfKit()).document({
    size: 'A4',
    margins: { top: MARGIN, bottom: 20, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: `Loan pack ${pack.reference}`, Author: d.business.name, Subject: `Trading record ${d.period_start} to ${d.period_end}`, Keywords: pack.sha256 },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => ok(Buffer.concat(chunks)));
    doc.on('error', fail);
  });

  doc.font('bold').fontSize(16).text(d.business.name, MARGIN, MARGIN);
  doc.font('regular').fontSize(10).fillColor('#333').text(`Loan pack ${pack.reference}: trading record ${d.period_start} to ${d.period_end} (${d.months} months)`);
  doc.fontSize(8).text(`Made ${lagosDateTime(pack.createdAt)} (Lagos time) from the business's books; the figures are frozen as of then.`);

  heading(doc, 'Business');
  pairs(doc, [
    ['Business name', d.business.name],
    ['Owner', d.business.owner_name || '-'],
    ['Verified phone', d.business.verified_phone ?? 'not verified'],
    ['Registered since', d.business.registered_since],
    ['Branches', d.business.branches.join(', ') || '-'],
    ...(d.lender_name ? [['Prepared for', d.lender_name] as [string, string]] : []),
    ...(d.purpose ? [['Purpose', d.purpose] as [string, string]] : []),
  ]);

  heading(doc, 'Profit and loss per month (₦)');
  const t = d.totals;
  table(
    doc,
    ['Month', 'Revenue', 'Gross profit', 'Expenses', 'Net profit', 'Sales', 'Average sale'],
    d.monthly.map((m) => [monthName(m.month), money(m.revenue), money(m.gross_profit), money(m.expenses), money(m.net_profit), String(m.sales_count), money(m.average_sale)]),
    ['Total', money(t.revenue), money(t.gross_profit), money(t.expenses), money(t.net_profit), String(t.sales_count), money(t.average_sale)],
  );

  heading(doc, 'Cash flow and activity per month (₦; collected = credit paid back; sale days = days with a sale / days covered)');
  table(
    doc,
    ['Month', 'Money in', 'Money out', 'Net cash', 'Collected', 'Transfer %', 'Card %', 'Void %', 'Sale days'],
    d.monthly.map((m) => [
      monthName(m.month), money(m.cash_in), money(m.cash_out), money(m.net_cash_flow), money(m.credit_collected),
      m.transfer_share_pct, m.card_share_pct, m.void_rate_pct, `${m.days_with_sales} / ${m.days_covered}`,
    ]),
    ['Total', money(t.cash_in), money(t.cash_out), money(t.net_cash_flow), money(d.credit.collected_in_period),
      d.data_quality.transfer_share_pct, d.data_quality.card_share_pct, d.data_quality.void_rate_pct, `${d.data_quality.days_with_sales} / ${d.data_quality.days_in_period}`],
  );

  heading(doc, `Stock on hand (${d.stock.as_of})`);
  pairs(doc, [
    ['Products in stock', `${d.stock.products} products, ${d.stock.units} units`],
    ['Value at cost', money(d.stock.value_at_cost)],
    ['Value at selling price', money(d.stock.value_at_price)],
  ]);

  heading(doc, `Credit book (${d.credit.as_of})`);
  const a = d.credit.aging;
  pairs(doc, [
    ['Owed by customers', `${money(d.credit.outstanding)} (${d.credit.customers_owing} customers)`],
    ['By age of debt', `0-30 days ${money(a.days_0_30)}; 31-60 ${money(a.days_31_60)}; 61-90 ${money(a.days_61_90)}; over 90 ${money(a.days_over_90)}`],
    ['Collected in the period', money(d.credit.collected_in_period)],
  ]);

  heading(doc, 'Check this document');
  if (doc.y > 640) doc.addPage();
  const y = doc.y;
  doc.image(qr, MARGIN, y, { width: 110 });
  doc.font('regular').fontSize(8.5).fillColor('#000');
  doc.text('Scan the code, or open the address below, to check with the issuer that this pack is genuine and unchanged.', MARGIN + 125, y, { width: WIDTH - 125 });
  doc.moveDown(0.4).font('bold').text(`Reference: ${pack.reference}`, MARGIN + 125);
  doc.font('regular').text('SHA-256 of the pack\'s JSON (GET .../download with Accept: application/json):', MARGIN + 125);
  doc.font('bold').fontSize(8).text(pack.sha256, MARGIN + 125, doc.y, { width: WIDTH - 125 });
  doc.font('regular').fontSize(7.5).fillColor('#333').text(verifyUrl, MARGIN + 125, doc.y + 2, { width: WIDTH - 125, link: verifyUrl });
  doc.y = Math.max(doc.y, y + 115);

  footer(doc, pack);
  doc.end();
  return done;
};
