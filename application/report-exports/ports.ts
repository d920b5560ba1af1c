import type { Kobo, KoboSum } from '../../domain/money.js';
import type { PaymentMethod, SaleStatus, Tender } from '../../domain/sale.js';

// The report-exports module's port: the rows its exports read, as plain rows (no aggregates loaded).

/** One sale as the sales export shows it. */
export interface SaleExportRow {
  readonly id: string;
  readonly receiptNumber: string;
  readonly createdAt: Date;
  /** The cashier's first and last name. */
  readonly cashier: string;
  readonly customer: string | null;
  readonly paymentMethod: PaymentMethod;
  /** How the total was settled (docs/adr/0055). */
  readonly payments: readonly Tender[];
  readonly status: SaleStatus;
  readonly subtotal: Kobo;
  readonly discount: Kobo;
  readonly total: Kobo;
  /** The sale's VAT (docs/adr/0054); 0 when it carries none. */
  readonly vatTotal: Kobo;
  readonly amountPaid: Kobo;
  readonly balanceDue: Kobo;
  /** What of the sale is still owed now (the balance due less credit collected against it since, and returns). */
  readonly outstanding: Kobo;
  /** What the sale's returned goods were sold for, every return of it so far (docs/adr/0058). */
  readonly returned: Kobo;
}

/** Where the previous batch ended: the last row's (created_at, id). */
export interface SaleExportCursor {
  readonly createdAt: Date;
  readonly id: string;
}

/**
 * One Lagos day of money in and out, all kobo. In: what non-voided sales were paid at the till, by
 * tender (a CREDIT tender is owed, not money in; docs/adr/0055), and credit collected (by its method).
 * Money is money: a VAT-registered business's takings hold the VAT it will pay over (docs/adr/0054).
 * Out: live expenses and the day's refunds by their method (a CREDIT_NOTE refund moves no money and is
 * not counted; docs/adr/0058). `runningBalance` is the sum of `net` from the period's first day.
 * Sums are exact bigint kobo (a day of many large sales passes 2^53, docs/adr/0038).
 */
export interface CashFlowDay {
  readonly day: string;
  readonly salesPaid: KoboSum;
  readonly creditCollected: KoboSum;
  /** Payments on invoices by their Lagos paid_at day (docs/adr/0074): in the in columns by method (ONLINE in other), never also in creditCollected. */
  readonly invoicesPaid: KoboSum;
  readonly inCash: KoboSum;
  readonly inTransfer: KoboSum;
  readonly inCard: KoboSum;
  readonly inPos: KoboSum;
  readonly inOther: KoboSum;
  readonly moneyIn: KoboSum;
  /** Money handed back for returned goods that day (CASH, TRANSFER, CARD and POS refunds), inside the out columns. */
  readonly refunds: KoboSum;
  readonly outCash: KoboSum;
  readonly outTransfer: KoboSum;
  readonly outCard: KoboSum;
  readonly outPos: KoboSum;
  readonly outOther: KoboSum;
  readonly moneyOut: KoboSum;
  readonly net: KoboSum;
  readonly runningBalance: KoboSum;
}

/** The rows report exports read, always of one business. */
export interface ReportExportRepository {
  /**
   * At most `limit` sales (voided ones too) made from `from` up to, not including, `to`, oldest first
   * (ties by id), after `after` when given: each call is one short read, so an export pages through any
   * number of sales at constant memory and holds no transaction.
   */
  salesBatch(businessId: string, range: { from: Date; to: Date }, after: SaleExportCursor | undefined, limit: number): Promise<SaleExportRow[]>;
  /** Every Lagos day from `start` to `end` (both inclusive, days without movement too), oldest first. */
  cashFlow(businessId: string, start: string, end: string): Promise<CashFlowDay[]>;
}

/** The report-exports module's repositories, as a unit of work hands them to a use case. */
export interface ReportExportRepositories {
  readonly reportExports: ReportExportRepository;
}
