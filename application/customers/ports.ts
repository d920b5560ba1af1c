import type { Customer } from '../../domain/customer.js';
import type { AgingBucket, AgingRow, Allocation, CreditEntry, OpenDebt, OpenInvoiceDebt } from '../../domain/credit.js';
import type { Kobo } from '../../domain/money.js';
import type { Page, PageRequest } from '../ports/list.js';

// The customers module's ports: customers and the credit ledger they owe on.

export const CUSTOMER_SORTS = ['created_at', 'name', 'credit_balance'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

/** Customers of one business; phones (E.164) are unique per business. */
export interface CustomerRepository {
  exists(businessId: string, customerId: string): Promise<boolean>;
  /** The customer, locked for the rest of the transaction when `forUpdate` (every credit change does). */
  findById(businessId: string, customerId: string, options?: { forUpdate?: boolean }): Promise<Customer | undefined>;
  list(businessId: string, page: PageRequest<CustomerSort>, filter: { hasBalance?: boolean }): Promise<Page<Customer>>;
  add(customer: Customer): Promise<'added' | 'duplicate_phone'>;
  /** Saves the profile fields; the balance moves only through `setBalance`. */
  save(customer: Customer): Promise<'saved' | 'duplicate_phone'>;
  setBalance(businessId: string, customerId: string, balance: Kobo, at: Date): Promise<void>;
  /** True when the business's customers together owe more than `limit` kobo (summed without overflow; credit notes held count 0). */
  totalOwedExceeds(businessId: string, limit: number): Promise<boolean>;
}

export const AGING_SORTS = ['total', 'name'] as const;
export type AgingSort = (typeof AGING_SORTS)[number];

/** The credit ledger and the open debts (unpaid parts of credit sales) it is settled against. */
export interface CreditLedger {
  /** Appends an entry; answers the time recorded, strictly after the customer's previous entry (see StockLedger.add). */
  add(entry: CreditEntry): Promise<Date>;
  addAllocations(businessId: string, paymentId: string, allocations: readonly Allocation[]): Promise<void>;
  allocationsOf(businessId: string, paymentId: string): Promise<Allocation[]>;
  /** One entry of the business's ledger (a payment retried under its client id is answered from it). */
  entryById(businessId: string, entryId: string): Promise<CreditEntry | undefined>;
  /** The customer's entries, newest first by default. */
  list(businessId: string, customerId: string, page: PageRequest<'created_at'>): Promise<Page<CreditEntry>>;
  lastPaymentAt(businessId: string, customerId: string): Promise<Date | undefined>;
  /** Credit sales of the customer with something still owed, oldest first, locked when `forUpdate`. */
  openDebts(businessId: string, customerId: string, options?: { forUpdate?: boolean }): Promise<OpenDebt[]>;
  reduceOutstanding(businessId: string, saleId: string, amount: Kobo): Promise<void>;
  /** The customer's sent invoices (not proformas) with a balance left, oldest due date first (docs/adr/0073). */
  openInvoices(businessId: string, customerId: string): Promise<OpenInvoiceDebt[]>;
  /** What each customer owes by age of debt on the Lagos day `today` (a sale from its day, an invoice from its due date), computed by the database. */
  aging(businessId: string, today: string, page: PageRequest<AgingSort>): Promise<Page<AgingRow>>;
  agingTotals(businessId: string, today: string): Promise<{ buckets: Record<AgingBucket, Kobo>; total: Kobo; customers: number }>;
}

/** The customers module's repositories, as a unit of work hands them to a use case. */
export interface CustomerRepositories {
  readonly customers: CustomerRepository;
  readonly credit: CreditLedger;
}
