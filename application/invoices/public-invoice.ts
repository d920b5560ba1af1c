import * as E from 'fp-ts/lib/Either.js';
import type { Business } from '../../domain/business.js';
import { balanceDue, decidePayment, type Invoice } from '../../domain/invoice.js';
import { formatNaira, kobo } from '../../domain/money.js';
import type { NotificationChannel } from '../../domain/notification.js';
import type { DailyLimitExceeded } from '../../domain/plan.js';
import type { Actor } from '../../domain/roles.js';
import { textDay } from '../../domain/message-format.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import { GatewayUnavailable, type Checkout, type GatewayTransaction, type PaymentAudit, type PaymentGateway } from '../loan-packs/ports.js';
import type { PaymentGatewayUnavailable } from '../loan-packs/pay-loan-pack.js';
import type { NotificationRepositories } from '../notifications/ports.js';
import { countDailyMessage, queueNotification } from '../notifications/send-notification.js';
import type { InvoiceRepositories } from './ports.js';

// The customer's side of an invoice (docs/adr/0075): the share page, "Pay now" through the payment
// gateway, and sending the share link through the notification queue (docs/adr/0076).

type Repos = InvoiceRepositories & Pick<BusinessRepositories, 'businesses'> & Pick<CustomerRepositories, 'customers'>;

export interface PublicInvoice {
  readonly invoice: Invoice;
  readonly business: Business;
}

/** What a share link shows: a sent (or paid) invoice; an unknown token, a draft or a cancelled invoice is not found. */
const shown = (i: Invoice | undefined): i is Invoice => i !== undefined && i.status !== 'DRAFT' && i.status !== 'CANCELLED';

export const viewPublicInvoice =
  (deps: { uow: UnitOfWork<Repos> }) =>
  async (token: string): Promise<E.Either<NotFound, PublicInvoice>> => {
    const found = await deps.uow.read(async (r) => {
      const invoice = await r.invoices.findByToken(token);
      if (!shown(invoice)) return undefined;
      const business = await r.businesses.findById(invoice.businessId);
      return business ? { invoice, business } : undefined;
    });
    return found ? E.right(found) : E.left(notFound);
  };

/**
 * A gateway reference of an online payment on an invoice: `IVP-`, the invoice's and its business's ids
 * (hex), and 8 random characters: the gateway's reports name no business, the reference does (it is ours).
 */
const REFERENCE = /^IVP-([0-9a-f]{32})([0-9a-f]{32})-[0-9A-Za-z]{8}$/;
const uuidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
const invoiceOf = (reference: string): { id: string; businessId: string } | undefined => {
  const m = REFERENCE.exec(reference);
  return m ? { id: uuidOf(m[1]!), businessId: uuidOf(m[2]!) } : undefined;
};
export const isInvoicePaymentReference = (reference: string) => REFERENCE.test(reference);


type PayDeps = { uow: UnitOfWork<Repos & EventRepositories>; clock: Clock; crypto: Crypto; gateway: PaymentGateway; audit: PaymentAudit };

/**
 * "Pay now": a gateway checkout for the invoice's whole balance, under a new reference each time (the
 * balance may have changed since the last one). The payer's e-mail is the customer's, else the business's.
 */
export const startInvoiceCheckout =
  (deps: Omit<PayDeps, 'audit'>) =>
  async (token: string, callbackUrl: string): Promise<E.Either<NotFound | PaymentGatewayUnavailable, Checkout | 'nothing_to_pay'>> => {
    const found = await deps.uow.read(async (r) => {
      const invoice = await r.invoices.findByToken(token);
      if (!shown(invoice)) return undefined;
      const customer = await r.customers.findById(invoice.businessId, invoice.customerId);
      const business = await r.businesses.findById(invoice.businessId);
      return { invoice, email: customer?.email ?? business?.email ?? null };
    });
    if (!found) return E.left(notFound);
    const { invoice, email } = found;
    if (invoice.type === 'PROFORMA' || balanceDue(invoice) <= 0) return E.right('nothing_to_pay'); // paid meanwhile: the page says so
    const reference = `IVP-${invoice.id.replaceAll('-', '')}${invoice.businessId.replaceAll('-', '')}-${deps.crypto.randomString(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}`;
    try {
      // a payer with no e-mail on file: the gateway needs one for its receipt; a no-reply address of the business stands in
      const checkout = await deps.gateway.initialize({ amount: balanceDue(invoice), email: email ?? `invoice-${invoice.id}@payments.invalid`, reference, callbackUrl });
      return E.right(checkout);
    } catch (e) {
      if (e instanceof GatewayUnavailable) return E.left({ _tag: 'PaymentGatewayUnavailable', gateway: deps.gateway.name });
      throw e;
    }
  };

export type InvoiceSettlement = 'paid' | 'already' | 'unpaid' | 'refused' | 'ignored';

/**
 * Records a gateway's confirmed transaction as an ONLINE payment on its invoice, exactly once: the
 * invoice's row is locked and a payment with the same reference already there means it was recorded
 * (by the verify or the webhook, whichever came first). A success that is not NGN, or more than the
 * balance left (someone recorded a transfer meanwhile), is refused and written to the audit log.
 */
