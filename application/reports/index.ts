/** The public surface of application/reports/ (reports): what application/index.ts exports of it. */
export * from './ports.js';
export * from './reports.js';
export * from './roll-up-days.js';
