import { randomUUID } from 'node:crypto';
import { undoOnInMemoryRollback } from './in-memory-store.js';
import type { IdempotencyStore, StoredResponse } from '../../../application/ports/idempotency-store.js';

const KEY_TTL_MS = 24 * 3_600_000;

/** The idempotency store in memory (tests, embedders). */
export const inMemoryIdempotencyStore = (options: { leaseMs: number }): IdempotencyStore => {
  const keys = new Map<string, { hash: string; createdAt: number; leaseUntil: number; token: string; response?: StoredResponse }>();
  const id = (businessId: string, key: string) => `${businessId}\n${key}`;
  return {
    async claim(businessId, key, hash, now) {
      const existing = keys.get(id(businessId, key));
      const fresh = () => {
        const token = randomUUID();
        const entry = { hash, createdAt: now.getTime(), leaseUntil: now.getTime() + options.leaseMs, token };
        keys.set(id(businessId, key), entry);
        // claimed inside `atomically` (a sync operation, docs/adr/0083): its rollback forgets the claim, as SQL does
        undoOnInMemoryRollback(() => {
          if (keys.get(id(businessId, key)) === entry) keys.delete(id(businessId, key));
        });
        return { state: 'claimed' as const, token };
      };
      if (!existing || existing.createdAt < now.getTime() - KEY_TTL_MS) return fresh();
      if (existing.hash !== hash) return { state: 'mismatch' };
      if (existing.response) return { state: 'replay', response: structuredClone(existing.response) };
      return existing.leaseUntil < now.getTime() ? fresh() : { state: 'in_progress' };
    },
    async complete(businessId, key, token, response) {
      const existing = keys.get(id(businessId, key));
      if (!existing || existing.token !== token || existing.response) return false;
      existing.response = structuredClone(response);
      undoOnInMemoryRollback(() => delete existing.response);
      return true;
    },
    async release(businessId, key, token) {
      const existing = keys.get(id(businessId, key));
      if (existing && existing.token === token && !existing.response) keys.delete(id(businessId, key));
    },
    async prune(before, limit) {
      let n = 0;
      for (const [k, v] of keys) {
        if (n >= limit) break;
        if (v.createdAt < before.getTime()) {
          keys.delete(k);
          n++;
        }
      }
      return n;
    },
  };
};
