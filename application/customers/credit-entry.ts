import type { CreditEntry, CreditEntryKind, CreditPaymentMethod } from '../../domain/credit.js';
import type { Customer } from '../../domain/customer.js';
import { kobo, type Kobo } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';

export interface CreditChange {
  /** The customer as read with their row locked (every credit change locks the customer first). */
  readonly customer: Pick<Customer, 'id' | 'creditBalance'>;
  readonly kind: CreditEntryKind;
  /** The effect on what the customer owes: a sale's unpaid part, minus a payment, minus what a void reverses. */
  readonly amount: number;
  readonly saleId?: string | null;
  readonly invoiceId?: string | null;
  readonly method?: CreditPaymentMethod | 'ONLINE' | null;
  readonly note?: string | null;
  /** The entry's id when a device made it (a client id); else a new one. */
  readonly id?: string;
}

/** The two ports a credit entry writes through, named by shape so any module's repositories fit. */
export interface CreditWriters {
  readonly credit: { add(entry: CreditEntry): Promise<Date> };
  readonly customers: { setBalance(businessId: string, customerId: string, balance: Kobo, at: Date): Promise<void> };
}

/**
 * Every change of what a customer owes, inside the caller's transaction: one entry appended to their
 * credit ledger with the balance after it, and the balance moved by the entry's amount (not written
 * when the amount is 0), so the balance is always the sum of the ledger. Answers the entry as recorded.
 */
export const recordCreditEntry = async (deps: { clock: Clock; crypto: Crypto }, r: CreditWriters, actor: Pick<Actor, 'businessId' | 'userId'>, change: CreditChange): Promise<CreditEntry> => {
  const now = deps.clock.now(); // read under the customer's row lock: the ledger's times follow its chain
  const entry: CreditEntry = {
    id: change.id ?? deps.crypto.uuid(),
    businessId: actor.businessId,
    customerId: change.customer.id,
    kind: change.kind,
    amount: change.amount,
    balanceAfter: kobo(change.customer.creditBalance + change.amount),
    saleId: change.saleId ?? null,
    invoiceId: change.invoiceId ?? null,
    method: change.method ?? null,
    note: change.note ?? null,
    createdBy: actor.userId,
    createdAt: now,
  };
  // Side by side: on PostgreSQL both statements go in one round trip.
  const [recordedAt] = await Promise.all([
    r.credit.add(entry),
    change.amount !== 0 ? r.customers.setBalance(actor.businessId, change.customer.id, entry.balanceAfter, now) : undefined,
  ]);
  return { ...entry, createdAt: recordedAt };
};
