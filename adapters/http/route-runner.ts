import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import type * as t from 'io-ts';
import { hasScope, type PartnerActor } from '../../domain/partner.js';
import { hasAnyRole, type Actor, type Role } from '../../domain/roles.js';
import { fieldErrors } from './codecs.js';
import { dateTimeJson } from './json-values.js';
import { idempotently, type IdempotencyDeps } from './idempotency.js';
import { problem, problemBody, type Problem } from './problem.js';
import { bufferRawBody } from './raw-body.js';
import type { RateLimits } from './rate-limit.js';
import type { Reply, RouteDef } from './route.js';
import type { Attribution } from '../../application/audit/ports.js';
import { attributed } from './attribution.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BODY_LIMIT = '1mb';
/** The largest upload read ahead under an Idempotency-Key when its route names no `rawBody.maxBytes`. */
const RAW_BODY_LIMIT = 1024 * 1024;

export type VerifyToken = (token: string) => Promise<{ ok: true; actor: Actor; sessionId: string } | { ok: false; reason: 'TOKEN_EXPIRED' | 'TOKEN_INVALID' }>;

export interface RunnerDeps extends IdempotencyDeps {
  readonly verifyToken: VerifyToken;
  /** Checks the token's member and session as they are now: deactivated, removed, a changed role, signed out. */
  readonly resolveActor: (
    claims: Actor,
    sessionId: string,
  ) => Promise<{ ok: true; actor: Actor } | { ok: false; reason: 'ACCOUNT_DEACTIVATED' | 'TOKEN_INVALID' | 'SESSION_REVOKED' }>;
  /** The partner an X-API-Key stands for, as it is now (revocation and expiry take effect at once). */
  readonly authenticatePartner: (key: string) => Promise<{ ok: true; partner: PartnerActor } | { ok: false; reason: 'API_KEY_INVALID' | 'API_KEY_EXPIRED' }>;
  readonly rateLimits: RateLimits;
  readonly errorTypeBase: string;
}

export interface State {
  requestId: string;
  actor?: Actor;
  partner?: PartnerActor;
}

/** Why the per-request check refused a verified access token, as the client reads it. */
const REFUSED = {
  ACCOUNT_DEACTIVATED: 'This account has been deactivated by the business owner.',
  SESSION_REVOKED: 'This session was signed out; sign in again.',
  TOKEN_INVALID: 'The access token no longer matches an active membership; sign in again.',
} as const;

/** Who a request acts as: its member (their one role) or its partner's key; neither on a public route. */
const attributionOf = (requestId: string | undefined, actor: Actor | undefined, partner: PartnerActor | undefined): Attribution => ({
  requestId: requestId ?? null,
  ...(actor ? { member: { userId: actor.userId, role: actor.roles[0]! } } : {}),
  ...(partner ? { partner: { partnerId: partner.partnerId, keyId: partner.keyId } } : {}),
});

/** No body the API takes nests this deep; a deeper one is refused before anything walks it recursively. */
const MAX_BODY_DEPTH = 32;

/** True when `value` nests deeper than `max` arrays or objects (walked without recursion). */
const depthOver = (value: unknown, max: number): boolean => {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
};

/**
 * The middleware of one row of the route table: rate limits, authentication, roles, path, query and
 * body decoding, the handler, and the envelope (under an Idempotency-Key when the route honours one).
 * Problems are thrown; the app renders them.
 */
/** 403 INSUFFICIENT_ROLE unless the actor holds one of `roles`. */
export const requireRole = (actor: Actor, roles: readonly Role[]): void => {
  if (!hasAnyRole(actor, roles)) throw problem('INSUFFICIENT_ROLE', `This action needs one of the roles ${roles.join(', ')}.`);
};

