import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { Cell, Report, ReportColumn } from '../../application/report-exports/report.js';
import { lagosDateTime } from '../../domain/lagos-time.js';
import type { Kobo } from '../../domain/money.js';
import { BOLD, formatNaira, REGULAR, source } from '../receipts/pdf-receipt.js';
import { whileBacklogged } from './formats.js';

const MARGIN = 36;
const FOOTER = 24;
const SIZE = { business: 14, title: 12, meta: 9, table: 7.5, footer: 8 } as const;
const ROW = 12;
/** Relative column widths by kind. */
const WEIGHT: Record<ReportColumn['kind'], number> = { text: 1.5, integer: 0.7, money: 1.1, date: 1.3 };

type Doc = PDFKit.PDFDocument;

/** Money columns show 1,500.50 under a heading ending in (₦): the sign once per column, not per cell. */
const pdfCell = (column: ReportColumn, v: Cell): string => (v === null ? '' : column.kind === 'money' ? formatNaira(v as Kobo).replace('₦', '') : String(v));
const heading = (c: ReportColumn) => (c.kind === 'money' ? `${c.label} (₦)` : c.label);

/** Cuts a text to the width, with an ellipsis. */
const fit = (doc: Doc, s: string, width: number): string => {
  if (doc.widthOfString(s) <= width) return s;
  let t = s;
  while (t.length > 0 && doc.widthOfString(`${t}…`) > width) t = t.slice(0, -1);
  return `${t}…`;
};

/**
 * The report as a PDF on A4 (landscape when it has more than 10 columns): business name, title, period
 * and time of export on the first page, the table with its header repeated on every page, "Page N" at the
 * foot of each. Text is DejaVu Sans (embedded, as on receipts) for the naira sign. Pages are written out
 * as they fill (no page buffering), so a report of any length is produced at constant memory.
 */
export const pdfReport = (report: Report, onError: (e: Error) => void): Readable => {
  const landscape = report.columns.length > 10;
  const doc: Doc = new PDFDocument({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
    info: { Title: `${report.title} ${report.period.start} to ${report.period.end}`, Author: report.businessName },
  });
  doc.registerFont('regular', source(REGULAR));
  doc.registerFont('bold', source(BOLD));
  const pageWidth = doc.page.width;
  const bottom = doc.page.height - MARGIN - FOOTER;
  const content = pageWidth - 2 * MARGIN;
  const total = report.columns.reduce((s, c) => s + WEIGHT[c.kind], 0);
  const widths = report.columns.map((c) => (content * WEIGHT[c.kind]) / total);
  const lefts = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((s, w) => s + w, 0));
  const pad = 2;
  let page = 1;
  let y = MARGIN;

  const line = (s: string, font: 'regular' | 'bold', size: number) => {
    doc.font(font).fontSize(size).text(s, MARGIN, y, { width: content, lineBreak: false });
    y += size * 1.4;
  };
  const cells = (values: readonly string[], font: 'regular' | 'bold') => {
    doc.font(font).fontSize(SIZE.table);
    values.forEach((v, i) => {
      const right = report.columns[i]!.kind === 'money' || report.columns[i]!.kind === 'integer';
      doc.text(fit(doc, v, widths[i]! - 2 * pad), lefts[i]! + pad, y + 2, { width: widths[i]! - 2 * pad, align: right ? 'right' : 'left', lineBreak: false });
    });
    y += ROW;
  };
  const tableHeader = () => {
    cells(report.columns.map(heading), 'bold');
    doc.moveTo(MARGIN, y).lineTo(MARGIN + content, y).lineWidth(0.6).stroke();
    y += 2;
  };
  const footer = () => {
    doc.font('regular').fontSize(SIZE.footer).text(`Page ${page}`, MARGIN, doc.page.height - MARGIN - SIZE.footer, { width: content, align: 'center', lineBreak: false });
  };

  const write = async () => {
    line(report.businessName, 'bold', SIZE.business);
    line(report.title, 'bold', SIZE.title);
    line(`Period: ${report.period.start} to ${report.period.end}`, 'regular', SIZE.meta);
    line(`Generated: ${lagosDateTime(report.generatedAt)} (Lagos time). Amounts in naira (₦).`, 'regular', SIZE.meta);
    y += 6;
    tableHeader();
    let rows = 0;
    for await (const values of report.rows) {
      if (y + ROW > bottom) {
        footer();
        doc.addPage();
        page += 1;
        y = MARGIN;
        tableHeader();
        await whileBacklogged(doc);
      }
      cells(values.map((v, i) => pdfCell(report.columns[i]!, v)), 'regular');
      rows += 1;
    }
    if (rows === 0) line('No entries in this period.', 'regular', SIZE.meta);
    footer();
    doc.end();
  };
  write().catch((e: Error) => {
    onError(e);
    doc.destroy(e);
  });
  return doc;
};
