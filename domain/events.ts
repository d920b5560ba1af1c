import type { Role } from './roles.js';
import type { Identifier } from './identifier.js';
import { kobo, type Kobo } from './money.js';
import type { MovementReason, StockMovement } from './product.js';
import type { PaymentMethod, Sale } from './sale.js';
import type { CreditEntry, CreditPaymentMethod } from './credit.js';
import type { Customer } from './customer.js';
import type { RefundMethod, SaleReturn } from './sale-return.js';

/*
 * What happened, as subscribers (messages now; webhooks, offline sync, a job queue later) need it:
 * ids, amounts in kobo, times as ISO strings (events are stored as JSON and read back unchanged).
 * `businessId` is null only where no business is known (a sign-in code for a person).
 */

export interface SaleRecorded {
  readonly _tag: 'SaleRecorded';
  readonly businessId: string;
  readonly saleId: string;
  readonly receiptNumber: string;
  readonly branchId: string;
  readonly customerId: string | null;
  readonly paymentMethod: PaymentMethod;
  readonly total: Kobo;
  readonly amountPaid: Kobo;
  readonly balanceDue: Kobo;
  readonly lines: readonly { readonly productId: string; readonly quantity: number; readonly lineTotal: Kobo }[];
  readonly recordedBy: string;
}

export interface SaleVoided {
  readonly _tag: 'SaleVoided';
  readonly businessId: string;
  readonly saleId: string;
  readonly receiptNumber: string;
  readonly customerId: string | null;
  readonly refundAmount: Kobo;
  readonly voidedBy: string;
}

/** Goods of a sale came back (docs/adr/0058): what they were worth, what cleared the customer's debt, what was refunded and how. */
export interface ReturnRecorded {
  readonly _tag: 'ReturnRecorded';
  readonly businessId: string;
  readonly returnId: string;
  readonly returnNumber: string;
  readonly saleId: string;
  readonly receiptNumber: string;
  readonly branchId: string;
  readonly customerId: string | null;
  readonly amount: Kobo;
  readonly debtReduced: Kobo;
  readonly refundAmount: Kobo;
  readonly refundMethod: RefundMethod;
  readonly restock: boolean;
  readonly lines: readonly { readonly productId: string; readonly quantity: number; readonly amount: Kobo }[];
  readonly recordedBy: string;
}

/** One product's stock moved (one stock-ledger row). */
export interface StockChanged {
  readonly _tag: 'StockChanged';
  readonly businessId: string;
  readonly productId: string;
  readonly movementId: string;
  /** The branch whose stock moved (docs/adr/0032). */
  readonly branchId: string;
  readonly change: number;
  /** The product's total over its branches after the move: low-stock thresholds apply to it. */
  readonly quantityAfter: number;
  /** The branch's quantity after the move. */
  readonly branchQuantityAfter: number;
  readonly reason: MovementReason;
  readonly saleId: string | null;
}

export interface CreditPaymentRecorded {
  readonly _tag: 'CreditPaymentRecorded';
  readonly businessId: string;
  readonly customerId: string;
  readonly entryId: string;
  readonly amount: Kobo;
  readonly method: CreditPaymentMethod | null;
  readonly balanceAfter: Kobo;
}

export interface CustomerCreated {
  readonly _tag: 'CustomerCreated';
  readonly businessId: string;
  readonly customerId: string;
}

/** A notification was queued (docs/adr/0030): its subscriber builds the text and sends it. */
export interface NotificationRequested {
  readonly _tag: 'NotificationRequested';
  readonly businessId: string;
  readonly notificationId: string;
}

/** A person was invited to a business; they accept by signing in with this identifier. */
export interface MemberInvited {
  readonly _tag: 'MemberInvited';
  readonly businessId: string;
  readonly businessName: string;
  readonly membershipId: string;
  readonly userId: string;
  readonly role: Role;
  readonly identifier: Identifier;
}

/**
 * A code was issued to be sent to `identifier`. `code` is the one secret an event carries: it is
 * kept only until delivery (see `withoutSecrets`).
 */
export interface SignInCodeIssued {
  readonly _tag: 'SignInCodeIssued';
  readonly businessId: string | null;
  readonly identifier: Identifier;
  readonly code: string;
  readonly expiresAt: string;
}

/** The generic pair's code (proving control of a phone or e-mail), secret like a sign-in code. */
export interface VerificationCodeIssued extends Omit<SignInCodeIssued, '_tag'> {
  readonly _tag: 'VerificationCodeIssued';
}

/** A business joined a partner's network (registration with its code, or the owner's consent later). */
export interface MerchantJoinedNetwork {
  readonly _tag: 'MerchantJoinedNetwork';
  readonly businessId: string;
  readonly partnerId: string;
  readonly joinedAt: string;
}

