import type { IdempotencyStore, StoredResponse } from '../../../application/ports/idempotency-store.js';

const KEY_TTL_MS = 24 * 3_600_000;

/** The idempotency store in memory (tests, embedders). */
export const inMemoryIdempotencyStore = (): IdempotencyStore => {
  const keys = new Map<string, { hash: string; createdAt: number; response?: StoredResponse }>();
  const id = (businessId: string, key: string) => `${businessId}\n${key}`;
  return {
    async claim(businessId, key, hash, now) {
      const existing = keys.get(id(businessId, key));
      if (!existing || existing.createdAt < now.getTime() - KEY_TTL_MS) {
        keys.set(id(businessId, key), { hash, createdAt: now.getTime() });
        return { state: 'claimed' };
      }
      if (existing.hash !== hash) return { state: 'mismatch' };
      return existing.response ? { state: 'replay', response: structuredClone(existing.response) } : { state: 'in_progress' };
    },
    async complete(businessId, key, response) {
      const existing = keys.get(id(businessId, key));
      if (existing) existing.response = structuredClone(response);
    },
    async release(businessId, key) {
      if (!keys.get(id(businessId, key))?.response) keys.delete(id(businessId, key));
    },
  };
};
