import * as E from 'fp-ts/lib/Either.js';
import type { Business } from '../../domain/business.js';
import { basisPointsToPercent, checkVatSettings, type TinRequired } from '../../domain/vat.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { EventRepositories } from '../ports/outbox.js';
import { notFound, type NotFound } from './errors.js';
import type { BusinessRepositories } from './ports.js';

/** The profile fields an owner may change, VAT settings among them; plan, currency and timezone are not. */
export type BusinessChanges = Partial<Pick<Business, 'name' | 'phone' | 'email' | 'address' | 'category' | 'logoUrl' | 'vatRegistered' | 'tin' | 'vatRate' | 'pricesIncludeVat' | 'paymentTermsDays' | 'bankName' | 'accountNumber' | 'accountName' | 'invoiceFooter'>>;

export type { TinRequired } from '../../domain/vat.js';

/**
 * Updates the fields present in `changes` (null clears an optional field). A VAT-registered business
 * keeps a TIN (docs/adr/0054). New VAT settings apply to sales from then on: each sale keeps the rate and
 * mode it was made with.
 */
export const updateBusiness =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'> & EventRepositories>; clock: Clock }) =>
  async (actor: Actor, changes: BusinessChanges): Promise<E.Either<NotFound | TinRequired, Business>> =>
    deps.uow.run(async (r) => {
      const business = await r.businesses.findById(actor.businessId);
      if (!business) return E.left(notFound);
      // the fields that really change, before and after (the audit log's business.settings_changed)
      const changed = (Object.keys(changes) as (keyof BusinessChanges)[]).filter((k) => changes[k] !== undefined && changes[k] !== business[k]);
      // as text: the VAT rate as its percentage (7.5), flags as true/false
      const text = (k: keyof BusinessChanges, v: Business[keyof BusinessChanges]) =>
        v === null || typeof v === 'string' ? v : k === 'vatRate' ? String(basisPointsToPercent(v as number)) : String(v);
      const before = Object.fromEntries(changed.map((k) => [k, text(k, business[k])]));
      Object.assign(business, changes, { updatedAt: deps.clock.now() });
      const broken = checkVatSettings(business);
      if (broken) return E.left(broken);
      await r.businesses.save(business);
      if (changed.length > 0) {
        const after = Object.fromEntries(changed.map((k) => [k, text(k, business[k])]));
        await r.events.record(business.updatedAt, { _tag: 'BusinessSettingsChanged', businessId: business.id, businessName: business.name, before, after });
      }
      return E.right(business);
    });
