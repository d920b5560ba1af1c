import { randomUUID } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import cors from '@koa/cors';
import Koa, { type Context } from 'koa';
import compress from 'koa-compress';
import { Stream } from 'node:stream';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { docsMiddleware } from './docs.js';
import { problem, Problem, problemBody } from './problem.js';
import type { RouteDef } from './route.js';
import { routeRunner, type RunnerDeps, type State } from './route-runner.js';
import { segmentRouter, type SegmentRouter } from './segment-router.js';
import { writeJson } from './json-values.js';
import { serverSpanOf, withTraceparent } from '../tracing/trace-context.js';

export const API_BASE = '/api/v1';

export interface HttpDeps extends RunnerDeps {
  readonly routes: readonly RouteDef<any, any>[];
  readonly openApi: object;
  readonly logger: Logger;
  /** Allowed CORS origins; `*` allows any (auth is a bearer header, not a cookie). */
  readonly corsOrigins: readonly string[];
  /** True when a thrown fault means the database is unreachable (503 rather than 500). */
  readonly isDatabaseUnavailable: (error: unknown) => boolean;
  /** A fault as it may be logged: database errors without the row data their messages carry. */
  readonly redactFault: (error: unknown) => unknown;
  /** Trust X-Forwarded-For for the client IP (behind a proxy). */
  readonly trustProxy: boolean;
  /** Told of every answered request: its route template (never the raw path), status and seconds (the metrics). */
  readonly observeRequest?: (method: string, route: string, status: number, seconds: number) => void;
}

/** The Koa application: edge middleware, the API router built from the route table, docs. */
export const createApp = (deps: HttpDeps): { app: Koa<State>; router: SegmentRouter<State> } => {
  const app = new Koa<State>({ proxy: deps.trustProxy });

  const render = (ctx: Context, p: Problem) => {
    ctx.status = p.status;
    ctx.set('Cache-Control', 'no-store'); // errors too: a 404 or 405 is otherwise heuristically cacheable
    for (const [k, v] of Object.entries(p.extra.headers ?? {})) ctx.set(k, v);
    // Every 401 names its scheme (RFC 7235); a refused token says why (RFC 6750), a missing one does not.
    // A Problem that names its own challenge (a provider callback's signature) keeps it; a partner key's names the key.
    if (p.status === 401 && p.code.startsWith('API_KEY_')) ctx.set('WWW-Authenticate', `ApiKey realm="bizops-partner", header="X-API-Key"`);
    else if (p.status === 401 && !p.extra.headers?.['WWW-Authenticate']) {
      ctx.set('WWW-Authenticate', p.code === 'TOKEN_MISSING' ? 'Bearer realm="bizops"' : `Bearer realm="bizops", error="invalid_token", error_description="${p.code}"`);
    }
    ctx.body = problemBody(p, deps.errorTypeBase, ctx.path, deps.clock.now());
  };

  const runner = routeRunner(deps, render);

  const router = segmentRouter(API_BASE, deps.routes, runner);

  // One line a request: id, method, route, status, ms, business. Never tokens, bodies or phones.
  app.use(async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    ctx.res.setHeader('X-Request-Id', ctx.state.requestId);
    // A valid W3C traceparent puts the request in the caller's trace: its log lines, and the events,
    // jobs and webhook deliveries it causes, carry it (docs/adr/0066). Absent or invalid: ignored.
    const span = serverSpanOf(ctx.get('traceparent') || undefined);
    if (span) ctx.state.traceId = span.traceId;
    try {
      await withTraceparent(span?.traceparent, next);
    } finally {
      const ms = performance.now() - started;
      if (deps.observeRequest) deps.observeRequest(ctx.method, routeOf(ctx), ctx.status, ms / 1000);
      if (deps.logger.isLevelEnabled('info')) logRequest(ctx, ms);
    }
  });
  /** The route template, a bounded set: a log line's and a metric's label never hold a raw path (ids). */
  const routeOf = (ctx: Context): string => {
    const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute;
    return typeof route === 'string' ? route : ctx.path.startsWith(`${API_BASE}/swagger-ui/`) ? `${API_BASE}/swagger-ui/*` : ctx.path === `${API_BASE}/api-docs` ? ctx.path : '(unmatched)';
  };
  const logRequest = (ctx: Context, ms: number) => {
    deps.logger.info(
      {
        req_id: ctx.state.requestId,
        ...(ctx.state.traceId ? { trace_id: ctx.state.traceId } : {}),
        method: ctx.method,
        route: routeOf(ctx),
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
        business_id: ctx.state.actor?.businessId,
        partner_id: ctx.state.partner?.partnerId,
      },
      'request',
    );
  };

  const anyOrigin = deps.corsOrigins.includes('*');
  app.use(
    cors({
      origin: (ctx) => (anyOrigin ? '*' : deps.corsOrigins.includes(ctx.get('origin')) ? ctx.get('origin') : ''),
      allowHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'Accept', 'traceparent', 'tracestate'],
      exposeHeaders: ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Content-Disposition', 'WWW-Authenticate', 'Idempotent-Replayed', 'Plan-Sales-Limit', 'Plan-Sales-Remaining'],
      maxAge: 600,
    }),
  );
  const security = securityHeaders();
  app.use((ctx, next) => {
    for (const name in security) ctx.res.setHeader(name, security[name]!);
    return next();
  });
  app.use(
    compress({
      threshold: 1024,
      br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
      gzip: { flush: zlib.Z_SYNC_FLUSH },
    }),
  );
  // A JSON body is written out here, once: compression asks its length, and Koa would stringify it
  // for that and again to send it. As bytes: JSON.stringify returns a string built of parts, which
  // measuring its length would copy flat and the socket would encode again.
  app.use(async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Stream)) ctx.body = Buffer.from(writeJson(body));
  });

  // Faults are caught once, here: Problems are rendered; anything else is logged with the request id.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      if (e instanceof Problem) return render(ctx, e);
      if (deps.isDatabaseUnavailable(e)) {
        deps.logger.warn({ req_id: ctx.state.requestId, ...(ctx.state.traceId ? { trace_id: ctx.state.traceId } : {}), err: deps.redactFault(e) }, 'database unavailable');
        return render(ctx, problem('DATABASE_UNAVAILABLE', 'The database is not answering; try again shortly.', { headers: { 'Retry-After': '5' } }));
      }
      deps.logger.error({ req_id: ctx.state.requestId, ...(ctx.state.traceId ? { trace_id: ctx.state.traceId } : {}), err: deps.redactFault(e) }, 'unexpected fault');
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

/**
 * Helmet's headers, worked out once: with its defaults they are the same for every response (no
 * per-request nonce), so running its ten middlewares per request would only redo the same work.
 */
const securityHeaders = (): Record<string, string> => {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
    getHeader: (name: string) => headers[name],
  };
  let called = false;
  helmet()({ headers: {} } as never, res as never, (error?: unknown) => {
    if (error) throw error;
    called = true;
  });
  if (!called) throw new Error('helmet did not answer synchronously: check securityHeaders');
  return headers;
};
