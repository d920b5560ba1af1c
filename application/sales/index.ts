/** The public surface of application/sales/ (sales and receipts): what application/index.ts exports of it. */
export * from './ports.js';
export * from './record-sale.js';
export * from './void-sale.js';
export * from './read-sales.js';
