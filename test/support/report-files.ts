import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { PDFParse } from 'pdf-parse';
import type { TestApp } from './test-app.js';

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Downloads of a report export as a test reads them: the file (checked to be a 200 streamed attachment
 * of its content type and name), and its CSV records, XLSX rows or PDF text.
 */
export const reportFiles = (app: TestApp, token: () => string) => {
  const file = async (path: string, contentType: string, fileName: string) => {
    const res = await fetch(`${app.baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token()}` } });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(res.headers.get('content-type')).to.equal(contentType);
    expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="${fileName}"`);
    expect(res.headers.get('content-length')).to.equal(null);
    return Buffer.from(await res.arrayBuffer());
  };
  return {
    file,
    csv: async (path: string, fileName: string) => parse(await file(path, 'text/csv; charset=utf-8', fileName), { bom: true }) as string[][],
    /** Every row of the first sheet, the title block included. */
    xlsxRows: async (path: string, fileName: string) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await file(path, XLSX, fileName)) as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      workbook.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    },
    /** The text with runs of white space as one space (headings wrap onto two lines). */
    pdfText: async (path: string, fileName: string) => {
      const parser = new PDFParse({ data: new Uint8Array(await file(path, 'application/pdf', fileName)) });
      try {
        return (await parser.getText()).text.replace(/\s+/g, ' ');
      } finally {
        await parser.destroy();
      }
    },
  };
};
