import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Cell, Report, ReportColumn } from '../../application/report-exports/report.js';
import { nairaText, type Kobo } from '../../domain/money.js';
import { guardCell, nairaCell } from '../csv/cells.js';
import { coalesce } from '../csv/coalesce.js';

const csvCell = (column: ReportColumn, v: Cell): string => {
  if (v === null) return '';
  if (column.kind === 'money') return typeof v === 'bigint' ? nairaText(v) : nairaCell(v as Kobo);
  if (column.kind === 'text') return guardCell(String(v)); // the products export's formula guard
  return String(v);
};

/**
 * The report as CSV: a header of the column keys, then one record per row (money as naira with 2
 * decimals, no sign or separators), UTF-8 with a BOM and CRLF like the products export. The file is
 * the table alone, so it parses as data; the period is in the file name.
 */
export const csvReport = (report: Report, onError: (e: Error) => void): Readable => {
  const records = async function* () {
    for await (const row of report.rows) yield row.map((v, i) => csvCell(report.columns[i]!, v));
  };
  return pipeline(
    Readable.from(records()),
    stringify({ header: true, columns: report.columns.map((c) => c.key), bom: true, record_delimiter: 'windows' }),
    coalesce(),
    (e) => e && onError(e),
  );
};
