import * as E from 'fp-ts/lib/Either.js';
import type { Business } from '../../domain/business.js';
import { DEFAULT_VAT_SETTINGS, type VatSettings } from '../../domain/vat.js';
import type { Actor } from '../../domain/roles.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { notFound, type NotFound } from './errors.js';
import type { BusinessRepositories } from './ports.js';

/** The caller's business. Any other id, even a real one, does not exist for the caller. */
export const getBusiness =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'>> }) =>
  async (actor: Actor, businessId: string = actor.businessId): Promise<E.Either<NotFound, Business>> => {
    if (businessId !== actor.businessId) return E.left(notFound);
    const business = await deps.uow.read((r) => r.businesses.findById(actor.businessId));
    return business ? E.right(business) : E.left(notFound);
  };

/** The business's VAT settings (docs/adr/0054): what a receipt, an export or a report of it shows. */
export const getVatSettings =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'businesses'>> }) =>
  async (actor: Actor): Promise<VatSettings> => {
    const b = await deps.uow.read((r) => r.businesses.findById(actor.businessId));
    return b ? { vatRegistered: b.vatRegistered, tin: b.tin, vatRate: b.vatRate, pricesIncludeVat: b.pricesIncludeVat } : DEFAULT_VAT_SETTINGS;
  };
