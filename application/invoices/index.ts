/** The public surface of application/invoices/ (customer invoices): what application/index.ts exports of it. */
export * from './ports.js';
export * from './manage-invoices.js';
export * from './invoice-payments.js';
export * from './invoice-reminders.js';
export * from './public-invoice.js';