export const settleInvoicePayment =
  (deps: PayDeps) =>
  async (reference: string, tx: GatewayTransaction, source: 'verify' | 'webhook'): Promise<InvoiceSettlement> => {
    const named = invoiceOf(reference);
    if (!named) return 'ignored';
    const { id, businessId } = named;
    if (tx.status !== 'success') return 'unpaid';
    const outcome = await deps.uow.run(async (r) => {
      const found = await r.invoices.findById(businessId, id, { forUpdate: true });
      if (!found) return 'ignored' as const;
      if (found.payments.some((p) => p.method === 'ONLINE' && p.reference === reference)) return 'already' as const;
      const decided = decidePayment(found, kobo(tx.amount));
      if (tx.currency !== 'NGN' || !Number.isSafeInteger(tx.amount) || tx.amount <= 0 || !decided.ok) return rollback('refused' as const);
      const now = deps.clock.now();
      const payment = { id: deps.crypto.uuid(), amount: kobo(tx.amount), method: 'ONLINE' as const, paidAt: tx.paidAt ?? now, reference, createdBy: null, createdAt: now };
      await r.invoices.addPayment(found.businessId, id, payment);
      await r.invoices.save({ ...found, status: decided.status, amountPaid: kobo(found.amountPaid + tx.amount), payments: [...found.payments, payment], updatedAt: now });
      return 'paid' as const;
    });
    const fields = { reference, invoice_id: id, gateway: deps.gateway.name, amount: tx.amount, currency: tx.currency, source };
    if (outcome === 'paid') deps.audit.info(fields, 'invoice paid online');
    if (outcome === 'refused') deps.audit.warn(fields, 'invoice payment refused: wrong currency or more than the balance');
    return outcome;
  };

/** The payer is back from the gateway on the invoice's page: asks it about `reference` and records the payment if it succeeded. */
export const verifyInvoicePayment =
  (deps: PayDeps) =>
  async (token: string, reference: string): Promise<InvoiceSettlement> => {
    const invoice = await deps.uow.read((r) => r.invoices.findByToken(token));
    if (!shown(invoice) || invoiceOf(reference)?.id !== invoice.id) return 'ignored';
    try {
      return await settleInvoicePayment(deps)(reference, await deps.gateway.verify(reference), 'verify');
    } catch (e) {
      if (e instanceof GatewayUnavailable) return 'unpaid'; // the webhook will still tell us; the page shows the balance as it is
      throw e;
    }
  };

export type InvoiceNotShareable = { readonly _tag: 'InvoiceNotShareable'; readonly status: Invoice['status'] };
export type CustomerHasNoContact = { readonly _tag: 'CustomerHasNoContact'; readonly channel: NotificationChannel };

/** How long a second share of the same invoice on the same channel is taken as a repeat (docs/adr/0076). */
export const SHARE_WINDOW_MS = 10 * 60_000;

/**
 * Queues the share link to the invoice's customer (their phone for SMS and WhatsApp, their e-mail for
 * EMAIL). Safe to repeat: the notification's dedupe key is the invoice, channel and 10-minute window, so
 * a repeat within the window queues nothing and answers `queued: false` (docs/adr/0076).
 */
export const shareInvoice =
  (deps: { uow: UnitOfWork<Repos & NotificationRepositories & EventRepositories>; clock: Clock; crypto: Crypto; shareUrl: (token: string) => string }) =>
  (actor: Actor, id: string, channel: NotificationChannel): Promise<E.Either<NotFound | InvoiceNotShareable | CustomerHasNoContact | DailyLimitExceeded, { queued: boolean; to: string; url: string }>> =>
    deps.uow.run(async (r) => {
      const invoice = await r.invoices.findById(actor.businessId, id);
      if (!invoice) return E.left(notFound);
      if (invoice.status === 'DRAFT' || invoice.status === 'CANCELLED') return E.left({ _tag: 'InvoiceNotShareable', status: invoice.status });
      const customer = await r.customers.findById(actor.businessId, invoice.customerId);
      const to = channel === 'EMAIL' ? customer?.email : customer?.phone;
      if (!to) return E.left({ _tag: 'CustomerHasNoContact', channel });
      const business = await r.businesses.findById(actor.businessId);
      if (!business) throw new Error(`business ${actor.businessId} vanished`);
      const now = deps.clock.now();
      const window = Math.floor(now.getTime() / SHARE_WINDOW_MS);
      const dedupe = deps.crypto.sha256Hex(`invoice-share:${invoice.id}:${channel}:${window}`);
      const sourceEventId = `${dedupe.slice(0, 8)}-${dedupe.slice(8, 12)}-4${dedupe.slice(13, 16)}-8${dedupe.slice(17, 20)}-${dedupe.slice(20, 32)}`;
      const capped = await countDailyMessage(r, business, 'MESSAGES', now);
      if (capped) return rollback(E.left(capped));
      const what = invoice.type === 'PROFORMA' ? 'Proforma' : invoice.type === 'TAX_INVOICE' ? 'Tax invoice' : 'Invoice';
      const message = `${what} ${invoice.number} for ${formatNaira(invoice.total)}, due ${textDay(invoice.dueDate)}: ${deps.shareUrl(invoice.shareToken)}`;
      const queued = await queueNotification(r, now, {
        id: deps.crypto.uuid(), businessId: actor.businessId, channel, to, template: 'INVOICE_SHARE', customerId: invoice.customerId, message, createdBy: actor.userId, sourceEventId,
      });
      // a repeat within the window queues nothing: its count of the daily cap is given back too
      const url = deps.shareUrl(invoice.shareToken);
      if (!queued) return rollback(E.right({ queued: false, to, url }));
      return E.right({ queued: true, to, url });
    });

/** An invoice of the actor's business with the business (its PDF): any status, a draft too. */
export const invoiceDocument =
  (deps: { uow: UnitOfWork<Repos> }) =>
  async (actor: Pick<Actor, 'businessId'>, id: string): Promise<E.Either<NotFound, PublicInvoice>> => {
    const found = await deps.uow.read(async (r) => {
      const invoice = await r.invoices.findById(actor.businessId, id);
      const business = invoice ? await r.businesses.findById(actor.businessId) : undefined;
      return invoice && business ? { invoice, business } : undefined;
    });
    return found ? E.right(found) : E.left(notFound);
  };
