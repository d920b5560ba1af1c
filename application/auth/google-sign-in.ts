import * as E from 'fp-ts/lib/Either.js';
import { holdsIdentity } from '../../domain/business.js';
import { emailIdentifier, identifierKey } from '../../domain/identifier.js';
import type { Actor } from '../../domain/roles.js';
import type { ExpenseRepositories } from '../expenses/ports.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { TokenIssuer } from '../ports/token-issuer.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { EventRepositories } from '../ports/outbox.js';
import { releaseUnheldMembership } from '../business/identity-claim.js';
import type { BusinessRepositories } from '../business/ports.js';
import type {
  AccountDeactivated,
  BusinessNameRequired,
  GoogleAccountInUse,
  GoogleAccountMismatch,
  GoogleEmailNotVerified,
  GoogleSignInNotConfigured,
  GoogleTokenRejected,
  GoogleUnavailable,
  InvitationExpired,
} from './errors.js';
import type { GoogleIdentityClaims, GoogleIdentityVerifier } from './google-identity-verifier.js';
import type { AuthRepositories, GoogleIdentity, SessionDevice } from './ports.js';
import { openOwnedBusiness } from './register.js';
import { UNKNOWN_DEVICE } from './sessions.js';
import { admitMember, type SignedIn } from './verify-sign-in-code.js';

export interface GoogleDeps {
  readonly clock: Clock;
  readonly crypto: Crypto;
  readonly tokens: TokenIssuer;
  /** Absent when the deployment names no Google client: Google sign-in is off. */
  readonly google?: GoogleIdentityVerifier;
}

type TokenFailure = GoogleSignInNotConfigured | GoogleUnavailable | GoogleTokenRejected | GoogleEmailNotVerified;

export interface GoogleSignInCommand {
  readonly idToken: string;
  /** Registers a business for a person Google vouches for but this API does not know yet. */
  readonly businessName?: string | undefined;
  readonly device?: SessionDevice;
}

export type GoogleSignInFailure = TokenFailure | BusinessNameRequired | GoogleAccountMismatch | AccountDeactivated | InvitationExpired;
export type LinkGoogleFailure = TokenFailure | GoogleAccountInUse | GoogleAccountMismatch;

const NAME_MAX = 100;
const clean = (s: string | undefined) => s?.replace(/\u0000/g, '').trim().slice(0, NAME_MAX) ?? '';

/** The user's names as Google gives them: given and family names, else the full name split, else the e-mail's local part. */
export const namesFromGoogle = (c: GoogleIdentityClaims): { firstName: string; lastName: string } => {
  const [first, ...rest] = clean(c.name).split(/\s+/).filter(Boolean);
  return {
    firstName: clean(c.givenName) || clean(first) || clean(c.email.split('@')[0]),
    lastName: clean(c.familyName) || clean(rest.join(' ')),
  };
};

/** The token checked, and Google vouching for its e-mail. */
const verifiedClaims = async (deps: GoogleDeps, idToken: string): Promise<E.Either<TokenFailure, GoogleIdentityClaims>> => {
  if (!deps.google) return E.left({ _tag: 'GoogleSignInNotConfigured' });
  const verified = await deps.google.verify(idToken);
  if (E.isRight(verified) && !verified.right.emailVerified) return E.left({ _tag: 'GoogleEmailNotVerified' });
  return verified;
};

// Advisory-lock keys (the identifier lock of the OTP port): always the Google account's first, then
// the e-mail's or the user's, so sign-ins, links and /auth/register never wait on each other in a cycle.
const subjectKey = (subject: string) => `google:${subject}`;
const userKey = (userId: string) => `google-user:${userId}`;

type SignInRepos = AuthRepositories & BusinessRepositories & Pick<ExpenseRepositories, 'expenseCategories'> & EventRepositories;

