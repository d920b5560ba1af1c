/**
 * The public surface for programs that embed the application (a back office job, a script, another
 * service): every use case, its commands, results and failures, and the ports an embedder implements
 * or picks an adapter for. Import from here, not from the files behind it; their layout may change.
 * The domain (money in kobo, phones, plans, roles) comes along, since commands are written in it.
 * Each module's folder lists its own public files in its index.ts; here, one line per module
 * (test/unit/bootstrap/modules.test.ts checks every folder is here, docs/adr/0052).
 */

// every module's public surface, and the ports and events they share
export * from './ports/index.js';
export * from './events/index.js';
export * from './auth/index.js';
export * from './business/index.js';
export * from './branches/index.js';
export * from './staff/index.js';
export * from './operator/index.js';
export * from './products/index.js';
export * from './sales/index.js';
export * from './returns/index.js';
export * from './invoices/index.js';
export * from './customers/index.js';
export * from './report-exports/index.js';
export * from './expenses/index.js';
export * from './sync/index.js';
export * from './reports/index.js';
export * from './notifications/index.js';
export * from './loan-packs/index.js';
export * from './partners/index.js';
export * from './housekeeping/index.js';
export * from './audit/index.js';

// the domain the commands are written in
export * from '../domain/money.js';
export * from '../domain/identifier.js';
export * from '../domain/phone.js';
export * from '../domain/roles.js';
export * from '../domain/events.js';
export type { Sale, PaymentMethod } from '../domain/sale.js';
export type { SaleReturn, ReturnLine, RefundMethod } from '../domain/sale-return.js';
export type { Product } from '../domain/product.js';
export type { Customer } from '../domain/customer.js';
export * from '../domain/expense.js';
export * from '../domain/notification.js';
export * from '../domain/notification-texts.js';
export type { LoanPackMonths, LoanPackStatus, GatewayPaymentStatus } from '../domain/loan-pack.js';
export * from '../domain/partner.js';
export * from '../domain/webhook.js';
export * from '../domain/audit.js';
