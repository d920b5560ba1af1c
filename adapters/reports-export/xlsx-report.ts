import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { Cell, Report, ReportColumn } from '../../application/report-exports/report.js';
import { koboToNaira, nairaText, type Kobo } from '../../domain/money.js';
import { lagosDateTime } from '../../domain/lagos-time.js';
import { wallClock, whileBacklogged } from './formats.js';
import { setTimeout as sleep } from 'node:timers/promises';

const WIDTH: Record<ReportColumn['kind'], number> = { text: 18, integer: 10, money: 15, date: 17 };

const xlsxCell = (column: ReportColumn, v: Cell): ExcelJS.CellValue => {
  if (v === null) return null;
  // a sum past 2^53 kobo: the double nearest its exact naira text, as Excel (15 significant digits) holds any number
  if (column.kind === 'money') return typeof v === 'bigint' ? Number(nairaText(v)) : koboToNaira(v as Kobo);
  if (typeof v === 'bigint') return Number(v);
  if (column.kind === 'date') return wallClock(String(v));
  return v; // a string stays a string cell: nothing in it is run as a formula
};

/**
 * Bytes of the sheet's XML written but not yet taken by the zip's deflate: exceljs hands each 64 KB to
 * the zip entry without waiting (its StreamBuf ignores backpressure), so a fast producer buffered the
 * whole sheet (84 MB at 200,000 rows). Read from exceljs's internals; 0 if they change shape.
 */
const zipBacklog = (sheet: ExcelJS.Worksheet): number => {
  const pipes = (sheet as unknown as { stream?: { pipes?: { writableLength?: number; readableLength?: number }[] } }).stream?.pipes ?? [];
  return pipes.reduce((n, p) => n + (p.writableLength ?? 0) + (p.readableLength ?? 0), 0);
};

/** Header block rows above the table: title, business, period, generated; then an empty row. */
export const XLSX_HEADER_ROWS = 5;

/**
 * The report as an XLSX workbook with one sheet, written row by row with exceljs's streaming writer (each
 * row committed as it is written): the title, business, period and time of export on top, then the
 * table (money as numbers shown #,##0.00, dates as Excel dates), its header frozen.
 */
export const xlsxReport = (report: Report, onError: (e: Error) => void): Readable => {
  const out = new PassThrough();
  const write = async () => {
    // exceljs is loaded with the first workbook, not at start: a second of a process's start (docs/adr/0080)
    const { default: exceljs } = await import('exceljs');
    const workbook = new exceljs.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(report.title, { views: [{ state: 'frozen', ySplit: XLSX_HEADER_ROWS + 1 }] });
    sheet.columns = report.columns.map((c) => ({ key: c.key, width: WIDTH[c.kind] }));
    const title = sheet.addRow([report.title]);
    title.font = { bold: true, size: 14 };
    title.commit();
    sheet.addRow([report.businessName]).commit();
    sheet.addRow([`Period: ${report.period.start} to ${report.period.end}`]).commit();
    sheet.addRow([`Generated: ${lagosDateTime(report.generatedAt)} (Lagos)`]).commit();
    sheet.addRow([]).commit();
    const header = sheet.addRow(report.columns.map((c) => c.label));
    header.font = { bold: true };
    header.commit();
    let n = 0;
    for await (const values of report.rows) {
      const row = sheet.addRow(values.map((v, i) => xlsxCell(report.columns[i]!, v)));
      report.columns.forEach((c, i) => {
        if (c.kind === 'money') row.getCell(i + 1).numFmt = '#,##0.00';
        else if (c.kind === 'date') row.getCell(i + 1).numFmt = String(values[i] ?? '').length > 10 ? 'yyyy-mm-dd hh:mm' : 'yyyy-mm-dd';
      });
      row.commit();
      if (++n % 500 === 0) {
        await whileBacklogged(out);
        while (zipBacklog(sheet) > 1 << 20 && !out.destroyed) await sleep(1);
      }
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((e: Error) => {
    onError(e);
    out.destroy(e);
  });
  return out;
};
