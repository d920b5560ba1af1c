import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AccountDeactivated } from './errors.js';

export type StaleToken = { readonly _tag: 'StaleToken' };

/**
 * Every authenticated request: the token's claims are checked against the membership as it is now,
 * so a deactivated member is refused from their next request and a changed role applies at once.
 */
export const resolveActor =
  (deps: { uow: UnitOfWork }) =>
  async (claims: Actor): Promise<E.Either<AccountDeactivated | StaleToken, Actor>> => {
    const membership = await deps.uow.read((r) => r.memberships.findByUser(claims.userId));
    if (!membership || membership.businessId !== claims.businessId) return E.left({ _tag: 'StaleToken' });
    if (membership.status === 'DEACTIVATED') return E.left({ _tag: 'AccountDeactivated' });
    return E.right({ userId: claims.userId, businessId: membership.businessId, roles: [membership.role] });
  };
