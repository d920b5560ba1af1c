import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AccountDeactivated, SessionRevoked } from './errors.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { MemberCache } from '../ports/member-cache.js';

export type StaleToken = { readonly _tag: 'StaleToken' };

/**
 * Every authenticated request: the token's claims are checked against the membership and the session
 * as they are now (one read), so a deactivated member is refused from their next request, a changed
 * role applies at once, and an access token of a signed-out session stops working. With a member
 * cache the read may come from memory, which is forgotten on every change (docs/adr/0036).
 */
export const resolveActor =
  (deps: { uow: UnitOfWork<Pick<BusinessRepositories, 'memberships'>>; memberCache?: MemberCache }) =>
  async (claims: Actor, sessionId: string): Promise<E.Either<AccountDeactivated | StaleToken | SessionRevoked, Actor>> => {
    const read = () => deps.uow.read((r) => r.memberships.findByUserInSession(claims.userId, sessionId));
    const found = deps.memberCache ? await deps.memberCache.find(claims.userId, sessionId, read) : await read();
    if (!found || found.membership.businessId !== claims.businessId) return E.left({ _tag: 'StaleToken' });
    if (found.membership.status === 'DEACTIVATED') return E.left({ _tag: 'AccountDeactivated' });
    if (found.sessionRevoked) return E.left({ _tag: 'SessionRevoked' });
    return E.right({ userId: claims.userId, businessId: found.membership.businessId, roles: [found.membership.role], branchId: found.membership.branchId });
  };
