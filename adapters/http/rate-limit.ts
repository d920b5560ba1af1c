import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export type LimitKind = 'ip' | 'identifier' | 'user' | 'partner';

export interface RateLimitSettings {
  /** Auth requests a minute per phone or e-mail and client IP. */
  readonly authPerIdentifier: number;
  /** Auth requests a minute per client IP (generous: carriers put many people behind one address). */
  readonly authPerIp: number;
  /** Authenticated requests a minute per user. */
  readonly perUser: number;
  /** Partner requests a minute per API key. */
  readonly perPartnerKey: number;
}

export interface LimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly resetSeconds: number;
}

export interface RateLimits {
  consume(kind: LimitKind, key: string): Promise<LimitDecision>;
}

const WINDOW_SECONDS = 60;

/**
 * Fixed one-minute windows from rate-limiter-flexible: in Redis when a client is given (several
 * instances share the counters, with an in-memory insurance limiter if Redis fails), else in memory.
 */
export const createRateLimits = (settings: RateLimitSettings, redis?: unknown): RateLimits => {
  const points: Record<LimitKind, number> = { ip: settings.authPerIp, identifier: settings.authPerIdentifier, user: settings.perUser, partner: settings.perPartnerKey };
  const limiters = Object.fromEntries(
    (Object.keys(points) as LimitKind[]).map((kind) => {
      const options = { keyPrefix: `rl:${kind}`, points: points[kind], duration: WINDOW_SECONDS };
      const limiter: RateLimiterAbstract = redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      return [kind, limiter];
    }),
  ) as Record<LimitKind, RateLimiterAbstract>;

  return {
    async consume(kind, key) {
      const limit = points[kind];
      try {
        const res = await limiters[kind].consume(key);
        return { allowed: true, limit, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
      }
    },
  };
};
