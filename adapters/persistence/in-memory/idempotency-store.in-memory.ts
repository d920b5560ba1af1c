import { randomUUID } from 'node:crypto';
import type { IdempotencyStore, StoredResponse } from '../../../application/ports/idempotency-store.js';

const KEY_TTL_MS = 24 * 3_600_000;

/** The idempotency store in memory (tests, embedders). */
export const inMemoryIdempotencyStore = (): IdempotencyStore => {
  const keys = new Map<string, { hash: string; createdAt: number; claimedAt: number; token: string; response?: StoredResponse }>();
  const id = (businessId: string, key: string) => `${businessId}\n${key}`;
  return {
    async claim(businessId, key, hash, now, leaseMs) {
      const existing = keys.get(id(businessId, key));
      const token = randomUUID();
      if (!existing || existing.createdAt < now.getTime() - KEY_TTL_MS) {
        keys.set(id(businessId, key), { hash, createdAt: now.getTime(), claimedAt: now.getTime(), token });
        return { state: 'claimed', token };
      }
      if (existing.hash !== hash) return { state: 'mismatch' };
      if (existing.response) return { state: 'replay', response: structuredClone(existing.response) };
      if (existing.claimedAt >= now.getTime() - leaseMs) return { state: 'in_progress' };
      Object.assign(existing, { claimedAt: now.getTime(), token });
      return { state: 'claimed', token };
    },
    async completeWithin(businessId, key, token, work) {
      const response = await work();
      const existing = keys.get(id(businessId, key));
      if (!existing || existing.token !== token || existing.response) return 'lost';
      existing.response = structuredClone(response);
      return 'completed';
    },
    async release(businessId, key, token) {
      const existing = keys.get(id(businessId, key));
      if (existing && existing.token === token && !existing.response) keys.delete(id(businessId, key));
    },
  };
};
