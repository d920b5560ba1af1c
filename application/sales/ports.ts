import type { PaymentMethod, Sale, SaleDraft, SaleStatus } from '../../domain/sale.js';
import type { Page, PageRequest } from '../ports/list.js';

// The sales module's port: sales with their lines, receipt numbers and the monthly count.

export const SALE_SORTS = ['created_at', 'total'] as const;
export type SaleSort = (typeof SALE_SORTS)[number];

export interface SaleFilter {
  readonly paymentMethod?: PaymentMethod;
  readonly status?: SaleStatus;
  readonly customerId?: string;
  readonly createdBy?: string;
  readonly branchId?: string;
}

/** Sales of one business with their lines. */
export interface SaleRepository {
  /** Counts one more sale in the business's Lagos month (`2026-11`) and returns the month's count. */
  countSaleInMonth(businessId: string, month: string): Promise<number>;
  /** The month's count as `countSaleInMonth` keeps it (plans with a cap only), without counting one more. */
  monthlySaleCount(businessId: string, month: string): Promise<number>;
  /** Sales (voided ones too) made from `from` up to, not including, `to`. */
  countCreatedBetween(businessId: string, from: Date, to: Date): Promise<number>;
  /**
   * Stores the sale with its lines under the business's next receipt number, which it returns. The
   * number comes from a per-business counter locked until the transaction ends, so numbers are
   * sequential and gap-free (a rolled-back sale gives its number back); call it last.
   */
  add(sale: SaleDraft): Promise<string>;
  /**
   * Like `add`, where the adapter may take the number in the transaction's last write, with its COMMIT
   * (SQL in a unit of work of its own, docs/adr/0084: the counter's lock is then held for no round trip
   * of the API's). `receiptNumber` is the number, or until the commit a placeholder: events recorded in
   * this unit of work may carry it (the adapter writes the number in its place), nothing else may.
   * `committed`, when there, settles with the number once the unit of work has committed: await it
   * only after the unit of work. Inside `UnitOfWork.atomically` it is not there: the COMMIT comes after
   * the work answers, and `atomically` answers with the number in the placeholder's place. One sale a
   * transaction is numbered so (a second is numbered at once). A sale whose later checks need the
   * counter's lock (the business-wide credit total) uses `add`.
   */
  addNumberedAtCommit(sale: SaleDraft): Promise<{ readonly receiptNumber: string; readonly committed?: Promise<string> }>;
  /** The sale, locked for the rest of the transaction when `forUpdate`. */
  findById(businessId: string, saleId: string, options?: { forUpdate?: boolean }): Promise<Sale | undefined>;
  findByReceiptNumber(businessId: string, receiptNumber: string): Promise<Sale | undefined>;
  /** A page of sales; list items carry no lines. */
  list(businessId: string, page: PageRequest<SaleSort>, filter: SaleFilter): Promise<Page<Sale>>;
  /** Saves the void (status, when, why, by whom, refund) and clears what was owed. */
  markVoided(sale: Sale): Promise<void>;
  /** An offline sale whose every shortfall the owner has resolved needs no more review. */
  clearNeedsReview(businessId: string, saleId: string): Promise<void>;
  /**
   * When the device's latest sale synced before `before` was recorded (null: none): the device's
   * previous sync, for bounding the time its new sales claim (docs/adr/0039).
   */
  lastSyncedAt(businessId: string, deviceId: string, before: Date): Promise<Date | null>;
  /** True when any sale was made at the branch (it must then be archived, not erased). */
  existsForBranch(businessId: string, branchId: string): Promise<boolean>;
}

/** The sales module's repositories, as a unit of work hands them to a use case. */
export interface SaleRepositories {
  readonly sales: SaleRepository;
}
