import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { AuthRepositories } from '../auth/ports.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import {
  GatewayUnavailable, type Checkout, type GatewayTransaction, type LoanPack, type LoanPackRepositories, type PaymentAudit, type PaymentGateway, type PaymentWebhook,
} from './ports.js';

export type NoPaymentDue = { readonly _tag: 'NoPaymentDue'; readonly status: LoanPack['status'] };
export type PayerEmailRequired = { readonly _tag: 'PayerEmailRequired' };
export type PaymentGatewayUnavailable = { readonly _tag: 'PaymentGatewayUnavailable'; readonly gateway: string };
export type PaymentAmountMismatch = { readonly _tag: 'PaymentAmountMismatch'; readonly expected: number; readonly paid: number; readonly currency: string };

type PayDeps = { uow: UnitOfWork<LoanPackRepositories & EventRepositories>; clock: Clock; crypto: Crypto; gateway: PaymentGateway; audit: PaymentAudit };

/** Asks the gateway; an unreachable gateway is a failure the payer may retry, not a fault. */
const askGateway = async <A>(gateway: PaymentGateway, call: () => Promise<A>): Promise<E.Either<PaymentGatewayUnavailable, A>> => {
  try {
    return E.right(await call());
  } catch (e) {
    if (e instanceof GatewayUnavailable) return E.left({ _tag: 'PaymentGatewayUnavailable', gateway: gateway.name });
    throw e;
  }
};

export interface CheckoutCommand {
  /** The payer's e-mail (the gateway sends its receipt there); default the owner's, then the business's. */
  readonly email?: string;
  /** Where the gateway sends the payer back, with the reference. */
  readonly callbackUrl?: string;
}

/**
 * Starts (or resumes) paying for a pack: one gateway transaction per pack, under the pack's reference,
 * so a payer who comes back gets the same checkout. A pack that needs no payment is refused.
 */
export const startLoanPackCheckout =
  (deps: Omit<PayDeps, 'uow' | 'audit'> & { uow: UnitOfWork<LoanPackRepositories & Pick<AuthRepositories, 'users'> & Pick<BusinessRepositories, 'businesses'>> }) =>
  async (
    actor: Actor,
    reference: string,
    cmd: CheckoutCommand,
  ): Promise<E.Either<NotFound | NoPaymentDue | PayerEmailRequired | PaymentGatewayUnavailable, { pack: LoanPack; checkout: Checkout }>> => {
    const found = await deps.uow.read(async (r) => {
      const pack = await r.loanPacks.findByReference(actor.businessId, reference);
      const email = cmd.email ?? (await r.users.findById(actor.userId))?.email ?? (await r.businesses.findById(actor.businessId))?.email ?? undefined;
      return { pack, email };
    });
    const { pack, email } = found;
    if (!pack) return E.left(notFound);
    if (pack.status !== 'PENDING_PAYMENT') return E.left({ _tag: 'NoPaymentDue', status: pack.status });
    if (pack.checkout) return E.right({ pack, checkout: pack.checkout });
    if (!email) return E.left({ _tag: 'PayerEmailRequired' });
    const started = await askGateway(deps.gateway, () => deps.gateway.initialize({ amount: pack.price, email, reference, callbackUrl: cmd.callbackUrl ?? null }));
    if (E.isLeft(started)) {
      // Two checkouts at once: the gateway refuses the second use of the reference; the first one's is kept by now.
      const kept = (await deps.uow.read((r) => r.loanPacks.findByReference(actor.businessId, reference)))?.checkout;
      return kept ? E.right({ pack: { ...pack, checkout: kept }, checkout: kept }) : started;
    }
    const checkout = await deps.uow.run((r) => r.loanPacks.saveCheckout(actor.businessId, reference, started.right));
    return E.right({ pack: { ...pack, checkout }, checkout });
  };

export type PaymentSettlement = 'paid' | 'already' | 'unpaid' | 'wrong_amount';

/**
 * What a gateway's report of a pack's transaction does: a success of the pack's price in NGN marks it
 * paid (once, whoever reports it first); a success of another amount or currency is refused and
 * written to the audit log; anything else leaves the pack waiting.
 */
