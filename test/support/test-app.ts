import type { AddressInfo } from 'node:net';
import { answerClientErrorsAsProblems } from '../../adapters/http/client-error.js';
import { createServer, type Server } from 'node:http';
import pino from 'pino';
import type { Clock } from '../../application/ports/clock.js';
import type { OutgoingMessage } from '../../application/ports/message-sender.js';
import { compose } from '../../bootstrap/compose.js';
import { loadConfig, type Config } from '../../bootstrap/config.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { migrationsOf } from '../../bootstrap/migrations.js';
import type { AnyModule } from '../../bootstrap/modules/module.js';
import { freshDatabaseUrl } from './database.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A clock tests can move. */
export const testClock = (start = new Date()) => {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms: number) => void (now += ms),
    set: (d: Date) => void (now = d.getTime()),
  } satisfies Clock & Record<string, unknown>;
};

/** Messages the app sent, newest last. `failNext(n)`: the next n sends throw, as a provider's outage. */
export const recordingOutbox = () => {
  const sent: OutgoingMessage[] = [];
  let failures = 0;
  return {
    sent,
    failNext: (n = 1) => void (failures = n),
    send: async (m: OutgoingMessage) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('provider unavailable');
      }
      sent.push(m);
      return {};
    },
    /** The code in the newest message to `to`. */
    lastCode(to: string): string {
      const m = [...sent].reverse().find((x) => x.to.toLowerCase() === to.toLowerCase());
      const code = m?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code was sent to ${to}`);
      return code;
    },
  };
};

export interface TestApp {
  readonly baseUrl: string;
  readonly outbox: ReturnType<typeof recordingOutbox>;
  readonly clock: ReturnType<typeof testClock>;
  readonly config: Config;
  readonly openApi: object;
  readonly routes: Awaited<ReturnType<typeof compose>>['routes'];
  readonly router: Awaited<ReturnType<typeof compose>>['router'];
  readonly logLines: string[];
  /** The database the app runs on (undefined for the in-memory adapters). */
  readonly databaseUrl: string | undefined;
  readonly signingKey: Awaited<ReturnType<typeof compose>>['signingKey'];
  /** The outbox dispatcher; not started (a test runs `runDue()` itself, after moving the clock). */
  readonly dispatcher: Awaited<ReturnType<typeof compose>>['dispatcher'];
  /** The persistence the app runs on. */
  readonly persistence: Persistence;
  /** The scheduled notifications (daily summaries, credit reminders) at a time the test picks. */
  readonly runScheduledNotifications: Awaited<ReturnType<typeof compose>>['runScheduledNotifications'];
  /** The webhook deliveries due now (their retries), as the periodic task attempts them. */
  readonly runWebhookDeliveries: Awaited<ReturnType<typeof compose>>['runWebhookDeliveries'];
  request(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string | Uint8Array }): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly text: string;
}

/**
 * The real Koa app, wired the way bootstrap/compose.ts wires it, listening on a loopback port.
 * `postgres` (default) runs on a clean schema of the test database; `memory` on the in-memory adapters;
 * a Persistence object is used as given (and closed with the app).
 */
export const createTestApp = async (
  options: {
    persistence?: 'postgres' | 'memory' | Persistence;
    env?: Record<string, string>;
    databaseUrl?: string;
    redis?: unknown;
    /** Send messages as the configuration says (providers in `env`), not to the recording outbox. */
    configuredMessages?: boolean;
    /** The list of modules (default MODULES): a scratch module added through its manifest alone, with its migrations. */
    modules?: readonly AnyModule[];
  } = {},
): Promise<TestApp> => {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bizops-test-')),
    RATE_LIMIT_AUTH_PER_IDENTIFIER: '1000',
    RATE_LIMIT_AUTH_PER_IP: '100000',
    RATE_LIMIT_USER: '100000',
    ...options.env,
  });
  const logLines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  const given = typeof options.persistence === 'object' ? options.persistence : undefined;
  const databaseUrl = options.persistence === 'memory' || given ? undefined : (options.databaseUrl ?? (await freshDatabaseUrl()));
  const persistence: Persistence =
    given ??
    (databaseUrl
      ? await openPostgres({
          databaseUrl,
          dataDir: config.DATA_DIR,
          poolMax: 10,
          idempotencyLeaseMs: config.IDEMPOTENCY_LEASE_MS,
          log: () => undefined,
          ...(options.modules ? { migrationList: migrationsOf(options.modules) } : {}),
        })
      : inMemory({ idempotencyLeaseMs: config.IDEMPOTENCY_LEASE_MS }));
  const outbox = recordingOutbox();
  const clock = testClock();
  const { app, openApi, routes, router, signingKey, dispatcher, runScheduledNotifications, runWebhookDeliveries } = await compose(config, persistence, logger, { clock, ...(options.configuredMessages ? {} : { messages: outbox }), ...(options.redis ? { redis: options.redis } : {}), ...(options.modules ? { modules: options.modules } : {}) });
  const server: Server = createServer(app.callback());
  answerClientErrorsAsProblems(server, config.ERROR_TYPE_BASE);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    outbox,
    clock,
    config,
    openApi,
    routes,
    router,
    signingKey,
    dispatcher,
    runScheduledNotifications,
    runWebhookDeliveries,
    persistence,
    databaseUrl,
    logLines,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | Uint8Array | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${baseUrl}${path.startsWith('/api') ? path : `/api/v1${path}`}`, { method, headers, body: body as BodyInit | undefined });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dispatcher.stop();
      await persistence.close();
      rmSync(config.DATA_DIR, { recursive: true, force: true });
    },
  };
};

let phoneCounter = 0;
/** A fresh valid Nigerian mobile number for each call. */
export const aPhone = (): string => `+234803${String(Date.now() % 10_000).padStart(4, '0')}${String(phoneCounter++ % 1000).padStart(3, '0')}`;

/** Registers a business and signs its owner in; returns the tokens. */
export const registerOwner = async (app: TestApp, overrides: { phone?: string; email?: string } = {}) => {
  const identifier = overrides.email ? { email: overrides.email } : { phone: overrides.phone ?? aPhone() };
  const reg = await app.request('POST', '/auth/register', {
    body: { ...identifier, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' },
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const to = 'phone' in identifier ? identifier.phone! : identifier.email;
  const verify = await app.request('POST', '/auth/verify-otp', { body: { ...identifier, otp: app.outbox.lastCode(to) } });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${verify.text}`);
  return { identifier, to, userId: reg.body.data.user_id as string, accessToken: verify.body.data.access_token as string, refreshToken: verify.body.data.refresh_token as string };
};

/** Puts the owner's business on a plan, as the operator CLI does (e.g. past the Free plan's 50 sales). */
export const putOnPlan = async (app: TestApp, owner: { accessToken: string }, plan: 'FREE' | 'STARTER' | 'BUSINESS' | 'PRO') => {
  const businessId = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: app.databaseUrl! });
  await client.connect();
  try {
    await client.query('update businesses set plan = $1 where id = $2', [plan, businessId]);
  } finally {
    await client.end();
  }
};
