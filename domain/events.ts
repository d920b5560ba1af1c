import type { Role } from './roles.js';
import type { Identifier } from './identifier.js';
import { kobo, type Kobo } from './money.js';
import type { MovementReason, StockMovement } from './product.js';
import type { PaymentMethod, Sale, Tender } from './sale.js';
import type { CreditEntry, CreditPaymentMethod } from './credit.js';
import type { Customer } from './customer.js';
import type { RefundMethod, SaleReturn } from './sale-return.js';
import type { Invoice, InvoicePayment, InvoicePaymentMethod, InvoiceStatus, InvoiceType } from './invoice.js';

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
  /** The tenders (docs/adr/0055); absent on an event recorded before split payments: its tenders follow from the method (tendersOf). */
  readonly payments?: readonly Tender[];
  readonly lines: readonly { readonly productId: string; readonly name: string; readonly quantity: number; readonly lineTotal: Kobo; readonly discount: Kobo }[];
  /** The sale's own discount (taken off after the lines'); each line carries its own. */
  readonly discount: Kobo;
  /** The total before any discount: what the lines came to at their unit prices. */
  readonly grossTotal: Kobo;
  readonly recordedBy: string;
}

export interface SaleVoided {
  readonly _tag: 'SaleVoided';
  readonly businessId: string;
  readonly saleId: string;
  readonly receiptNumber: string;
  readonly branchId: string;
  readonly customerId: string | null;
  readonly total: Kobo;
  readonly refundAmount: Kobo;
  readonly reason: string | null;
  readonly voidedBy: string;
  /** The stock the void put back, to the branch each line was taken from (the audit log's one entry holds it). */
  readonly returned: readonly { readonly productId: string; readonly name: string; readonly branchId: string; readonly quantity: number }[];
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
  readonly lines: readonly { readonly productId: string; readonly name: string; readonly quantity: number; readonly amount: Kobo }[];
  readonly reason: string;
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
  /** The branch the member will work at (absent in events recorded before the audit log). */
  readonly branchId?: string;
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

/** A product's selling price or cost price changed (an edit or an import). */
export interface ProductPriceChanged {
  readonly _tag: 'ProductPriceChanged';
  readonly businessId: string;
  readonly productId: string;
  readonly name: string;
  /** Only the prices that changed. */
  readonly before: { readonly price?: Kobo; readonly costPrice?: Kobo | null };
  readonly after: { readonly price?: Kobo; readonly costPrice?: Kobo | null };
}

/** Stock moved from one branch to another (one transfer, its lines). */
export interface StockTransferred {
  readonly _tag: 'StockTransferred';
  readonly businessId: string;
  readonly transferId: string;
  readonly fromBranchId: string;
  readonly toBranchId: string;
  readonly items: readonly { readonly productId: string; readonly quantity: number }[];
  readonly note: string | null;
}

/** An expense was deleted (softly: the row keeps who and when). */
export interface ExpenseDeleted {
  readonly _tag: 'ExpenseDeleted';
  readonly businessId: string;
  readonly expenseId: string;
  readonly branchId: string;
  readonly amount: Kobo;
  readonly description: string;
  readonly categoryName: string;
  readonly spentOn: string;
}

/** A member's role changed (STAFF to BUSINESS_OWNER or back). */
export interface MemberRoleChanged {
  readonly _tag: 'MemberRoleChanged';
  readonly businessId: string;
  readonly membershipId: string;
  readonly userId: string;
  readonly branchId: string | null;
  readonly before: Role;
  readonly after: Role;
}

/** A member was deactivated: refused from their next request. */
export interface MemberDeactivated {
  readonly _tag: 'MemberDeactivated';
  readonly businessId: string;
  readonly membershipId: string;
  readonly userId: string;
  readonly branchId: string | null;
  readonly role: Role;
  readonly previousStatus: 'INVITED' | 'ACTIVE';
}

/** The business's profile changed: the fields that changed, before and after (domain names). */
export interface BusinessSettingsChanged {
  readonly _tag: 'BusinessSettingsChanged';
  readonly businessId: string;
  readonly businessName: string;
  readonly before: Readonly<Record<string, string | null>>;
  readonly after: Readonly<Record<string, string | null>>;
}

/**
 * The owner changed the notification preferences (the audit log's notifications.preferences_changed):
 * the sections and fields that changed, before and after; money in kobo.
 */
export interface NotificationPreferencesChanged {
  readonly _tag: 'NotificationPreferencesChanged';
  readonly businessId: string;
  readonly before: Readonly<Record<string, unknown>>;
  readonly after: Readonly<Record<string, unknown>>;
}

/** A member signed in from a device (user agent) none of their earlier sessions came from. */
export interface SignedInFromNewDevice {
  readonly _tag: 'SignedInFromNewDevice';
  readonly businessId: string;
  readonly userId: string;
  readonly role: Role;
  readonly sessionId: string;
  readonly userAgent: string;
  readonly ip: string | null;
}

/** A partner made an API key (or rotated one into a new key); no business of its own, so `businessId` is null. */
export interface ApiKeyCreated {
  readonly _tag: 'ApiKeyCreated';
  readonly businessId: null;
  readonly partnerId: string;
  readonly keyId: string;
  readonly name: string;
  readonly prefix: string;
  readonly scopes: readonly string[];
  readonly keyExpiresAt: string | null;
  /** The key a rotation replaced; null for a new key. */
  readonly rotatedFrom: string | null;
}

/**
 * An audit entry an owner's alert may be about was written (a void, a discount, a stock adjustment;
 * docs/adr/0071): what the alert says, so its subscriber weighs it against the thresholds after the commit.
 */
export interface AuditEntryRecorded {
  readonly _tag: 'AuditEntryRecorded';
  readonly businessId: string;
  readonly entryId: string;
  readonly action: 'sale.voided' | 'sale.discounted' | 'stock.adjusted';
  readonly actorName: string | null;
  /** The receipt number, or the product's name. */
  readonly subjectLabel: string | null;
  /** The sale's total (a void) or its discounts (a discount); null for a stock adjustment. */
  readonly amount: Kobo | null;
  /** The units added (negative: taken) by a stock adjustment; null otherwise. */
  readonly quantity: number | null;
}

/** An invoice was sent (docs/adr/0077): it took its number (and its stock, unless a proforma). */
export interface InvoiceSent {
  readonly _tag: 'InvoiceSent';
  readonly businessId: string;
  readonly invoiceId: string;
  readonly number: string;
  readonly type: InvoiceType;
  readonly branchId: string;
  readonly customerId: string;
  /** Lagos dates. */
  readonly issueDate: string;
  readonly dueDate: string;
  readonly total: Kobo;
  readonly vatTotal: Kobo;
  readonly sentBy: string;
}

/** A payment on an invoice was recorded; `status` is the invoice's after it (PAID when it cleared the balance). */
export interface InvoicePaymentRecorded {
  readonly _tag: 'InvoicePaymentRecorded';
  readonly businessId: string;
  readonly invoiceId: string;
  readonly number: string;
  readonly branchId: string;
  readonly customerId: string;
  readonly paymentId: string;
  readonly amount: Kobo;
  readonly method: InvoicePaymentMethod;
  readonly paidAt: string;
  readonly total: Kobo;
  readonly amountPaid: Kobo;
  readonly balanceDue: Kobo;
  readonly status: InvoiceStatus;
  /** Null when no member recorded it (an online payment's confirmation). */
  readonly recordedBy: string | null;
}

/** A sent invoice was cancelled; its stock went back to its branch. */
export interface InvoiceCancelled {
  readonly _tag: 'InvoiceCancelled';
  readonly businessId: string;
  readonly invoiceId: string;
  readonly number: string;
  readonly type: InvoiceType;
  readonly branchId: string;
  readonly customerId: string;
  readonly total: Kobo;
  readonly cancelledBy: string;
}

export type DomainEvent =
  | InvoiceSent
  | InvoicePaymentRecorded
  | InvoiceCancelled
  | ProductPriceChanged
  | StockTransferred
  | ExpenseDeleted
  | MemberRoleChanged
  | MemberDeactivated
  | BusinessSettingsChanged
  | NotificationPreferencesChanged
  | SignedInFromNewDevice
  | ApiKeyCreated
  | AuditEntryRecorded
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
  'ProductPriceChanged',
  'StockTransferred',
  'ExpenseDeleted',
  'MemberRoleChanged',
  'MemberDeactivated',
  'BusinessSettingsChanged',
  'NotificationPreferencesChanged',
  'SignedInFromNewDevice',
  'ApiKeyCreated',
  'AuditEntryRecorded',
  'InvoiceSent',
  'InvoicePaymentRecorded',
  'InvoiceCancelled',
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
  payments: sale.payments,
  lines: sale.lines.map((l) => ({ productId: l.productId, name: l.name, quantity: l.quantity, lineTotal: l.lineTotal, discount: l.discount })),
  discount: sale.discount,
  grossTotal: kobo(sale.lines.reduce((n, l) => n + l.lineTotal + l.discount, 0)),
  recordedBy: sale.createdBy,
});

