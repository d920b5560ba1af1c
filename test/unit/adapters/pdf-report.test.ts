import { expect } from 'chai';
import { PDFParse } from 'pdf-parse';
import type { Readable } from 'node:stream';
import { pdfReport } from '../../../adapters/reports-export/pdf-report.js';
import type { Cell, ReportColumn } from '../../../application/report-exports/report.js';

const columns: ReportColumn[] = [
  { key: 'receipt', label: 'Receipt', kind: 'text' },
  { key: 'customer', label: 'Customer', kind: 'text' },
  { key: 'total', label: 'Total', kind: 'money' },
];
const text = async (rows: Cell[][]) => {
  const out: Readable = pdfReport(
    { name: 'sales', title: 'Sales', businessName: 'Ọlá Stores', period: { start: '2026-11-01', end: '2026-11-28' }, generatedAt: new Date('2026-11-28T10:00:00Z'), columns, rows: (async function* () { yield* rows; })() },
    (e) => {
      throw e;
    },
  );
  const chunks: Buffer[] = [];
  for await (const c of out) chunks.push(c as Buffer);
  const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
};

// Plain cells are laid out glyph by glyph from a cache, other text shaped whole (pdf-report.ts, docs/adr/0082).
describe('the PDF report writer', () => {
  it('writes plain cells (amounts, receipt numbers) and shaped ones (names with combining accents) as the same text', async () => {
    const got = await text([
      ['RCP-000001', 'Ada Obi', 1_500_050],
      ['RCP-000002', 'Ọ̀jọ́ Àjàyí', 99_999_999],
      ['RCP-000003', 'Tunde & Sons (Ikeja)', 0],
    ]);
    expect(got).to.contain('Ọlá Stores');
    for (const line of ['RCP-000001 Ada Obi 15,000.50', 'RCP-000002 Ọ̀jọ́ Àjàyí 999,999.99', 'RCP-000003 Tunde & Sons (Ikeja) 0.00']) {
      expect(got.replace(/[ \t]+/g, ' ')).to.contain(line);
    }
  });

  it('keeps every row across pages, each exactly once', async () => {
    const rows: Cell[][] = Array.from({ length: 250 }, (_, i) => [`RCP-${String(i + 1).padStart(6, '0')}`, 'Ada Obi', i * 101]);
    const got = await text(rows);
    for (const i of [0, 57, 120, 249]) expect(got).to.contain(`RCP-${String(i + 1).padStart(6, '0')} Ada Obi ${((i * 101) / 100).toFixed(2)}`);
    expect(got.match(/RCP-\d{6}/g)).to.have.length(250);
  });
});
