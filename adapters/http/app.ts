import { randomUUID } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import { bodyParser } from '@koa/bodyparser';
import cors from '@koa/cors';
import Router from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import compress from 'koa-compress';
import helmet from 'koa-helmet';
import type { Logger } from 'pino';
import { createHash } from 'node:crypto';
import type { Clock } from '../../application/ports/clock.js';
import type { IdempotencyStore } from '../../application/ports/idempotency-store.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import { hasAnyRole, type Actor } from '../../domain/roles.js';
import { fieldErrors } from './codecs.js';
import { docsMiddleware } from './docs.js';
import { problem, Problem, problemBody } from './problem.js';
import type { RateLimits } from './rate-limit.js';
import type { Reply, RouteDef } from './route.js';

export const API_BASE = '/api/v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BODY_LIMIT = '1mb';

export type VerifyToken = (token: string) => Promise<{ ok: true; actor: Actor; sessionId: string } | { ok: false; reason: 'TOKEN_EXPIRED' | 'TOKEN_INVALID' }>;

export interface HttpDeps {
  readonly routes: readonly RouteDef<any, any>[];
  readonly openApi: object;
  readonly verifyToken: VerifyToken;
  /** Checks the token's member and session as they are now: deactivated, removed, a changed role, signed out. */
  readonly resolveActor: (
    claims: Actor,
    sessionId: string,
  ) => Promise<{ ok: true; actor: Actor } | { ok: false; reason: 'ACCOUNT_DEACTIVATED' | 'TOKEN_INVALID' | 'SESSION_REVOKED' }>;
  readonly rateLimits: RateLimits;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly errorTypeBase: string;
  /** Allowed CORS origins; `*` allows any (auth is a bearer header, not a cookie). */
  readonly corsOrigins: readonly string[];
  /** True when a thrown fault means the database is unreachable (503 rather than 500). */
  readonly isDatabaseUnavailable: (error: unknown) => boolean;
  /** A fault as it may be logged: database errors without the row data their messages carry. */
  readonly redactFault: (error: unknown) => unknown;
  /** Trust X-Forwarded-For for the client IP (behind a proxy). */
  readonly trustProxy: boolean;
  readonly idempotency: IdempotencyStore;
  /** Joins an idempotent request's work and its stored answer in one transaction. */
  readonly uow: UnitOfWork;
}

interface State {
  requestId: string;
  actor?: Actor;
}

/** Why the per-request check refused a verified access token, as the client reads it. */
const REFUSED = {
  ACCOUNT_DEACTIVATED: 'This account has been deactivated by the business owner.',
  SESSION_REVOKED: 'This session was signed out; sign in again.',
  TOKEN_INVALID: 'The access token no longer matches an active membership; sign in again.',
} as const;

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

