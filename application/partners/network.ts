import * as E from 'fp-ts/lib/Either.js';
import type { Partner } from '../../domain/partner.js';
import type { Actor } from '../../domain/roles.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { Clock } from '../ports/clock.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { PartnerRepositories, PartnerRepository } from './ports.js';

// A merchant joins a partner's network by its code and leaves it at will (docs/adr/0033). Each is
// the owner's consent, logged with its time; the partner sees the business's figures only meanwhile.

/** No active partner has this code. */
export type UnknownPartnerCode = { readonly _tag: 'UnknownPartnerCode' };
/** The business is already in another partner's network: it leaves that one first. */
export type AlreadyInPartnerNetwork = { readonly _tag: 'AlreadyInPartnerNetwork' };

/** The partner a business's network membership names, as the merchant sees it. */
export interface BusinessPartner {
  readonly partner: Partner;
  readonly joinedAt: Date;
}

/** The active partner with `code`, ignoring case and surrounding spaces. */
export const partnerByCode = async (partners: PartnerRepository, code: string): Promise<Partner | undefined> => {
  const p = await partners.findByCode(code.trim());
  return p?.status === 'ACTIVE' ? p : undefined;
};

type Deps = { uow: UnitOfWork<PartnerRepositories & EventRepositories>; clock: Clock };

/** The partner whose network the caller's business is in, if any. */
export const getBusinessPartner =
  (deps: Pick<Deps, 'uow'>) =>
  async (actor: Actor): Promise<BusinessPartner | undefined> =>
    deps.uow.read(async (r) => {
      const m = await r.partnerNetwork.membershipOf(actor.businessId);
      const partner = m && (await r.partners.findById(m.partnerId));
      return m && partner ? { partner, joinedAt: m.joinedAt } : undefined;
    });

/** Joins the partner's network (the owner's consent). Joining the network the business is in changes nothing. */
export const joinPartnerNetwork =
  (deps: Deps) =>
  async (actor: Actor, code: string): Promise<E.Either<UnknownPartnerCode | AlreadyInPartnerNetwork, BusinessPartner & { joined: boolean }>> =>
    deps.uow.run(async (r) => {
      const partner = await partnerByCode(r.partners, code);
      if (!partner) return E.left({ _tag: 'UnknownPartnerCode' });
      const current = await r.partnerNetwork.membershipOf(actor.businessId, { lock: true });
      if (current) return current.partnerId === partner.id ? E.right({ partner, joinedAt: current.joinedAt, joined: false }) : E.left({ _tag: 'AlreadyInPartnerNetwork' });
      const joinedAt = deps.clock.now();
      await r.partnerNetwork.join({ businessId: actor.businessId, partnerId: partner.id, joinedAt }, actor.userId);
      await r.events.record(joinedAt, { _tag: 'MerchantJoinedNetwork', businessId: actor.businessId, partnerId: partner.id, joinedAt: joinedAt.toISOString() });
      return E.right({ partner, joinedAt, joined: true });
    });

/** Leaves the network (consent withdrawn): from now on the partner no longer sees the business. */
export const leavePartnerNetwork =
  (deps: Deps) =>
  async (actor: Actor): Promise<E.Either<NotFound, { partner: Partner; leftAt: Date }>> =>
    deps.uow.run(async (r) => {
      const current = await r.partnerNetwork.membershipOf(actor.businessId, { lock: true });
      const partner = current && (await r.partners.findById(current.partnerId));
      if (!current || !partner) return E.left(notFound);
      const leftAt = deps.clock.now();
      await r.partnerNetwork.leave(actor.businessId, leftAt, actor.userId);
      await r.events.record(leftAt, { _tag: 'MerchantLeftNetwork', businessId: actor.businessId, partnerId: partner.id, leftAt: leftAt.toISOString() });
      return E.right({ partner, leftAt });
    });
