import type { Branch, Business, Membership } from '../../domain/business.js';
import type { Page, PageRequest } from '../ports/list.js';

// The business module's ports: the business, its branches and its members (staff).

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
  /** True when anything (staff, sales, expenses, stock or its ledger) refers to the branch, so it must be archived, not erased. */
  isReferenced(businessId: string, branchId: string): Promise<boolean>;
  /** True when the branch holds any product's stock (it cannot be archived until that is transferred out). */
  holdsStock(businessId: string, branchId: string): Promise<boolean>;
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

/** Who belongs to which business, in which role and branch; read on every authenticated request. */
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

/** The business module's repositories, as a unit of work hands them to a use case. */
export interface BusinessRepositories {
  readonly businesses: BusinessRepository;
  readonly branches: BranchRepository;
  readonly memberships: MembershipRepository;
}
