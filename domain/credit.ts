import { kobo, type Kobo } from './money.js';
import type { PaymentMethod } from './sale.js';

/**
 * The credit ledger (append-only, integer kobo). `amount` is the entry's effect on what the customer
 * owes: a credit sale adds its unpaid part, a payment subtracts, a void reverses what of the sale was
 * still owed, a return takes off what it cleared of the sale's debt (and a credit note's refund). The
 * customer's balance is always the sum of their entries; it goes below zero only by a credit note they
 * have not used yet (docs/adr/0059).
 */
export const CREDIT_ENTRY_KINDS = ['SALE', 'PAYMENT', 'VOID', 'RETURN', 'INVOICE', 'INVOICE_PAYMENT', 'INVOICE_CANCEL'] as const;
/**
 * INVOICE: a sent invoice's total becomes owed; INVOICE_PAYMENT: a payment recorded on that invoice (it settles
 * that invoice only); INVOICE_CANCEL: a cancelled invoice's balance is taken off (docs/adr/0073).
 */
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];
/**
 * How a debt is paid: the sale's payment methods but CREDIT (a debt is not paid with more debt). One
 * list, so a sale's and a credit payment's `payment_method` agree (ADR 0046).
 */
export const PAYMENT_METHODS_FOR_CREDIT = ['CASH', 'TRANSFER', 'CARD', 'POS'] as const satisfies readonly Exclude<PaymentMethod, 'CREDIT'>[];
export type CreditPaymentMethod = (typeof PAYMENT_METHODS_FOR_CREDIT)[number];

export interface CreditEntry {
  readonly id: string;
  readonly businessId: string;
  readonly customerId: string;
  readonly kind: CreditEntryKind;
  readonly amount: number;
  readonly balanceAfter: Kobo;
  readonly saleId: string | null;
  /** The invoice an INVOICE, INVOICE_PAYMENT or INVOICE_CANCEL entry is keyed to. */
  readonly invoiceId: string | null;
  /** How a PAYMENT or INVOICE_PAYMENT was paid (an invoice may be paid ONLINE). */
  readonly method: CreditPaymentMethod | 'ONLINE' | null;
  readonly note: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
}

/** An unpaid (part of a) credit sale. */
export interface OpenDebt {
  readonly saleId: string;
  readonly outstanding: Kobo;
  readonly createdAt: Date;
}

/** A sent invoice's unpaid balance, aged from its due date. */
export interface OpenInvoiceDebt {
  readonly invoiceId: string;
  readonly outstanding: Kobo;
  /** Lagos date (YYYY-MM-DD). */
  readonly dueDate: string;
}

export interface Allocation {
  readonly saleId: string;
  readonly amount: Kobo;
}

/** Spreads a payment over the open debts, oldest first (the caller orders them by age). */
export const allocateOldestFirst = (debtsOldestFirst: readonly OpenDebt[], amount: Kobo): Allocation[] => {
  const out: Allocation[] = [];
  let left: number = amount;
  for (const d of debtsOldestFirst) {
    if (left === 0) break;
    const take = Math.min(left, d.outstanding);
    if (take > 0) out.push({ saleId: d.saleId, amount: kobo(take) });
    left -= take;
  }
  return out;
};

/** Would adding `debt` take the balance over the customer's limit (no limit = no check)? */
export const exceedsCreditLimit = (balance: Kobo, limit: Kobo | null, debt: Kobo): boolean => limit !== null && balance + debt > limit;

/** The aging buckets in Lagos days since the debt was made: 0-30, 31-60, 61-90, over 90. */
export const AGING_BUCKETS = ['days_0_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export const agingBucket = (ageDays: number): AgingBucket =>
  ageDays <= 30 ? 'days_0_30' : ageDays <= 60 ? 'days_31_60' : ageDays <= 90 ? 'days_61_90' : 'days_over_90';

/** Whole Lagos calendar days from one Lagos date (YYYY-MM-DD) to another. */
export const lagosDaysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export interface AgingRow {
  readonly customerId: string;
  readonly customerName: string;
  readonly customerPhone: string | null;
  readonly buckets: Record<AgingBucket, Kobo>;
  readonly total: Kobo;
  readonly oldestUnpaidAt: Date;
}
