import { randomUUID } from 'node:crypto';
import type { RunResult, Sql } from './sql-session.js';
import { IdempotencyClaimLost, type IdempotencyStore } from '../../../application/ports/idempotency-store.js';
import { ambientTransaction } from './ambient-transaction.js';
import { carriesReceiptPlaceholder, withReceiptNumber } from './numbered-at-commit.js';

const KEY_TTL_MS = 24 * 3_600_000;

/**
 * Idempotency keys in PostgreSQL. Every method runs in the ambient transaction when there is one (a
 * sync operation claims its key in its own transaction, docs/adr/0083), else as short statements of
 * their own; `complete` is called in one, so the answer commits with the work.
 */
export const sqlIdempotencyStore = (pooled: Sql, options: { leaseMs: number }): IdempotencyStore => ({
  async claim(businessId, key, requestHash, now) {
    const tx = ambientTransaction();
    const sql = tx ? await tx.transaction() : pooled;
    const token = randomUUID();
    const leaseUntil = new Date(now.getTime() + options.leaseMs);
    // One statement when the key is new (nearly always); the rest only when it is there.
    const inserted = await sql.execute<unknown[]>(
      `insert into idempotency_keys (business_id, key, request_hash, created_at, lease_until, claim_token)
       values (?, ?, ?, ?, ?, ?) on conflict do nothing returning key`,
      [businessId, key, requestHash, now, leaseUntil, token],
    );
    if (inserted.length === 1) return { state: 'claimed', token };
    const rows = await sql.execute<{ request_hash: string; response_status: number | null; response_body: unknown; created_at: Date }[]>(
      'select request_hash, response_status, response_body, created_at from idempotency_keys where business_id = ? and key = ?',
      [businessId, key],
    );
    const row = rows[0];
    if (!row) return this.claim(businessId, key, requestHash, now); // released meanwhile
    if (new Date(row.created_at).getTime() < now.getTime() - KEY_TTL_MS) {
      // An expired key is forgotten, so it can be claimed again.
      await sql.execute('delete from idempotency_keys where business_id = ? and key = ? and created_at < ?', [businessId, key, new Date(now.getTime() - KEY_TTL_MS)]);
      return this.claim(businessId, key, requestHash, now);
    }
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.response_status !== null) {
      const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
      return { state: 'replay', response: { status: row.response_status, body } };
    }
    // A claim whose lease ran out without an answer (its process died) is taken over.
    const takenOver = await sql.execute<unknown[]>(
      `update idempotency_keys set lease_until = ?, claim_token = ?
        where business_id = ? and key = ? and request_hash = ? and response_status is null and (lease_until is null or lease_until < ?)
        returning key`,
      [leaseUntil, token, businessId, key, requestHash, now],
    );
    return takenOver.length === 1 ? { state: 'claimed', token } : { state: 'in_progress' };
  },
  async complete(businessId, key, token, response) {
    const tx = ambientTransaction();
    const sql = tx ? await tx.transaction() : pooled;
    const body = JSON.stringify(response.body);
    const params = [response.status, body, businessId, key, token];
    const update = (value: string) =>
      `update idempotency_keys set response_status = ?, response_body = ${value}, lease_until = null
        where business_id = ? and key = ? and claim_token = ? and response_status is null returning key`;
    if (!carriesReceiptPlaceholder(body)) return (await sql.execute<unknown[]>(update('?'), params)).length === 1;
    // An answer about a sale numbered with the COMMIT (sales.sql.ts) is written in that write, with the
    // number; a claim lost by then divides by zero, which fails the COMMIT as IdempotencyClaimLost.
    await sql.beforeCommit(() => ({
      sql: `with answered as (${update(withReceiptNumber('?'))}) select 1 / (select count(*)::int from answered) as answered`,
      params,
      failed: (e) => ((e as { code?: unknown }).code === '22012' ? new IdempotencyClaimLost() : e),
    }));
    return true;
  },
  async release(businessId, key, token) {
    const tx = ambientTransaction();
    await (tx ? await tx.transaction() : pooled).execute('delete from idempotency_keys where business_id = ? and key = ? and claim_token = ? and response_status is null', [businessId, key, token]);
  },
  async prune(before, limit) {
    // keys a request holds right now are skipped, not waited for (idempotency_keys_created, Migration20261204010000_retention)
    const r = await pooled.execute<RunResult>(
      `delete from idempotency_keys where (business_id, key) in (
         select business_id, key from idempotency_keys where created_at < ? limit ? for update skip locked)`,
      [before, limit],
      'run',
    );
    return r.affectedRows;
  },
});
