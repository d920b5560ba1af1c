import type { RefundMethod, SaleReturn, SaleReturnDraft } from '../../domain/sale-return.js';
import type { Page, PageRequest } from '../ports/list.js';

// The returns module's port: returns of sales with their lines, and the business's return numbers (docs/adr/0058).

export const RETURN_SORTS = ['created_at', 'amount'] as const;
export type ReturnSort = (typeof RETURN_SORTS)[number];

export interface ReturnFilter {
  readonly branchId?: string;
  readonly createdBy?: string;
  readonly saleId?: string;
  readonly refundMethod?: RefundMethod;
}

/** Returns of one business with their lines. */
export interface SaleReturnRepository {
  /**
   * Stores the return with its lines under the business's next return number (RTN-000001), which it
   * answers. The number comes from a per-business counter locked until the transaction ends, so
   * numbers are sequential and gap-free (a rolled-back return gives its number back); call it last.
   */
  add(r: SaleReturnDraft): Promise<string>;
  findById(businessId: string, id: string): Promise<SaleReturn | undefined>;
  /** Units of each line of the sale (by its position) returned so far. */
  returnedUnits(businessId: string, saleId: string): Promise<ReadonlyMap<number, number>>;
  /** The sale's returns, oldest first (ties by return number), without their lines. */
  ofSale(businessId: string, saleId: string): Promise<SaleReturn[]>;
  /** How many returns the sale has had. */
  countOfSale(businessId: string, saleId: string): Promise<number>;
  /** A page of returns; list items carry no lines. */
  list(businessId: string, page: PageRequest<ReturnSort>, filter: ReturnFilter): Promise<Page<SaleReturn>>;
}

/** The returns module's repositories, as a unit of work hands them to a use case. */
export interface ReturnRepositories {
  readonly saleReturns: SaleReturnRepository;
}
