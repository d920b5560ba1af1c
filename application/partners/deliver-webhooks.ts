import type { DomainEvent, EventType } from '../../domain/events.js';
import { kobo, markedNaira, writeMoneyJson } from '../../domain/money.js';
import { tendersOf } from '../../domain/sale.js';
import { afterAttempt, RETRY_FOR_MS, retryDelayMs, type WebhookDelivery, type WebhookEndpoint, type WebhookEvent } from '../../domain/webhook.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { WebhookPoster, WebhookSigner } from '../ports/webhooks.js';
import type { PartnerRepositories } from './ports.js';
import type { NewDelivery, WebhookRepositories } from './webhook-ports.js';

// Webhook delivery (docs/adr/0033, 0043): the transaction that records an event makes its delivery per
// endpoint of the merchant's partner at that moment; deliveries are then attempted one at a time per
// endpoint, in the order they were made, signed, retried with exponential backoff for 72 h. No network
// call is made inside a transaction.

export interface WebhookDeliveryDeps {
  readonly uow: UnitOfWork<WebhookRepositories & Pick<PartnerRepositories, 'partnerNetwork'> & Pick<BusinessRepositories, 'businesses'>>;
  readonly clock: Clock;
  readonly crypto: Crypto;
  readonly signer: WebhookSigner;
  readonly poster: WebhookPoster;
  /** How long a claimed delivery is kept from other workers: longer than one attempt (the POST's timeout), so a crashed worker's claim soon lapses. */
  readonly leaseMs: number;
  /** Told of each attempt (the log line, with the trace it belongs to). */
  readonly attempted?: (a: { readonly delivery: WebhookDelivery; readonly status: number | null; readonly error: string | null }) => void;
}

/** The webhook event of a domain event, and the business it is about. */
const WEBHOOK_OF: Partial<Record<EventType, WebhookEvent>> = {
  MerchantJoinedNetwork: 'merchant.joined',
  MerchantLeftNetwork: 'merchant.left',
  SaleRecorded: 'sale.created',
  SaleVoided: 'sale.voided',
  ReturnRecorded: 'sale.returned',
  CreditPaymentRecorded: 'credit.payment_received',
  LoanPackPaid: 'loan_pack.paid',
  InvoiceSent: 'invoice.sent',
  // only the payment that clears the balance: dataOf answers nothing for a part-payment
  InvoicePaymentRecorded: 'invoice.paid',
};

const naira = (k: number) => markedNaira(kobo(k));

/** What the partner is told: ids, amounts in naira and times; never a customer, a product or a person. */
const dataOf = (e: DomainEvent, merchantName: string, at: string): Record<string, unknown> | undefined => {
  const merchant = { merchant_id: e.businessId, merchant_name: merchantName };
  switch (e._tag) {
    case 'MerchantJoinedNetwork':
      return { ...merchant, joined_at: e.joinedAt };
    case 'MerchantLeftNetwork':
      return { ...merchant, left_at: e.leftAt };
    case 'SaleRecorded':
      return { ...merchant, sale_id: e.saleId, receipt_number: e.receiptNumber, total: naira(e.total), amount_paid: naira(e.amountPaid), payment_method: e.paymentMethod, payments: (e.payments ?? tendersOf(e.paymentMethod, e.total, e.amountPaid)).map((t) => ({ method: t.method, amount: naira(t.amount) })), created_at: at };
    case 'SaleVoided':
      return { ...merchant, sale_id: e.saleId, receipt_number: e.receiptNumber, refund_amount: naira(e.refundAmount), voided_at: at };
    case 'ReturnRecorded':
      return {
        ...merchant, return_id: e.returnId, return_number: e.returnNumber, sale_id: e.saleId, receipt_number: e.receiptNumber, amount: naira(e.amount),
        debt_reduced: naira(e.debtReduced), refund_amount: naira(e.refundAmount), refund_method: e.refundMethod, restocked: e.restock, returned_at: at,
      };
    case 'CreditPaymentRecorded':
      return { ...merchant, payment_id: e.entryId, amount: naira(e.amount), payment_method: e.method, received_at: at };
    case 'LoanPackPaid':
      return { ...merchant, reference: e.reference, amount: naira(e.amount), paid_at: e.paidAt };
    case 'InvoiceSent':
      return { ...merchant, invoice_id: e.invoiceId, invoice_number: e.number, type: e.type, total: naira(e.total), vat_total: naira(e.vatTotal), issue_date: e.issueDate, due_date: e.dueDate, sent_at: at };
    case 'InvoicePaymentRecorded':
      if (e.status !== 'PAID') return undefined;
      return { ...merchant, invoice_id: e.invoiceId, invoice_number: e.number, total: naira(e.total), amount_paid: naira(e.amountPaid), last_payment: { payment_id: e.paymentId, amount: naira(e.amount), method: e.method, paid_at: e.paidAt }, paid_at: at };
    default:
      return undefined;
  }
};

