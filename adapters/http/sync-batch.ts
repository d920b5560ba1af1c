import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Actor } from '../../domain/roles.js';
import { decodedOrProblem, requireRole } from './route-runner.js';
import { canonicalJson } from '../../domain/canonical-json.js';
import type { IdempotencyDeps } from './idempotency.js';
import { IdempotencyClaimLost } from '../../application/ports/idempotency-store.js';
import { problem, problemBody, Problem } from './problem.js';
import { API_BASE } from './app.js';
import type { RouteDef } from './route.js';
import { attributed, currentAttribution } from './attribution.js';

// POST /sync/batch (docs/adr/0034): each operation runs the single endpoint's route (its codec, its use
// case, its failure mapping), so a rejected operation carries exactly the Problem that endpoint answers.

export const SYNC_OPERATION_TYPES = ['sale.create', 'customer.create', 'credit_payment.create', 'expense.create', 'stock_adjustment.create', 'return.create'] as const;
export type SyncOperationType = (typeof SYNC_OPERATION_TYPES)[number];

/** The operationId of the single endpoint each operation type runs. */
export const SYNC_TARGETS: Record<SyncOperationType, string> = {
  'sale.create': 'recordSale',
  'customer.create': 'createCustomer',
  'credit_payment.create': 'recordCreditPayment',
  'expense.create': 'createExpense',
  'stock_adjustment.create': 'adjustStock',
  'return.create': 'recordReturn',
};

/** Path parameters an operation carries in its payload (the credit payment's customer, the returned sale). */
export const PATH_FIELDS: Partial<Record<SyncOperationType, Record<string, string>>> = { 'credit_payment.create': { customer_id: 'id' }, 'return.create': { sale_id: 'id' } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SyncOperation {
  readonly op_id: string;
  readonly type: SyncOperationType;
  readonly payload: Record<string, unknown>;
}

export type SyncResult =
  | { readonly op_id: string; readonly type: SyncOperationType; readonly status: 'applied' | 'duplicate'; readonly http_status: number; readonly data: unknown }
  | { readonly op_id: string; readonly type: SyncOperationType; readonly status: 'rejected'; readonly http_status: number; readonly error: unknown };

export interface SyncBatchDeps extends IdempotencyDeps {
  readonly errorTypeBase: string;
}

interface Applied {
  readonly http_status: number;
  readonly data: unknown;
  /** The record was already there (its client id), made by an earlier operation or request. */
  readonly replayed: boolean;
}

/** Runs one operation as its route would run it (roles, path, body, handler); failures are thrown as Problem. */
const runAsRoute = async (ctx: Context, actor: Actor, sessionId: string | undefined, deviceId: string, target: RouteDef<any, any>, op: SyncOperation): Promise<Applied & { instance: string }> => {
  // the runner's order: roles, then the path, then the body
  // only user routes are sync operations (OPERATION_TYPES): never a public or a partner-key route
  const access = target.access;
  if (access === 'public' || !('roles' in access)) throw problem('ROUTE_NOT_FOUND', 'No such operation.');
  requireRole(actor, access.roles);
  const params: Record<string, string> = {};
  const body: Record<string, unknown> = { ...op.payload };
  for (const [field, param] of Object.entries(PATH_FIELDS[op.type] ?? {})) {
    const value = body[field];
    delete body[field];
    if (typeof value !== 'string') throw problem('VALIDATION_FAILED', `The request is invalid: ${field} is required.`, { errors: [{ field, message: 'is required' }] });
    if (!UUID.test(value)) throw problem('RESOURCE_NOT_FOUND', 'No such resource.');
    params[param] = value.toLowerCase();
  }
  const decoded = decodedOrProblem(target.body!, body, 'request');
  // the till's doing, on the member's behalf: the audit log's actor is the DEVICE (docs/adr/0069)
  const who = { requestId: currentAttribution()?.requestId ?? null, member: { userId: actor.userId, role: actor.roles[0]! }, deviceId };
  const reply = await attributed(who, () => target.handler({ body: decoded, query: undefined, actor, partner: undefined, sessionId, params, mediaType: 'application/json', ctx, sync: { deviceId } }));
  return { http_status: reply.status, data: reply.data, replayed: reply.headers?.['Idempotent-Replayed'] === 'true', instance: '' };
};

/**
 * Applies a device's operations in order, each in its own transaction, under the idempotency key
 * `sync:<device_id>:<op_id>`: an operation already applied answers its first answer (`duplicate`); one
 * refused is not remembered, so the device may send it again once the cause is gone. The key is
 * claimed in the operation's transaction (docs/adr/0083): the claim, the work and the stored answer
 * commit together, and a refusal rolls all three back.
 */
export const runSyncBatch =
  (deps: SyncBatchDeps, targets: Record<SyncOperationType, RouteDef<any, any>>) =>
  async (ctx: Context, actor: Actor, sessionId: string | undefined, deviceId: string, operations: readonly SyncOperation[]): Promise<SyncResult[]> => {
    const results: SyncResult[] = [];
    for (const op of operations) {
      const target = targets[op.type];
      const idField = Object.entries(PATH_FIELDS[op.type] ?? {}).find(([, param]) => param === 'id')?.[0];
      const instance = `${API_BASE}${target.path.replace(':id', String((idField && op.payload[idField]) ?? ':id'))}`;
      const rejected = (p: Problem): SyncResult => ({ op_id: op.op_id, type: op.type, status: 'rejected', http_status: p.status, error: problemBody(p, deps.errorTypeBase, instance, deps.clock.now()).error });
      const key = `sync:${deviceId}:${op.op_id}`;
      const hash = createHash('sha256').update(`${op.type}\n${canonicalJson(op.payload)}`).digest('base64url');
      try {
        results.push(
          await deps.uow.atomically(async (): Promise<SyncResult> => {
            const claim = await deps.idempotency.claim(actor.businessId, key, hash, deps.clock.now());
            if (claim.state === 'replay') {
              const first = claim.response.body as Applied;
              return { op_id: op.op_id, type: op.type, status: 'duplicate', http_status: first.http_status, data: first.data };
            }
            if (claim.state === 'in_progress') return rejected(problem('IDEMPOTENCY_IN_PROGRESS', 'This operation is still being applied by another request; send it again shortly.'));
            if (claim.state === 'mismatch') return rejected(problem('IDEMPOTENCY_KEY_REUSED', 'This op_id was already used by this device for another operation.'));
            const a = await runAsRoute(ctx, actor, sessionId, deviceId, target, op);
            const stored: Applied = { http_status: a.http_status, data: a.data, replayed: a.replayed };
            if (!(await deps.idempotency.complete(actor.businessId, key, claim.token, { status: a.http_status, body: stored }))) {
              throw problem('IDEMPOTENCY_IN_PROGRESS', 'A later request took this operation over; send it again to see its answer.');
            }
            return { op_id: op.op_id, type: op.type, status: stored.replayed ? 'duplicate' : 'applied', http_status: stored.http_status, data: stored.data };
          }),
        );
      } catch (e) {
        if (e instanceof IdempotencyClaimLost) results.push(rejected(problem('IDEMPOTENCY_IN_PROGRESS', 'A later request took this operation over; send it again to see its answer.')));
        else if (e instanceof Problem && e.status < 500) results.push(rejected(e));
        else throw e;
      }
    }
    return results;
  };
