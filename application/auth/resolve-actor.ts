import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AccountDeactivated, SessionRevoked } from './errors.js';
import type { BusinessRepositories } from '../business/ports.js';

export type StaleToken = { readonly _tag: 'StaleToken' };

/**
 * Every authenticated request: the token's claims are checked against the membership and the session
 * as they are now (one read), so a deactivated member is refused from their next request, a changed
 * role applies at once, and an access token of a signed-out session stops working.
 */
export const resolveActor =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'memberships'>> }) =>
  async (claims: Actor, sessionId: string): Promise<E.Either<AccountDeactivated | StaleToken | SessionRevoked, Actor>> => {
    const found = await deps.uow.read((r) => r.memberships.findByUserInSession(claims.userId, sessionId));
    if (!found || found.membership.businessId !== claims.businessId) return E.left({ _tag: 'StaleToken' });
    if (found.membership.status === 'DEACTIVATED') return E.left({ _tag: 'AccountDeactivated' });
    if (found.sessionRevoked) return E.left({ _tag: 'SessionRevoked' });
    return E.right({ userId: claims.userId, businessId: found.membership.businessId, roles: [found.membership.role], branchId: found.membership.branchId });
  };
