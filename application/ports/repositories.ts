import type { Branch, Business, Membership, User } from '../../domain/business.js';
import type { Identifier } from '../../domain/identifier.js';
import type { OtpCode, OtpPurpose } from '../../domain/otp.js';
import type { Page, PageRequest } from './list.js';
import type { MovementReason, Product, ProductType, StockMovement } from '../../domain/product.js';
import type { PaymentMethod, Sale, SaleDraft, SaleStatus } from '../../domain/sale.js';
import type { Customer } from '../../domain/customer.js';
import type { AgingBucket, AgingRow, Allocation, CreditEntry, OpenDebt } from '../../domain/credit.js';
import type { Kobo } from '../../domain/money.js';
import type { EventLog } from './outbox.js';

/** Users are global (a person signs in before any business is known). */
export interface UserRepository {
  findById(userId: string): Promise<User | undefined>;
  findByIdentifier(identifier: Identifier): Promise<User | undefined>;
  add(user: User): Promise<void>;
  save(user: User): Promise<void>;
}

/** A business is only ever read by its own id, taken from the caller's token. */
export interface BusinessRepository {
  findById(businessId: string): Promise<Business | undefined>;
  add(business: Business): Promise<void>;
  save(business: Business): Promise<void>;
}

export const BRANCH_SORTS = ['created_at', 'name'] as const;
export type BranchSort = (typeof BRANCH_SORTS)[number];

/** Branches of one business; archived branches are invisible unless asked for (old receipts name them). */
export interface BranchRepository {
  /**
   * `lock: 'use'`: the branch stays as it is until the transaction ends (a sale, an invite or a move
   * about to name it); `lock: 'change'`: no one else may use or change it meanwhile (archive, delete).
   */
  findById(businessId: string, branchId: string, options?: { includeArchived?: boolean; lock?: 'use' | 'change' }): Promise<Branch | undefined>;
  findDefault(businessId: string): Promise<Branch>;
  list(businessId: string, page: PageRequest<BranchSort>): Promise<Page<Branch>>;
  add(branch: Branch): Promise<void>;
  save(branch: Branch): Promise<void>;
  /** True when anything (staff, and later sales) refers to the branch, so it must be archived, not erased. */
  isReferenced(businessId: string, branchId: string): Promise<boolean>;
  remove(businessId: string, branchId: string): Promise<void>;
}

/** A member of a business with the person's name and contact (the staff list's row). */
export interface StaffMember extends Membership {
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string | null;
  readonly email: string | null;
}

export const STAFF_SORTS = ['created_at', 'first_name', 'last_name'] as const;
export type StaffSort = (typeof STAFF_SORTS)[number];

export interface MembershipRepository {
  /** The user's current membership (not DEACTIVATED), else their latest deactivated one. */
  findByUser(userId: string): Promise<Membership | undefined>;
  /**
   * Every authenticated request, in one read: the membership as `findByUser` answers it, and whether
   * the user's session `sessionId` (the access token's `sid`) is revoked or unknown.
   */
  findByUserInSession(userId: string, sessionId: string): Promise<{ membership: Membership; sessionRevoked: boolean } | undefined>;
  findById(businessId: string, membershipId: string): Promise<Membership | undefined>;
  findStaffMember(businessId: string, membershipId: string): Promise<StaffMember | undefined>;
  list(businessId: string, page: PageRequest<StaffSort>, filter: { status?: Membership['status'] }): Promise<Page<StaffMember>>;
  /** ACTIVE owners of the business, counted under a lock on their rows (held to the end of the transaction). */
  countActiveOwnersLocked(businessId: string): Promise<number>;
  /** Moves every member of `fromBranchId` to `toBranchId` (when a branch is archived). */
  moveBranch(businessId: string, fromBranchId: string, toBranchId: string): Promise<void>;
  add(membership: Membership): Promise<void>;
  save(membership: Membership): Promise<void>;
}

