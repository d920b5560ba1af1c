import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { DEFAULT_TEST_IDENTIFIERS, parseTestIdentifiers } from '../domain/otp-test-identifiers.js';
import { DEFAULT_RETENTION, RETENTION_FLOORS } from '../domain/retention.js';

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

const matching = (name: string, re: RegExp, hint: string) =>
  new t.Type<string, string, unknown>(name, (u): u is string => typeof u === 'string', (u, c) =>
    typeof u === 'string' && re.test(u.trim()) ? t.success(u.trim()) : t.failure(u, c, hint), String);
const urlOf = (name: string, protocols: readonly string[]) =>
  new t.Type<string, string, unknown>(name, (u): u is string => typeof u === 'string', (u, c) => {
    const url = typeof u === 'string' && URL.canParse(u.trim()) ? new URL(u.trim()) : undefined;
    return url && protocols.includes(url.protocol) ? t.success(u as string) : t.failure(u, c, `must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`);
  }, String);
const httpUrl = urlOf('http(s) URL', ['https:', 'http:']);

const testIdentifiers = new t.Type<string, string, unknown>('identifier list', (u): u is string => typeof u === 'string', (u, c) =>
  typeof u === 'string' && parseTestIdentifiers(u) ? t.success(u) : t.failure(u, c, 'must be phones, phone ranges, e-mails or *@domain, comma-separated'), String);

