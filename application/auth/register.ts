import * as E from 'fp-ts/lib/Either.js';
import { DEFAULT_CURRENCY, DEFAULT_TIMEZONE, newUser } from '../../domain/business.js';
import { identifierKey, type Identifier } from '../../domain/identifier.js';
import { DEFAULT_PLAN } from '../../domain/plan.js';
import { defaultExpenseCategories } from '../../domain/expense.js';
import type { ExpenseRepositories } from '../expenses/ports.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import type { DuplicateIdentifier, OtpSendRefused } from './errors.js';
import { issueCode, type OtpDeps } from './otp-delivery.js';
import { releaseUnheldMembership } from '../business/identity-claim.js';
import type { AuthRepositories } from './ports.js';
import type { BusinessRepositories } from '../business/ports.js';

export interface RegisterCommand {
  readonly identifier: Identifier;
  readonly firstName: string;
  readonly lastName: string;
  readonly businessName: string;
}

export interface Registered {
  readonly userId: string;
  readonly identifier: Identifier;
  readonly otpExpiresAt: Date;
}

export type RegisterFailure = DuplicateIdentifier | OtpSendRefused;

/**
 * Creates the user, their business (FREE, Africa/Lagos, NGN), its default branch and the owner
 * membership and its default expense categories in one transaction, with the sign-in code that
 * activates the account (sent after the commit, through the outbox).
 */
export const register =
  (deps: OtpDeps & { uow: UnitOfWork<Pick<AuthRepositories, 'users' | 'otps'> & BusinessRepositories & Pick<ExpenseRepositories, 'expenseCategories'> & EventRepositories> }) =>
  async (cmd: RegisterCommand): Promise<E.Either<RegisterFailure, Registered>> => {
    return deps.uow.run(async (repos) => {
      // Two registrations of one identifier at once: the second waits here, then sees the first.
      await repos.otps.lockIdentifier(identifierKey(cmd.identifier));
      const now = deps.clock.now();
      const existing = await repos.users.findByIdentifier(cmd.identifier);
      const claim = existing && (await releaseUnheldMembership(repos, existing.id, now));
      if (claim === 'held') return E.left<RegisterFailure>({ _tag: 'DuplicateIdentifier', kind: cmd.identifier.kind });
      // A person once invited (or deactivated) elsewhere keeps their user: the same phone, now with their own business.
      const userId = existing?.id ?? deps.crypto.uuid();
      const businessId = deps.crypto.uuid();
      const branchId = deps.crypto.uuid();
      if (existing) await repos.users.save(Object.assign(existing, { firstName: cmd.firstName, lastName: cmd.lastName, updatedAt: now }));
      else await repos.users.add(newUser(userId, cmd.identifier, cmd.firstName, cmd.lastName, now));
      await repos.businesses.add({
        id: businessId,
        name: cmd.businessName,
        phone: cmd.identifier.kind === 'phone' ? cmd.identifier.value : null,
        email: cmd.identifier.kind === 'email' ? cmd.identifier.value : null,
        address: null,
        category: null,
        logoUrl: null,
        plan: DEFAULT_PLAN,
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
        userId,
        role: 'BUSINESS_OWNER',
        branchId,
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      });
      for (const c of defaultExpenseCategories(businessId, deps.crypto.uuid, now)) await repos.expenseCategories.add(c);
      const issued = await issueCode(deps, repos, cmd.identifier, 'SIGN_IN', true, businessId);
      // A refused code (cap reached for this identifier) must not leave a half-made account behind.
      if (!issued.ok) return rollback(E.left<RegisterFailure>(issued.refusal));
      return E.right({ userId, identifier: cmd.identifier, otpExpiresAt: issued.code.expiresAt });
    });
  };
