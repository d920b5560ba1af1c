import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Fontkit from 'fontkit';

/**
 * pdfkit and the two DejaVu Sans fonts every PDF of ours is set in (the naira sign, U+20A6), loaded
 * with the first PDF rather than when the process starts: they are about half a second of a start
 * (a server's, a worker's, an operator's CLI) that most processes never use (docs/adr/0080).
 *
 * The font files ship with the npm package dejavu-fonts-ttf. They are read and parsed once, and the
 * parsed fonts are shared by every document (pdfkit takes a fontkit font as a font source; each
 * document still embeds its own subset): parsing them per document made a receipt take ~100 ms
 * instead of ~10 ms.
 */
export interface PdfKit {
  /** A new document with the fonts registered as 'regular' and 'bold', 'regular' its default. */
  document(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument;
}

const load = async (): Promise<PdfKit> => {
  const [{ default: PDFDocument }, fontkit] = await Promise.all([import('pdfkit'), import('fontkit')]);
  const font = (file: string): Fontkit.Font => {
    const f = fontkit.create(readFileSync(createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${file}`)));
    if (!('layout' in f)) throw new Error(`${file} is a font collection, not a font`);
    f.layout('₦0,123.45 RCP'); // parses the layout tables now rather than in the first document
    return f;
  };
  // pdfkit's typings name only files and buffers as font sources; a fontkit font is accepted too.
  const regular = font('DejaVuSans.ttf') as unknown as string;
  const bold = font('DejaVuSans-Bold.ttf') as unknown as string;
  return {
    document(options) {
      // the font up front, rather than Helvetica, whose metrics pdfkit would load for nothing
      const doc = new PDFDocument({ ...options, font: regular });
      doc.registerFont('regular', regular);
      doc.registerFont('bold', bold);
      return doc;
    },
  };
};

let loaded: Promise<PdfKit> | undefined;
export const pdfKit = (): Promise<PdfKit> => (loaded ??= load());
