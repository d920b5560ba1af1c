import { loanPackRoutes } from '../../adapters/http/routes/loan-packs.routes.js';
import { paymentRoutes } from '../../adapters/http/routes/payments.routes.js';
import { renderLoanPackPdf } from '../../adapters/loan-packs/pdf-loan-pack.js';
import { createLoanPack } from '../../application/loan-packs/create-loan-pack.js';
import { receivePaymentWebhook, startLoanPackCheckout, verifyLoanPackPayment } from '../../application/loan-packs/pay-loan-pack.js';
import { downloadLoanPack, getLoanPack, listLoanPacks, verifyLoanPackDocument } from '../../application/loan-packs/read-loan-packs.js';
import { kobo } from '../../domain/money.js';
import { isInvoicePaymentReference, settleInvoicePayment } from '../../application/invoices/public-invoice.js';
import { inMemoryLoanPacksModule } from '../../adapters/persistence/in-memory/loan-packs.in-memory.js';
import { sqlLoanPacksModule } from '../../adapters/persistence/sql/loan-packs.sql.js';
import { LOAN_PACK_FAILURES } from '../../adapters/http/failures/loan-packs.js';
import { defineModule, repositories } from './module.js';

/** Loan packs, their payment (Paystack or the sandbox) and the lender's verification. */
export const loanPacksModule = defineModule({
  name: 'loan-packs',
  folders: ['loan-packs'],
  repositories: [repositories(inMemoryLoanPacksModule, sqlLoanPacksModule)],
  failures: [LOAN_PACK_FAILURES],
  migrations: [{ name: 'Migration20261127200000_loan_packs', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127200000_loan_packs.js')).Migration20261127200000_loan_packs }],
  useCases: ({ deps, config, payments, paging, clock }) => ({
    createLoanPack: createLoanPack({ ...deps, loanPackPrice: kobo(config.LOAN_PACK_PRICE_NGN * 100) }),
    listLoanPacks: listLoanPacks(deps),
    getLoanPack: getLoanPack(deps),
    startLoanPackCheckout: startLoanPackCheckout({ ...deps, gateway: payments.gateway }),
    verifyLoanPackPayment: verifyLoanPackPayment({ ...deps, ...payments }),
    downloadLoanPack: downloadLoanPack(deps),
    verifyLoanPackDocument: verifyLoanPackDocument(deps),
    renderLoanPackPdf,
    loanPackVerifyUrl: (pack: { reference: string; sha256: string }) => `${config.PUBLIC_BASE_URL.replace(/\/+$/, '')}/api/v1/loan-packs/verify/${pack.reference}?hash=${pack.sha256}`,
    receivePaymentWebhook: receivePaymentWebhook({
      ...deps,
      ...payments,
      // an invoice's online payment (IVP- reference) is recorded on the invoice (docs/adr/0075)
      otherPayments: async (reference, tx) => (isInvoicePaymentReference(reference) ? settleInvoicePayment({ ...deps, ...payments })(reference, tx, 'webhook') : undefined),
    }),
    sandbox: payments.sandbox,
    clock,
    paging,
  }),
  routes: (uc) => [...loanPackRoutes(uc), ...paymentRoutes(uc)],
});
