import type { Kobo } from '../../domain/money.js';
import type { Page, PageRequest } from '../ports/list.js';

// The offline-sync module's port: client-made ids claimed once, with what they were made with (docs/adr/0034).

/** The records a device may create offline under an id it generated itself. */
export const CLIENT_RECORD_KINDS = ['SALE', 'CUSTOMER', 'CREDIT_PAYMENT', 'EXPENSE', 'STOCK_ADJUSTMENT', 'RETURN'] as const;
export type ClientRecordKind = (typeof CLIENT_RECORD_KINDS)[number];

/**
 * `claimed`: the id is new and now this request's (held until its transaction ends: a concurrent
 * request with the same id waits, then sees it); `same`: a record of this business and kind was made
 * under it from the same content; `different`: the id is taken otherwise (other content, kind or business,
 * or a record the server numbered itself).
 */
export type ClientIdClaim = 'claimed' | 'same' | 'different';

export interface ClientIdClaimRequest {
  readonly businessId: string;
  readonly kind: ClientRecordKind;
  readonly id: string;
  /** A fingerprint of the content the record is made from: equal content, equal fingerprint. */
  readonly fingerprint: string;
  /** When the device says it made the record (its own clock). */
  readonly clientCreatedAt: Date | null;
  readonly at: Date;
}

/** Client ids, one row each, written in the transaction that creates their record. */
export interface ClientIdRegistry {
  claim(request: ClientIdClaimRequest): Promise<ClientIdClaim>;
  /** The device's time of a record made under a client id, if it was. */
  clientCreatedAt(businessId: string, id: string): Promise<Date | null>;
}

export const CONFLICT_SORTS = ['created_at'] as const;
export type ConflictSort = (typeof CONFLICT_SORTS)[number];
export const CONFLICT_RESOLUTIONS = ['STOCK_CORRECTION', 'VOID'] as const;
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];

/** A synced offline sale that took more of a product than its branch held: the owner decides what happened. */
export interface SaleConflict {
  readonly id: string;
  readonly businessId: string;
  readonly saleId: string;
  readonly productId: string;
  readonly branchId: string;
  /** Units the sale took; `available`: what the branch held then (0 or more); shortfall = requested - available. */
  readonly requested: number;
  readonly available: number;
  readonly shortfall: number;
  readonly status: 'OPEN' | 'RESOLVED';
  readonly resolution: ConflictResolution | null;
  /** The correction's units, on a STOCK_CORRECTION. */
  readonly quantityChange: number | null;
  readonly note: string | null;
  readonly resolvedBy: string | null;
  readonly resolvedAt: Date | null;
  readonly createdAt: Date;
  /** Read with the conflict: the product's name and the sale's receipt numbers. */
  readonly productName: string;
  readonly receiptNumber: string;
  readonly provisionalReceiptNumber: string | null;
}

export type NewSaleConflict = Omit<SaleConflict, 'productName' | 'receiptNumber' | 'provisionalReceiptNumber'>;

/** The business's oversell conflicts. */
export interface SaleConflictRepository {
  add(conflict: NewSaleConflict): Promise<void>;
  /** The conflict, locked for the rest of the transaction when `forUpdate`. */
  findById(businessId: string, id: string, options?: { forUpdate?: boolean }): Promise<SaleConflict | undefined>;
  list(businessId: string, page: PageRequest<ConflictSort>, filter: { status?: SaleConflict['status'] }): Promise<Page<SaleConflict>>;
  /** Records the decision on every open conflict of the sale named (a void settles them all) or on the one conflict. */
  resolve(businessId: string, target: { conflictId: string } | { saleId: string }, decision: Pick<SaleConflict, 'resolution' | 'quantityChange' | 'note' | 'resolvedBy' | 'resolvedAt'>): Promise<void>;
  /** How many conflicts of the sale are still open. */
  openOfSale(businessId: string, saleId: string): Promise<number>;
}

/** What the change feed carries: a product (archived: a tombstone), one branch's stock of one, a customer, a voided sale. */
export const CHANGE_KINDS = ['customer', 'product', 'sale', 'stock'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * A change's place in the feed: `version` (a transaction id on SQL, a counter in memory, a decimal
 * string) then kind then key. Versions grow with time but may commit out of order (docs/adr/0034).
 */
export interface ChangePosition {
  readonly version: string;
  readonly kind: ChangeKind;
  readonly key: string;
}

export type ChangeData =
  | { readonly kind: 'product'; readonly id: string; readonly name: string; readonly sku: string; readonly price: Kobo; readonly type: string; readonly category: string | null; readonly barcode: string | null; readonly unit: string | null; readonly lowStockThreshold: number | null; readonly vatExempt: boolean }
  | { readonly kind: 'stock'; readonly productId: string; readonly branchId: string; readonly quantity: number }
  | { readonly kind: 'customer'; readonly id: string; readonly name: string; readonly phone: string | null; readonly creditLimit: Kobo | null; readonly creditBalance: Kobo }
  | { readonly kind: 'sale'; readonly id: string; readonly receiptNumber: string; readonly status: 'VOIDED'; readonly voidedAt: Date };

/** One row of the feed: its current state, or a tombstone (`data` null) when it no longer exists for the till. */
export interface Change extends ChangePosition {
  readonly id: string;
  readonly data: ChangeData | null;
}

export interface ChangeQuery {
  /**
   * A snapshot (`xmin:xmax:xip,…`, as PostgreSQL writes pg_snapshot): the changes it did not see, those
   * in flight when it was taken or made after it (at least once: a row may come again).
   */
  readonly since: string;
  /** Only those after this place (paging within a pull). */
  readonly after: ChangePosition | null;
  /** Stock of this branch only; null: every branch. */
  readonly branchId: string | null;
  readonly limit: number;
}

/** The business's changed rows, for tills that keep a local catalogue (GET /sync/changes). */
export interface ChangeFeed {
  /**
   * The snapshot of now (`xmin:xmax:xip,…`): every change it sees is committed and visible to reads
   * made from now on, so the next pull asks for what it did not see and misses no change that commits late.
   * With it `next`: the first transaction id not yet given out (the uncut snapshot's xmax); no position
   * this server handed out is past it.
   */
  horizon(): Promise<{ readonly snapshot: string; readonly next: string }>;
  /** The rows changed since `query.since`, after `query.after`, ordered by position, at most `limit`. */
  changes(businessId: string, query: ChangeQuery): Promise<Change[]>;
}

export interface SyncRepositories {
  readonly clientIds: ClientIdRegistry;
  readonly saleConflicts: SaleConflictRepository;
  readonly changeFeed: ChangeFeed;
}
