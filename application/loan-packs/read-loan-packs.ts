import * as E from 'fp-ts/lib/Either.js';
import { checkLoanPackDownload, type LoanPackPaymentRequired } from '../../domain/plan.js';
import type { Actor } from '../../domain/roles.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { readLoanPackDocument, type LoanPackDocument } from './document.js';
import type { LoanPack, LoanPackRepositories } from './ports.js';

type Deps = { uow: UnitOfWork<LoanPackRepositories> };

/** The business's packs, newest first unless asked otherwise. */
export const listLoanPacks =
  (deps: Deps) =>
  (actor: Actor, page: PageRequest<'created_at'>): Promise<Page<LoanPack>> =>
    deps.uow.read((r) => r.loanPacks.list(actor.businessId, page));

export const getLoanPack =
  (deps: Deps) =>
  async (actor: Actor, reference: string): Promise<E.Either<NotFound, LoanPack>> => {
    const pack = await deps.uow.read((r) => r.loanPacks.findByReference(actor.businessId, reference));
    return pack ? E.right(pack) : E.left(notFound);
  };

/** The pack's frozen document, once it may be downloaded: paid, or made on a plan that includes packs. */
export const downloadLoanPack =
  (deps: { uow: UnitOfWork<LoanPackRepositories & Pick<BusinessRepositories, 'businesses'>> }) =>
  async (actor: Actor, reference: string): Promise<E.Either<NotFound | LoanPackPaymentRequired, LoanPack>> =>
    deps.uow.read(async (r) => {
      const pack = await r.loanPacks.findByReference(actor.businessId, reference);
      if (!pack) return E.left(notFound);
      const business = (await r.businesses.findById(actor.businessId))!;
      const gate = checkLoanPackDownload(business.plan, { reference, ready: pack.status === 'READY', price: pack.price });
      return gate ? E.left(gate) : E.right(pack);
    });

/** Compares two lowercase hex strings without stopping at the first difference. */
const sameHex = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
};

export interface VerifiedLoanPack {
  readonly reference: string;
  readonly businessName: string;
  readonly months: number;
  readonly periodStart: string;
  readonly periodEnd: string;
  readonly createdAt: Date;
  readonly sha256: string;
  readonly totals: LoanPackDocument['totals'];
}

/**
 * A lender checks a pack it was sent: the reference and the SHA-256 printed on it (or computed over the
 * JSON) must both match a ready pack. An unknown reference and a wrong hash answer alike (NotFound),
 * so references cannot be probed.
 */
export const verifyLoanPackDocument =
  (deps: Deps) =>
  async (reference: string, sha256: string): Promise<E.Either<NotFound, VerifiedLoanPack>> => {
    const pack = await deps.uow.read((r) => r.loanPacks.findAnyByReference(reference));
    if (!pack || pack.status !== 'READY' || !sameHex(pack.sha256, sha256.toLowerCase())) return E.left(notFound);
    const doc = readLoanPackDocument(pack.document);
    return E.right({
      reference: pack.reference, businessName: doc.business.name, months: pack.months, periodStart: pack.periodStart, periodEnd: pack.periodEnd,
      createdAt: pack.createdAt, sha256: pack.sha256, totals: doc.totals,
    });
  };
