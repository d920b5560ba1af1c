/**
 * When a device says it made a record (its own clock, `client_created_at`), bounded by what the server
 * knows (docs/adr/0039): a claimed time is never before the business existed, never before the device's
 * previous sync (it would have been sent then), and never later than now plus a small clock skew. A time
 * outside is clamped to the nearest bound, not refused: an offline sale is a fact (the goods left the
 * shop), and a till whose clock reset after a power cut still must not lose it.
 */

/** How far ahead of the server a device's clock may be: 5 minutes. */
export const CLIENT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Batches a device sends less than this apart are one sync (a queue of more than 100 operations is
 * sent in several batches back to back): 30 minutes.
 */
export const SYNC_SESSION_GAP_MS = 30 * 60_000;

export interface ClientTimeBounds {
  /** When the business was created. */
  readonly businessCreatedAt: Date;
  /** The device's previous sync (null: none, or not a device). */
  readonly previousSyncAt: Date | null;
  readonly now: Date;
}

/** Which bound a claimed time was clamped to, if any. */
export type ClientTimeClamp = 'BEFORE_BUSINESS' | 'BEFORE_PREVIOUS_SYNC' | 'IN_THE_FUTURE';

/** The claimed time inside its bounds, and which bound it was clamped to (undefined: kept as claimed). */
export const boundClientTime = (claimed: Date, b: ClientTimeBounds): { readonly at: Date; readonly clamped?: ClientTimeClamp } => {
  const now = b.now.getTime();
  if (claimed.getTime() > now + CLIENT_CLOCK_SKEW_MS) return { at: new Date(now), clamped: 'IN_THE_FUTURE' };
  // Both lower bounds are instants the server saw, so never after now.
  const business = Math.min(b.businessCreatedAt.getTime(), now);
  const sync = b.previousSyncAt ? Math.min(b.previousSyncAt.getTime(), now) : -Infinity;
  if (claimed.getTime() >= Math.max(business, sync)) return { at: claimed };
  return sync > business ? { at: new Date(sync), clamped: 'BEFORE_PREVIOUS_SYNC' } : { at: new Date(business), clamped: 'BEFORE_BUSINESS' };
};

/** The latest instant of the device's previous sync: batches within SYNC_SESSION_GAP_MS of now are this one. */
export const previousSyncBefore = (now: Date): Date => new Date(now.getTime() - SYNC_SESSION_GAP_MS);