/**
 * POST /auth/google: a person Google vouches for signs in, found by their linked Google account,
 * else by the verified e-mail (whose account is then linked); unknown to us, they register with
 * `businessName` as /auth/register does, already verified. A user linked to another Google account
 * is refused (an e-mail address can change hands; the Google account cannot). Answers tokens as
 * verify-otp does.
 */
export const signInWithGoogle =
  (deps: GoogleDeps & { uow: UnitOfWork<SignInRepos> }) =>
  async (cmd: GoogleSignInCommand): Promise<E.Either<GoogleSignInFailure, SignedIn>> => {
    const claims = await verifiedClaims(deps, cmd.idToken);
    if (E.isLeft(claims)) return claims;
    const { subject, email } = claims.right;
    const identifier = emailIdentifier(email);
    const device = cmd.device ?? UNKNOWN_DEVICE;
    return deps.uow.run(async (repos): Promise<E.Either<GoogleSignInFailure, SignedIn>> => {
      await repos.otps.lockIdentifier(subjectKey(subject));
      await repos.otps.lockIdentifier(identifierKey(identifier));
      const now = deps.clock.now();
      const linked = await repos.googleIdentities.findBySubject(subject);
      const user = linked ? await repos.users.findById(linked.userId) : await repos.users.findByIdentifier(identifier);
      if (user && !linked) {
        await repos.otps.lockIdentifier(userKey(user.id));
        if (await repos.googleIdentities.findByUser(user.id)) return E.left({ _tag: 'GoogleAccountMismatch' });
      }
      const link = async (userId: string) => {
        if (!linked) await repos.googleIdentities.add({ subject, userId, email: identifier.value, linkedAt: now });
      };

      const membership = user && (await repos.memberships.findByUser(user.id));
      // A member signs in; without a business name, a former one hears why not (as verify-otp answers).
      if (user && membership && (holdsIdentity(membership, now) || !cmd.businessName)) {
        const admitted = await admitMember(deps, repos, user, membership, device);
        if (E.isRight(admitted)) await link(user.id);
        return admitted;
      }
      if (!cmd.businessName) return E.left({ _tag: 'BusinessNameRequired' });
      // Someone new, or whose membership no longer holds them: registers, as /auth/register would let them.
      if (user) await releaseUnheldMembership(repos, user.id, now);
      const names = namesFromGoogle(claims.right);
      const opened = await openOwnedBusiness(deps, repos, { identifier, ...names, businessName: cmd.businessName, existing: user }, now);
      await link(opened.user.id);
      const owner = await repos.memberships.findByUser(opened.user.id);
      return admitMember(deps, repos, opened.user, owner!, device);
    });
  };

/**
 * POST /auth/google/link: links the Google account to the signed-in user, so they can sign in with it.
 * Linking the same account again is a no-op; one linked to another user, or a second Google account
 * for this user, is refused.
 */
export const linkGoogleIdentity =
  (deps: GoogleDeps & { uow: UnitOfWork<Pick<AuthRepositories, 'otps' | 'googleIdentities'>> }) =>
  async (actor: Actor, idToken: string): Promise<E.Either<LinkGoogleFailure, GoogleIdentity>> => {
    const claims = await verifiedClaims(deps, idToken);
    if (E.isLeft(claims)) return claims;
    const { subject, email } = claims.right;
    return deps.uow.run(async (repos): Promise<E.Either<LinkGoogleFailure, GoogleIdentity>> => {
      await repos.otps.lockIdentifier(subjectKey(subject));
      await repos.otps.lockIdentifier(userKey(actor.userId));
      const linked = await repos.googleIdentities.findBySubject(subject);
      if (linked) return linked.userId === actor.userId ? E.right(linked) : E.left({ _tag: 'GoogleAccountInUse' });
      if (await repos.googleIdentities.findByUser(actor.userId)) return E.left({ _tag: 'GoogleAccountMismatch' });
      const identity: GoogleIdentity = { subject, userId: actor.userId, email: emailIdentifier(email).value, linkedAt: deps.clock.now() };
      await repos.googleIdentities.add(identity);
      return E.right(identity);
    });
  };