/** JSON with object keys sorted, so two equal bodies hash the same whatever their key order. */
const canonicalJson = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonicalJson).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`
      : JSON.stringify(v);

/** The Koa application: edge middleware, the API router built from the route table, docs. */
export const createApp = (deps: HttpDeps): { app: Koa<State>; router: Router<State> } => {
  const app = new Koa<State>({ proxy: deps.trustProxy });
  const parseJson = bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, jsonStrict: true, encoding: 'utf-8' });

  const render = (ctx: Context, p: Problem) => {
    ctx.status = p.status;
    ctx.set('Cache-Control', 'no-store'); // errors too: a 404 or 405 is otherwise heuristically cacheable
    for (const [k, v] of Object.entries(p.extra.headers ?? {})) ctx.set(k, v);
    // Every 401 names its scheme (RFC 7235); a refused token says why (RFC 6750), a missing one does not.
    if (p.status === 401) {
      ctx.set('WWW-Authenticate', p.code === 'TOKEN_MISSING' ? 'Bearer realm="bizops"' : `Bearer realm="bizops", error="invalid_token", error_description="${p.code}"`);
    }
    ctx.body = problemBody(p, deps.errorTypeBase, ctx.path, deps.clock.now());
  };

  const setLimitHeaders = (ctx: Context, d: { limit: number; remaining: number; resetSeconds: number }) => {
    ctx.set('RateLimit-Limit', String(d.limit));
    ctx.set('RateLimit-Remaining', String(d.remaining));
    ctx.set('RateLimit-Reset', String(d.resetSeconds));
  };

  const limit = async (ctx: Context, kind: 'ip' | 'identifier' | 'user', key: string) => {
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
      ctx.set('Cache-Control', 'no-store');
      if (r.rateLimit === 'identifier' || r.rateLimit === 'ip') await limit(ctx, 'ip', ctx.ip);
      let actor: Actor | undefined;
      let sessionId: string | undefined;
      if (r.access !== 'public') {
        ({ actor, sessionId } = await authenticate(ctx));
        ctx.state.actor = actor;
        if (r.rateLimit === 'user') await limit(ctx, 'user', actor.userId);
        if (!hasAnyRole(actor, r.access.roles)) {
          throw problem('INSUFFICIENT_ROLE', `This action needs one of the roles ${r.access.roles.join(', ')}.`);
        }
      }
      for (const [name, value] of Object.entries((ctx.params ?? {}) as Record<string, string>)) {
        if (!(r.pathParams?.[name]?.pattern ?? UUID).test(value)) throw problem('RESOURCE_NOT_FOUND', 'No such resource.');
      }
      let query: unknown = undefined;
      if (r.query) {
        const decoded = r.query.decode(ctx.query);
        if (decoded._tag === 'Left') {
          const errors = fieldErrors(decoded.left);
          throw problem('VALIDATION_FAILED', `The query is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, { errors });
        }
        query = decoded.right;
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
        const decoded = r.body.decode(await readBody(ctx));
        if (decoded._tag === 'Left') {
          const errors = fieldErrors(decoded.left);
          throw problem('VALIDATION_FAILED', `The request is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, { errors });
        }
        body = decoded.right;
        if (r.rateLimit === 'identifier') {
          const { phone, email } = body as { phone?: string; email?: string };
          const key = phone ?? email;
          if (key) await limit(ctx, 'identifier', key);
        }
      }
      // A route with alternatives answers the media type Accept prefers among JSON and them; JSON when none fits.
      const alternatives = Object.keys(r.success.alternatives ?? {});
      if (alternatives.length > 0) ctx.vary('Accept');
      const mediaType = (alternatives.length > 0 && ctx.accepts('application/json', ...alternatives)) || 'application/json';
      const handle = async () => {
        const reply: Reply = await r.handler({ body, query, actor, sessionId, params: ctx.params, mediaType, ctx });
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
          timestamp: deps.clock.now().toISOString(),
        };
      };
      const key = r.idempotent ? ctx.get('idempotency-key') : '';
      if (key && actor) await idempotently(ctx, actor.businessId, key, handle);
      else await handle();
    };

  /**
   * Same key + same request within 24 h: the first answer replayed (status and body). Same key +
   * another request: 422. Same key while the first still runs: 409. A fault frees the key.
   */
  const idempotently = async (ctx: Context, businessId: string, key: string, handle: () => Promise<void>) => {
    if (key.length > 255) {
      throw problem('VALIDATION_FAILED', 'The Idempotency-Key header is longer than 255 characters.', { errors: [{ field: 'Idempotency-Key', message: 'must be at most 255 characters' }] });
    }
    const hash = createHash('sha256').update(`${ctx.method} ${ctx.path}\n${canonicalJson(ctx.request.body ?? null)}`).digest('base64url');
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
          await deps.uow.atomically(async () => {
            try {
              await handle();
            } catch (e) {
              if (!(e instanceof Problem && e.status < 500)) throw e;
              // A final 4xx answer is rendered once here, so the replay is exactly the body sent now.
              render(ctx, e);
            }
            if (!(await deps.idempotency.complete(businessId, key, claim.token, { status: ctx.status, body: ctx.body }))) throw lost;
          });
        } catch (e) {
          if (e === lost) throw problem('IDEMPOTENCY_IN_PROGRESS', 'A later request with this Idempotency-Key took it over; retry to see its answer.');
          await deps.idempotency.release(businessId, key, claim.token).catch(() => undefined);
          throw e;
        }
      }
    }
  };

  const router = new Router<State>({ prefix: API_BASE });
  for (const r of deps.routes) router[r.method](r.operationId, r.path, runner(r));

  // One line a request: id, method, route, status, ms, business. Never tokens, bodies or phones.
  app.use(async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
    } finally {
      const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute;
      deps.logger.info(
        {
          req_id: ctx.state.requestId,
          method: ctx.method,
          route: typeof route === 'string' ? route : ctx.path.startsWith(`${API_BASE}/swagger-ui/`) ? `${API_BASE}/swagger-ui/*` : '(unmatched)',
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          business_id: ctx.state.actor?.businessId,
        },
        'request',
      );
    }
  });

  const anyOrigin = deps.corsOrigins.includes('*');
  app.use(
    cors({
      origin: (ctx) => (anyOrigin ? '*' : deps.corsOrigins.includes(ctx.get('origin')) ? ctx.get('origin') : ''),
      allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'Accept'],
      exposeHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Content-Disposition', 'WWW-Authenticate', 'Idempotent-Replayed', 'Plan-Sales-Limit', 'Plan-Sales-Remaining'],
      maxAge: 600,
    }),
  );
  app.use(helmet());
  app.use(
    compress({
      threshold: 1024,
      br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
      gzip: { flush: zlib.Z_SYNC_FLUSH },
    }),
  );

  // Faults are caught once, here: Problems are rendered; anything else is logged with the request id.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      if (e instanceof Problem) return render(ctx, e);
      if (deps.isDatabaseUnavailable(e)) {
        deps.logger.warn({ req_id: ctx.state.requestId, err: deps.redactFault(e) }, 'database unavailable');
        return render(ctx, problem('DATABASE_UNAVAILABLE', 'The database is not answering; try again shortly.', { headers: { 'Retry-After': '5' } }));
      }
      deps.logger.error({ req_id: ctx.state.requestId, err: deps.redactFault(e) }, 'unexpected fault');
      render(ctx, problem('INTERNAL', `Something went wrong on our side. Quote request id ${ctx.state.requestId} when reporting it.`));
    }
  });

  app.use(docsMiddleware(API_BASE, deps.openApi));
  app.use(router.routes());
  // allowedMethods answers a wrong method 405 (an unknown method 501) and sets Allow; it only sets
  // that header when it does not throw, so the Problem is rendered here after it.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status !== 405 && ctx.status !== 501) return;
    const allow = ctx.response.get('Allow');
    if (allow) return render(ctx, problem('METHOD_NOT_ALLOWED', `This path does not accept ${ctx.method}; it accepts ${allow}.`));
    ctx.remove('Allow'); // an unknown method on an unknown path: still an unknown route
    render(ctx, problem('ROUTE_NOT_FOUND', `There is no route ${ctx.method} ${ctx.path}.`));
  });
  app.use(router.allowedMethods());
  app.use(async (ctx) => {
    if (ctx.body === undefined && ctx.status === 404) {
      render(ctx, problem('ROUTE_NOT_FOUND', `There is no route ${ctx.method} ${ctx.path}.`));
    }
  });
  return { app, router };
};
