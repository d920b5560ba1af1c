import type { User } from '../../domain/business.js';
import type { Identifier } from '../../domain/identifier.js';
import type { OtpCode, OtpPurpose } from '../../domain/otp.js';
import type { Page, PageRequest } from '../ports/list.js';

// The auth module's ports: people, their sign-in codes, refresh tokens and sessions.

/** Users are global (a person signs in before any business is known). */
export interface UserRepository {
  findById(userId: string): Promise<User | undefined>;
  findByIdentifier(identifier: Identifier): Promise<User | undefined>;
  add(user: User): Promise<void>;
  save(user: User): Promise<void>;
}

/** Sign-in and verification codes, by identifier (a phone or e-mail, see `identifierKey`). */
export interface OtpRepository {
  /** Serialises concurrent sends and checks for one identifier until the transaction ends. */
  lockIdentifier(identifierKey: string): Promise<void>;
  /** Codes for the identifier created after `since`, any purpose. */
  createdSince(identifierKey: string, since: Date): Promise<OtpCode[]>;
  /** The newest code for the identifier and purpose. */
  latest(identifierKey: string, purpose: OtpPurpose): Promise<OtpCode | undefined>;
  add(code: OtpCode): Promise<void>;
  save(code: OtpCode): Promise<void>;
}

export interface RefreshToken {
  readonly id: string;
  readonly familyId: string;
  readonly userId: string;
  readonly tokenHash: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

/** Refresh tokens: each rotation adds one to its family (the session), a reuse revokes the family. */
export interface RefreshTokenRepository {
  /** Finds and locks the token row for the rest of the transaction. */
  findByHashForUpdate(tokenHash: string): Promise<RefreshToken | undefined>;
  add(token: RefreshToken): Promise<void>;
  save(token: RefreshToken): Promise<void>;
  /** Ends the session the family is: its refresh tokens and the session row (so its access tokens too). */
  revokeFamily(familyId: string, at: Date): Promise<void>;
  /** Ends every session of the user, as `revokeFamily` does. */
  revokeAllForUser(userId: string, at: Date): Promise<void>;
}

/** Where a session was last used from, as the HTTP edge saw it (absent for programs that embed us). */
export interface SessionDevice {
  readonly userAgent: string | null;
  readonly ip: string | null;
}

/**
 * A signed-in device: one per sign-in, the family of refresh tokens it rotates through (its id is
 * the family id and the access tokens' `sid`).
 */
export interface Session extends SessionDevice {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: Date;
  /** The sign-in or the latest refresh. */
  readonly lastUsedAt: Date;
  /** When its current refresh token expires. */
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
}

export const SESSION_SORTS = ['last_used_at', 'created_at'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/** A user's sessions; every method filters on the user, so no one reads or ends another's session. */
export interface SessionRepository {
  add(session: Session): Promise<void>;
  /** A refresh: the session was used at `at` from `device`, and now lives until `expiresAt`. */
  touch(userId: string, sessionId: string, at: Date, expiresAt: Date, device: SessionDevice): Promise<void>;
  /** Whether the user had signed in before (any session, live or ended), and from this user agent (docs/adr/0069). */
  history(userId: string, userAgent: string): Promise<{ readonly signedInBefore: boolean; readonly fromThisDevice: boolean }>;
  /** The user's live sessions (not revoked, not expired at `now`). search: user agent, IP. */
  list(userId: string, now: Date, page: PageRequest<SessionSort>): Promise<Page<Session>>;
  /** Ends the user's session (live at `at`) and its refresh tokens; false when the user has no such live session. */
  revoke(userId: string, sessionId: string, at: Date): Promise<boolean>;
}

/** A Google account (its stable `sub`) linked to a user; `email` is the address Google vouched for when it was linked. */
export interface GoogleIdentity {
  readonly subject: string;
  readonly userId: string;
  readonly email: string;
  readonly linkedAt: Date;
}

/** Google accounts linked to users: at most one per user, and one user per Google account. */
export interface GoogleIdentityRepository {
  findBySubject(subject: string): Promise<GoogleIdentity | undefined>;
  findByUser(userId: string): Promise<GoogleIdentity | undefined>;
  /** Fails (a fault) when the subject or the user is already linked: callers check first, under the lock. */
  add(identity: GoogleIdentity): Promise<void>;
}

/** The auth module's repositories, as a unit of work hands them to a use case. */
export interface AuthRepositories {
  readonly users: UserRepository;
  readonly otps: OtpRepository;
  readonly refreshTokens: RefreshTokenRepository;
  readonly sessions: SessionRepository;
  readonly googleIdentities: GoogleIdentityRepository;
}
