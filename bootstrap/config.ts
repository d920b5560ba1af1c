import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { DEFAULT_TEST_IDENTIFIERS, parseTestIdentifiers } from '../domain/otp-test-identifiers.js';

const intFrom = (name: string, min: number) =>
  new t.Type<number, string, unknown>(
    name,
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const n = typeof u === 'string' && /^\d+$/.test(u.trim()) ? Number(u) : NaN;
      return Number.isSafeInteger(n) && n >= min ? t.success(n) : t.failure(u, c, `must be an integer >= ${min}`);
    },
    String,
  );
const flag = new t.Type<boolean, string, unknown>(
  'boolean',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => (u === 'true' || u === '1' ? t.success(true) : u === 'false' || u === '0' || u === '' ? t.success(false) : t.failure(u, c, 'must be true or false')),
  String,
);
const list = new t.Type<string[], string, unknown>(
  'comma-separated list',
  (u): u is string[] => Array.isArray(u),
  (u, c) => (typeof u === 'string' ? t.success(u.split(',').map((s) => s.trim()).filter(Boolean)) : t.failure(u, c)),
  (a) => a.join(','),
);
const nonEmpty = new t.Type<string, string, unknown>('non-empty string', (u): u is string => typeof u === 'string', (u, c) =>
  typeof u === 'string' && u.trim() !== '' ? t.success(u.trim()) : t.failure(u, c, 'must not be empty'), String);

const testIdentifiers = new t.Type<string, string, unknown>('identifier list', (u): u is string => typeof u === 'string', (u, c) =>
  typeof u === 'string' && parseTestIdentifiers(u) ? t.success(u) : t.failure(u, c, 'must be phones, phone ranges, e-mails or *@domain, comma-separated'), String);

