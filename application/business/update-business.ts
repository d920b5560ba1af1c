import * as E from 'fp-ts/lib/Either.js';
import type { Business } from '../../domain/business.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { EventRepositories } from '../ports/outbox.js';
import { notFound, type NotFound } from './errors.js';
import type { BusinessRepositories } from './ports.js';

/** The profile fields an owner may change; plan, currency and timezone are not among them. */
export type BusinessChanges = Partial<Pick<Business, 'name' | 'phone' | 'email' | 'address' | 'category' | 'logoUrl'>>;

/** Updates the fields present in `changes` (null clears an optional field). */
export const updateBusiness =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'> & EventRepositories>; clock: Clock }) =>
  async (actor: Actor, changes: BusinessChanges): Promise<E.Either<NotFound, Business>> =>
    deps.uow.run(async (r) => {
      const business = await r.businesses.findById(actor.businessId);
      if (!business) return E.left(notFound);
      // the fields that really change, before and after (the audit log's business.settings_changed)
      const changed = (Object.keys(changes) as (keyof BusinessChanges)[]).filter((k) => changes[k] !== undefined && changes[k] !== business[k]);
      const before = Object.fromEntries(changed.map((k) => [k, business[k]]));
      Object.assign(business, changes, { updatedAt: deps.clock.now() });
      await r.businesses.save(business);
      if (changed.length > 0) {
        const after = Object.fromEntries(changed.map((k) => [k, business[k]]));
        await r.events.record(business.updatedAt, { _tag: 'BusinessSettingsChanged', businessId: business.id, businessName: business.name, before, after });
      }
      return E.right(business);
    });
