import type { Logger } from 'pino';
import type { PaymentAudit, PaymentGateway, PaymentWebhook } from '../application/loan-packs/ports.js';
import type { Clock } from '../application/ports/clock.js';
import { noWebhook, paystackGateway, paystackWebhook } from '../adapters/payments/paystack-gateway.js';
import { sandboxGateway, type SandboxGateway } from '../adapters/payments/sandbox-gateway.js';
import type { Config } from './config.js';

/**
 * The payment gateway loan packs are paid through, chosen by configuration (docs/adr/0031): Paystack
 * when PAYSTACK_SECRET_KEY is set, else the sandbox (its checkout page served by this API, its codes
 * signed with a key derived from `secret`).
 */
export const paymentGateway = (
  config: Config,
  clock: Clock,
  logger: Logger,
  secret: Uint8Array,
): { gateway: PaymentGateway; webhook: PaymentWebhook; audit: PaymentAudit; sandbox: SandboxGateway | undefined } => {
  const audit: PaymentAudit = {
    info: (fields, message) => logger.info({ component: 'payments', ...fields }, message),
    warn: (fields, message) => logger.warn({ component: 'payments', ...fields }, message),
  };
  if (config.PAYSTACK_SECRET_KEY) {
    return {
      gateway: paystackGateway({ secretKey: config.PAYSTACK_SECRET_KEY, baseUrl: config.PAYSTACK_BASE_URL, timeoutMs: config.PAYSTACK_TIMEOUT_MS }),
      webhook: paystackWebhook(config.PAYSTACK_SECRET_KEY),
      audit,
      sandbox: undefined,
    };
  }
  if (config.PAYMENTS_SANDBOX) logger.warn('PAYMENTS_SANDBOX=true: loan packs are "paid" on the sandbox checkout page, where no money moves');
  const sandbox = sandboxGateway(config.PUBLIC_BASE_URL, clock, secret);
  return { gateway: sandbox.gateway, webhook: noWebhook, audit, sandbox };
};
