import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../domain/roles.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { CHANGE_KINDS, type Change, type ChangeKind, type ChangePosition, type SyncRepositories } from './ports.js';

// The pull side of offline sync (GET /sync/changes, docs/adr/0034 addendum): what changed since a
// till's cursor, at least once, never skipping a change that commits late.

/**
 * Where a till stands: the changes `since` (a snapshot) did not see; inside a pull that has more pages, `next` (the
 * horizon taken on the pull's first page, where the following pull starts) and `after` (the last
 * row sent).
 */
export interface SyncCursor {
  readonly since: string;
  readonly next: string | null;
  readonly after: ChangePosition | null;
}

/** Before every transaction: the first pull sends everything. */
export const START: SyncCursor = { since: '1:1:', next: null, after: null };

/** At most this many in-flight transactions are named in a cursor; past it the snapshot keeps only xmin (more is sent again). */
export const MAX_IN_FLIGHT = 50;

const VERSION = /^[1-9]\d{0,18}$/;
/** A snapshot PostgreSQL accepts: 1 <= xmin <= each in-flight id (ascending) < xmax. */
const isSnapshot = (text: string): boolean => {
  const [xmin, xmax, xip, ...rest] = text.split(':');
  if (rest.length > 0 || xip === undefined || !VERSION.test(xmin!) || !VERSION.test(xmax!)) return false;
  const ids = xip === '' ? [] : xip.split(',');
  if (ids.length > MAX_IN_FLIGHT || !ids.every((x) => VERSION.test(x))) return false;
  const chain = [BigInt(xmin!), ...ids.map(BigInt)];
  return chain.every((v, i) => i === 0 || v >= chain[i - 1]!) && BigInt(xmax!) >= BigInt(xmin!) && chain.slice(1).every((v) => v < BigInt(xmax!));
};
const KEY = /^[0-9a-f-]{36}(:[0-9a-f-]{36})?$/;

/** The opaque text a till keeps: base64url of `1|since|next|version|kind|key` (since and next: snapshots). */
export const encodeSyncCursor = (c: SyncCursor): string =>
  Buffer.from(['1', c.since, c.next ?? '', c.after?.version ?? '', c.after?.kind ?? '', c.after?.key ?? ''].join('|')).toString('base64url');

/** The cursor, or null when the text is not one this API made. */
export const decodeSyncCursor = (text: string): SyncCursor | null => {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(text)) return null;
  const parts = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (parts.length !== 6 || parts[0] !== '1') return null;
  const [, since, next, version, kind, key] = parts as [string, string, string, string, string, string];
  if (!isSnapshot(since) || (next !== '' && !isSnapshot(next))) return null;
  if (next === '' && version === '' && kind === '' && key === '') return { since, next: null, after: null };
  if (next === '' || !VERSION.test(version) || !(CHANGE_KINDS as readonly string[]).includes(kind) || !KEY.test(key)) return null;
  return { since, next, after: { version, kind: kind as ChangeKind, key } };
};

/**
 * The cursor names a place this server has not reached: a snapshot or a row past the transactions it has
 * given out. It was not made here, or the database was restored from an earlier copy; either way the
 * till's catalogue cannot be trusted to follow on from it, so it pulls again from no cursor.
 */
export type SyncCursorAhead = { readonly _tag: 'SyncCursorAhead' };

const xmaxOf = (snapshot: string): bigint => BigInt(snapshot.split(':')[1]!);
/** Every place the cursor names is before `next`, the first transaction id not yet given out. */
const isBehind = (c: SyncCursor, next: bigint): boolean =>
  xmaxOf(c.since) <= next && (c.next === null || xmaxOf(c.next) <= next) && (c.after === null || BigInt(c.after.version) < next);

export interface ChangesPage {
  readonly changes: Change[];
  readonly cursor: SyncCursor;
  /** More rows of this pull wait: ask again at once with `cursor`. */
  readonly hasMore: boolean;
}

/**
 * One page of changes. The first page of a pull takes the horizon (a snapshot) *before* reading rows:
 * every change it sees is committed and among what this pull reads, so the next pull asks for what it
 * did not see; a change still in flight then comes on that pull. Pages of one pull keep that horizon. An empty
 * pull keeps the till's cursor (nothing is lost by starting again from the same place). A cursor past the
 * server's transactions is refused (SyncCursorAhead) rather than answered "nothing new" for ever.
 * Stock: an owner gets every branch; a staff member with a branch gets that branch's.
 */
export const pullChanges =
  (deps: { uow: UnitOfWork<SyncRepositories> }) =>
  (actor: Actor, request: { cursor: SyncCursor | null; limit: number }): Promise<E.Either<SyncCursorAhead, ChangesPage>> =>
    deps.uow.read(async (r) => {
      const from = request.cursor ?? START;
      const horizon = await r.changeFeed.horizon();
      if (!isBehind(from, BigInt(horizon.next))) return E.left({ _tag: 'SyncCursorAhead' as const });
      const next = from.next ?? horizon.snapshot;
      const branchId = actor.roles.includes('BUSINESS_OWNER') ? null : (actor.branchId ?? null);
      const rows = await r.changeFeed.changes(actor.businessId, { since: from.since, after: from.after, branchId, limit: request.limit + 1 });
      const changes = rows.slice(0, request.limit);
      const last = changes[changes.length - 1];
      if (rows.length > request.limit && last) {
        return E.right({ changes, hasMore: true, cursor: { since: from.since, next, after: { version: last.version, kind: last.kind, key: last.key } } });
      }
      if (changes.length === 0 && from.after === null) return E.right({ changes, hasMore: false, cursor: from });
      return E.right({ changes, hasMore: false, cursor: { since: next, next: null, after: null } });
    });
