/**
 * The public surface for programs that embed the application (a back office job, a script, another
 * service): every use case, its commands, results and failures, and the ports an embedder implements
 * or picks an adapter for. Import from here, not from the files behind it; their layout may change.
 * The domain (money in kobo, phones, plans, roles) comes along, since commands are written in it.
 */

// ports every use case may need: pick adapters for these (see bootstrap/embed.ts for the in-memory ones)
export * from './ports/clock.js';
export * from './ports/crypto.js';
export * from './ports/idempotency-store.js';
export * from './ports/list.js';
export * from './ports/member-cache.js';
export * from './ports/message-sender.js';
export * from './ports/token-issuer.js';
export * from './ports/unit-of-work.js';
export * from './ports/outbox.js';
export * from './ports/job-queue.js';
export * from './ports/webhooks.js';

// what happened: the outbox's dispatcher and its subscribers
export * from './events/dispatcher.js';
export * from './events/poll-loop.js';
export * from './events/send-messages.js';
export * from './events/queued-subscribers.js';

// auth: registration, sign-in codes, sessions
export * from './auth/ports.js';
export * from './auth/errors.js';
export * from './auth/register.js';
export * from './auth/request-sign-in-code.js';
export * from './auth/verify-sign-in-code.js';
export * from './auth/refresh-session.js';
export * from './auth/manage-sessions.js';
export * from './auth/send-verification-code.js';
export * from './auth/check-verification-code.js';
export * from './auth/resolve-actor.js';
export * from './auth/get-me.js';
export * from './auth/google-identity-verifier.js';
export * from './auth/google-sign-in.js';

// business: profile, branches, staff, plans
export * from './business/ports.js';
export * from './business/errors.js';
export * from './business/get-business.js';
export * from './business/update-business.js';
export * from './business/plan-usage.js';
export * from './branches/manage-branches.js';
export * from './staff/manage-staff.js';
export * from './operator/plans.js';

// products and stock
export * from './products/ports.js';
export * from './products/manage-products.js';
export * from './products/adjust-stock.js';
export * from './products/import-products.js';
export * from './products/export-products.js';
export * from './products/branch-stock.js';
export * from './products/transfer-stock.js';

// sales and receipts
export * from './sales/ports.js';
export * from './sales/record-sale.js';
export * from './sales/void-sale.js';
export * from './sales/read-sales.js';

// customers and credit
export * from './customers/ports.js';
export * from './customers/manage-customers.js';
export * from './customers/credit.js';

// report exports: a report as a table any writer can put in a file
export * from './report-exports/ports.js';
export * from './report-exports/report.js';
export * from './report-exports/export-sales.js';
export * from './report-exports/export-cash-flow.js';
export * from './report-exports/export-reports.js';
// expenses and their categories
export * from './expenses/ports.js';
export * from './expenses/manage-expenses.js';
export * from './expenses/manage-categories.js';
// offline sync: client ids (docs/adr/0034)
export * from './sync/ports.js';
export * from './sync/client-id.js';
export * from './sync/conflicts.js';
export * from './sync/changes.js';
// reports
export * from './reports/ports.js';
export * from './reports/reports.js';
// notifications: sending, preferences, delivery, and the scheduled work
export * from './notifications/ports.js';
export * from './notifications/send-notification.js';
export * from './notifications/manage-notifications.js';
export * from './notifications/deliver-notifications.js';
export * from './notifications/automatic-notifications.js';
// loan packs and their payment
export * from './loan-packs/ports.js';
export * from './loan-packs/document.js';
export * from './loan-packs/create-loan-pack.js';
export * from './loan-packs/pay-loan-pack.js';
export * from './loan-packs/read-loan-packs.js';
export * from './partners/ports.js';
export * from './partners/api-keys.js';
export * from './partners/network.js';
export * from './partners/insights.js';
export * from './partners/webhook-ports.js';
export * from './partners/deliver-webhooks.js';
export * from './partners/manage-webhooks.js';

// the domain the commands are written in
export * from '../domain/money.js';
export * from '../domain/identifier.js';
export * from '../domain/phone.js';
export * from '../domain/roles.js';
export * from '../domain/events.js';
export type { Sale, PaymentMethod } from '../domain/sale.js';
export type { Product } from '../domain/product.js';
export type { Customer } from '../domain/customer.js';
export * from '../domain/expense.js';
export * from '../domain/notification.js';
export * from '../domain/notification-texts.js';
export type { LoanPackMonths, LoanPackStatus, GatewayPaymentStatus } from '../domain/loan-pack.js';
export * from '../domain/partner.js';
export * from '../domain/webhook.js';
