import * as E from 'fp-ts/lib/Either.js';
import type { Branch, Business } from '../../domain/business.js';
import type { Plan } from '../../domain/plan.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { BusinessRepositories, StaffMember } from '../business/ports.js';

/** Operator: puts a business on a plan (the only way a plan changes until billing exists). */
export const setPlan =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'>>; clock: Clock }) =>
  async (businessId: string, plan: Plan): Promise<E.Either<NotFound, Business>> =>
    deps.uow.run(async (r) => {
      const business = await r.businesses.findById(businessId);
      if (!business) return E.left(notFound);
      business.plan = plan;
      business.updatedAt = deps.clock.now();
      await r.businesses.save(business);
      return E.right(business);
    });

export interface BusinessOverview {
  readonly business: Business;
  readonly branches: Branch[];
  readonly members: StaffMember[];
}

/** Operator: a business with its branches and members (the first 100 of each). */
export const showBusiness =
  (deps: { uow: UnitOfWork<BusinessRepositories> }) =>
  async (businessId: string): Promise<E.Either<NotFound, BusinessOverview>> =>
    deps.uow.read(async (r) => {
      const business = await r.businesses.findById(businessId);
      if (!business) return E.left(notFound);
      const page = { sortBy: 'created_at', sortDir: 'asc', limit: 100 } as const;
      const branches = (await r.branches.list(businessId, page)).items;
      const members = (await r.memberships.list(businessId, page, {})).items;
      return E.right({ business, branches, members });
    });
