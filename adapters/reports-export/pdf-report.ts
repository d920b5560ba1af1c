import { PassThrough, type Readable } from 'node:stream';
import type { Cell, Report, ReportColumn } from '../../application/report-exports/report.js';
import { lagosDateTime } from '../../domain/lagos-time.js';
import type { Kobo } from '../../domain/money.js';
import { formatNaira } from '../receipts/pdf-receipt.js';
import { pdfKit, type PdfKit } from '../receipts/pdf-kit.js';
import { whileBacklogged } from './formats.js';

const MARGIN = 36;
const FOOTER = 24;
const SIZE = { business: 14, title: 12, meta: 9, table: 7.5, smallest: 5.5, footer: 8 } as const;
const PAD = 2;
/** What a cell of each kind is sized for (a text column shares what is left, at least MIN_TEXT). */
const SAMPLE: Record<ReportColumn['kind'], string> = { text: '', integer: '9,999,999', money: '9,999,999.00', date: '2026-11-30 23:59' };
const MIN_TEXT = 60;

type Doc = PDFKit.PDFDocument;

/** Money columns show 1,500.50 under a heading ending in (₦): the sign once per column, not per cell. */
const pdfCell = (column: ReportColumn, v: Cell): string => (v === null ? '' : column.kind === 'money' ? formatNaira(v as Kobo | bigint).replace('₦', '') : String(v));
const heading = (c: ReportColumn) => (c.kind === 'money' ? `${c.label} (₦)` : c.label);

/**
 * pdfkit caches the glyph layout of every distinct string in a font until the document ends: on a table
 * of amounts and receipt numbers that grew ~5 MB per 1,000 rows. Emptied at each page (with the option
 * fontLayoutCache: false instead, a page took 4 times as long), memory stays flat.
 */
const forgetLayouts = (doc: Doc) => {
  for (const font of Object.values((doc as unknown as { _fontFamilies: Record<string, { layoutCache?: object }> })._fontFamilies)) {
    if (font.layoutCache) font.layoutCache = Object.create(null);
  }
};

/**
 * A cell of plain characters (printable ASCII and the naira sign) is laid out glyph by glyph from a cache,
 * instead of by fontkit's shaping of the whole string: pdfkit lays out every distinct string once per
 * page (forgetLayouts), and on a table of amounts, receipt numbers and times nearly every string is new,
 * so the shaping was a third of a long PDF's time. Those characters have no ligatures or marks in DejaVu
 * Sans; what is left out is kerning, which the column widths (measure) leave out already. Any other
 * text (a name with combining accents) is shaped as before.
 */
const PLAIN = /^[\x20-\x7e\u20a6]*$/;
type GlyphRun = { glyphs: unknown[]; positions: Record<string, number>[]; advanceWidth: number };
type LaidOutFont = { layoutRun?: (text: string, features?: unknown) => GlyphRun; plainLayout?: boolean };
const layOutPlainTextByGlyph = (doc: Doc) => {
  for (const font of Object.values((doc as unknown as { _fontFamilies: Record<string, LaidOutFont> })._fontFamilies)) {
    const shape = font.layoutRun?.bind(font);
    if (!shape || font.plainLayout) continue;
    font.plainLayout = true;
    const glyphs = new Map<string, GlyphRun>();
    const glyph = (ch: string) => {
      let run = glyphs.get(ch);
      if (!run) glyphs.set(ch, (run = shape(ch)));
      return run;
    };
    font.layoutRun = (text, features) => {
      if (features !== undefined || !PLAIN.test(text)) return shape(text, features);
      const run: GlyphRun = { glyphs: [], positions: [], advanceWidth: 0 };
      for (const ch of text) {
        const one = glyph(ch);
        run.glyphs.push(...one.glyphs);
        for (const position of one.positions) run.positions.push({ ...position });
        run.advanceWidth += one.advanceWidth;
      }
      return run;
    };
  }
};

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
  const out = new PassThrough();
  pdfKit().then(
    (kit) => writeReport(kit, report, out, onError),
    (e: Error) => {
      onError(e);
      out.destroy(e);
    },
  );
  return out;
};

