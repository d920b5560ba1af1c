/** The claim was lost (its lease ran out and another request took the key) by the time its answer was written. */
export class IdempotencyClaimLost extends Error {
  constructor() {
    super('the idempotency claim was lost before its answer was written');
  }
}

/** A stored response, replayed for a repeated request with the same Idempotency-Key and body. */
export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export type IdempotencyClaim =
  /** The key is this request's until its lease ends; `token` proves it when completing. */
  | { readonly state: 'claimed'; readonly token: string }
  | { readonly state: 'replay'; readonly response: StoredResponse }
  | { readonly state: 'in_progress' }
  | { readonly state: 'mismatch' };

/**
 * Idempotency keys (API-DECISIONS "Idempotency"), scoped per business, kept 24 hours.
 * `claim` either takes the key for this request or says what happened to it before. A claim that
 * is never completed (the process died) is free again once its lease has run out.
 */
export interface IdempotencyStore {
  claim(businessId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyClaim>;
  /**
   * Stores the answer. Called inside `UnitOfWork.atomically`, it commits with the work it answers, so
   * a committed change always replays. False when the claim was lost (its lease ran out and another
   * request took the key): the caller must then roll back. An answer holding a value taken with the
   * COMMIT (docs/adr/0084) may be written in the COMMIT's write: a claim lost by then fails
   * `atomically` with IdempotencyClaimLost instead.
   */
  complete(businessId: string, key: string, token: string, response: StoredResponse): Promise<boolean>;
  /** Frees a key whose request failed without an answer worth replaying (a fault), so a retry runs it. */
  release(businessId: string, key: string, token: string): Promise<void>;
  /** Forgets at most `limit` keys first used before `before` (every business; retention, docs/adr/0068); answers how many. */
  prune(before: Date, limit: number): Promise<number>;
}
