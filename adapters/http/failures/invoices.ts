import type { AmountExceedsBalance, InvoiceAmountsInvalid, InvoiceHasPayments, InvoiceNotDraft, InvoiceNotPayable, InvoiceWrongState, UnknownInvoiceCustomer, UnknownInvoiceProduct, VatNotRegistered } from '../../../domain/invoice.js';
import type { CustomerHasNoContact, InvoiceNotShareable } from '../../../application/invoices/public-invoice.js';
import { failure, moduleFailures } from '../failure-codes.js';
import { nairaText } from '../json-values.js';
import { errorCodes, Problem } from '../problem.js';

const { codes, problem } = errorCodes({
  INVOICE_NOT_DRAFT: 409,
  INVOICE_NOT_PAYABLE: 409,
  INVOICE_HAS_PAYMENTS: 409,
  INVOICE_WRONG_STATE: 409,
  AMOUNT_EXCEEDS_BALANCE: 422,
  VAT_NOT_REGISTERED: 422,
  INVOICE_LINE_INVALID: 422,
  INVOICE_NOT_SHAREABLE: 409,
  CUSTOMER_HAS_NO_CONTACT: 422,
});

/** The sales module's codes an invoice answers too: one code per idea (docs/adr/0046). */
const shared = <C extends 'UNKNOWN_PRODUCT' | 'UNKNOWN_CUSTOMER'>(code: C, detail: string, errors: { field: string; message: string }[]): Problem<C> => new Problem(code, 422, detail, { errors });

/** The failures of the invoices module (docs/adr/0072); it also answers shared ones (NotFound, InsufficientStock, the amount rules, UnknownBranch, WrongBranch). */
export type InvoiceModuleFailure =
  | InvoiceNotDraft
  | InvoiceNotPayable
  | InvoiceHasPayments
  | InvoiceWrongState
  | AmountExceedsBalance
  | VatNotRegistered
  | InvoiceAmountsInvalid
  | UnknownInvoiceProduct
  | UnknownInvoiceCustomer
  | InvoiceNotShareable
  | CustomerHasNoContact;

export const INVOICE_FAILURES = moduleFailures<InvoiceModuleFailure>()(codes, {
  InvoiceNotDraft: failure(['INVOICE_NOT_DRAFT'], (f) => problem('INVOICE_NOT_DRAFT', `The invoice is ${f.status}: only a DRAFT can be changed, deleted or sent (cancel a sent invoice instead).`)),
  InvoiceNotPayable: failure(['INVOICE_NOT_PAYABLE'], (f) =>
    problem('INVOICE_NOT_PAYABLE', f.type === 'PROFORMA' ? 'A proforma takes no payments: convert it to an invoice (POST /invoices/{id}/convert).' : `The invoice is ${f.status}: only a SENT or PARTIALLY_PAID invoice takes payments.`),
  ),
  InvoiceHasPayments: failure(['INVOICE_HAS_PAYMENTS'], (f) => problem('INVOICE_HAS_PAYMENTS', `The invoice has payments of ${nairaText(f.amountPaid)}: an invoice with payments cannot be cancelled.`)),
  InvoiceWrongState: failure(['INVOICE_WRONG_STATE'], (f) => problem('INVOICE_WRONG_STATE', `This needs ${f.wanted}; the ${f.type} is ${f.status}.`)),
  AmountExceedsBalance: failure(['AMOUNT_EXCEEDS_BALANCE'], (f) =>
    problem('AMOUNT_EXCEEDS_BALANCE', `The invoice's balance is ${nairaText(f.balance)}: a payment of ${nairaText(f.amount)} is more than it.`, {
      errors: [{ field: 'amount', message: `at most ${nairaText(f.balance)}` }],
    }),
  ),
  VatNotRegistered: failure(['VAT_NOT_REGISTERED'], () =>
    problem('VAT_NOT_REGISTERED', 'A tax invoice needs the business to be VAT-registered with a TIN (PUT /businesses/me: vat_registered, tin).', {
      errors: [{ field: 'type', message: 'TAX_INVOICE needs VAT registration and a TIN' }],
    }),
  ),
  InvoiceAmountsInvalid: failure(['INVOICE_LINE_INVALID'], (f) => problem('INVOICE_LINE_INVALID', `${f.field} ${f.message}.`, { errors: [{ field: f.field, message: f.message }] })),
  UnknownInvoiceProduct: failure(['UNKNOWN_PRODUCT'], (f) =>
    shared('UNKNOWN_PRODUCT', 'Some lines name no product of this business.', f.indexes.map((i) => ({ field: `lines.${i}.product_id`, message: 'is not a product of this business' }))),
  ),
  InvoiceNotShareable: failure(['INVOICE_NOT_SHAREABLE'], (f) => problem('INVOICE_NOT_SHAREABLE', `The invoice is ${f.status}: only a sent invoice has a page to share (send the draft first).`)),
  CustomerHasNoContact: failure(['CUSTOMER_HAS_NO_CONTACT'], (f) =>
    problem('CUSTOMER_HAS_NO_CONTACT', `The invoice's customer has no ${f.channel === 'EMAIL' ? 'e-mail' : 'phone number'} to send it to: add one (PUT /customers/{id}) or pick another channel.`, {
      errors: [{ field: 'channel', message: `the customer has no ${f.channel === 'EMAIL' ? 'e-mail' : 'phone'}` }],
    }),
  ),
  UnknownInvoiceCustomer: failure(['UNKNOWN_CUSTOMER'], () =>
    shared('UNKNOWN_CUSTOMER', 'customer_id names no customer of this business.', [{ field: 'customer_id', message: 'is not a customer of this business' }]),
  ),
});