/** Every environment variable the service reads, its codec and its default (the README lists them). */
export const ENV = {
  PORT: { codec: intFrom('port', 0), default: '8080', doc: 'HTTP port' },
  HOST: { codec: nonEmpty, default: '0.0.0.0', doc: 'interface to listen on' },
  DATABASE_URL: { codec: nonEmpty, default: undefined, doc: 'PostgreSQL URL; unset = embedded PGlite in DATA_DIR' },
  DATA_DIR: { codec: nonEmpty, default: './.data', doc: 'embedded database, generated JWT key and OTP secret' },
  DB_POOL_MAX: { codec: intFrom('pool size', 1), default: '10', doc: 'database connections (pool max)' },
  LOG_LEVEL: { codec: t.keyof({ fatal: null, error: null, warn: null, info: null, debug: null, trace: null, silent: null }), default: 'info', doc: 'pino level' },
  LOG_PRETTY: { codec: flag, default: 'false', doc: 'human-readable logs (development)' },
  CORS_ORIGINS: { codec: list, default: '*', doc: 'allowed browser origins, comma-separated; * = any' },
  TRUST_PROXY: { codec: flag, default: 'false', doc: 'take the client IP from X-Forwarded-For' },
  ERROR_TYPE_BASE: { codec: nonEmpty, default: 'https://bizops.ng/problems', doc: 'prefix of error.type URIs' },
  JWT_PRIVATE_KEY: { codec: nonEmpty, default: undefined, doc: 'Ed25519 private key (PKCS#8 PEM); unset = generated into DATA_DIR' },
  JWT_ISSUER: { codec: nonEmpty, default: 'bizops-api', doc: 'access token `iss`' },
  JWT_AUDIENCE: { codec: nonEmpty, default: 'bizops-clients', doc: 'access token `aud`' },
  OTP_SECRET: { codec: nonEmpty, default: undefined, doc: 'HMAC key for stored OTP hashes (base64); unset = generated into DATA_DIR' },
  REDIS_URL: { codec: nonEmpty, default: undefined, doc: 'rate-limit counters in Redis (shared by instances); unset = in memory' },
  RATE_LIMIT_AUTH_PER_IDENTIFIER: { codec: intFrom('limit', 1), default: '10', doc: 'auth requests a minute per phone/e-mail' },
  RATE_LIMIT_AUTH_PER_IP: { codec: intFrom('limit', 1), default: '120', doc: 'auth requests a minute per client IP' },
  RATE_LIMIT_USER: { codec: intFrom('limit', 1), default: '300', doc: 'authenticated requests a minute per user' },
  DB_QUERY_TIMEOUT_MS: { codec: intFrom('milliseconds', 100), default: '10000', doc: 'the longest one database statement may take before the request is answered 503 (statement_timeout; a stuck connection is dropped)' },
  IDEMPOTENCY_LEASE_MS: { codec: intFrom('milliseconds', 1000), default: '30000', doc: 'how long an unanswered Idempotency-Key stays in progress before a retry may take it over (a crashed request)' },
  OTP_TEST_MODE: { codec: flag, default: 'false', doc: 'test mode: identifiers in OTP_TEST_IDENTIFIERS sign in with the code 000000 and nothing is sent (refused when NODE_ENV=production)' },
  OTP_TEST_IDENTIFIERS: { codec: testIdentifiers, default: DEFAULT_TEST_IDENTIFIERS, doc: 'comma-separated phones, phone ranges (`+2348000000000-+2348000000099`), e-mails and `*@domain`' },
  MESSAGES_FILE: { codec: nonEmpty, default: undefined, doc: 'append every outgoing message to this file as a JSON line instead of logging it (development, end-to-end tests; the file holds codes)' },
  OUTBOX_POLL_MS: { codec: intFrom('milliseconds', 10), default: '1000', doc: 'how often the outbox dispatcher looks for events to deliver or retry (docs/adr/0024)' },
  WORKERS: { codec: t.keyof({ on: null, off: null }), default: 'on', doc: 'run the job workers and the once-a-minute tasks in the server; off when `npm run worker` processes run them (docs/adr/0029)' },
  JOBS_POOL_MAX: { codec: intFrom('pool size', 1), default: '4', doc: 'database connections of the job queue (pg-boss), on top of DB_POOL_MAX' },
  JOBS_CONCURRENCY: { codec: intFrom('jobs', 1), default: '2', doc: 'jobs of one queue a process runs at the same time' },
  JOBS_POLL_SECONDS: { codec: intFrom('seconds', 1), default: '2', doc: 'how often an idle worker looks for jobs enqueued by another process' },
  JOBS_RETRY_LIMIT: { codec: intFrom('retries', 0), default: '8', doc: 'retries of a failed job (a message) before it is dead' },
  JOBS_RETRY_DELAY_SECONDS: { codec: intFrom('seconds', 1), default: '2', doc: 'pause before a job\'s first retry; it doubles (with jitter) each time' },
  JOBS_EXPIRE_SECONDS: { codec: intFrom('seconds', 1), default: '60', doc: 'a job running longer (or whose worker died) is failed and retried' },
  JOBS_MAINTENANCE_SECONDS: { codec: intFrom('seconds', 1), default: '60', doc: 'how often expired jobs are found and old ones archived' },
  SHUTDOWN_TIMEOUT_MS: { codec: intFrom('milliseconds', 0), default: '10000', doc: 'how long a stop waits for in-flight requests' },
} as const;

type Env = typeof ENV;
export type Config = {
  readonly [K in keyof Env]: Env[K]['default'] extends string ? t.TypeOf<Env[K]['codec']> : t.TypeOf<Env[K]['codec']> | undefined;
};

/** Decodes the configuration from the environment; every problem is reported at once. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ENV)) {
    const raw = env[name] !== undefined && env[name] !== '' ? env[name] : spec.default;
    if (raw === undefined) continue;
    const decoded = (spec.codec as t.Mixed).decode(raw);
    if (E.isLeft(decoded)) problems.push(`${name}=${JSON.stringify(raw)}: ${decoded.left[0]?.message ?? `must be ${spec.codec.name}`}`);
    else out[name] = decoded.right;
  }
  // A fixed sign-in code on a production server would be an open door.
  if (out.OTP_TEST_MODE === true && env.NODE_ENV === 'production') problems.push('OTP_TEST_MODE=true: refused when NODE_ENV=production');
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return out as Config;
};