const writeReport = (kit: PdfKit, report: Report, out: PassThrough, onError: (e: Error) => void): void => {
  const landscape = report.columns.length > 10;
  const doc: Doc = kit.document({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margins: { top: 0, bottom: 0, left: 0, right: 0 },
    info: { Title: `${report.title} ${report.period.start} to ${report.period.end}`, Author: report.businessName },
  });
  doc.pipe(out);
  layOutPlainTextByGlyph(doc);
  const bottom = doc.page.height - MARGIN - FOOTER;
  const content = doc.page.width - 2 * MARGIN;
  // Numbers and dates get the width they need, text columns share the rest; a table too wide for that gets a smaller font.
  const natural = (size: number) => report.columns.map((c) => (c.kind === 'text' ? 0 : doc.font('regular').fontSize(size).widthOfString(SAMPLE[c.kind]) + 2 * PAD));
  const texts = report.columns.filter((c) => c.kind === 'text').length;
  const fixedAt = (size: number) => natural(size).reduce((a, b) => a + b, 0);
  const size = Math.max(SIZE.smallest, Math.min(SIZE.table, (SIZE.table * content) / (fixedAt(SIZE.table) + texts * MIN_TEXT)));
  const fixed = natural(size);
  const textWidth = texts > 0 ? (content - fixed.reduce((a, b) => a + b, 0)) / texts : 0;
  const spare = texts > 0 ? 0 : (content - fixed.reduce((a, b) => a + b, 0)) / report.columns.length;
  const widths = report.columns.map((c, i) => (c.kind === 'text' ? textWidth : fixed[i]! + spare));
  const lefts = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const row = size * 1.6;
  let page = 1;
  let y = MARGIN;
  // pdfkit opens a registered font again on every doc.font() when the document's first font has the same
  // name (it does: pdf-kit.ts), comparing the two by their JSON name tables: a tenth of a long table's
  // time. The font is set only when it changes.
  let current: 'regular' | 'bold' | undefined;
  const font = (f: 'regular' | 'bold') => {
    if (current !== f) doc.font(f);
    current = f;
    return doc;
  };

  const line = (s: string, weight: 'regular' | 'bold', size: number) => {
    font(weight).fontSize(size).text(s, MARGIN, y, { width: content, lineBreak: false });
    y += size * 1.4;
  };
  // Widths summed from cached character widths (kerning ignored): pdfkit's own measuring and line
  // wrapping per cell made a 20,000-row PDF take 17 s; cells are placed with no width, so none wraps.
  const advance = new Map<string, number>();
  const measure = (s: string) => {
    let w = 0;
    for (const ch of s) {
      let a = advance.get(ch);
      if (a === undefined) advance.set(ch, (a = doc.widthOfString(ch)));
      w += a;
    }
    return w; // at the table size: cells() measures before it sets any smaller size
  };
  const cells = (values: readonly string[]) => {
    font('regular').fontSize(size);
    values.forEach((v, i) => {
      if (v === '') return;
      const kind = report.columns[i]!.kind;
      const width = widths[i]! - 2 * PAD;
      const wide = measure(v);
      if (kind === 'text') {
        doc.text(wide <= width ? v : fit(doc, v, width), lefts[i]! + PAD, y + 2, { lineBreak: false });
        return;
      }
      // a number wider than its column is set smaller, never cut
      const scale = Math.min(1, width / wide);
      if (scale < 1) doc.fontSize(size * scale);
      const x = kind === 'date' ? lefts[i]! + PAD : lefts[i]! + PAD + width - wide * scale;
      doc.text(v, x, y + 2, { lineBreak: false });
      if (scale < 1) doc.fontSize(size);
    });
    y += row;
  };
  /** The column headings, wrapped on up to two lines, and a rule under them. */
  const tableHeader = () => {
    font('bold').fontSize(size);
    report.columns.forEach((c, i) => {
      const right = c.kind === 'money' || c.kind === 'integer';
      doc.text(heading(c), lefts[i]! + PAD, y + 2, { width: widths[i]! - 2 * PAD, height: 2 * row, align: right ? 'right' : 'left', ellipsis: true });
    });
    y += 2 * row;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + content, y).lineWidth(0.6).stroke();
    y += 2;
  };
  const footer = () => {
    font('regular').fontSize(SIZE.footer).text(`Page ${page}`, MARGIN, doc.page.height - MARGIN - SIZE.footer, { width: content, align: 'center', lineBreak: false });
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
      if (y + row > bottom) {
        footer();
        doc.addPage();
        page += 1;
        y = MARGIN;
        tableHeader();
        forgetLayouts(doc);
        await whileBacklogged(doc);
      }
      cells(values.map((v, i) => pdfCell(report.columns[i]!, v)));
      rows += 1;
    }
    if (rows === 0) line('No entries in this period.', 'regular', SIZE.meta);
    footer();
    doc.end();
  };
  write().catch((e: Error) => {
    onError(e);
    doc.destroy(e);
    out.destroy(e);
  });
};
