import type { Invoice, InvoicePayment, InvoiceReminderKind, InvoiceSeries, InvoiceStatus, InvoiceType } from '../../domain/invoice.js';
import type { Page, PageRequest } from '../ports/list.js';

// The invoices module's port (docs/adr/0072): invoices with their lines and payments, and their gap-free numbers.

export const INVOICE_SORTS = ['created_at', 'total', 'due_date'] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];

export interface InvoiceFilter {
  readonly status?: InvoiceStatus;
  readonly type?: InvoiceType;
  readonly customerId?: string;
  /** Only overdue invoices as of this Lagos date (due before it, a balance left). */
  readonly overdueOn?: string;
}

export interface InvoiceRepository {
  /** Stores a new invoice (a draft) with its lines. */
  add(i: Invoice): Promise<void>;
  /** Writes the invoice's header and replaces its lines (payments are added one by one). */
  save(i: Invoice): Promise<void>;
  /** Deletes a draft. */
  remove(businessId: string, id: string): Promise<void>;
  /** The invoice with its lines and payments; `forUpdate` locks its row until the transaction ends (send, pay, cancel). */
  findById(businessId: string, id: string, options?: { forUpdate?: boolean }): Promise<Invoice | undefined>;
  /** The invoice a share link names (any business: the token is the secret). */
  findByToken(token: string): Promise<Invoice | undefined>;
  /**
   * The business's next number in the series (INV-000001, PRF-000001), from a per-business counter locked
   * until the transaction ends: gap-free, a rolled-back send gives its number back. Call it last.
   */
  nextNumber(businessId: string, series: InvoiceSeries): Promise<string>;
  addPayment(businessId: string, invoiceId: string, p: InvoicePayment): Promise<void>;
  /** A page of invoices; list items carry no lines and no payments. */
  list(businessId: string, page: PageRequest<InvoiceSort>, filter: InvoiceFilter): Promise<Page<Invoice>>;
  /**
   * The business's invoices that ask for money (not proformas), SENT or PARTIALLY_PAID with a balance, due on
   * `dueDate`, that have had no `kind` reminder (docs/adr/0077); without lines and payments, oldest first.
   */
  reminderCandidates(businessId: string, kind: InvoiceReminderKind, dueDate: string, limit: number): Promise<Invoice[]>;
  /** Marks the invoice's `kind` reminder sent (a unique row); false when it already was (another worker, a restart). */
  claimReminder(businessId: string, invoiceId: string, kind: InvoiceReminderKind, at: Date): Promise<boolean>;
}

export interface InvoiceRepositories {
  readonly invoices: InvoiceRepository;
}
