import * as E from 'fp-ts/lib/Either.js';
import { checkPayment, type AmountNotPositive } from '../../domain/amount-rules.js';
import { decidePayment, type AmountExceedsBalance, type Invoice, type InvoiceNotPayable, type InvoicePaymentMethod } from '../../domain/invoice.js';
import { invoicePaymentRecorded } from '../../domain/events.js';
import { kobo, type Kobo } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { InvoiceRepositories } from './ports.js';
import { invoiceCredit } from './invoice-credit.js';

export type { AmountExceedsBalance, InvoiceNotPayable } from '../../domain/invoice.js';

export interface InvoicePaymentCommand {
  readonly amount: Kobo;
  readonly method: InvoicePaymentMethod;
  readonly paidAt?: Date;
  readonly reference?: string | null;
}

export type PaymentFailure = NotFound | AmountNotPositive | InvoiceNotPayable | AmountExceedsBalance;

/**
 * Records a payment: SENT -> PARTIALLY_PAID -> PAID. The invoice's row is locked before the balance is read,
 * so of two payments that together would overpay the second sees the first's and is 422 AMOUNT_EXCEEDS_BALANCE.
 */
export const recordInvoicePayment =
  (deps: { uow: UnitOfWork<InvoiceRepositories & CustomerRepositories & EventRepositories>; clock: Clock; crypto: Crypto }) =>
  async (actor: Pick<Actor, 'businessId'> & { userId: string | null }, id: string, cmd: InvoicePaymentCommand): Promise<E.Either<PaymentFailure, Invoice>> => {
    const broken = checkPayment('amount', cmd.amount);
    if (broken) return E.left(broken);
    return deps.uow.run(async (r) => {
      const found = await r.invoices.findById(actor.businessId, id, { forUpdate: true });
      if (!found) return E.left(notFound);
      const decided = decidePayment(found, cmd.amount);
      if (!decided.ok) return E.left(decided.failure);
      const now = deps.clock.now();
      const payment = { id: deps.crypto.uuid(), amount: cmd.amount, method: cmd.method, paidAt: cmd.paidAt ?? now, reference: cmd.reference ?? null, createdBy: actor.userId, createdAt: now };
      await r.invoices.addPayment(actor.businessId, id, payment);
      const invoice: Invoice = { ...found, status: decided.status, amountPaid: kobo(found.amountPaid + cmd.amount), payments: [...found.payments, payment], updatedAt: now };
      await r.invoices.save(invoice);
      // it settles this invoice's debt in the customer's ledger, not their oldest sale (docs/adr/0073)
      const customer = await r.customers.findById(actor.businessId, found.customerId, { forUpdate: true });
      if (customer) await invoiceCredit(deps, r, { businessId: actor.businessId, userId: actor.userId ?? found.createdBy }, customer, invoice, 'INVOICE_PAYMENT', kobo(-cmd.amount), cmd.method);
      await r.events.record(now, invoicePaymentRecorded(invoice, payment));
      return E.right(invoice);
    });
  };
