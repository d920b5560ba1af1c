import type { GatewayPaymentStatus, LoanPackMonths, LoanPackStatus } from '../../domain/loan-pack.js';
import type { Kobo } from '../../domain/money.js';
import type { Page, PageRequest } from '../ports/list.js';

// The loan-packs module's ports: the packs (frozen documents) and the payment gateway they are paid through.

/** Where a payer is sent to pay for a pack (one gateway transaction per pack, its reference the pack's). */
export interface Checkout {
  readonly authorizationUrl: string;
  readonly accessCode: string;
}

export interface LoanPack {
  readonly id: string;
  readonly businessId: string;
  /** `LP-YYYYMMDD-XXXXXX`, unique over every business. */
  readonly reference: string;
  readonly status: LoanPackStatus;
  readonly months: LoanPackMonths;
  /** Lagos days, both inclusive. */
  readonly periodStart: string;
  readonly periodEnd: string;
  /** What the pack costs; 0 on a plan that includes packs. */
  readonly price: Kobo;
  readonly currency: 'NGN';
  readonly purpose: string | null;
  readonly lenderName: string | null;
  /** The pack's content as canonical JSON (domain/loan-pack.ts): exactly the bytes the SHA-256 is of. */
  readonly document: string;
  /** SHA-256 of `document`, lowercase hex. */
  readonly sha256: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly paidAt: Date | null;
  readonly checkout: Checkout | null;
}

/** A payment that settled a pack: one per pack, whoever reported it first (verify or webhook). */
export interface LoanPackPayment {
  readonly id: string;
  readonly businessId: string;
  readonly reference: string;
  readonly gateway: string;
  readonly amount: Kobo;
  readonly currency: string;
  readonly paidAt: Date;
  readonly recordedAt: Date;
  /** How the payment was learnt: the payer's verify call or the gateway's webhook. */
  readonly source: 'verify' | 'webhook';
}

export interface LoanPackRepository {
  add(pack: LoanPack): Promise<'added' | 'duplicate_reference'>;
  findByReference(businessId: string, reference: string): Promise<LoanPack | undefined>;
  /** Any business's pack: only for the lender's public check (which needs the document's hash) and the gateway's webhook. */
  findAnyByReference(reference: string): Promise<LoanPack | undefined>;
  /** Newest first by default; sort created_at only. */
  list(businessId: string, page: PageRequest<'created_at'>): Promise<Page<LoanPack>>;
  /** Keeps the checkout of a pack that has none yet; answers the one kept (an earlier one wins). */
  saveCheckout(businessId: string, reference: string, checkout: Checkout): Promise<Checkout>;
  /**
   * PENDING_PAYMENT -> READY with paid_at, and the payment row, together: 'paid' for the one call that
   * made the change, 'already' for every other (the pack was READY, or another call won the race).
   */
  markPaid(payment: LoanPackPayment): Promise<'paid' | 'already'>;
  paymentOf(businessId: string, reference: string): Promise<LoanPackPayment | undefined>;
}

/** The loan-packs module's repositories, as a unit of work hands them to a use case. */
export interface LoanPackRepositories {
  readonly loanPacks: LoanPackRepository;
}

/** A transaction as the gateway reports it. */
export interface GatewayTransaction {
  readonly status: GatewayPaymentStatus;
  /** Kobo. */
  readonly amount: number;
  readonly currency: string;
  readonly paidAt: Date | null;
}

/** The gateway could not be reached or refused the call (5xx, timeout, bad key): the payer may try again. */
export class GatewayUnavailable extends Error {
  readonly _tag = 'GatewayUnavailable';
}

/** A card and transfer payment gateway (Paystack, or the sandbox that stands in for it). */
export interface PaymentGateway {
  /** The gateway's name, stored with each payment. */
  readonly name: string;
  initialize(input: { amount: Kobo; email: string; reference: string; callbackUrl: string | null }): Promise<Checkout>;
  /** The transaction of `reference`; a reference the gateway does not know is `abandoned` (nothing was paid). */
  verify(reference: string): Promise<GatewayTransaction>;
}

/** Where the application writes what an operator must see: each pack paid, and each payment refused (a wrong amount). */
export interface PaymentAudit {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** A gateway's notice of a transaction, read from its webhook: authentic or not, and what it says. */
export type WebhookReading =
  | { readonly authentic: false }
  | { readonly authentic: true; readonly notice?: { readonly reference: string; readonly transaction: GatewayTransaction } };

/** Checks and reads a gateway's webhook request (its raw body and signature header). */
export interface PaymentWebhook {
  read(raw: Uint8Array, signature: string): WebhookReading;
}