export interface OtpRepository {
  /** Serialises concurrent sends and checks for one identifier until the transaction ends. */
  lockIdentifier(identifierKey: string): Promise<void>;
  /** Codes for the identifier created after `since`, any purpose. */
  createdSince(identifierKey: string, since: Date): Promise<OtpCode[]>;
  /** The newest code for the identifier and purpose. */
  latest(identifierKey: string, purpose: OtpPurpose): Promise<OtpCode | undefined>;
  add(code: OtpCode): Promise<void>;
  save(code: OtpCode): Promise<void>;
}

export interface RefreshToken {
  readonly id: string;
  readonly familyId: string;
  readonly userId: string;
  readonly tokenHash: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export interface RefreshTokenRepository {
  /** Finds and locks the token row for the rest of the transaction. */
  findByHashForUpdate(tokenHash: string): Promise<RefreshToken | undefined>;
  add(token: RefreshToken): Promise<void>;
  save(token: RefreshToken): Promise<void>;
  /** Ends the session the family is: its refresh tokens and the session row (so its access tokens too). */
  revokeFamily(familyId: string, at: Date): Promise<void>;
  /** Ends every session of the user, as `revokeFamily` does. */
  revokeAllForUser(userId: string, at: Date): Promise<void>;
}

/** Where a session was last used from, as the HTTP edge saw it (absent for programs that embed us). */
export interface SessionDevice {
  readonly userAgent: string | null;
  readonly ip: string | null;
}

/**
 * A signed-in device: one per sign-in, the family of refresh tokens it rotates through (its id is
 * the family id and the access tokens' `sid`).
 */
export interface Session extends SessionDevice {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  /** The sign-in or the latest refresh. */
  readonly lastUsedAt: Date;
  /** When its current refresh token expires. */
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
}

export const SESSION_SORTS = ['last_used_at', 'created_at'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/** A user's sessions; every method filters on the user, so no one reads or ends another's session. */
export interface SessionRepository {
  add(session: Session): Promise<void>;
  /** A refresh: the session was used at `at` from `device`, and now lives until `expiresAt`. */
  touch(userId: string, sessionId: string, at: Date, expiresAt: Date, device: SessionDevice): Promise<void>;
  /** The user's live sessions (not revoked, not expired at `now`). search: user agent, IP. */
  list(userId: string, now: Date, page: PageRequest<SessionSort>): Promise<Page<Session>>;
  /** Ends the user's session (live at `at`) and its refresh tokens; false when the user has no such live session. */
  revoke(userId: string, sessionId: string, at: Date): Promise<boolean>;
}

export const PRODUCT_SORTS = ['created_at', 'updated_at', 'name', 'price', 'quantity'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export interface ProductFilter {
  readonly category?: string;
  readonly type?: ProductType;
  /** Only products at or below their low-stock threshold. */
  readonly lowStock?: boolean;
  /** Archived products only (true) instead of the active ones (the default). */
  readonly archived?: boolean;
}

export type QuantityChange =
  | { readonly ok: true; readonly before: number; readonly after: number }
  /** INSUFFICIENT: it would go below zero; LIMIT: above MAX_STOCK. */
  | { readonly ok: false; readonly available: number; readonly reason: 'INSUFFICIENT' | 'LIMIT' };

/** Products of one business. SKUs are unique per business, case-insensitively. */
export interface ProductRepository {
  findById(businessId: string, productId: string): Promise<Product | undefined>;
  findBySku(businessId: string, sku: string): Promise<Product | undefined>;
  /**
   * Locks the business's products with these skus (any case) to the end of the transaction, in id
   * order: the order a sale locks its lines in, so an import and a sale never wait on each other in a cycle.
   */
  lockBySkus(businessId: string, skus: readonly string[]): Promise<void>;
  /** The products among `productIds` that belong to the business (one query for a whole cart). */
  findMany(businessId: string, productIds: readonly string[]): Promise<Product[]>;
  list(businessId: string, page: PageRequest<ProductSort>, filter: ProductFilter): Promise<Page<Product>>;
  /** Category names with how many products each has. */
  categories(businessId: string): Promise<{ name: string; productCount: number }[]>;
  add(product: Product): Promise<'added' | 'duplicate_sku'>;
  /** Saves every field but the quantity, which only `changeQuantity` moves. */
  save(product: Product): Promise<'saved' | 'duplicate_sku'>;
  /**
   * Adds `change` (negative to take) in one conditional update, so concurrent changes never lose
   * one and stock stays between zero and MAX_STOCK. undefined when the product does not exist.
   */
  changeQuantity(businessId: string, productId: string, change: number, at: Date): Promise<QuantityChange | undefined>;
}

export const MOVEMENT_SORTS = ['created_at'] as const;
export type MovementSort = (typeof MOVEMENT_SORTS)[number];

/** The append-only stock ledger. */
export interface StockLedger {
  /**
   * Appends a movement; answers the time recorded: its createdAt, or 1 ms after the product's previous
   * movement when the clock has not passed it, so the ledger ordered by time reads as a chain.
   */
  add(movement: StockMovement): Promise<Date>;
  findById(businessId: string, movementId: string): Promise<StockMovement | undefined>;
  list(businessId: string, page: PageRequest<MovementSort>, filter: { productId?: string; reason?: MovementReason }): Promise<Page<StockMovement>>;
  /** The rows a sale wrote (what its void must give back). */
  forSale(businessId: string, saleId: string): Promise<StockMovement[]>;
}

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
  /** The sale, locked for the rest of the transaction when `forUpdate`. */
  findById(businessId: string, saleId: string, options?: { forUpdate?: boolean }): Promise<Sale | undefined>;
  findByReceiptNumber(businessId: string, receiptNumber: string): Promise<Sale | undefined>;
  /** A page of sales; list items carry no lines. */
  list(businessId: string, page: PageRequest<SaleSort>, filter: SaleFilter): Promise<Page<Sale>>;
  /** Saves the void (status, when, why, by whom, refund) and clears what was owed. */
  markVoided(sale: Sale): Promise<void>;
  /** True when any sale was made at the branch (it must then be archived, not erased). */
  existsForBranch(businessId: string, branchId: string): Promise<boolean>;
}

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
  /** True when the business's customers together owe more than `limit` kobo (summed without overflow). */
  totalOwedExceeds(businessId: string, limit: number): Promise<boolean>;
}

export const AGING_SORTS = ['total', 'name'] as const;
export type AgingSort = (typeof AGING_SORTS)[number];

/** The credit ledger and the open debts (unpaid parts of credit sales) it is settled against. */
export interface CreditLedger {
  /** Appends an entry; answers the time recorded, strictly after the customer's previous entry (see StockLedger.add). */
  add(entry: CreditEntry): Promise<Date>;
  addAllocations(paymentId: string, allocations: readonly Allocation[]): Promise<void>;
  allocationsOf(businessId: string, paymentId: string): Promise<Allocation[]>;
  /** The customer's entries, newest first by default. */
  list(businessId: string, customerId: string, page: PageRequest<'created_at'>): Promise<Page<CreditEntry>>;
  lastPaymentAt(businessId: string, customerId: string): Promise<Date | undefined>;
  /** Credit sales of the customer with something still owed, oldest first, locked when `forUpdate`. */
  openDebts(businessId: string, customerId: string, options?: { forUpdate?: boolean }): Promise<OpenDebt[]>;
  reduceOutstanding(businessId: string, saleId: string, amount: Kobo): Promise<void>;
  /** What each customer owes by age of debt on the Lagos day `today`, computed by the database. */
  aging(businessId: string, today: string, page: PageRequest<AgingSort>): Promise<Page<AgingRow>>;
  agingTotals(businessId: string, today: string): Promise<{ buckets: Record<AgingBucket, Kobo>; total: Kobo; customers: number }>;
}

/** Everything a use case may touch inside one transaction. */
export interface Repositories {
  readonly sales: SaleRepository;
  readonly customers: CustomerRepository;
  readonly credit: CreditLedger;
  readonly products: ProductRepository;
  readonly stockLedger: StockLedger;
  readonly users: UserRepository;
  readonly businesses: BusinessRepository;
  readonly branches: BranchRepository;
  readonly memberships: MembershipRepository;
  readonly otps: OtpRepository;
  readonly refreshTokens: RefreshTokenRepository;
  readonly sessions: SessionRepository;
  readonly events: EventLog;
}