export const webhookBody = (messageId: string, type: string, at: Date, partnerId: string, data: Record<string, unknown>) =>
  writeMoneyJson({ id: messageId, type, timestamp: at.toISOString(), partner_id: partnerId, data });

/** How many deliveries one pass attempts at most (one per endpoint). */
const BATCH = 20;

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 300);

/**
 * Attempts the due deliveries (of `endpointIds` only, when given); answers how many were attempted.
 * Each pass takes the head of each endpoint's queue; `maxPasses` bounds the work of a job or a request
 * (the workers' loop does the rest), so a long backlog never outlasts a job's expiry.
 */
export const deliverDueWebhooks =
  (deps: WebhookDeliveryDeps) =>
  async (endpointIds?: readonly string[], maxPasses = Number.POSITIVE_INFINITY): Promise<number> => {
    let total = 0;
    for (let pass = 0; pass < maxPasses; pass++) {
      const now = deps.clock.now();
      const claimed = await deps.uow.run((r) => r.webhookDeliveries.claimDue(now, new Date(now.getTime() + deps.leaseMs), BATCH, endpointIds));
      await Promise.all(claimed.map((d) => attempt(deps, d)));
      total += claimed.length;
      // the heads just delivered may have successors due now: go on until nothing is due
      if (claimed.length === 0) return total;
    }
    return total;
  };

/** Passes a job or a request makes at once: each is at most one POST per endpoint (WEBHOOK_TIMEOUT_MS). */
export const PASSES_AT_ONCE = 3;

const attempt = async (deps: WebhookDeliveryDeps, d: WebhookDelivery): Promise<void> => {
  const endpoint = await deps.uow.read((r) => r.webhookEndpoints.findById(d.partnerId, d.endpointId));
  if (!endpoint) return; // deleted meanwhile: its deliveries went with it
  const at = deps.clock.now();
  const signatures = [deps.signer.sign(endpoint.secret, d.messageId, at, d.payload)];
  if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > at) signatures.push(deps.signer.sign(endpoint.previousSecret, d.messageId, at, d.payload));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'BizOps-Webhooks/1',
    'webhook-id': d.messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    // the receiver's work joins the trace of the request that caused the event (docs/adr/0066)
    ...(d.traceparent ? { traceparent: d.traceparent } : {}),
  };
  const outcome = await deps.poster.post(endpoint.url, headers, d.payload).catch((e) => ({ status: null, durationMs: 0, error: describe(e) }));
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const error = ok ? null : (outcome.error ?? `the receiver answered ${outcome.status}`);
  deps.attempted?.({ delivery: d, status: outcome.status, error });
  const now = deps.clock.now();
  const attempts = d.attempts + 1;
  const retryAt = new Date(now.getTime() + retryDelayMs(attempts));
  const done: WebhookDelivery = {
    ...d,
    attempts,
    lastAttemptAt: at,
    responseCode: outcome.status,
    durationMs: outcome.durationMs,
    lastError: error,
    status: ok ? 'SUCCEEDED' : retryAt.getTime() - d.createdAt.getTime() > RETRY_FOR_MS ? 'FAILED' : 'PENDING',
    nextAttemptAt: ok ? null : retryAt,
  };
  await deps.uow.run(async (r) => {
    await r.webhookDeliveries.saveAttempt(done.status === 'PENDING' ? done : { ...done, nextAttemptAt: null });
    const current = await r.webhookEndpoints.findById(d.partnerId, d.endpointId);
    if (current) await r.webhookEndpoints.save({ ...afterAttempt(current, ok, error, now), updatedAt: current.updatedAt });
  });
};

