import type { NoPaymentDue, PayerEmailRequired, PaymentAmountMismatch, PaymentGatewayUnavailable, WebhookSignatureInvalid } from '../../../application/loan-packs/pay-loan-pack.js';
import type { LoanPackPaymentRequired } from '../../../domain/plan.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { nairaText as plainNaira } from '../json-values.js';
import { errorCodes } from '../problem.js';

const { codes, problem } = errorCodes({
  LOAN_PACK_PAYMENT_REQUIRED: 402,
  NO_PAYMENT_DUE: 409,
  PAYER_EMAIL_REQUIRED: 422,
  PAYMENT_AMOUNT_MISMATCH: 422,
  PAYMENT_GATEWAY_UNAVAILABLE: 503,
});

/** The failures of loan packs and their payment (docs/adr/0031). */
export type LoanPackFailure = LoanPackPaymentRequired | NoPaymentDue | PayerEmailRequired | PaymentGatewayUnavailable | PaymentAmountMismatch | WebhookSignatureInvalid;

const nairaText = (kobo: number) => `₦${plainNaira(kobo)}`;

export const LOAN_PACK_FAILURES = moduleFailures<LoanPackFailure>()(codes, {
  LoanPackPaymentRequired: failure(['LOAN_PACK_PAYMENT_REQUIRED'], (f) =>
    problem(
      'LOAN_PACK_PAYMENT_REQUIRED',
      `Loan pack ${f.reference} is not paid yet: on the ${f.plan} plan each pack costs ${nairaText(f.price)}. Pay through POST /reports/loan-pack/${f.reference}/checkout, ` +
        'then POST /reports/loan-pack/payment/verify; packs come with the BUSINESS and PRO plans.',
    ),
  ),
  NoPaymentDue: failure(['NO_PAYMENT_DUE'], (f) =>
    problem('NO_PAYMENT_DUE', f.status === 'READY' ? 'This loan pack is ready: nothing is due (paid already, or included in the plan it was made on).' : 'This loan pack has nothing to pay.'),
  ),
  PayerEmailRequired: failure(['PAYER_EMAIL_REQUIRED'], () =>
    problem('PAYER_EMAIL_REQUIRED', 'The payment gateway needs an e-mail for its receipt, and neither your account nor the business has one: send email.', {
      errors: [{ field: 'email', message: 'is required when neither the owner nor the business has an e-mail' }],
    }),
  ),
  PaymentGatewayUnavailable: failure(['PAYMENT_GATEWAY_UNAVAILABLE'], (f) =>
    problem('PAYMENT_GATEWAY_UNAVAILABLE', `The payment gateway (${f.gateway}) is not answering; nothing was charged by this call. Try again shortly.`, { headers: { 'Retry-After': '30' } }),
  ),
  PaymentAmountMismatch: failure(['PAYMENT_AMOUNT_MISMATCH'], (f) =>
    problem(
      'PAYMENT_AMOUNT_MISMATCH',
      `The gateway reports a payment of ${f.paid} kobo in ${f.currency} where ${nairaText(f.expected)} in NGN was due; it was not accepted and has been logged for the operator.`,
    ),
  ),
  WebhookSignatureInvalid: failure(['WEBHOOK_SIGNATURE_INVALID'], () => problem('WEBHOOK_SIGNATURE_INVALID', 'The webhook signature does not match this body; nothing was changed.')),
});
