import type { NoPaymentDue, PayerEmailRequired, PaymentAmountMismatch, PaymentGatewayUnavailable, WebhookSignatureInvalid } from '../../application/loan-packs/pay-loan-pack.js';
import type { LoanPackPaymentRequired } from '../../domain/plan.js';
import { nairaText as plainNaira } from './json-values.js';
import { problem, type Problem } from './problem.js';

/** The failures of loan packs and their payment (docs/adr/0031); part of failures.ts's one mapping. */
export type LoanPackFailure = LoanPackPaymentRequired | NoPaymentDue | PayerEmailRequired | PaymentGatewayUnavailable | PaymentAmountMismatch | WebhookSignatureInvalid;

const nairaText = (kobo: number) => `₦${plainNaira(kobo)}`;

export const LOAN_PACK_FAILURES: { readonly [K in LoanPackFailure['_tag']]: (f: Extract<LoanPackFailure, { _tag: K }>) => Problem } = {
  LoanPackPaymentRequired: (f) =>
    problem(
      'LOAN_PACK_PAYMENT_REQUIRED',
      `Loan pack ${f.reference} is not paid yet: on the ${f.plan} plan each pack costs ${nairaText(f.price)}. Pay through POST /reports/loan-pack/${f.reference}/checkout, ` +
        'then POST /reports/loan-pack/payment/verify; packs come with the BUSINESS and PRO plans.',
    ),
  NoPaymentDue: (f) =>
    problem('NO_PAYMENT_DUE', f.status === 'READY' ? 'This loan pack is ready: nothing is due (paid already, or included in the plan it was made on).' : 'This loan pack has nothing to pay.'),
  PayerEmailRequired: () =>
    problem('PAYER_EMAIL_REQUIRED', 'The payment gateway needs an e-mail for its receipt, and neither your account nor the business has one: send email.', {
      errors: [{ field: 'email', message: 'is required when neither the owner nor the business has an e-mail' }],
    }),
  PaymentGatewayUnavailable: (f) =>
    problem('PAYMENT_GATEWAY_UNAVAILABLE', `The payment gateway (${f.gateway}) is not answering; nothing was charged by this call. Try again shortly.`, { headers: { 'Retry-After': '30' } }),
  PaymentAmountMismatch: (f) =>
    problem(
      'PAYMENT_AMOUNT_MISMATCH',
      `The gateway reports a payment of ${f.paid} kobo in ${f.currency} where ${nairaText(f.expected)} in NGN was due; it was not accepted and has been logged for the operator.`,
    ),
  WebhookSignatureInvalid: () => problem('WEBHOOK_SIGNATURE_INVALID', 'The webhook signature does not match this body; nothing was changed.'),
};
