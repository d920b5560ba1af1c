/** The public surface of application/products/ (products and stock): what application/index.ts exports of it. */
export * from './ports.js';
export * from './manage-products.js';
export * from './adjust-stock.js';
export * from './import-products.js';
export * from './export-products.js';
export * from './branch-stock.js';
export * from './transfer-stock.js';
