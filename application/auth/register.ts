import * as E from 'fp-ts/lib/Either.js';
import { DEFAULT_CURRENCY, DEFAULT_TIMEZONE, newUser, type User } from '../../domain/business.js';
import { identifierKey, type Identifier } from '../../domain/identifier.js';
import { DEFAULT_PLAN } from '../../domain/plan.js';
import { DEFAULT_VAT_SETTINGS } from '../../domain/vat.js';
import { DEFAULT_INVOICE_SETTINGS } from '../../domain/invoice.js';
import { defaultExpenseCategories } from '../../domain/expense.js';
import type { ExpenseRepositories } from '../expenses/ports.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import type { DuplicateIdentifier, OtpSendRefused } from './errors.js';
import { issueCode, type OtpDeps } from './otp-delivery.js';
import { releaseUnheldMembership } from '../business/identity-claim.js';
import type { AuthRepositories } from './ports.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { PartnerRepositories } from '../partners/ports.js';
import { partnerByCode, type UnknownPartnerCode } from '../partners/network.js';

export interface RegisterCommand {
  readonly identifier: Identifier;
  readonly firstName: string;
  readonly lastName: string;
  readonly businessName: string;
  /** A partner's code: the new business joins that partner's network (the owner's consent, logged). */
  readonly partnerCode?: string;
}

export interface Registered {
  readonly userId: string;
  readonly identifier: Identifier;
  readonly otpExpiresAt: Date;
}

export type RegisterFailure = DuplicateIdentifier | OtpSendRefused | UnknownPartnerCode;

type OpenBusinessRepos = Pick<AuthRepositories, 'users'> & BusinessRepositories & Pick<ExpenseRepositories, 'expenseCategories'>;

/**
 * The account a registration opens (/auth/register and a first Google sign-in alike): the user (or
 * `existing`, a person whose membership elsewhere no longer holds them), their business (FREE,
 * Africa/Lagos, NGN), its default branch, the owner membership and the default expense categories.
 * Call it in the registration's transaction, under the identifier's lock.
 */
export const openOwnedBusiness = async (
  deps: Pick<OtpDeps, 'crypto'>,
  repos: OpenBusinessRepos,
  cmd: RegisterCommand & { readonly existing: User | undefined },
  now: Date,
): Promise<{ readonly user: User; readonly businessId: string }> => {
  const { existing } = cmd;
  const businessId = deps.crypto.uuid();
  const branchId = deps.crypto.uuid();
  const user = existing ? Object.assign(existing, { firstName: cmd.firstName, lastName: cmd.lastName, updatedAt: now }) : newUser(deps.crypto.uuid(), cmd.identifier, cmd.firstName, cmd.lastName, now);
  if (existing) await repos.users.save(user);
  else await repos.users.add(user);
  await repos.businesses.add({
    id: businessId,
    name: cmd.businessName,
    phone: cmd.identifier.kind === 'phone' ? cmd.identifier.value : null,
    email: cmd.identifier.kind === 'email' ? cmd.identifier.value : null,
    address: null,
    category: null,
    logoUrl: null,
    plan: DEFAULT_PLAN,
    ...DEFAULT_VAT_SETTINGS,
    ...DEFAULT_INVOICE_SETTINGS,
    currency: DEFAULT_CURRENCY,
    timezone: DEFAULT_TIMEZONE,
    createdAt: now,
    updatedAt: now,
  });
  await repos.branches.add({
    id: branchId,
    businessId,
    name: 'Main branch',
    address: null,
    phone: null,
    isDefault: true,
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await repos.memberships.add({
    id: deps.crypto.uuid(),
    businessId,
    userId: user.id,
    role: 'BUSINESS_OWNER',
    branchId,
    status: 'ACTIVE',
    createdAt: now,
    updatedAt: now,
  });
  for (const c of defaultExpenseCategories(businessId, deps.crypto.uuid, now)) await repos.expenseCategories.add(c);
  return { user, businessId };
};

/**
 * Opens the account (openOwnedBusiness) in one transaction, with the sign-in code that activates it
 * (sent after the commit, through the outbox).
 */
export const register =
  (deps: OtpDeps & { uow: UnitOfWork<Pick<AuthRepositories, 'users' | 'otps'> & BusinessRepositories & Pick<ExpenseRepositories, 'expenseCategories'> & EventRepositories & PartnerRepositories> }) =>
  async (cmd: RegisterCommand, requester: string | null = null): Promise<E.Either<RegisterFailure, Registered>> => {
    return deps.uow.run(async (repos) => {
      const partner = cmd.partnerCode === undefined ? undefined : await partnerByCode(repos.partners, cmd.partnerCode);
      if (cmd.partnerCode !== undefined && !partner) return E.left<RegisterFailure>({ _tag: 'UnknownPartnerCode' });
      // Two registrations of one identifier at once: the second waits here, then sees the first.
      await repos.otps.lockIdentifier(identifierKey(cmd.identifier));
      const now = deps.clock.now();
      const existing = await repos.users.findByIdentifier(cmd.identifier);
      // A pending invitation does not stop the person registering: it is closed (ADR 0042).
      const claim = existing && (await releaseUnheldMembership(repos, existing.id, now, 'yield'));
      if (claim === 'held') return E.left<RegisterFailure>({ _tag: 'DuplicateIdentifier', kind: cmd.identifier.kind });
      // A person once invited (or deactivated) elsewhere keeps their user: the same phone, now with their own business.
      const { user, businessId } = await openOwnedBusiness(deps, repos, { ...cmd, existing }, now);
      if (partner) {
        await repos.partnerNetwork.join({ businessId, partnerId: partner.id, joinedAt: now }, user.id);
        await repos.events.record(now, { _tag: 'MerchantJoinedNetwork', businessId, partnerId: partner.id, joinedAt: now.toISOString() });
      }
      const issued = await issueCode(deps, repos, cmd.identifier, 'SIGN_IN', true, businessId, requester);
      // A refused code (cap reached for this identifier) must not leave a half-made account behind.
      if (!issued.ok) return rollback(E.left<RegisterFailure>(issued.refusal));
      return E.right({ userId: user.id, identifier: cmd.identifier, otpExpiresAt: issued.code.expiresAt });
    });
  };
