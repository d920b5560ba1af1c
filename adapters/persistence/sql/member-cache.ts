import { listenToChannel } from './channel-listener.js';
import type { MemberCache } from '../../../application/ports/member-cache.js';

/** What the member_changes trigger notifies (Migration20261201000000_member_change_notices). */
const CHANNEL = 'member_changes';

/**
 * Changes this process committed, said at once after COMMIT: the very next request to this instance
 * sees them without waiting for PostgreSQL's notice. Every cache in the process hears them (several
 * apps in one test process forget a little more than they must, never less).
 */
const heardHere = new Set<(userId: string | undefined) => void>();

/** A membership or session of `userId` changed and committed here; `undefined`: of anyone. */
export const memberChangedHere = (userId: string | undefined): void => {
  for (const forget of heardHere) forget(userId);
};

/**
 * A notice one of this process's database connections heard (pool.ts `onNotification`). On the
 * embedded database the session LISTENs, and PGlite hands a committed change's notice to the
 * connection that committed it, in the COMMIT's own answer: heard here before that commit returns.
 */
export const heardOnConnection = (channel: string, payload: string | undefined): void => {
  if (channel === CHANNEL) memberChangedHere(payload || undefined);
};

export interface ListeningMemberCache extends MemberCache {
  /** Resolves once the first LISTEN is in place, or failed (the cache then reads through). */
  readonly ready: Promise<void>;
  /** True while changes are heard (the LISTEN is in place): only then is anything remembered. */
  listening(): boolean;
  close(): Promise<void>;
}

export interface RememberOptions {
  /** At most this many remembered checks (default 50,000); past it all are forgotten. */
  readonly max?: number;
  /** A remembered check is read again after this long regardless (default 30 s): a bound if a notice were ever lost. */
  readonly maxAgeMs?: number;
  readonly now?: () => number;
}

export interface MemberCacheOptions extends RememberOptions {
  readonly connectionString: string;
  /** The LISTEN connection is checked this often (default 5 s); a failed check drops it and everything remembered. */
  readonly heartbeatMs?: number;
  /** Wait before connecting again after the LISTEN connection was lost (default 1 s). */
  readonly reconnectMs?: number;
  readonly log: (message: string, error?: unknown) => void;
}

/**
 * The checks remembered per user and session, while `up`; every change heard here (memberChangedHere)
 * forgets its user, and going up or down forgets everything. A read that a change overtook (a
 * notice heard while it was under way) is not kept.
 */
const remembered = (options: RememberOptions) => {
  const max = options.max ?? 50_000;
  const maxAgeMs = options.maxAgeMs ?? 30_000;
  const now = options.now ?? Date.now;
  const byUser = new Map<string, Map<string, { value: unknown; at: number }>>();
  let size = 0;
  let generation = 0; // moves on every forgetting: a read that began before it is not kept
  let up = false;

  const forget = (userId: string | undefined) => {
    generation++;
    if (userId === undefined) {
      byUser.clear();
      size = 0;
      return;
    }
    const sessions = byUser.get(userId);
    if (sessions) {
      size -= sessions.size;
      byUser.delete(userId);
    }
  };
  heardHere.add(forget);

  return {
    isUp: () => up,
    /** Up: answers from memory from now on; down: reads through. Either way everything is forgotten. */
    setUp(value: boolean) {
      up = value;
      forget(undefined);
    },
    async find<T>(userId: string, sessionId: string, read: () => Promise<T>): Promise<T> {
      if (!up) return read();
      const known = byUser.get(userId)?.get(sessionId);
      if (known && now() - known.at < maxAgeMs) return known.value as T;
      const before = generation;
      const value = await read();
      if (up && generation === before) {
        if (size >= max) forget(undefined);
        let sessions = byUser.get(userId);
        if (!sessions) byUser.set(userId, (sessions = new Map()));
        if (!sessions.has(sessionId)) size++;
        sessions.set(sessionId, { value, at: now() });
      }
      return value;
    },
    close() {
      up = false;
      heardHere.delete(forget);
      forget(undefined);
    },
  };
};

/**
 * The member check's reads remembered per user and session while a connection LISTENs on
 * `member_changes` (docs/adr/0036), on a PostgreSQL server. Nothing is remembered while that
 * connection is down, and all is forgotten whenever it goes down or comes back, so a change can
 * only be missed while it is being delivered.
 */
export const listeningMemberCache = (options: MemberCacheOptions): ListeningMemberCache => {
  const memory = remembered(options);
  const listener = listenToChannel({
    connectionString: options.connectionString,
    channel: CHANNEL,
    heard: (userId) => memberChangedHere(userId),
    up: () => memory.setUp(true), // and forgets whatever changed while nobody listened
    down: () => memory.setUp(false),
    whileDown: 'member checks read the database',
    log: options.log,
    ...(options.reconnectMs === undefined ? {} : { reconnectMs: options.reconnectMs }),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });
  return {
    ready: listener.ready,
    listening: memory.isUp,
    find: memory.find,
    async close() {
      memory.close();
      await listener.close();
    },
  };
};

/**
 * The member check remembered on the embedded default: PGlite in this process, one session for
 * every connection. It makes that session LISTEN on `member_changes` (through `execute`); from then on every
 * committed change's notice comes back on the connection that committed it, and the pool's
 * connections pass what they hear to `heardOnConnection` (pool.ts `onNotification`). No other
 * process reaches that session: the data directory is locked to this one and its socket is private
 * to this user (ADR 0012), so no change can commit unheard.
 */
export const sessionMemberCache = (options: RememberOptions & { readonly execute: (sql: string) => Promise<unknown> }): ListeningMemberCache => {
  const memory = remembered(options);
  const ready = options.execute(`listen ${CHANNEL}`).then(
    () => memory.setUp(true),
    () => memory.setUp(false), // not listening: every check reads the database
  );
  return {
    ready,
    listening: memory.isUp,
    find: memory.find,
    async close() {
      memory.close();
    },
  };
};
