import * as E from 'fp-ts/lib/Either.js';
import { identifierKey, type Identifier } from '../../domain/identifier.js';
import { judgeAttempt } from '../../domain/otp.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { TokenIssuer } from '../ports/token-issuer.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { AccountDeactivated, InvalidOtp, InvitationExpired, OtpExpired } from './errors.js';
import { isLapsedInvitation, type Membership, type User } from '../../domain/business.js';
import { startSession, UNKNOWN_DEVICE, type TokenPair } from './sessions.js';
import type { AuthRepositories, SessionDevice } from './ports.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { EventRepositories } from '../ports/outbox.js';

export interface SignedIn extends TokenPair {
  /** True when this code activated a new registration (the spec's `verified`). */
  readonly firstVerification: boolean;
}

/**
 * verify-otp: checks the newest sign-in code for the identifier (single use, at most 5 wrong
 * tries, 10 minutes). The first success activates the registration; an invited member becomes
 * ACTIVE. Starts a new session (token family) for the device.
 */
export const verifySignInCode =
  (deps: { uow: UnitOfWork<AuthRepositories & Pick<BusinessRepositories, 'memberships'> & EventRepositories>; clock: Clock; crypto: Crypto; tokens: TokenIssuer }) =>
  async (identifier: Identifier, code: string, device: SessionDevice = UNKNOWN_DEVICE): Promise<E.Either<InvalidOtp | OtpExpired | AccountDeactivated | InvitationExpired, SignedIn>> =>
    deps.uow.run(async (repos) => {
      const key = identifierKey(identifier);
      await repos.otps.lockIdentifier(key);
      const latest = await repos.otps.latest(key, 'SIGN_IN');
      const now = deps.clock.now();
      const verdict = judgeAttempt(latest, deps.crypto.hashOtp(key, code), now);
      if (latest) await repos.otps.save(latest); // a wrong try is counted even though we answer 400
      if (!verdict.ok) return E.left(verdict.failure);

      const user = await repos.users.findByIdentifier(identifier);
      const membership = user && (await repos.memberships.findByUser(user.id));
      if (!user || !membership) return E.left({ _tag: 'InvalidOtp' as const });
      return admitMember(deps, repos, user, membership, device);
    });

/**
 * A proven sign-in of a member (a right code, or a Google token): refused when the member is
 * deactivated or the invitation lapsed; the first one verifies the user and an invitation becomes
 * ACTIVE. Starts a new session for the device. Runs in the sign-in's transaction.
 */
export const admitMember = async (
  deps: { clock: Clock; crypto: Crypto; tokens: TokenIssuer },
  repos: Pick<AuthRepositories, 'users' | 'refreshTokens' | 'sessions'> & Pick<BusinessRepositories, 'memberships'> & EventRepositories,
  user: User,
  membership: Membership,
  device: SessionDevice,
): Promise<E.Either<AccountDeactivated | InvitationExpired, SignedIn>> => {
  const now = deps.clock.now();
  if (membership.status === 'DEACTIVATED') return E.left({ _tag: 'AccountDeactivated' as const });
  if (isLapsedInvitation(membership, now)) return E.left({ _tag: 'InvitationExpired' as const });

  const firstVerification = user.verifiedAt === null;
  if (firstVerification) {
    user.verifiedAt = now;
    user.updatedAt = now;
    await repos.users.save(user);
  }
  if (membership.status === 'INVITED') {
    membership.status = 'ACTIVE';
    membership.updatedAt = now;
    await repos.memberships.save(membership);
  }
  const actor = { userId: user.id, businessId: membership.businessId, roles: [membership.role] };
  const pair = await startSession(deps, repos, actor, device);
  return E.right({ ...pair, firstVerification });
};