/** A body or query decoded by its codec, or the 400 VALIDATION_FAILED naming every field that broke it. */
export const decodedOrProblem = (codec: t.Decoder<unknown, unknown>, value: unknown, what: 'request' | 'query'): unknown => {
  const decoded = codec.decode(value);
  if (decoded._tag === 'Right') return decoded.right;
  const errors = fieldErrors(decoded.left);
  throw problem('VALIDATION_FAILED', `The ${what} is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, { errors });
};

export const routeRunner = (deps: RunnerDeps, render: (ctx: Context, p: Problem) => void) => {
  const parseJson = bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, jsonStrict: true, encoding: 'utf-8' });
  const underKey = idempotently(deps, render);

  // Headers of every request go to the response directly: Koa's ctx.set builds three arrays a call.
  const setLimitHeaders = (ctx: Context, d: { limit: number; remaining: number; resetSeconds: number }) => {
    ctx.res.setHeader('RateLimit-Limit', String(d.limit));
    ctx.res.setHeader('RateLimit-Remaining', String(d.remaining));
    ctx.res.setHeader('RateLimit-Reset', String(d.resetSeconds));
  };

  const limit = async (ctx: Context, kind: 'ip' | 'identifier' | 'user' | 'partner', key: string) => {
    const d = await deps.rateLimits.consume(kind, key);
    setLimitHeaders(ctx, d);
    if (!d.allowed) {
      throw problem('RATE_LIMITED', `Too many requests; try again in ${d.resetSeconds} s.`, { headers: { 'Retry-After': String(d.resetSeconds) } });
    }
  };

  const authenticate = async (ctx: Context): Promise<{ actor: Actor; sessionId: string }> => {
    const header = ctx.get('authorization');
    if (!header) throw problem('TOKEN_MISSING', 'This endpoint needs an access token: Authorization: Bearer <token>.');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw problem('TOKEN_INVALID', 'The Authorization header must be "Bearer <token>".');
    const verdict = await deps.verifyToken(match[1]!);
    if (!verdict.ok) {
      throw verdict.reason === 'TOKEN_EXPIRED'
        ? problem('TOKEN_EXPIRED', 'The access token has expired; get a new one with /auth/refresh.')
        : problem('TOKEN_INVALID', 'The access token is invalid.');
    }
    const current = await deps.resolveActor(verdict.actor, verdict.sessionId);
    if (!current.ok) throw problem(current.reason, REFUSED[current.reason]);
    return { actor: current.actor, sessionId: verdict.sessionId };
  };

  /** A partner route: X-API-Key only; a bearer token is not a partner's credential. */
  const authenticatePartner = async (ctx: Context): Promise<PartnerActor> => {
    const key = ctx.get('x-api-key');
    if (!key) throw problem('API_KEY_MISSING', 'This endpoint is for partners: send the API key as X-API-Key: pk_live_... (a user token is not accepted here).');
    const verdict = key.length <= 200 ? await deps.authenticatePartner(key) : ({ ok: false, reason: 'API_KEY_INVALID' } as const);
    if (!verdict.ok) {
      throw verdict.reason === 'API_KEY_EXPIRED'
        ? problem('API_KEY_EXPIRED', 'This API key has expired; make a new one (POST /partner/api-keys) with a key that is still valid.')
        : problem('API_KEY_INVALID', 'The API key is unknown or revoked.');
    }
    return verdict.partner;
  };

  const readBody = async (ctx: Context): Promise<unknown> => {
    const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) return {};
    if (!ctx.is('application/json')) throw problem('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    try {
      await parseJson(ctx, async () => undefined);
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 413) throw problem('PAYLOAD_TOO_LARGE', `The body is larger than ${BODY_LIMIT}.`);
      if (status === 400) throw problem('MALFORMED_JSON', 'The body is not valid JSON.');
      if (status === 415) throw problem('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
      // A body that does not decompress as its Content-Encoding says (a broken gzip or br stream) is the client's fault.
      if (/^(Z_|ERR_ZLIB|ERR__)/.test(String((e as { code?: unknown }).code ?? ''))) {
        throw problem('MALFORMED_JSON', 'The body could not be decompressed as its Content-Encoding says.');
      }
      throw e;
    }
    if (depthOver(ctx.request.body, MAX_BODY_DEPTH)) {
      throw problem('MALFORMED_JSON', `The body nests deeper than ${MAX_BODY_DEPTH} levels.`, { errors: [{ field: '(body)', message: `nests deeper than ${MAX_BODY_DEPTH} levels` }] });
    }
    return ctx.request.body;
  };

  /** Runs one row of the route table: limits, authentication, roles, body, handler, envelope. */
  const runner =
    (r: RouteDef<any, any>): Middleware<State> =>
    async (ctx) => {
      ctx.res.setHeader('Cache-Control', 'no-store');
      if (r.rateLimit === 'identifier' || r.rateLimit === 'ip') await limit(ctx, 'ip', ctx.ip);
      let actor: Actor | undefined;
      let sessionId: string | undefined;
      let partner: PartnerActor | undefined;
      if (r.access !== 'public' && 'partnerScope' in r.access) {
        partner = await authenticatePartner(ctx);
        ctx.state.partner = partner;
        if (r.rateLimit === 'partner') await limit(ctx, 'partner', partner.keyId);
        if (!hasScope(partner, r.access.partnerScope)) {
          throw problem('INSUFFICIENT_SCOPE', `This API key lacks the scope ${r.access.partnerScope}; make a key with it (POST /partner/api-keys).`);
        }
      } else if (r.access !== 'public') {
        ({ actor, sessionId } = await authenticate(ctx));
        ctx.state.actor = actor;
        if (r.rateLimit === 'user') await limit(ctx, 'user', actor.userId);
        requireRole(actor, r.access.roles);
      }
      for (const [name, value] of Object.entries((ctx.params ?? {}) as Record<string, string>)) {
        if (!(r.pathParams?.[name]?.pattern ?? UUID).test(value)) throw problem('RESOURCE_NOT_FOUND', 'No such resource.');
      }
      let query: unknown = undefined;
      if (r.query) {
        query = decodedOrProblem(r.query, ctx.query, 'query');
      }
      if (r.rawBody) {
        // The handler streams the body itself; only its presence and media type are checked here.
        const types = Object.keys(r.rawBody.content);
        const hasBody = (ctx.request.length ?? 0) > 0 || ctx.get('transfer-encoding') !== '';
        if (!hasBody) throw problem('VALIDATION_FAILED', `The request needs a body: ${types.join(' or ')}.`, { errors: [{ field: '(body)', message: 'is required' }] });
        if (!ctx.is(types[0]!, ...types.slice(1))) throw problem('UNSUPPORTED_MEDIA_TYPE', `Send the body as ${types.join(' or ')}.`);
      }
      let body: unknown = undefined;
      if (r.body) {
        body = decodedOrProblem(r.body, await readBody(ctx), 'request');
        if (r.rateLimit === 'identifier') {
          const { phone, email } = body as { phone?: string; email?: string };
          const key = phone ?? email;
          // per phone or e-mail and client IP: a stranger spending a number's allowance does not spend its owner's (ADR 0042)
          if (key) await limit(ctx, 'identifier', `${key} ${ctx.ip}`);
        }
      }
      // A route with alternatives answers the media type Accept prefers among JSON and them; JSON when none fits.
      const alternatives = Object.keys(r.success.alternatives ?? {});
      if (alternatives.length > 0) ctx.vary('Accept');
      const mediaType = (alternatives.length > 0 && ctx.accepts('application/json', ...alternatives)) || 'application/json';
      const handle = async () => {
        const reply: Reply = await r.handler({ body, query, actor, partner, sessionId, params: ctx.params, mediaType, ctx });
        ctx.status = reply.status;
        for (const [k, v] of Object.entries(reply.headers ?? {})) ctx.set(k, v);
        if (reply.file) {
          ctx.body = reply.file.body; // one of the route's alternatives, not the envelope
          ctx.type = reply.file.contentType;
          return;
        }
        if (r.success.contentType && reply.status === r.success.status) {
          ctx.body = reply.data; // a download: the handler's stream or text, not the envelope
          ctx.type = r.success.contentType;
          return;
        }
        ctx.body = {
          success: reply.status < 400,
          message: reply.message,
          data: reply.data,
          ...(reply.status === 503 ? { error: problemBody(problem('DATABASE_UNAVAILABLE', reply.message), deps.errorTypeBase, ctx.path, deps.clock.now()).error } : {}),
          timestamp: dateTimeJson(deps.clock.now()),
        };
      };
      const key = r.idempotent ? ctx.get('idempotency-key') : '';
      const owner = actor?.businessId ?? partner?.partnerId; // a partner's keys are its own, as a business's are
      // what the handler changes is the caller's doing: the audit log's actor and request id (docs/adr/0069)
      await attributed(attributionOf(ctx.state.requestId, actor, partner), async () => {
        if (key && owner) {
          // an upload is read ahead so its fingerprint covers the file; the handler reads the copy (raw-body.ts)
          const raw = r.rawBody ? await bufferRawBody(ctx, r.rawBody.maxBytes ?? RAW_BODY_LIMIT) : undefined;
          await underKey(ctx, owner, key, handle, raw);
        } else await handle();
      });
    };

  return runner;
};
