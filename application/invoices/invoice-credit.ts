import type { Customer } from '../../domain/customer.js';
import type { Invoice, InvoicePaymentMethod } from '../../domain/invoice.js';
import type { Kobo } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import { recordCreditEntry } from '../customers/credit-entry.js';
import type { CustomerRepositories } from '../customers/ports.js';

/**
 * A sent invoice in its customer's credit ledger (docs/adr/0073): INVOICE adds its total, INVOICE_PAYMENT takes
 * a payment off, INVOICE_CANCEL takes the rest off; each entry is keyed to the invoice and notes its number.
 * The caller holds the customer's row lock (read with forUpdate) and the invoice's, in its transaction.
 */
export const invoiceCredit = (
  deps: { clock: Clock; crypto: Crypto },
  r: CustomerRepositories,
  actor: Pick<Actor, 'businessId' | 'userId'>,
  customer: Pick<Customer, 'id' | 'creditBalance'>,
  invoice: Pick<Invoice, 'id' | 'number'>,
  kind: 'INVOICE' | 'INVOICE_PAYMENT' | 'INVOICE_CANCEL',
  amount: Kobo | number,
  method: InvoicePaymentMethod | null = null,
) => recordCreditEntry(deps, r, actor, { customer, kind, amount, invoiceId: invoice.id, method, note: invoice.number });
