import * as E from 'fp-ts/lib/Either.js';
import { newUser, type Membership, type User } from '../../domain/business.js';
import { identifierKey, type Identifier } from '../../domain/identifier.js';
import type { DailyLimitExceeded } from '../../domain/plan.js';
import type { Actor, Role } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import { releaseUnheldMembership } from '../business/identity-claim.js';
import {
  notFound,
  type AlreadyMember,
  type CannotDeactivateSelf,
  type LastOwner,
  type NotFound,
  type UnknownBranch,
} from '../business/errors.js';
import type { AuthRepositories } from '../auth/ports.js';
import type { NotificationRepositories } from '../notifications/ports.js';
import { countDailyMessage } from '../notifications/send-notification.js';
import type { BusinessRepositories, StaffMember, StaffSort } from '../business/ports.js';

export interface InviteCommand {
  readonly identifier: Identifier;
  readonly firstName: string;
  readonly lastName: string;
  readonly role: Role;
  readonly branchId?: string;
}

const staffMember = (m: Membership, u: User): StaffMember => ({ ...m, firstName: u.firstName, lastName: u.lastName, phone: u.phone, email: u.email });

/** The branch a member works at: the one given (it must be a live branch of the business) or the default. */
const branchFor = async (r: Pick<BusinessRepositories, 'branches'>, businessId: string, branchId: string | undefined) =>
  branchId === undefined ? r.branches.findDefault(businessId) : r.branches.findById(businessId, branchId, { lock: 'use' });

/**
 * Invites a person to the caller's business: the member is INVITED until they sign in with
 * /auth/login + /auth/verify-otp within 7 days (then the invitation lapses). A person active in a
 * business, or holding an open invitation, cannot be invited; a deactivated or lapsed one can.
 * The invitation message is sent after the commit (MemberInvited, through the outbox).
 */
export const inviteStaff =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'users' | 'otps'> & BusinessRepositories & EventRepositories & Pick<NotificationRepositories, 'notificationSettings'>>; clock: Clock; crypto: Crypto }) =>
  (actor: Actor, cmd: InviteCommand): Promise<E.Either<AlreadyMember | UnknownBranch | DailyLimitExceeded, StaffMember>> =>
    deps.uow.run(async (r) => {
      await r.otps.lockIdentifier(identifierKey(cmd.identifier));
      const branch = await branchFor(r, actor.businessId, cmd.branchId);
      if (!branch) return E.left<AlreadyMember | UnknownBranch>({ _tag: 'UnknownBranch', branchId: cmd.branchId! });
      const now = deps.clock.now();
      let user = await r.users.findByIdentifier(cmd.identifier);
      if (user && (await releaseUnheldMembership(r, user.id, now)) === 'held') return E.left<AlreadyMember | UnknownBranch | DailyLimitExceeded>({ _tag: 'AlreadyMember' });
      // each invitation is a message at the platform's cost: the plan's daily cap (docs/adr/0040)
      const business = await r.businesses.findById(actor.businessId);
      if (!business) throw new Error(`business ${actor.businessId} vanished`);
      const capped = await countDailyMessage(r, business, 'INVITATIONS', now);
      if (capped) return rollback(E.left<AlreadyMember | UnknownBranch | DailyLimitExceeded>(capped));
      if (!user) {
        user = newUser(deps.crypto.uuid(), cmd.identifier, cmd.firstName, cmd.lastName, now);
        await r.users.add(user);
      }
      const membership: Membership = {
        id: deps.crypto.uuid(),
        businessId: actor.businessId,
        userId: user.id,
        role: cmd.role,
        branchId: branch.id,
        status: 'INVITED',
        createdAt: now,
        updatedAt: now,
      };
      await r.memberships.add(membership);
      await r.events.record(now, {
        _tag: 'MemberInvited',
        businessId: actor.businessId,
        businessName: business.name,
        membershipId: membership.id,
        userId: user.id,
        role: cmd.role,
        branchId: branch.id,
        identifier: cmd.identifier,
      });
      return E.right(staffMember(membership, user));
    });

