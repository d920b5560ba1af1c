import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IdempotencyStore } from '../../../application/ports/idempotency-store.js';
import { inOneTransaction } from './unit-of-work.mikro-orm.js';

const KEY_TTL_MS = 24 * 3_600_000;

/**
 * Idempotency keys in PostgreSQL. A claim is its own short statement (committed at once, so a
 * concurrent duplicate sees it); the answer is stored inside the request's own transaction.
 */
export const mikroOrmIdempotencyStore = (orm: MikroORM): IdempotencyStore => ({
  async claim(businessId, key, requestHash, now, leaseMs) {
    const em = orm.em.fork();
    const token = randomUUID();
    // An expired key is forgotten first, so it can be claimed again.
    await em.execute('delete from idempotency_keys where business_id = ? and key = ? and created_at < ?', [businessId, key, new Date(now.getTime() - KEY_TTL_MS)]);
    const inserted = await em.execute<unknown[]>(
      `insert into idempotency_keys (business_id, key, request_hash, created_at, claimed_at, claim_token) values (?, ?, ?, ?, ?, ?)
       on conflict do nothing returning key`,
      [businessId, key, requestHash, now, now, token],
    );
    if (inserted.length === 1) return { state: 'claimed', token };
    // A claim left unfinished past its lease (its process died, or it hangs) is taken over. The row
    // lock makes this wait for a request still completing it; then response_status is set and nothing is taken.
    const taken = await em.execute<unknown[]>(
      `update idempotency_keys set claimed_at = ?, claim_token = ?
       where business_id = ? and key = ? and request_hash = ? and response_status is null and claimed_at < ? returning key`,
      [now, token, businessId, key, requestHash, new Date(now.getTime() - leaseMs)],
    );
    if (taken.length === 1) return { state: 'claimed', token };
    const rows = await em.execute<{ request_hash: string; response_status: number | null; response_body: unknown }[]>(
      'select request_hash, response_status, response_body from idempotency_keys where business_id = ? and key = ?',
      [businessId, key],
    );
    const row = rows[0];
    if (!row) return this.claim(businessId, key, requestHash, now, leaseMs); // released meanwhile
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.response_status === null) return { state: 'in_progress' };
    const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
    return { state: 'replay', response: { status: row.response_status, body } };
  },
  async completeWithin(businessId, key, token, work) {
    class Lost {}
    try {
      return await inOneTransaction(orm, async (em) => {
        const response = await work();
        const stored = await em.execute<unknown[]>(
          `update idempotency_keys set response_status = ?, response_body = ?
           where business_id = ? and key = ? and claim_token = ? and response_status is null returning key`,
          [response.status, JSON.stringify(response.body), businessId, key, token],
        );
        if (stored.length !== 1) throw new Lost(); // another request holds the key now: keep nothing of this one
        return 'completed' as const;
      });
    } catch (e) {
      if (e instanceof Lost) return 'lost';
      throw e;
    }
  },
  async release(businessId, key, token) {
    await orm.em.fork().execute('delete from idempotency_keys where business_id = ? and key = ? and claim_token = ? and response_status is null', [businessId, key, token]);
  },
});
