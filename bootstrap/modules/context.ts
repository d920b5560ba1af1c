import type { Logger } from 'pino';
import { joseGoogleVerifier } from '../../adapters/auth/google-id-token.js';
import { joseTokenIssuer, signingKeyFromDataDir, signingKeyFromPem, type SigningKey } from '../../adapters/auth/jose-tokens.js';
import { nodeCrypto, secretFromDataDir } from '../../adapters/crypto/node-crypto.js';
import { createPaging } from '../../adapters/http/paging.js';
import { webhookUrlRefusal } from '../../adapters/webhooks/url-policy.js';
import type { Clock } from '../../application/ports/clock.js';
import { parseTestIdentifiers } from '../../domain/otp-test-identifiers.js';
import type { Config } from '../config.js';
import { composeJobs, type JobModule } from '../jobs.js';
import { messageSender } from '../messaging.js';
import { paymentGateway } from '../payments.js';
import type { Persistence } from '../persistence-in-memory.js';
import type { DispatcherOptions } from '../../application/events/dispatcher.js';
import type { JobQueue } from '../../application/ports/job-queue.js';
import type { MessageSender } from '../../application/ports/message-sender.js';

export interface Overrides {
  readonly clock?: Clock;
  readonly messages?: MessageSender;
  readonly redis?: unknown;
  readonly dispatcher?: Partial<DispatcherOptions>;
  readonly jobs?: JobQueue;
}

/**
 * What every module's use cases are built from: the adapters compose constructs once (tokens,
 * crypto, clock, the unit of work that delivers events after commit, payments, paging) and the
 * dependency sets the use cases take. A module's manifest (bootstrap/modules/<module>.ts) picks
 * from it; nothing here names a module's use case.
 */
export const moduleContext = async (config: Config, persistence: Persistence, logger: Logger, overrides: Overrides & { readonly modules: readonly JobModule[] }) => {
  const clock: Clock = overrides.clock ?? { now: () => new Date() };
  const key: SigningKey = config.JWT_PRIVATE_KEY ? await signingKeyFromPem(config.JWT_PRIVATE_KEY) : await signingKeyFromDataDir(config.DATA_DIR);
  const otpSecret = config.OTP_SECRET ? Buffer.from(config.OTP_SECRET, 'base64') : secretFromDataDir(config.DATA_DIR, 'otp-secret');
  const crypto = nodeCrypto(otpSecret);
  const tokenSettings = { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE };
  const tokens = joseTokenIssuer(key, tokenSettings, crypto.uuid);
  const messages = overrides.messages ?? messageSender(config, logger).sender;
  // Subscribers and periodic tasks are listed in bootstrap/jobs.ts; `uow` delivers a change's events right after its commit.
  const jobs = composeJobs(config, persistence, logger, { messages, clock, crypto }, overrides);
  const { uow, webhooks } = jobs;
  const testSignIn = config.OTP_TEST_MODE ? parseTestIdentifiers(config.OTP_TEST_IDENTIFIERS) : undefined;
  if (testSignIn) logger.warn({ identifiers: config.OTP_TEST_IDENTIFIERS }, 'OTP test mode is on: these identifiers sign in with 000000 and get no message');
  // Google sign-in is on when a client id is configured (docs/adr/0027).
  const google =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_ID.length > 0
      ? joseGoogleVerifier({ clientIds: config.GOOGLE_CLIENT_ID, jwksUrl: config.GOOGLE_JWKS_URL, jwksTimeoutMs: config.GOOGLE_JWKS_TIMEOUT_MS }, clock)
      : undefined;
  const payments = paymentGateway(config, clock, logger, otpSecret);
  const deps = { uow, clock, crypto, tokens, ...(testSignIn ? { testSignIn } : {}), ...(google ? { google } : {}) };
  // Reports and exports read from REPORTS_DATABASE_URL when set (a replica; docs/adr/0035), never write there.
  const reportDeps = persistence.reports ? { ...deps, uow: persistence.reports.uow } : deps;
  const dataAsOf = persistence.reports ? persistence.reports.dataAsOf : async () => null;
  const paging = createPaging(otpSecret);
  const webhookDeps = { ...deps, ...webhooks, urlRefusal: webhookUrlRefusal(config.WEBHOOKS_ALLOW_PRIVATE) };
  return { config, persistence, logger, clock, key, tokenSettings, jobs, testSignIn, payments, deps, reportDeps, dataAsOf, paging, webhookDeps };
};

export type ModuleContext = Awaited<ReturnType<typeof moduleContext>>;
