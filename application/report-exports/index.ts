/** The public surface of application/report-exports/ (report exports: a report as a table any writer can put in a file): what application/index.ts exports of it. */
export * from './ports.js';
export * from './report.js';
export * from './export-sales.js';
export * from './export-cash-flow.js';
export * from './export-reports.js';
export * from './export-vat.js';
