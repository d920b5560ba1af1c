/** The public surface of application/returns/ (returns of sales and refund receipts): what application/index.ts exports of it. */
export * from './ports.js';
export * from './record-return.js';
export * from './read-returns.js';
