import * as E from 'fp-ts/lib/Either.js';
import type { Business } from '../../domain/business.js';
import { checkVatSettings, type TinRequired } from '../../domain/vat.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from './errors.js';
import type { BusinessRepositories } from './ports.js';

/** The profile fields an owner may change, VAT settings among them; plan, currency and timezone are not. */
export type BusinessChanges = Partial<Pick<Business, 'name' | 'phone' | 'email' | 'address' | 'category' | 'logoUrl' | 'vatRegistered' | 'tin' | 'vatRate' | 'pricesIncludeVat'>>;

export type { TinRequired } from '../../domain/vat.js';

/**
 * Updates the fields present in `changes` (null clears an optional field). A VAT-registered business
 * keeps a TIN (docs/adr/0054). New VAT settings apply to sales from then on: each sale keeps the rate and
 * mode it was made with.
 */
export const updateBusiness =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'>>; clock: Clock }) =>
  async (actor: Actor, changes: BusinessChanges): Promise<E.Either<NotFound | TinRequired, Business>> =>
    deps.uow.run(async (r) => {
      const business = await r.businesses.findById(actor.businessId);
      if (!business) return E.left(notFound);
      Object.assign(business, changes, { updatedAt: deps.clock.now() });
      const broken = checkVatSettings(business);
      if (broken) return E.left(broken);
      await r.businesses.save(business);
      return E.right(business);
    });