/** A business left a partner's network (the owner withdrew consent). */
export interface MerchantLeftNetwork {
  readonly _tag: 'MerchantLeftNetwork';
  readonly businessId: string;
  readonly partnerId: string;
  readonly leftAt: string;
}

/** A loan pack's one-time payment was recorded. */
export interface LoanPackPaid {
  readonly _tag: 'LoanPackPaid';
  readonly businessId: string;
  readonly reference: string;
  readonly amount: Kobo;
  readonly paidAt: string;
}

export type DomainEvent =
  | MerchantJoinedNetwork
  | MerchantLeftNetwork
  | LoanPackPaid
  | SaleRecorded
  | SaleVoided
  | ReturnRecorded
  | StockChanged
  | CreditPaymentRecorded
  | CustomerCreated
  | NotificationRequested
  | MemberInvited
  | SignInCodeIssued
  | VerificationCodeIssued;

export type EventType = DomainEvent['_tag'];

/** Every event type, in one list (a subscriber of all of them, the contract tests). */
export const EVENT_TYPES = [
  'SaleRecorded',
  'SaleVoided',
  'ReturnRecorded',
  'StockChanged',
  'CreditPaymentRecorded',
  'CustomerCreated',
  'NotificationRequested',
  'MemberInvited',
  'SignInCodeIssued',
  'VerificationCodeIssued',
  'MerchantJoinedNetwork',
  'MerchantLeftNetwork',
  'LoanPackPaid',
] as const satisfies readonly EventType[];

/** The event as it is kept once delivered or given up: without the code a message carried. */
export const withoutSecrets = (event: DomainEvent): Record<string, unknown> => {
  if (event._tag !== 'SignInCodeIssued' && event._tag !== 'VerificationCodeIssued') return { ...event };
  const { code: _code, ...rest } = event;
  return rest;
};

export const saleRecorded = (sale: Sale): SaleRecorded => ({
  _tag: 'SaleRecorded',
  businessId: sale.businessId,
  saleId: sale.id,
  receiptNumber: sale.receiptNumber,
  branchId: sale.branchId,
  customerId: sale.customerId,
  paymentMethod: sale.paymentMethod,
  total: sale.total,
  amountPaid: sale.amountPaid,
  balanceDue: sale.balanceDue,
  lines: sale.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, lineTotal: l.lineTotal })),
  recordedBy: sale.createdBy,
});

export const saleVoided = (sale: Sale): SaleVoided => ({
  _tag: 'SaleVoided',
  businessId: sale.businessId,
  saleId: sale.id,
  receiptNumber: sale.receiptNumber,
  customerId: sale.customerId,
  refundAmount: sale.refundAmount ?? kobo(0),
  voidedBy: sale.voidedBy ?? sale.createdBy,
});

export const returnRecorded = (r: SaleReturn): ReturnRecorded => ({
  _tag: 'ReturnRecorded',
  businessId: r.businessId,
  returnId: r.id,
  returnNumber: r.returnNumber,
  saleId: r.saleId,
  receiptNumber: r.receiptNumber,
  branchId: r.branchId,
  customerId: r.customerId,
  amount: r.amount,
  debtReduced: r.debtReduced,
  refundAmount: r.refundAmount,
  refundMethod: r.refundMethod,
  restock: r.restock,
  lines: r.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, amount: l.amount })),
  recordedBy: r.createdBy,
});

/** `productQuantityAfter`: the product's total over its branches once the movement is made. */
export const stockChanged = (m: StockMovement, productQuantityAfter: number): StockChanged => ({
  _tag: 'StockChanged',
  businessId: m.businessId,
  productId: m.productId,
  movementId: m.id,
  branchId: m.branchId,
  change: m.quantityChange,
  quantityAfter: productQuantityAfter,
  branchQuantityAfter: m.quantityAfter,
  reason: m.reason,
  saleId: m.saleId ?? null,
});

export const creditPaymentRecorded = (entry: CreditEntry): CreditPaymentRecorded => ({
  _tag: 'CreditPaymentRecorded',
  businessId: entry.businessId,
  customerId: entry.customerId,
  entryId: entry.id,
  amount: kobo(-entry.amount),
  method: entry.method,
  balanceAfter: entry.balanceAfter,
});

export const customerCreated = (c: Customer): CustomerCreated => ({ _tag: 'CustomerCreated', businessId: c.businessId, customerId: c.id });

export const notificationRequested = (businessId: string, notificationId: string): NotificationRequested => ({ _tag: 'NotificationRequested', businessId, notificationId });
