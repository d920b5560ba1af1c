import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { Cell, Report } from '../../application/report-exports/report.js';

/** The file formats a report is written in. */
export const REPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The Content-Type of each format. */
export const REPORT_CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** `sales-2026-11-01_2026-11-30.csv`: the report's name and period. */
export const reportFileName = (report: Pick<Report, 'name' | 'period'>, format: ReportFormat): string =>
  `${report.name}-${report.period.start}_${report.period.end}.${format}`;

/** A Lagos day or wall-clock time cell (`YYYY-MM-DD` or `YYYY-MM-DD HH:mm`) as a Date whose UTC fields show it. */
export const wallClock = (s: string): Date => new Date(`${s.length <= 10 ? `${s}T00:00` : s.replace(' ', 'T')}:00.000Z`);

/**
 * Waits while more than `limit` bytes of the file wait for the client: a writer that produces on its own
 * (pdfkit, exceljs) pauses here, so a slow download keeps memory bounded rather than buffering the report.
 */
export const whileBacklogged = async (out: Readable, limit = 256 * 1024): Promise<void> => {
  await new Promise((resolve) => setImmediate(resolve)); // lets the stream flow to the client (rows may come from memory, all microtasks)
  while (out.readableLength > limit && !out.destroyed) await sleep(1);
};

/** Rows of cells, as the writers take them. */
export type Rows = AsyncIterable<readonly Cell[]>;
