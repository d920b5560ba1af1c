import * as E from 'fp-ts/lib/Either.js';
import type { Branch, Business, Membership, User } from '../../domain/business.js';
import type { Actor } from '../../domain/roles.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AuthRepositories } from './ports.js';
import type { BusinessRepositories } from '../business/ports.js';

export interface Me {
  readonly user: User;
  readonly business: Business;
  readonly membership: Membership;
  readonly branch: Branch | undefined;
}

/** The caller: their user, business, role and branch. */
export const getMe =
  (deps: { uow: UnitOfWork<Pick<AuthRepositories, 'users'> & Pick<BusinessRepositories, 'businesses' | 'branches' | 'memberships'>> }) =>
  async (actor: Actor): Promise<E.Either<{ readonly _tag: 'NotFound' }, Me>> =>
    deps.uow.run(async (repos) => {
      const user = await repos.users.findById(actor.userId);
      const business = await repos.businesses.findById(actor.businessId);
      const membership = await repos.memberships.findByUser(actor.userId);
      if (!user || !business || !membership || membership.businessId !== actor.businessId) {
        return E.left({ _tag: 'NotFound' as const });
      }
      const branch = membership.branchId ? await repos.branches.findById(actor.businessId, membership.branchId) : undefined;
      return E.right({ user, business, membership, branch });
    });
