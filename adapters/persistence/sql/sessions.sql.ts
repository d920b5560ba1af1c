import type { Sql } from './sql-session.js';
import { memberChangedHere } from './member-cache.js';
import type { Session, SessionRepository, SessionSort } from '../../../application/auth/ports.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource } from './keyset.sql.js';

const COLUMNS = 'id, user_id, created_at, last_used_at, expires_at, user_agent, ip, revoked_at';

// The tenant of a session list is the user: no one lists another's sessions.
const SESSIONS: KeysetSource<SessionSort> = {
  select: COLUMNS,
  from: 'sessions',
  tenantColumn: 'user_id',
  idColumn: 'id',
  sort: { last_used_at: { column: 'last_used_at', type: 'timestamptz' }, created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['user_agent', 'ip'],
  dateColumn: 'created_at',
};

const sessionFromRow = (r: Record<string, unknown>): Session => ({
  id: String(r.id),
  userId: String(r.user_id),
  createdAt: asDate(r.created_at),
  lastUsedAt: asDate(r.last_used_at),
  expiresAt: asDate(r.expires_at),
  userAgent: (r.user_agent as string | null) ?? null,
  ip: (r.ip as string | null) ?? null,
  revokedAt: asOptionalDate(r.revoked_at),
});

/** Sessions as plain rows (the per-request check reads them with the membership, see memberships.findByUserInSession). */
export const sqlSessions = (db: Sql): SessionRepository => ({
  add: async (s) => {
    await db.execute(`insert into sessions (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?)`, [
      s.id, s.userId, s.createdAt, s.lastUsedAt, s.expiresAt, s.userAgent, s.ip, s.revokedAt,
    ]);
  },
  touch: async (userId, id, at, expiresAt, device) => {
    await db.execute(
      'update sessions set last_used_at = ?, expires_at = ?, user_agent = coalesce(?, user_agent), ip = coalesce(?, ip) where user_id = ? and id = ?',
      [at, expiresAt, device.userAgent, device.ip, userId, id],
    );
  },
  history: async (userId, userAgent) => {
    const [row] = await db.execute<Record<string, unknown>[]>(
      'select count(*) > 0 as signed_in_before, coalesce(bool_or(user_agent = ?), false) as from_this_device from sessions where user_id = ?',
      [userAgent, userId],
    );
    return { signedInBefore: row?.signed_in_before === true, fromThisDevice: row?.from_this_device === true };
  },
  list: (userId, now, page) =>
    keysetPage(db, SESSIONS, userId, page, [{ sql: 'revoked_at is null and expires_at > ?', params: [now] }], sessionFromRow),
  revoke: async (userId, id, at) => {
    const rows = await db.execute<Record<string, unknown>[]>(
      'update sessions set revoked_at = ? where user_id = ? and id = ? and revoked_at is null and expires_at > ? returning id',
      [at, userId, id, at],
    );
    if (rows.length === 0) return false;
    db.afterCommit(() => memberChangedHere(userId));
    await db.execute('update refresh_tokens set revoked_at = ? where family_id = ? and user_id = ? and revoked_at is null', [at, id, userId]);
    return true;
  },
});
