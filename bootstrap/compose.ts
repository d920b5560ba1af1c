import type { Logger } from 'pino';
import { joseTokenVerifier, rememberingVerifier } from '../adapters/auth/jose-tokens.js';
import { createApp } from '../adapters/http/app.js';
import { buildOpenApi } from '../adapters/http/openapi.js';
import { createRateLimits } from '../adapters/http/rate-limit.js';
import { resolveActor } from '../application/auth/resolve-actor.js';
import * as E from 'fp-ts/lib/Either.js';
import { authenticatePartnerKey } from '../application/partners/api-keys.js';
import type { Config } from './config.js';
import { FAILURES, failureTable } from './failures.js';
import { MODULES } from './modules/index.js';
import { moduleContext, type Overrides } from './modules/context.js';
import { routeTable, type AnyModule } from './modules/module.js';
import type { Persistence } from './persistence.js';

export type { Overrides } from './modules/context.js';

export const VERSION = '0.1.0';
/** Why the per-request check refused a token, as the HTTP edge's error code. */
const REFUSAL = { AccountDeactivated: 'ACCOUNT_DEACTIVATED', SessionRevoked: 'SESSION_REVOKED', StaleToken: 'TOKEN_INVALID' } as const;

/** The one place adapters are constructed and wired to the use cases and the HTTP edge. */
export const compose = async (
  config: Config,
  persistence: Persistence,
  logger: Logger,
  /** `modules`: the list of modules (default MODULES); a test adds a scratch module through its manifest alone. */
  overrides: Overrides & { readonly modules?: readonly AnyModule[] } = {},
) => {
  const modules = overrides.modules ?? MODULES;
  const ctx = await moduleContext(config, persistence, logger, { ...overrides, modules });
  const { clock, key, tokenSettings, deps } = ctx;
  const { dispatcher, jobs, uow, runScheduledNotifications, runWebhookDeliveries } = ctx.jobs;
  // Every module's routes and failures, folded over the list of manifests (bootstrap/modules/index.ts, docs/adr/0052, 0062).
  const failures = overrides.modules ? failureTable(modules) : FAILURES;
  const routes = routeTable(modules, ctx, failures);
  const currentActor = resolveActor({ ...deps, ...(persistence.memberCache ? { memberCache: persistence.memberCache } : {}) });
  const partnerOfKey = authenticatePartnerKey(deps);
  const openApi = buildOpenApi(routes, { version: VERSION, errorTypeBase: config.ERROR_TYPE_BASE, failures });
  const { app, router } = createApp({
    routes,
    openApi,
    verifyToken: rememberingVerifier(joseTokenVerifier(key, tokenSettings), { max: 10_000 }),
    resolveActor: async (claims, sessionId) => {
      const r = await currentActor(claims, sessionId);
      if (E.isRight(r)) return { ok: true, actor: r.right };
      return { ok: false, reason: REFUSAL[r.left._tag] };
    },
    authenticatePartner: async (apiKey) => {
      const r = await partnerOfKey(apiKey);
      return E.isRight(r) ? { ok: true, partner: r.right } : { ok: false, reason: r.left };
    },
    rateLimits: createRateLimits(
      { authPerIdentifier: config.RATE_LIMIT_AUTH_PER_IDENTIFIER, authPerIp: config.RATE_LIMIT_AUTH_PER_IP, perUser: config.RATE_LIMIT_USER, perPartnerKey: config.RATE_LIMIT_PARTNER },
      overrides.redis,
    ),
    logger,
    clock,
    errorTypeBase: config.ERROR_TYPE_BASE,
    corsOrigins: config.CORS_ORIGINS,
    isDatabaseUnavailable: (e) => persistence.isUnavailable(e),
    redactFault: (e) => persistence.redact(e),
    trustProxy: config.TRUST_PROXY,
    idempotency: persistence.idempotency,
    uow,
  });
  return { app, router, routes, openApi, signingKey: key, dispatcher, jobs, runScheduledNotifications, runWebhookDeliveries };
};