const settle = async (deps: PayDeps, pack: LoanPack, tx: GatewayTransaction, source: 'verify' | 'webhook'): Promise<PaymentSettlement> => {
  if (tx.status !== 'success') return 'unpaid';
  if (tx.amount !== pack.price || tx.currency !== pack.currency) {
    deps.audit.warn(
      { reference: pack.reference, business_id: pack.businessId, gateway: deps.gateway.name, expected: pack.price, paid: tx.amount, currency: tx.currency, source },
      'loan pack payment refused: wrong amount or currency',
    );
    return 'wrong_amount';
  }
  const now = deps.clock.now();
  const outcome = await deps.uow.run(async (r) => {
    const paidAt = tx.paidAt ?? now;
    const o = await r.loanPacks.markPaid({
      id: deps.crypto.uuid(), businessId: pack.businessId, reference: pack.reference, gateway: deps.gateway.name,
      amount: pack.price, currency: tx.currency, paidAt, recordedAt: now, source,
    });
    // in the payment's transaction: a partner's loan_pack.paid webhook goes out once, exactly when it is recorded
    if (o === 'paid') await r.events.record(now, { _tag: 'LoanPackPaid', businessId: pack.businessId, reference: pack.reference, amount: pack.price, paidAt: paidAt.toISOString() });
    return o;
  });
  if (outcome === 'paid') deps.audit.info({ reference: pack.reference, business_id: pack.businessId, gateway: deps.gateway.name, amount: pack.price, source }, 'loan pack paid');
  return outcome;
};

/**
 * The payer is back from the gateway: asks it about the pack's transaction and settles the pack.
 * Answers the pack as it now is and the gateway's status.
 */
export const verifyLoanPackPayment =
  (deps: PayDeps) =>
  async (
    actor: Actor,
    reference: string,
  ): Promise<E.Either<NotFound | NoPaymentDue | PaymentGatewayUnavailable | PaymentAmountMismatch, { pack: LoanPack; gatewayStatus: GatewayTransaction['status'] }>> => {
    const pack = await deps.uow.read((r) => r.loanPacks.findByReference(actor.businessId, reference));
    if (!pack) return E.left(notFound);
    if (pack.price === 0) return E.left({ _tag: 'NoPaymentDue', status: pack.status });
    if (pack.status === 'READY') return E.right({ pack, gatewayStatus: 'success' });
    const tx = await askGateway(deps.gateway, () => deps.gateway.verify(reference));
    if (E.isLeft(tx)) return tx;
    const outcome = await settle(deps, pack, tx.right, 'verify');
    if (outcome === 'wrong_amount') return E.left({ _tag: 'PaymentAmountMismatch', expected: pack.price, paid: tx.right.amount, currency: tx.right.currency });
    const now = (await deps.uow.read((r) => r.loanPacks.findByReference(actor.businessId, reference)))!;
    return E.right({ pack: now, gatewayStatus: tx.right.status });
  };

/**
 * A gateway's webhook: refused unless its signature is authentic (nothing changes); a notice that a
 * transaction succeeded settles the pack of that reference. An unknown reference or another event is
 * acknowledged and ignored; a replay finds the pack paid and changes nothing.
 */
export type WebhookSignatureInvalid = { readonly _tag: 'WebhookSignatureInvalid' };

/** What a webhook did: a pack's settlement, another module's (an invoice refuses an overpayment: 'refused'), or nothing. */
export type WebhookOutcome = PaymentSettlement | 'refused' | 'ignored';

export const receivePaymentWebhook =
  (deps: PayDeps & { webhook: PaymentWebhook; otherPayments?: (reference: string, tx: GatewayTransaction) => Promise<WebhookOutcome | undefined> }) =>
  async (raw: Uint8Array, signature: string): Promise<E.Either<WebhookSignatureInvalid, WebhookOutcome>> => {
    const reading = deps.webhook.read(raw, signature);
    if (!reading.authentic) return E.left({ _tag: 'WebhookSignatureInvalid' });
    if (!reading.notice) return E.right('ignored');
    const { reference, transaction } = reading.notice;
    // another module's reference (an invoice's online payment, docs/adr/0075) is settled there
    const other = await deps.otherPayments?.(reference, transaction);
    if (other !== undefined) return E.right(other);
    const pack = await deps.uow.read((r) => r.loanPacks.findAnyByReference(reference));
    if (!pack || pack.price === 0) return E.right('ignored');
    if (pack.status === 'READY') return E.right('already');
    return E.right(await settle(deps, pack, transaction, 'webhook'));
  };
