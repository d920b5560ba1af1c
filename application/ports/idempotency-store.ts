/** A stored response, replayed for a repeated request with the same Idempotency-Key and body. */
export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

export type IdempotencyClaim =
  | { readonly state: 'claimed' }
  | { readonly state: 'replay'; readonly response: StoredResponse }
  | { readonly state: 'in_progress' }
  | { readonly state: 'mismatch' };

/**
 * Idempotency keys (API-DECISIONS "Idempotency"), scoped per business, kept 24 hours.
 * `claim` either takes the key for this request or says what happened to it before.
 */
export interface IdempotencyStore {
  claim(businessId: string, key: string, requestHash: string, now: Date): Promise<IdempotencyClaim>;
  complete(businessId: string, key: string, response: StoredResponse): Promise<void>;
  /** Frees a key whose request failed without an answer worth replaying (a fault), so a retry runs it. */
  release(businessId: string, key: string): Promise<void>;
}