/** `returned`: the stock the void put back (its SALE_VOID ledger rows), by product and branch. */
export const saleVoided = (sale: Sale, returned: readonly { productId: string; branchId: string; quantity: number }[] = []): SaleVoided => ({
  _tag: 'SaleVoided',
  businessId: sale.businessId,
  saleId: sale.id,
  receiptNumber: sale.receiptNumber,
  branchId: sale.branchId,
  customerId: sale.customerId,
  total: sale.total,
  refundAmount: sale.refundAmount ?? kobo(0),
  reason: sale.voidReason,
  voidedBy: sale.voidedBy ?? sale.createdBy,
  returned: returned.map((m) => ({ productId: m.productId, name: sale.lines.find((l) => l.productId === m.productId)?.name ?? '', branchId: m.branchId, quantity: m.quantity })),
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
  lines: r.lines.map((l) => ({ productId: l.productId, name: l.name, quantity: l.quantity, amount: l.amount })),
  reason: r.reason,
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
  method: entry.method as CreditPaymentMethod | null, // a PAYMENT's: never ONLINE
  balanceAfter: entry.balanceAfter,
});

export const customerCreated = (c: Customer): CustomerCreated => ({ _tag: 'CustomerCreated', businessId: c.businessId, customerId: c.id });

export const notificationRequested = (businessId: string, notificationId: string): NotificationRequested => ({ _tag: 'NotificationRequested', businessId, notificationId });