export const listStaff =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'memberships'>> }) =>
  (actor: Actor, page: PageRequest<StaffSort>, filter: { status?: Membership['status'] }): Promise<Page<StaffMember>> =>
    deps.uow.read((r) => r.memberships.list(actor.businessId, page, filter));

export const getStaffMember =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'memberships'>> }) =>
  async (actor: Actor, membershipId: string): Promise<E.Either<NotFound, StaffMember>> => {
    const member = await deps.uow.read((r) => r.memberships.findStaffMember(actor.businessId, membershipId));
    return member ? E.right(member) : E.left(notFound);
  };

/**
 * A business keeps at least one ACTIVE owner (an invited owner who never signed in does not count):
 * the last one can be neither demoted nor deactivated. The count is taken under a lock on the owner
 * rows, so two owners removing each other at once cannot both succeed.
 */
const isLastOwner = async (r: Pick<BusinessRepositories, 'memberships'>, m: Membership) => {
  if (m.role !== 'BUSINESS_OWNER' || m.status === 'DEACTIVATED') return false;
  const activeOwners = await r.memberships.countActiveOwnersLocked(m.businessId);
  // Re-read under the lock: another transaction may have just changed this member.
  const current = await r.memberships.findById(m.businessId, m.id);
  return current?.role === 'BUSINESS_OWNER' && current.status === 'ACTIVE' && activeOwners <= 1;
};

/** Changes a member's role or branch. */
export const updateStaffMember =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'users'> & Pick<BusinessRepositories, 'branches' | 'memberships'> & EventRepositories>; clock: Clock }) =>
  async (
    actor: Actor,
    membershipId: string,
    changes: { role?: Role; branchId?: string },
  ): Promise<E.Either<NotFound | UnknownBranch | LastOwner, StaffMember>> =>
    deps.uow.run(async (r) => {
      const m = await r.memberships.findById(actor.businessId, membershipId);
      if (!m) return E.left(notFound);
      if (changes.branchId !== undefined && !(await r.branches.findById(actor.businessId, changes.branchId, { lock: 'use' }))) {
        return E.left({ _tag: 'UnknownBranch' as const, branchId: changes.branchId });
      }
      if (changes.role === 'STAFF' && (await isLastOwner(r, m))) return E.left({ _tag: 'LastOwner' as const });
      const previousRole = m.role;
      if (changes.role) m.role = changes.role;
      if (changes.branchId) m.branchId = changes.branchId;
      m.updatedAt = deps.clock.now();
      await r.memberships.save(m);
      if (m.role !== previousRole) {
        await r.events.record(m.updatedAt, { _tag: 'MemberRoleChanged', businessId: m.businessId, membershipId: m.id, userId: m.userId, branchId: m.branchId, before: previousRole, after: m.role });
      }
      return E.right(staffMember(m, (await r.users.findById(m.userId))!));
    });

/**
 * Deactivates a member: refused from their next request (the per-request actor check) and every
 * refresh token revoked. Owners cannot deactivate themselves, nor the last owner.
 */
export const deactivateStaffMember =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'users' | 'refreshTokens'> & Pick<BusinessRepositories, 'memberships'> & EventRepositories>; clock: Clock }) =>
  async (actor: Actor, membershipId: string): Promise<E.Either<NotFound | CannotDeactivateSelf | LastOwner, StaffMember>> =>
    deps.uow.run(async (r) => {
      const m = await r.memberships.findById(actor.businessId, membershipId);
      if (!m) return E.left(notFound);
      if (m.userId === actor.userId) return E.left({ _tag: 'CannotDeactivateSelf' as const });
      if (await isLastOwner(r, m)) return E.left({ _tag: 'LastOwner' as const });
      const now = deps.clock.now();
      const previousStatus = m.status;
      m.status = 'DEACTIVATED';
      m.updatedAt = now;
      await r.memberships.save(m);
      await r.refreshTokens.revokeAllForUser(m.userId, now);
      if (previousStatus !== 'DEACTIVATED') {
        await r.events.record(now, { _tag: 'MemberDeactivated', businessId: m.businessId, membershipId: m.id, userId: m.userId, branchId: m.branchId, role: m.role, previousStatus });
      }
      return E.right(staffMember(m, (await r.users.findById(m.userId))!));
    });
