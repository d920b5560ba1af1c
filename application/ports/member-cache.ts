/**
 * Remembers the per-request member check's reads while nothing has changed them (docs/adr/0036).
 * An adapter may answer from memory only while it is certain to hear of every change: a change
 * committed anywhere makes it forget that user before the next check that could see the change.
 */
export interface MemberCache {
  /** `read()`'s answer for this user and session, remembered or read now. */
  find<T>(userId: string, sessionId: string, read: () => Promise<T>): Promise<T>;
}