export const invoiceSent = (i: Invoice, sentBy: string): InvoiceSent => ({
  _tag: 'InvoiceSent', businessId: i.businessId, invoiceId: i.id, number: i.number ?? '', type: i.type, branchId: i.branchId, customerId: i.customerId,
  issueDate: i.issueDate, dueDate: i.dueDate, total: i.total, vatTotal: i.vatTotal, sentBy,
});

/** `i`: the invoice after the payment. */
export const invoicePaymentRecorded = (i: Invoice, p: InvoicePayment): InvoicePaymentRecorded => ({
  _tag: 'InvoicePaymentRecorded', businessId: i.businessId, invoiceId: i.id, number: i.number ?? '', branchId: i.branchId, customerId: i.customerId,
  paymentId: p.id, amount: p.amount, method: p.method, paidAt: p.paidAt.toISOString(), total: i.total, amountPaid: i.amountPaid,
  balanceDue: kobo(i.total - i.amountPaid), status: i.status, recordedBy: p.createdBy,
});

export const invoiceCancelled = (i: Invoice, cancelledBy: string): InvoiceCancelled => ({
  _tag: 'InvoiceCancelled', businessId: i.businessId, invoiceId: i.id, number: i.number ?? '', type: i.type, branchId: i.branchId, customerId: i.customerId,
  total: i.total, cancelledBy,
});