/** Every environment variable the service reads, its codec and its default (the README lists them). */
export const ENV = {
  PORT: { codec: intFrom('port', 0), default: '8080', doc: 'HTTP port' },
  HOST: { codec: nonEmpty, default: '0.0.0.0', doc: 'interface to listen on' },
  METRICS_PORT: { codec: intFrom('port', 0), default: undefined, doc: 'serve GET /metrics (Prometheus text format) on this port of HOST, apart from the API; unset = no metrics (docs/adr/0065). Keep it off the public network' },
  DATABASE_URL: { codec: nonEmpty, default: undefined, doc: 'PostgreSQL URL; unset = embedded PGlite in DATA_DIR' },
  REPORTS_DATABASE_URL: { codec: nonEmpty, default: undefined, doc: 'PostgreSQL URL the reports and exports read from (a streaming replica; never written); unset = DATABASE_URL' },
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
  RATE_LIMIT_AUTH_PER_IDENTIFIER: { codec: intFrom('limit', 1), default: '10', doc: 'auth requests a minute per phone/e-mail and client IP' },
  RATE_LIMIT_AUTH_PER_IP: { codec: intFrom('limit', 1), default: '120', doc: 'auth requests a minute per client IP' },
  RATE_LIMIT_USER: { codec: intFrom('limit', 1), default: '300', doc: 'authenticated requests a minute per user' },
  RATE_LIMIT_PARTNER: { codec: intFrom('limit', 1), default: '600', doc: 'partner requests a minute per API key' },
  WEBHOOKS_ALLOW_PRIVATE: { codec: flag, default: 'false', doc: 'let partner webhooks go to private and loopback addresses and plain http (tests and local receivers only; refused when NODE_ENV=production)' },
  WEBHOOK_TIMEOUT_MS: { codec: intFrom('milliseconds', 100), default: '10000', doc: 'how long a webhook receiver has to answer before the attempt fails' },
  WEBHOOK_POLL_MS: { codec: intFrom('milliseconds', 50), default: '5000', doc: 'how often a process running workers looks for webhook deliveries due (retries, and those a crashed process left); new deliveries wake it at once (docs/adr/0043)' },
  DB_QUERY_TIMEOUT_MS: { codec: intFrom('milliseconds', 100), default: '10000', doc: 'the longest one database statement may take before the request is answered 503 (statement_timeout; a stuck connection is dropped)' },
  IDEMPOTENCY_LEASE_MS: { codec: intFrom('milliseconds', 1000), default: '30000', doc: 'how long an unanswered Idempotency-Key stays in progress before a retry may take it over (a crashed request)' },
  OTP_TEST_MODE: { codec: flag, default: 'false', doc: 'test mode: identifiers in OTP_TEST_IDENTIFIERS sign in with the code 000000 and nothing is sent (refused when NODE_ENV=production)' },
  OTP_TEST_IDENTIFIERS: { codec: testIdentifiers, default: DEFAULT_TEST_IDENTIFIERS, doc: 'comma-separated phones, phone ranges (`+2348000000000-+2348000000099`), e-mails and `*@domain`' },
  MESSAGES_FILE: { codec: nonEmpty, default: undefined, doc: 'append every outgoing message to this file as a JSON line instead of logging it (development, end-to-end tests; the file holds codes)' },
  OUTBOX_POLL_MS: { codec: intFrom('milliseconds', 10), default: '1000', doc: 'how often the outbox dispatcher looks for events to deliver or retry (docs/adr/0024)' },
  HEAP_GROWING_PERCENT: { codec: intFrom('percent', 0), default: '40', doc: "how far V8 lets the heap grow past its live size before a full collection (V8's --heap-growing-percent); 0 = V8's own, which let a 200,000-sale export grow the process by 80-120 MB" },
  GOOGLE_CLIENT_ID: { codec: list, default: undefined, doc: 'OAuth client id(s) Google ID tokens must be issued to (`aud`), comma-separated (web, Android, iOS); unset = POST /auth/google and /auth/google/link answer 503 GOOGLE_SIGN_IN_NOT_CONFIGURED' },
  GOOGLE_JWKS_URL: { codec: httpUrl, default: 'https://www.googleapis.com/oauth2/v3/certs', doc: "where Google's ID-token signing keys (JWKS) are fetched from" },
  GOOGLE_JWKS_TIMEOUT_MS: { codec: intFrom('milliseconds', 100), default: '3000', doc: 'how long a fetch of those keys may take before a Google sign-in is answered 503 GOOGLE_UNAVAILABLE' },
  TERMII_API_KEY: { codec: nonEmpty, default: undefined, secret: true, doc: 'Termii API key: SMS go through Termii (codes on its dnd route); unset = SMS in the log (or MESSAGES_FILE)' },
  TERMII_SENDER_ID: { codec: matching('sender id', /^[A-Za-z0-9][A-Za-z0-9 ._-]{2,10}$/, 'must be 3 to 11 letters or digits (a sender ID registered with Termii)'), default: undefined, doc: 'the registered Termii sender ID the SMS come from (3-11 characters); required with TERMII_API_KEY' },
  TERMII_BASE_URL: { codec: httpUrl, default: 'https://api.ng.termii.com', doc: 'the Termii API base URL shown on the Termii dashboard' },
  TERMII_SECRET_KEY: { codec: nonEmpty, default: undefined, secret: true, doc: "Termii secret key (Termii's events page: reports are 'signed with your secret key'): the key Termii signs delivery reports with (X-Termii-Signature); needs TERMII_API_KEY; unset = POST /webhooks/termii answers 503 WEBHOOK_NOT_CONFIGURED" },
  WHATSAPP_TOKEN: { codec: nonEmpty, default: undefined, secret: true, doc: 'WhatsApp Cloud API access token (a system user token): WhatsApp messages go through Meta; unset = in the log' },
  WHATSAPP_PHONE_NUMBER_ID: { codec: matching('phone number id', /^\d{5,20}$/, 'must be the numeric phone number ID from WhatsApp Manager'), default: undefined, doc: 'the business phone number ID messages are sent from; required with WHATSAPP_TOKEN' },
  WHATSAPP_GRAPH_URL: { codec: httpUrl, default: 'https://graph.facebook.com', doc: 'the Graph API base URL' },
  WHATSAPP_API_VERSION: { codec: matching('Graph API version', /^v\d{1,3}\.\d{1,2}$/, 'must look like v23.0'), default: 'v23.0', doc: 'the Graph API version in the URL' },
  WHATSAPP_TEMPLATE_RECEIPT: { codec: matching('template name', /^[a-z0-9_]{1,512}$/, 'must be a template name (lowercase letters, digits, _)'), default: 'receipt', doc: 'approved template receipts are sent with (body parameters in the order the message gives them)' },
  WHATSAPP_TEMPLATE_CREDIT_REMINDER: { codec: matching('template name', /^[a-z0-9_]{1,512}$/, 'must be a template name (lowercase letters, digits, _)'), default: 'credit_reminder', doc: 'approved template credit reminders are sent with' },
  WHATSAPP_TEMPLATE_LANGUAGE: { codec: matching('language code', /^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a template language code such as en or en_US'), default: 'en', doc: 'language code of both templates' },
  WHATSAPP_APP_SECRET: { codec: nonEmpty, default: undefined, secret: true, doc: "the Meta app's App Secret: the key status webhooks are signed with (X-Hub-Signature-256); needs WHATSAPP_TOKEN, and comes with WHATSAPP_WEBHOOK_VERIFY_TOKEN; unset = /webhooks/whatsapp answers 503 WEBHOOK_NOT_CONFIGURED" },
  WHATSAPP_WEBHOOK_VERIFY_TOKEN: { codec: matching('verify token', /^[\x21-\x7e]{8,256}$/, 'must be 8 to 256 printable characters without spaces'), default: undefined, secret: true, doc: 'the Verify Token typed into the webhook settings of the Meta app; GET /webhooks/whatsapp answers the challenge only when hub.verify_token equals it; comes with WHATSAPP_APP_SECRET' },
  SMTP_URL: { codec: urlOf('SMTP URL', ['smtp:', 'smtps:']), default: undefined, secret: true, doc: 'e-mail through this SMTP server, e.g. smtps://user:password@smtp.example.com:465 (nodemailer); unset = e-mails in the log' },
  MAIL_FROM: { codec: matching('e-mail address', /^(?:[^<>@]*<[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)$/, 'must be an address or Name <address>'), default: undefined, doc: 'the From of every e-mail, e.g. `BizOps <no-reply@bizops.ng>`; required with SMTP_URL' },
  MESSAGE_TIMEOUT_MS: { codec: intFrom('milliseconds', 100), default: '10000', doc: 'how long one send to Termii, WhatsApp or the SMTP server may take before it counts as failed and is retried' },
  WORKERS: { codec: t.keyof({ on: null, off: null }), default: 'on', doc: 'run the job workers and the once-a-minute tasks in the server; off when `npm run worker` processes run them (docs/adr/0029)' },
  JOBS_POOL_MAX: { codec: intFrom('pool size', 1), default: '4', doc: 'database connections of the job queue (pg-boss), on top of DB_POOL_MAX' },
  JOBS_CONCURRENCY: { codec: intFrom('jobs', 1), default: '2', doc: 'jobs of one queue a process runs at the same time' },
  JOBS_POLL_SECONDS: { codec: intFrom('seconds', 1), default: '2', doc: 'how often an idle worker looks for jobs enqueued by another process' },
  JOBS_RETRY_LIMIT: { codec: intFrom('retries', 0), default: '8', doc: 'retries of a failed job (a message) before it is dead' },
  JOBS_RETRY_DELAY_SECONDS: { codec: intFrom('seconds', 1), default: '2', doc: 'pause before a job\'s first retry; it doubles (with jitter) each time' },
  JOBS_EXPIRE_SECONDS: { codec: intFrom('seconds', 1), default: '60', doc: 'a job running longer (or whose worker died) is failed and retried' },
  JOBS_MAINTENANCE_SECONDS: { codec: intFrom('seconds', 1), default: '60', doc: 'how often expired jobs are found and old ones archived' },
  PUBLIC_BASE_URL: { codec: httpUrl, default: 'http://localhost:8080', doc: 'the address clients and lenders reach this API at (no /api/v1): loan pack verification links and QR codes, the sandbox checkout page; unset = http://localhost:{PORT}' },
  LOAN_PACK_PRICE_NGN: { codec: intFrom('naira', 1), default: '5000', doc: 'price of one loan pack on the FREE and STARTER plans, whole naira (at most 1,000,000); BUSINESS and PRO include packs' },
  PAYSTACK_SECRET_KEY: { codec: matching('Paystack secret key', /^sk_(test|live)_[A-Za-z0-9]{8,200}$/, 'must be a Paystack secret key (sk_test_... or sk_live_...)'), default: undefined, secret: true, doc: 'loan packs are paid through Paystack (its webhook is POST /api/v1/payments/paystack/webhook); unset = the sandbox gateway (a local checkout page; no money moves; not for production)' },
  PAYMENTS_SANDBOX: { codec: flag, default: 'false', doc: 'with NODE_ENV=production and no PAYSTACK_SECRET_KEY, say yes to the sandbox gateway (a staging server); without it such a start is refused' },
  PAYSTACK_BASE_URL: { codec: httpUrl, default: 'https://api.paystack.co', doc: "Paystack's API base URL" },
  PAYSTACK_TIMEOUT_MS: { codec: intFrom('milliseconds', 100), default: '10000', doc: 'how long one call to Paystack may take before the request is answered 503 PAYMENT_GATEWAY_UNAVAILABLE' },
  RETENTION_DELIVERED_EVENTS_HOURS: { codec: intFrom('hours', RETENTION_FLOORS.deliveredEventsHours), default: String(DEFAULT_RETENTION.deliveredEventsHours), doc: 'delivered outbox events are pruned this long after their delivery (given-up ones are kept); docs/adr/0068' },
  RETENTION_ENDED_SESSIONS_HOURS: { codec: intFrom('hours', RETENTION_FLOORS.endedSessionsHours), default: String(DEFAULT_RETENTION.endedSessionsHours), doc: 'sessions (with their refresh tokens) are pruned this long after they expired or were signed out' },
  RETENTION_OTP_HOURS: { codec: intFrom('hours', RETENTION_FLOORS.otpHours), default: String(DEFAULT_RETENTION.otpHours), doc: 'sign-in codes are pruned this long after they were made (at least 1: the hourly cap counts them)' },
  RETENTION_IDEMPOTENCY_HOURS: { codec: intFrom('hours', RETENTION_FLOORS.idempotencyKeyHours), default: String(DEFAULT_RETENTION.idempotencyKeyHours), doc: 'Idempotency-Keys are pruned this long after their first request (at least 24: the replay promise)' },
  RETENTION_WEBHOOK_DELIVERIES_HOURS: { codec: intFrom('hours', RETENTION_FLOORS.webhookDeliveriesHours), default: String(DEFAULT_RETENTION.webhookDeliveriesHours), doc: 'webhook deliveries that succeeded or failed for good are pruned this long after they were made (at least 72: the retry window)' },
  RETENTION_BATCH: { codec: intFrom('rows', 1), default: '500', doc: 'rows one pruning statement deletes at most (each its own short transaction, skipping rows a request holds); at most 10000' },
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
    // A secret's value never reaches the message (it ends in the log of a failed start).
    const shown = 'secret' in spec && spec.secret ? '(hidden)' : JSON.stringify(raw);
    if (E.isLeft(decoded)) problems.push(`${name}=${shown}: ${decoded.left[0]?.message ?? `must be ${spec.codec.name}`}`);
    else out[name] = decoded.right;
  }
  // Unset, links point at this server as a developer runs it (npm start on another PORT included).
  if (!env.PUBLIC_BASE_URL && typeof out.PORT === 'number') out.PUBLIC_BASE_URL = `http://localhost:${out.PORT}`;
  // A fixed sign-in code on a production server would be an open door.
  if (out.OTP_TEST_MODE === true && env.NODE_ENV === 'production') problems.push('OTP_TEST_MODE=true: refused when NODE_ENV=production');
  if (out.WEBHOOKS_ALLOW_PRIVATE === true && env.NODE_ENV === 'production') problems.push('WEBHOOKS_ALLOW_PRIVATE=true: refused when NODE_ENV=production');
  // A provider needs both halves; one alone is a typo or a forgotten variable, not "use the log".
  for (const [a, b] of [['TERMII_API_KEY', 'TERMII_SENDER_ID'], ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID'], ['SMTP_URL', 'MAIL_FROM']] as const) {
    if ((out[a] === undefined) !== (out[b] === undefined) && !problems.some((p) => p.startsWith(`${a}=`) || p.startsWith(`${b}=`))) {
      problems.push(out[a] === undefined ? `${b} is set but ${a} is not: set both or neither` : `${a} is set but ${b} is not: set both or neither`);
    }
  }
  // Without Paystack, anyone could "pay" for a loan pack on the sandbox page: production must say it means that.
  if (env.NODE_ENV === 'production' && out.PAYSTACK_SECRET_KEY === undefined && out.PAYMENTS_SANDBOX !== true && !problems.some((p) => p.startsWith('PAYSTACK_SECRET_KEY='))) {
    problems.push('PAYSTACK_SECRET_KEY is not set: with NODE_ENV=production loan packs would be paid on the sandbox page, where no money moves; set it, or PAYMENTS_SANDBOX=true for a staging server');
  }
  if (typeof out.LOAN_PACK_PRICE_NGN === 'number' && out.LOAN_PACK_PRICE_NGN > 1_000_000) problems.push(`LOAN_PACK_PRICE_NGN=${out.LOAN_PACK_PRICE_NGN}: must be at most 1000000`);
  // A webhook key without its provider would check reports of messages this server never sends.
  const reported = (name: string) => problems.some((p) => p.startsWith(`${name}=`));
  for (const [a, b] of [['TERMII_SECRET_KEY', 'TERMII_API_KEY'], ['WHATSAPP_APP_SECRET', 'WHATSAPP_TOKEN'], ['WHATSAPP_WEBHOOK_VERIFY_TOKEN', 'WHATSAPP_TOKEN']] as const) {
    if (out[a] !== undefined && out[b] === undefined && !reported(b)) problems.push(`${a} is set but ${b} is not: the webhook is for messages sent through that provider`);
  }
  // Meta's webhook needs both: the handshake (verify token) and the signature (app secret).
  if ((out.WHATSAPP_APP_SECRET === undefined) !== (out.WHATSAPP_WEBHOOK_VERIFY_TOKEN === undefined) && !reported('WHATSAPP_APP_SECRET') && !reported('WHATSAPP_WEBHOOK_VERIFY_TOKEN')) {
    problems.push(
      out.WHATSAPP_APP_SECRET === undefined
        ? 'WHATSAPP_WEBHOOK_VERIFY_TOKEN is set but WHATSAPP_APP_SECRET is not: set both or neither'
        : 'WHATSAPP_APP_SECRET is set but WHATSAPP_WEBHOOK_VERIFY_TOKEN is not: set both or neither',
    );
  }
  for (const name of ['RETENTION_DELIVERED_EVENTS_HOURS', 'RETENTION_ENDED_SESSIONS_HOURS', 'RETENTION_OTP_HOURS', 'RETENTION_IDEMPOTENCY_HOURS', 'RETENTION_WEBHOOK_DELIVERIES_HOURS'] as const) {
    const hours = out[name];
    if (typeof hours === 'number' && hours > 100_000) problems.push(`${name}=${hours}: must be at most 100000 (about 11 years)`);
  }
  if (typeof out.RETENTION_BATCH === 'number' && out.RETENTION_BATCH > 10_000) problems.push(`RETENTION_BATCH=${out.RETENTION_BATCH}: must be at most 10000 (a long delete holds its rows' locks longer)`);
  if (typeof out.METRICS_PORT === 'number' && out.METRICS_PORT !== 0 && out.METRICS_PORT === out.PORT) problems.push(`METRICS_PORT=${out.METRICS_PORT}: must differ from PORT (the metrics are never served on the public port)`);
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return out as Config;
};
