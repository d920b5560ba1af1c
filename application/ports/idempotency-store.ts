/** A stored response, replayed for a repeated request with the same Idempotency-Key and body. */
export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export type IdempotencyClaim =
  /** The key is this request's until it completes or its lease runs out; `token` proves it. */
  | { readonly state: 'claimed'; readonly token: string }
  | { readonly state: 'replay'; readonly response: StoredResponse }
  | { readonly state: 'in_progress' }
  | { readonly state: 'mismatch' };

/**
 * Idempotency keys (API-DECISIONS "Idempotency"), scoped per business, kept 24 hours.
 * `claim` either takes the key for this request or says what happened to it before. A claim whose
 * request never finished (the process died) can be taken again once its lease has run out.
 */
export interface IdempotencyStore {
  claim(businessId: string, key: string, requestHash: string, now: Date, leaseMs: number): Promise<IdempotencyClaim>;
  /**
   * Runs the request in one transaction that also stores its answer: what the request wrote (a sale)
   * commits together with the answer that replays it, or neither does. 'lost' when the lease ran out
   * and another request took the key meanwhile (then nothing of this one is kept).
   */
  completeWithin(businessId: string, key: string, token: string, work: () => Promise<StoredResponse>): Promise<'completed' | 'lost'>;
  /** Frees a key whose request failed without an answer worth replaying (a fault), so a retry runs it. */
  release(businessId: string, key: string, token: string): Promise<void>;
}
