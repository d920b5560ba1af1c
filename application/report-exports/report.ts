import { checkRange, isInvalidRange, type InvalidReportRange } from '../../domain/report.js';
// A report as a table, whatever the file format it is written in (the adapters' writers: CSV, XLSX, PDF).

/** How a column's cells are read and shown. */
export type ColumnKind = 'text' | 'integer' | 'money' | 'date';

/**
 * One column: `key` is the CSV header (snake_case), `label` the heading in XLSX and PDF. A cell of kind
 * money is integer kobo (shown as naira with 2 decimals), integer a whole number, date a Lagos day
 * `YYYY-MM-DD` or a Lagos wall-clock time `YYYY-MM-DD HH:mm`, text a string; any cell may be null.
 */
export interface ReportColumn {
  readonly key: string;
  readonly label: string;
  readonly kind: ColumnKind;
}

/** A money cell is integer kobo: a number, or a bigint sum (exact past 2^53, docs/adr/0038). */
export type Cell = string | number | bigint | null;

/** A report ready to be written: a title, its period, its columns, and its rows as they are read. */
export interface Report {
  /** Names the file: `<name>-<start>_<end>.<ext>` (`sales-2026-11-01_2026-11-30.csv`). */
  readonly name: string;
  readonly title: string;
  readonly businessName: string;
  /** Lagos days, both inclusive. */
  readonly period: { readonly start: string; readonly end: string };
  /** When it was made (printed in the PDF as Lagos time). */
  readonly generatedAt: Date;
  readonly columns: readonly ReportColumn[];
  /** Each row's cells in column order, pulled as the writer asks for more. */
  readonly rows: AsyncIterable<readonly Cell[]>;
}

/** A report's columns with how each reads its cell from a row of type T. */
export type ReportDefinition<T> = {
  readonly name: string;
  readonly title: string;
  readonly columns: readonly (ReportColumn & { readonly cell: (row: T) => Cell })[];
};

/**
 * A report from its definition and its rows (any iterable, sync or async): what an export use case
 * returns. The rows are read lazily, so a generator reading the database in batches stays at constant memory.
 */
export const defineReport = <T>(
  definition: ReportDefinition<T>,
  header: { businessName: string; period: { start: string; end: string }; generatedAt: Date },
  rows: AsyncIterable<T> | Iterable<T>,
): Report => ({
  name: definition.name,
  title: definition.title,
  ...header,
  columns: definition.columns.map(({ key, label, kind }) => ({ key, label, kind })),
  rows: (async function* () {
    for await (const row of rows) yield definition.columns.map((c) => c.cell(row));
  })(),
});

const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && s >= '0001-01-01' && new Date(`${s}T00:00:00.000Z`).toISOString().slice(0, 10) === s;

/**
 * The period of a report export from its optional Lagos days: end defaults to today (Lagos), start to the
 * first of end's month; the range rules are the reports' own (domain/report.ts `checkRange`).
 */
export const reportPeriod = (today: string, start?: string, end?: string): { start: string; end: string } | InvalidReportRange => {
  if (start !== undefined && !isDay(start)) return { _tag: 'InvalidReportRange', field: 'start_date', reason: 'must be a date (YYYY-MM-DD)' };
  if (end !== undefined && !isDay(end)) return { _tag: 'InvalidReportRange', field: 'end_date', reason: 'must be a date (YYYY-MM-DD)' };
  const e = end ?? today;
  const range = checkRange(start ?? `${e.slice(0, 7)}-01`, e);
  return isInvalidRange(range) ? range : { start: range.from, end: range.to };
};
