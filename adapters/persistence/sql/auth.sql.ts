import type { Sql } from './sql-session.js';
import { memberChangedHere } from './member-cache.js';
import type { AuthRepositories, GoogleIdentity, GoogleIdentityRepository, OtpRepository, RefreshToken, RefreshTokenRepository, UserRepository } from '../../../application/auth/ports.js';
import type { User } from '../../../domain/business.js';
import type { OtpCode } from '../../../domain/otp.js';
import type { E164Phone } from '../../../domain/phone.js';
import { asDate, asOptionalDate } from './keyset.sql.js';
import { sqlSessions } from './sessions.sql.js';
import { firstRow, insertRow, type Row } from './sql-helpers.js';

// Every table is read and written with immediate SQL on the transaction (docs/adr/0019): a write is
// seen by the next read of the same unit of work, whichever repository makes it.

const USER_COLUMNS = 'id, phone, email, first_name, last_name, verified_at, created_at, updated_at';

const userFromRow = (r: Row): User => ({
  id: String(r.id),
  phone: (r.phone as E164Phone | null) ?? null,
  email: (r.email as string | null) ?? null,
  firstName: String(r.first_name),
  lastName: String(r.last_name),
  verifiedAt: asOptionalDate(r.verified_at),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
});

const sqlUsers = (db: Sql): UserRepository => {
  const findWhere = (column: 'id' | 'phone' | 'email', value: string) => firstRow(db, `select ${USER_COLUMNS} from users where ${column} = ?`, [value], userFromRow);
  return {
    findById: (id) => findWhere('id', id),
    findByIdentifier: (identifier) => findWhere(identifier.kind === 'phone' ? 'phone' : 'email', identifier.value),
    add: (u) => insertRow(db, 'users', USER_COLUMNS, [u.id, u.phone, u.email, u.firstName, u.lastName, u.verifiedAt, u.createdAt, u.updatedAt]),
    save: async (u) => {
      await db.execute('update users set phone = ?, email = ?, first_name = ?, last_name = ?, verified_at = ?, updated_at = ? where id = ?', [
        u.phone, u.email, u.firstName, u.lastName, u.verifiedAt, u.updatedAt, u.id,
      ]);
    },
  };
};

const OTP_COLUMNS = 'id, identifier_key, purpose, code_hash, wrong_tries, consumed_at, created_at, expires_at, requested_by';

const otpFromRow = (r: Row): OtpCode => ({
  id: String(r.id),
  identifierKey: String(r.identifier_key),
  purpose: r.purpose as OtpCode['purpose'],
  codeHash: String(r.code_hash),
  wrongTries: Number(r.wrong_tries),
  consumedAt: asOptionalDate(r.consumed_at),
  createdAt: asDate(r.created_at),
  expiresAt: asDate(r.expires_at),
  requestedBy: (r.requested_by as string | null) ?? null,
});

const sqlOtps = (db: Sql): OtpRepository => ({
  lockIdentifier: async (key) => {
    await db.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
  },
  createdSince: async (key, since) =>
    (await db.execute<Row[]>(`select ${OTP_COLUMNS} from otp_codes where identifier_key = ? and created_at > ? order by created_at`, [key, since])).map(otpFromRow),
  latest: (key, purpose) =>
    firstRow(db, `select ${OTP_COLUMNS} from otp_codes where identifier_key = ? and purpose = ? order by created_at desc limit 1`, [key, purpose], otpFromRow),
  add: (c) => insertRow(db, 'otp_codes', OTP_COLUMNS, [c.id, c.identifierKey, c.purpose, c.codeHash, c.wrongTries, c.consumedAt, c.createdAt, c.expiresAt, c.requestedBy]),
  // Only the tries and the use of a code change.
  save: async (c) => {
    await db.execute('update otp_codes set wrong_tries = ?, consumed_at = ? where id = ?', [c.wrongTries, c.consumedAt, c.id]);
  },
});

const TOKEN_COLUMNS = 'id, family_id, user_id, token_hash, expires_at, created_at, rotated_at, revoked_at';

const tokenFromRow = (r: Row): RefreshToken => ({
  id: String(r.id),
  familyId: String(r.family_id),
  userId: String(r.user_id),
  tokenHash: String(r.token_hash),
  expiresAt: asDate(r.expires_at),
  createdAt: asDate(r.created_at),
  rotatedAt: asOptionalDate(r.rotated_at),
  revokedAt: asOptionalDate(r.revoked_at),
});

/** Ends the matching sessions and their refresh tokens at `at` (those already ended keep their time). */
const revokeWhere = async (db: Sql, column: 'family_id' | 'user_id', value: string, at: Date) => {
  await db.execute(`update refresh_tokens set revoked_at = ? where ${column} = ? and revoked_at is null`, [at, value]);
  const ended = await db.execute<Row[]>(
    `update sessions set revoked_at = ? where ${column === 'family_id' ? 'id' : 'user_id'} = ? and revoked_at is null returning user_id`,
    [at, value],
  );
  for (const { user_id } of ended) db.afterCommit(() => memberChangedHere(String(user_id)));
};

const sqlRefreshTokens = (db: Sql): RefreshTokenRepository => ({
  findByHashForUpdate: (tokenHash) => firstRow(db, `select ${TOKEN_COLUMNS} from refresh_tokens where token_hash = ? for update`, [tokenHash], tokenFromRow),
  add: (t) => insertRow(db, 'refresh_tokens', TOKEN_COLUMNS, [t.id, t.familyId, t.userId, t.tokenHash, t.expiresAt, t.createdAt, t.rotatedAt, t.revokedAt]),
  // Only the rotation and the revocation of a token change.
  save: async (t) => {
    await db.execute('update refresh_tokens set rotated_at = ?, revoked_at = ? where id = ?', [t.rotatedAt, t.revokedAt, t.id]);
  },
  revokeFamily: (familyId, at) => revokeWhere(db, 'family_id', familyId, at),
  revokeAllForUser: (userId, at) => revokeWhere(db, 'user_id', userId, at),
});

const GOOGLE_COLUMNS = 'subject, user_id, email, linked_at';

const googleFromRow = (r: Row): GoogleIdentity => ({ subject: String(r.subject), userId: String(r.user_id), email: String(r.email), linkedAt: asDate(r.linked_at) });

const sqlGoogleIdentities = (db: Sql): GoogleIdentityRepository => ({
  findBySubject: (subject) => firstRow(db, `select ${GOOGLE_COLUMNS} from google_identities where subject = ?`, [subject], googleFromRow),
  findByUser: (userId) => firstRow(db, `select ${GOOGLE_COLUMNS} from google_identities where user_id = ?`, [userId], googleFromRow),
  add: (g) => insertRow(db, 'google_identities', GOOGLE_COLUMNS, [g.subject, g.userId, g.email, g.linkedAt]),
});

/** The auth module over one transaction's Sql: users, sign-in codes, refresh tokens, sessions and linked Google accounts. */
export const sqlAuthModule = (db: Sql): AuthRepositories => ({
  users: sqlUsers(db),
  otps: sqlOtps(db),
  refreshTokens: sqlRefreshTokens(db),
  sessions: sqlSessions(db),
  googleIdentities: sqlGoogleIdentities(db),
});
