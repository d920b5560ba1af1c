import { invoiceRoutes } from '../../adapters/http/routes/invoices.routes.js';
import { cancelInvoice, convertProforma, createInvoice, deleteInvoice, getInvoice, listInvoices, sendInvoice, updateInvoice } from '../../application/invoices/manage-invoices.js';
import { recordInvoicePayment } from '../../application/invoices/invoice-payments.js';
import { runInvoiceReminders } from '../../application/invoices/invoice-reminders.js';
import { inMemoryInvoicesModule } from '../../adapters/persistence/in-memory/invoices.in-memory.js';
import { sqlInvoicesModule } from '../../adapters/persistence/sql/invoices.sql.js';
import { INVOICE_FAILURES } from '../../adapters/http/failures/invoices.js';
import { invoicePageRoutes } from '../../adapters/http/routes/invoice-page.routes.js';
import { shareUrl } from '../../adapters/http/routes/invoices.views.js';
import { renderInvoicePage } from '../../adapters/invoices/html-invoice.js';
import { renderInvoicePdf } from '../../adapters/invoices/pdf-invoice.js';
import { invoiceDocument, shareInvoice, startInvoiceCheckout, verifyInvoicePayment, viewPublicInvoice } from '../../application/invoices/public-invoice.js';
import { defineModule, repositories } from './module.js';

/** Customer invoices: drafts, sending with stock, payments, proformas (docs/adr/0072). */
export const invoicesModule = defineModule({
  name: 'invoices',
  folders: ['invoices'],
  repositories: [repositories(inMemoryInvoicesModule, sqlInvoicesModule)],
  failures: [INVOICE_FAILURES],
  migrations: [
    { name: 'Migration20261206000000_invoices', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261206000000_invoices.js')).Migration20261206000000_invoices },
    { name: 'Migration20261207000000_invoice_credit', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261207000000_invoice_credit.js')).Migration20261207000000_invoice_credit },
    { name: 'Migration20261206400000_invoice_reminders', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261206400000_invoice_reminders.js')).Migration20261206400000_invoice_reminders },
    { name: 'Migration20261206030000_invoice_share_template', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261206030000_invoice_share_template.js')).Migration20261206030000_invoice_share_template },
  ],
  useCases: ({ deps, paging, clock, config, payments }) => ({
    createInvoice: createInvoice(deps),
    updateInvoice: updateInvoice(deps),
    deleteInvoice: deleteInvoice(deps),
    sendInvoice: sendInvoice(deps),
    cancelInvoice: cancelInvoice(deps),
    convertProforma: convertProforma(deps),
    recordInvoicePayment: recordInvoicePayment(deps),
    getInvoice: getInvoice(deps),
    listInvoices: listInvoices(deps),
    paging,
    clock,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    // the customer's side (docs/adr/0075, 0076)
    viewPublicInvoice: viewPublicInvoice(deps),
    invoiceDocument: invoiceDocument(deps),
    startInvoiceCheckout: startInvoiceCheckout({ ...deps, gateway: payments.gateway }),
    verifyInvoicePayment: verifyInvoicePayment({ ...deps, ...payments }),
    shareInvoice: shareInvoice({ ...deps, shareUrl: (token: string) => shareUrl(config.PUBLIC_BASE_URL, token) }),
    renderInvoicePage,
    renderInvoicePdf,
  }),
  routes: (uc) => [...invoiceRoutes(uc), ...invoicePageRoutes(uc)],
  // reminders to customers: the day before the due date, the first day overdue (docs/adr/0077)
  periodicTasks: (d, retry) => [{ name: 'invoice-reminders', run: async (minute) => void (await runInvoiceReminders(d)(minute)), ...retry }],
});
