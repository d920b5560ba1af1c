import * as E from 'fp-ts/lib/Either.js';
import type { Business } from '../../domain/business.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from './errors.js';
import type { BusinessRepositories } from './ports.js';

/** The profile fields an owner may change; plan, currency and timezone are not among them. */
export type BusinessChanges = Partial<Pick<Business, 'name' | 'phone' | 'email' | 'address' | 'category' | 'logoUrl'>>;

/** Updates the fields present in `changes` (null clears an optional field). */
export const updateBusiness =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'>>; clock: Clock }) =>
  async (actor: Actor, changes: BusinessChanges): Promise<E.Either<NotFound, Business>> =>
    deps.uow.run(async (r) => {
      const business = await r.businesses.findById(actor.businessId);
      if (!business) return E.left(notFound);
      Object.assign(business, changes, { updatedAt: deps.clock.now() });
      await r.businesses.save(business);
      return E.right(business);
    });