/** A delivery of `body` to `endpoint`, due now. */
export const newDelivery = (
  deps: Pick<WebhookDeliveryDeps, 'crypto'>,
  endpoint: WebhookEndpoint,
  messageId: string,
  event: string,
  body: string,
  outboxId: string | null,
  at: Date,
  traceparent: string | null = null,
): NewDelivery => ({
  id: deps.crypto.uuid(), partnerId: endpoint.partnerId, endpointId: endpoint.id, messageId, event, payload: body, status: 'PENDING', attempts: 0,
  nextAttemptAt: at, lastAttemptAt: null, responseCode: null, durationMs: null, lastError: null, createdAt: at, outboxId, traceparent,
});

/** Repositories a transaction that records events hands to `recordWebhookDeliveries`. */
export type WebhookRecordingRepositories = WebhookRepositories & Pick<PartnerRepositories, 'partnerNetwork'> & Pick<BusinessRepositories, 'businesses'>;

/**
 * Decides who hears of just-recorded events, in the transaction that records them (issue 32): an event
 * about a merchant becomes a delivery to each endpoint, taking it, of the partner whose network holds
 * the merchant now, when it happens (`merchant.joined`/`merchant.left`: the partner named). A leave
 * committed later, before any dispatcher runs, takes nothing back; an event after the leave goes to no
 * one. The rows' sequence is the events' order, so each endpoint gets them in the order they happened.
 * Answers the endpoints given a delivery (to wake the loop after the commit).
 */
export const recordWebhookDeliveries =
  (deps: Pick<WebhookDeliveryDeps, 'crypto'>) =>
  async (r: WebhookRecordingRepositories, at: Date, events: readonly DomainEvent[], outboxIds: Promise<readonly string[]>, traceparent?: string): Promise<readonly string[]> => {
    const partnerOf = new Map<string, string | undefined>();
    const nameOf = new Map<string, string>();
    const endpointsOf = new Map<string, WebhookEndpoint[]>();
    const made: NewDelivery[] = [];
    for (const [i, event] of events.entries()) {
      const type = WEBHOOK_OF[event._tag];
      const businessId = event.businessId;
      if (!type || !businessId) continue;
      let partnerId: string | undefined;
      if (event._tag === 'MerchantJoinedNetwork' || event._tag === 'MerchantLeftNetwork') partnerId = event.partnerId;
      else {
        if (!partnerOf.has(businessId)) {
          const m = await r.partnerNetwork.membershipOf(businessId);
          partnerOf.set(businessId, m && m.joinedAt.getTime() <= at.getTime() ? m.partnerId : undefined);
        }
        partnerId = partnerOf.get(businessId);
      }
      if (!partnerId) continue;
      const key = `${partnerId} ${type}`;
      if (!endpointsOf.has(key)) endpointsOf.set(key, await r.webhookEndpoints.subscribed(partnerId, type));
      const subscribed = endpointsOf.get(key)!;
      if (subscribed.length === 0) continue;
      if (!nameOf.has(businessId)) nameOf.set(businessId, (await r.businesses.findById(businessId))?.name ?? '');
      const data = dataOf(event, nameOf.get(businessId)!, at.toISOString());
      if (!data) continue;
      const id = (await outboxIds)[i]!; // a merchant outside every network never waits for the outbox write
      const messageId = `msg_${id}`;
      const body = webhookBody(messageId, type, at, partnerId, data);
      made.push(...subscribed.map((e) => newDelivery(deps, e, messageId, type, body, id, at, traceparent ?? null)));
    }
    if (made.length === 0) return [];
    await r.webhookDeliveries.add(made);
    return [...new Set(made.map((d) => d.endpointId))];
  };
