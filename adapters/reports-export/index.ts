import type { Readable } from 'node:stream';
import type { Report } from '../../application/report-exports/report.js';
import { csvReport } from './csv-report.js';
import type { ReportFormat } from './formats.js';

export { REPORT_CONTENT_TYPES, REPORT_FORMATS, reportFileName, type ReportFormat } from './formats.js';

/**
 * Any report in any format, as a stream of the file's bytes pulled as the client reads. `onError` is told
 * when reading the rows or writing fails midway (the download is then cut off, never ended as if whole).
 */
export const renderReport = async (format: ReportFormat, report: Report, onError: (e: Error) => void): Promise<Readable> => {
  // The xlsx and pdf writers (exceljs, pdfkit) are loaded with their first download, not at start:
  // together they hold about 50 MB, which a server that never exports them need not carry.
  const writer = { csv: async () => csvReport, xlsx: async () => (await import('./xlsx-report.js')).xlsxReport, pdf: async () => (await import('./pdf-report.js')).pdfReport }[format];
  return (await writer())(report, onError);
};
