import type { Readable } from 'node:stream';
import type { Report } from '../../application/report-exports/report.js';
import { csvReport } from './csv-report.js';
import type { ReportFormat } from './formats.js';
import { pdfReport } from './pdf-report.js';
import { xlsxReport } from './xlsx-report.js';

export { REPORT_CONTENT_TYPES, REPORT_FORMATS, reportFileName, type ReportFormat } from './formats.js';

/**
 * Any report in any format, as a stream of the file's bytes pulled as the client reads. `onError` is told
 * when reading the rows or writing fails midway (the download is then cut off, never ended as if whole).
 */
export const renderReport = (format: ReportFormat, report: Report, onError: (e: Error) => void): Readable =>
  ({ csv: csvReport, xlsx: xlsxReport, pdf: pdfReport })[format](report, onError);
