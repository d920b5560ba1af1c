/** The public surface of application/customers/ (customers and credit): what application/index.ts exports of it. */
export * from './ports.js';
export * from './manage-customers.js';
export * from './credit.js';
