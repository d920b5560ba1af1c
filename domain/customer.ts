import { checkAmounts, type NegativeAmount } from './amount-rules.js';
import type { Kobo } from './money.js';

/** A customer of a business; `creditBalance` is what they owe (the sum of their credit ledger). */
export interface Customer {
  readonly id: string;
  readonly businessId: string;
  name: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  notes: string | null;
  creditLimit: Kobo | null;
  creditBalance: Kobo;
  /** The customer asked for no reminders or messages (receipts still go). */
  notificationsOptOut: boolean;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** A credit limit caps what a customer may owe: 0 (no credit) or more; null is no limit. */
export const checkCreditLimit = (creditLimit: Kobo | null | undefined): NegativeAmount | undefined => checkAmounts([['creditLimit', creditLimit]]);
