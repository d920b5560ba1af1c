import * as E from 'fp-ts/lib/Either.js';
import type { Branch } from '../../domain/business.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type DefaultBranchProtected, type NotFound } from '../business/errors.js';
import type { BranchSort, BusinessRepositories } from '../business/ports.js';
import type { BranchHasStock } from '../products/branch-stock.js';

type Branches = Pick<BusinessRepositories, 'branches'>;

export type BranchFields = Pick<Branch, 'name' | 'address' | 'phone'>;

/** Branches exist only under the caller's own business id; any other id is NotFound. */
const ownBusiness = (actor: Actor, businessId: string) => businessId === actor.businessId;

/** Opens a new branch of the caller's business. */
export const createBranch =
  (deps: { uow: UnitOfWork<Branches>; clock: Clock; crypto: Crypto }) =>
  async (actor: Actor, fields: BranchFields): Promise<Branch> =>
    deps.uow.run(async (r) => {
      const now = deps.clock.now();
      const branch: Branch = { id: deps.crypto.uuid(), businessId: actor.businessId, ...fields, isDefault: false, archivedAt: null, createdAt: now, updatedAt: now };
      await r.branches.add(branch);
      return branch;
    });

export const listBranches =
  (deps: { uow: UnitOfWork<Branches> }) =>
  async (actor: Actor, businessId: string, page: PageRequest<BranchSort>): Promise<E.Either<NotFound, Page<Branch>>> =>
    ownBusiness(actor, businessId) ? E.right(await deps.uow.read((r) => r.branches.list(actor.businessId, page))) : E.left(notFound);

export const getBranch =
  (deps: { uow: UnitOfWork<Branches> }) =>
  async (actor: Actor, businessId: string, branchId: string): Promise<E.Either<NotFound, Branch>> => {
    if (!ownBusiness(actor, businessId)) return E.left(notFound);
    const branch = await deps.uow.read((r) => r.branches.findById(actor.businessId, branchId));
    return branch ? E.right(branch) : E.left(notFound);
  };

export const updateBranch =
  (deps: { uow: UnitOfWork<Branches>; clock: Clock }) =>
  async (actor: Actor, businessId: string, branchId: string, changes: Partial<BranchFields>): Promise<E.Either<NotFound, Branch>> =>
    deps.uow.run(async (r) => {
      const branch = ownBusiness(actor, businessId) ? await r.branches.findById(actor.businessId, branchId) : undefined;
      if (!branch) return E.left(notFound);
      Object.assign(branch, changes, { updatedAt: deps.clock.now() });
      await r.branches.save(branch);
      return E.right(branch);
    });

/**
 * Deletes a branch. The default branch cannot go, nor one that holds stock (transfer it out first).
 * A branch with history (staff, sales, expenses, ledger rows) is archived instead of erased, and its
 * staff move to the default branch.
 */
export const deleteBranch =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'branches' | 'memberships'>>; clock: Clock }) =>
  async (actor: Actor, businessId: string, branchId: string): Promise<E.Either<NotFound | DefaultBranchProtected | BranchHasStock, { branch: Branch; archived: boolean }>> =>
    deps.uow.run(async (r) => {
      // Locked first: a sale or an invite naming this branch either finishes before (then it is archived) or finds it gone.
      const branch = ownBusiness(actor, businessId) ? await r.branches.findById(actor.businessId, branchId, { lock: 'change' }) : undefined;
      if (!branch) return E.left(notFound);
      if (branch.isDefault) return E.left({ _tag: 'DefaultBranchProtected' as const });
      // The branch's lock is held: a sale, an adjustment or a transfer into it waits or has committed.
      if (await r.branches.holdsStock(actor.businessId, branchId)) return E.left({ _tag: 'BranchHasStock' as const, branchId });
      if (await r.branches.isReferenced(actor.businessId, branchId)) {
        const now = deps.clock.now();
        const main = await r.branches.findDefault(actor.businessId);
        await r.memberships.moveBranch(actor.businessId, branchId, main.id);
        Object.assign(branch, { archivedAt: now, updatedAt: now });
        await r.branches.save(branch);
        return E.right({ branch, archived: true });
      }
      await r.branches.remove(actor.businessId, branchId);
      return E.right({ branch, archived: false });
    });
