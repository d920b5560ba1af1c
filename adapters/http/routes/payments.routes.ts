import type { Context } from 'koa';
import type { receivePaymentWebhook } from '../../../application/loan-packs/pay-loan-pack.js';
import type { SandboxGateway } from '../../payments/sandbox-gateway.js';
import { bool, doc, shape, str } from '../codecs.js';
import { successOf } from '../failures.js';
import { problem } from '../problem.js';
import { readBodyBytes } from '../raw-body.js';
import { ok, route } from '../route.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface PaymentUseCases {
  readonly receivePaymentWebhook: ReturnType<typeof receivePaymentWebhook>;
  /** The sandbox's pages when it is the gateway (no Paystack key); undefined when Paystack is. */
  readonly sandbox: SandboxGateway | undefined;
}

const TAG = 'Payments';
const HTML = 'text/html; charset=utf-8';
/** Paystack's events are a few kilobytes; anything far larger is not one. */
const WEBHOOK_LIMIT = 256 * 1024;
const CODE = { code: { pattern: /^[A-Za-z0-9_-]{1,4096}$/, description: 'the sandbox checkout code (access_code)' } };

const readRaw = (ctx: Context): Promise<Buffer> => readBodyBytes(ctx, WEBHOOK_LIMIT, `${WEBHOOK_LIMIT} bytes`);

const sandboxOf = (uc: PaymentUseCases) => {
  if (!uc.sandbox) throw problem('RESOURCE_NOT_FOUND', 'The sandbox checkout is off: payments go through Paystack.');
  return uc.sandbox;
};
const page = (html: string | undefined) => {
  if (html === undefined) throw problem('RESOURCE_NOT_FOUND', 'No such sandbox checkout.');
  return { status: 200 as const, message: 'Sandbox checkout', data: html };
};
const htmlSuccess = (description: string) => ({ status: 200 as const, description, contentType: HTML, data: doc('HtmlPage', { type: 'string', description: 'an HTML page' }) });

/** The gateway's side: Paystack's webhook, and the sandbox checkout that stands in for Paystack when it is not configured. */
export const paymentRoutes = (uc: PaymentUseCases) => [
  route({
    method: 'post',
    path: '/payments/paystack/webhook',
    operationId: 'paystackWebhook',
    tag: TAG,
    summary: "Paystack's webhook (public; signed)",
    description:
      'Accepted only when x-paystack-signature is the HMAC-SHA512 (hex) of the raw body keyed with PAYSTACK_SECRET_KEY; otherwise 401 ' +
      'WEBHOOK_SIGNATURE_INVALID and nothing changes (always so when Paystack is not configured). charge.success for a pack\'s reference marks it paid ' +
      "(once: a replay changes nothing); other events and references are acknowledged and ignored.",
    access: 'public',
    rateLimit: 'none',
    rawBody: { description: "Paystack's event, as sent", content: { 'application/json': { type: 'object', description: 'a Paystack event, e.g. {"event":"charge.success","data":{...}}' } } },
    success: { status: 200, description: 'Received', data: shape('WebhookReceipt', { received: bool, outcome: str }) },
    failures: failuresOf<FailureOf<typeof uc.receivePaymentWebhook>>({ WebhookSignatureInvalid: true }),
    errors: [],
    handler: async ({ ctx }) => {
      const raw = await readRaw(ctx);
      const outcome = successOf(await uc.receivePaymentWebhook(raw, ctx.get('x-paystack-signature')), 'loan pack');
      return ok('Received', { received: true, outcome });
    },
  }),
  route({
    method: 'get',
    path: '/sandbox/checkout/:code',
    operationId: 'sandboxCheckoutPage',
    tag: TAG,
    summary: 'Sandbox checkout page (public; only without Paystack)',
    description: 'An HTML page with Pay and Cancel buttons standing in for Paystack checkout; it says plainly that it is a sandbox. 404 when Paystack is configured.',
    access: 'public',
    rateLimit: 'ip',
    pathParams: CODE,
    success: htmlSuccess('The checkout page'),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ params }) => page(sandboxOf(uc).checkoutPage(params.code)),
  }),
  route({
    method: 'post',
    path: '/sandbox/checkout/:code/pay',
    operationId: 'sandboxCheckoutPay',
    tag: TAG,
    summary: 'Sandbox: pay (public; only without Paystack)',
    description: "The sandbox transaction succeeds for the page's amount; the page sends the payer back to the callback URL.",
    access: 'public',
    rateLimit: 'ip',
    pathParams: CODE,
    success: htmlSuccess('Paid; a page that sends the payer back'),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ params }) => page(sandboxOf(uc).complete(params.code, 'pay')),
  }),
  route({
    method: 'post',
    path: '/sandbox/checkout/:code/cancel',
    operationId: 'sandboxCheckoutCancel',
    tag: TAG,
    summary: 'Sandbox: cancel (public; only without Paystack)',
    description: 'The sandbox transaction fails; the page sends the payer back to the callback URL.',
    access: 'public',
    rateLimit: 'ip',
    pathParams: CODE,
    success: htmlSuccess('Cancelled; a page that sends the payer back'),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async ({ params }) => page(sandboxOf(uc).complete(params.code, 'cancel')),
  }),
];
