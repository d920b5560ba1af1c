import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Clock } from '../../application/ports/clock.js';
import { IdempotencyClaimLost, type IdempotencyStore } from '../../application/ports/idempotency-store.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import { canonicalJson } from '../../domain/canonical-json.js';
import { problem, Problem } from './problem.js';
import { rawBodyFingerprint } from './raw-body.js';

export interface IdempotencyDeps {
  readonly idempotency: IdempotencyStore;
  /** Joins an idempotent request's work and its stored answer in one transaction. */
  readonly uow: UnitOfWork;
  readonly clock: Clock;
}

/**
 * What makes two requests "the same" under one key: method, path, query (its parameters sorted; none
 * for most routes, so their fingerprint is what it always was) and body: the JSON body canonically, or
 * an upload's media type and bytes (`rawBody`, the file itself: docs/adr/0045).
 */
const fingerprint = (ctx: Context, rawBody: Buffer | undefined): string => {
  const query = new URLSearchParams(ctx.querystring);
  query.sort();
  const target = query.size > 0 ? `${ctx.method} ${ctx.path}?${query.toString()}` : `${ctx.method} ${ctx.path}`;
  const content = rawBody ? rawBodyFingerprint(ctx, rawBody) : canonicalJson(ctx.request.body ?? null);
  return createHash('sha256').update(`${target}\n${content}`).digest('base64url');
};

/**
 * Runs `handle` under an Idempotency-Key (API-DECISIONS "Idempotency"). Same key + same request
 * within 24 h: the first answer replayed (status and body). Same key + another request: 422. Same
 * key while the first still runs: 409. A fault frees the key. `businessId` scopes the key: the
 * business of a user's request, the partner of a partner key's request (both UUIDs, never equal).
 */
export const idempotently =
  (deps: IdempotencyDeps, render: (ctx: Context, p: Problem) => void) =>
  async (ctx: Context, businessId: string, key: string, handle: () => Promise<void>, rawBody?: Buffer): Promise<void> => {
    if (key.length > 255) {
      throw problem('VALIDATION_FAILED', 'The Idempotency-Key header is longer than 255 characters.', { errors: [{ field: 'Idempotency-Key', message: 'must be at most 255 characters' }] });
    }
    const hash = fingerprint(ctx, rawBody);
    const claim = await deps.idempotency.claim(businessId, key, hash, deps.clock.now());
    switch (claim.state) {
      case 'replay':
        ctx.status = claim.response.status;
        ctx.set('Idempotent-Replayed', 'true');
        ctx.body = claim.response.body;
        return;
      case 'in_progress':
        throw problem('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry shortly.');
      case 'mismatch':
        throw problem('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request.');
      case 'claimed': {
        const lost = Symbol('claim lost');
        try {
          // The answer is stored in the same transaction as the work it answers: a committed sale always replays.
          // The body is the one `atomically` answers: a value taken with the COMMIT is in it (docs/adr/0084).
          ctx.body = await deps.uow.atomically(async () => {
            try {
              await handle();
            } catch (e) {
              if (!(e instanceof Problem && e.status < 500)) throw e;
              // A final 4xx answer is rendered once here, so the replay is exactly the body sent now.
              render(ctx, e);
            }
            if (!(await deps.idempotency.complete(businessId, key, claim.token, { status: ctx.status, body: ctx.body }))) throw lost;
            return ctx.body;
          });
        } catch (e) {
          if (e === lost || e instanceof IdempotencyClaimLost) throw problem('IDEMPOTENCY_IN_PROGRESS', 'A later request with this Idempotency-Key took it over; retry to see its answer.');
          await deps.idempotency.release(businessId, key, claim.token).catch(() => undefined);
          throw e;
        }
      }
    }
  };
