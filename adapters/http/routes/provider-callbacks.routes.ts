import type { Logger } from 'pino';
import { parseTermiiDeliveryReport, parseWhatsAppStatuses } from '../../messaging/delivery-reports.js';
import type { recordDeliveryReport } from '../../../application/notifications/deliver-notifications.js';
import type { DeliveryReport } from '../../../application/ports/message-sender.js';
import { doc, int, named, object, shape, text, type JsonSchema } from '../codecs.js';
import { callbacksOff, handshakeRefused, metaSignatureValid, sameSecret, signedJson, termiiSignatureValid } from '../provider-callbacks.js';
import { ok, route, type HandlerInput, type Reply } from '../route.js';

/** The keys the providers' callbacks are checked with; a callback whose keys are unset answers 503 WEBHOOK_NOT_CONFIGURED. */
export interface ProviderCallbackSettings {
  /** TERMII_SECRET_KEY: Termii signs delivery reports with it. */
  readonly termiiSecretKey?: string;
  /** WHATSAPP_APP_SECRET: Meta signs webhooks with the app's secret. */
  readonly whatsappAppSecret?: string;
  /** WHATSAPP_WEBHOOK_VERIFY_TOKEN: the subscription handshake's shared word. */
  readonly whatsappVerifyToken?: string;
}

export interface ProviderCallbackUseCases {
  readonly recordDeliveryReport: ReturnType<typeof recordDeliveryReport>;
  readonly providerCallbacks: ProviderCallbackSettings;
  /** Where a report about no notification of ours is noted (debug). */
  readonly callbackLogger: Logger;
}

const TAG = 'Provider callbacks';
/** Termii posts one small report at a time; Meta's webhooks can batch statuses up to 3 MB. */
const TERMII_MAX_BYTES = 64 * 1024;
const WHATSAPP_MAX_BYTES = 3 * 1024 * 1024;

// The providers' payloads, documented for the operator (the handlers read only what they need, see delivery-reports.ts).
const s = (maxLength: number, description?: string): JsonSchema => ({ type: 'string', maxLength, ...(description ? { description } : {}) });
const termiiReport = named('TermiiDeliveryReport', {
  type: 'object',
  description: "Termii's outbound-message report (developers.termii.com/events-and-reports); other fields are ignored.",
  properties: {
    type: s(32, 'outbound'),
    id: s(128),
    message_id: s(128, 'the id Termii answered when the SMS was sent'),
    receiver: s(32),
    sender: s(32),
    message: s(2000),
    sent_at: s(64),
    cost: s(32),
    status: s(128, 'Delivered, Message Sent, Received, DND Active on Phone Number, Message Failed, Rejected, Expired'),
    channel: s(16, 'dnd, generic or whatsapp'),
  },
  required: ['message_id', 'status'],
  examples: [
    { type: 'outbound', id: '1a2b3c', message_id: '3017544054459', receiver: '2348031234567', sender: 'BizOps', message: 'Ada Stores: your order is ready.', sent_at: '2026-11-25 09:15:04', cost: '4.00', status: 'Delivered', channel: 'generic' },
  ],
});
const whatsappError = named('WhatsAppStatusError', {
  type: 'object',
  properties: { code: { type: 'integer', minimum: 0, maximum: 10_000_000 }, title: s(512), message: s(1024), error_data: { type: 'object', properties: { details: s(2048) } } },
});
const whatsappStatus = named('WhatsAppMessageStatus', {
  type: 'object',
  properties: {
    id: s(256, 'the wamid answered when the message was sent'),
    status: s(32, 'sent, delivered, read, failed (others are ignored)'),
    timestamp: s(32),
    recipient_id: s(32),
    errors: { type: 'array', maxItems: 16, items: whatsappError },
  },
  required: ['id', 'status'],
});
const whatsappWebhook = named('WhatsAppWebhook', {
  type: 'object',
  description: "A WhatsApp Cloud API `messages` webhook (Meta's webhooks reference); incoming messages in it are ignored.",
  properties: {
    object: s(64, 'whatsapp_business_account'),
    entry: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        properties: {
          id: s(64),
          changes: {
            type: 'array',
            maxItems: 1000,
            items: { type: 'object', properties: { field: s(64, 'messages'), value: { type: 'object', properties: { statuses: { type: 'array', maxItems: 10_000, items: whatsappStatus } } } } },
          },
        },
      },
    },
  },
  required: ['object'],
  examples: [
    {
      object: 'whatsapp_business_account',
      entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', statuses: [{ id: 'wamid.HBgNMjM0ODAzMTIzNDU2NxUCABEYEjQ3', status: 'delivered', timestamp: '1764062104', recipient_id: '2348031234567' }] } }] }],
    },
  ],
});

const received = shape(
  'DeliveryReportsReceived',
  { reports: int, applied: int },
  { reports: 'delivery reports read from the body (statuses about other things are left out)', applied: 'notifications they moved to DELIVERED or FAILED' },
);
const challenge = doc('WhatsAppChallenge', { type: 'string', maxLength: 256, description: 'hub.challenge, as it was sent' });
const handshakeQuery = object(
  'WhatsAppHandshakeQuery',
  {},
  { 'hub.mode': text(1, 32, 'subscribe'), 'hub.verify_token': text(1, 256, 'WHATSAPP_WEBHOOK_VERIFY_TOKEN'), 'hub.challenge': text(1, 256, 'echoed back') },
);

/** Applies the reports a callback carried; a SENT is already what the notification says. Reports about no notification of ours are noted, not refused. */
const applyAll = async (uc: ProviderCallbackUseCases, provider: string, reports: readonly DeliveryReport[], requestId: string): Promise<Reply> => {
  let applied = 0;
  for (const report of reports) {
    if (report.status === 'SENT') continue;
    const moved = await uc.recordDeliveryReport({ providerMessageId: report.providerMessageId, status: report.status, ...(report.reason ? { reason: report.reason } : {}) });
    if (moved) applied += 1;
    // Another server's message, one already settled, or a report that beat our own SENT (ADR 0030): a 200 all the same, or the provider retries it for days.
    else uc.callbackLogger.debug({ req_id: requestId, provider, provider_message_id: report.providerMessageId, status: report.status }, 'delivery report for no SENT notification');
  }
  return ok('Delivery reports received', { reports: reports.length, applied });
};

const POST_ERRORS = ['WEBHOOK_SIGNATURE_INVALID', 'WEBHOOK_NOT_CONFIGURED', 'MALFORMED_JSON'] as const;

export const providerCallbackRoutes = (uc: ProviderCallbackUseCases) => [
  route({
    method: 'post',
    path: '/webhooks/termii',
    operationId: 'termiiDeliveryReport',
    tag: TAG,
    summary: "Termii's SMS delivery reports",
    description:
      "For Termii, not for apps: set this URL as the webhook in the Termii dashboard. Accepted only when X-Termii-Signature is the hex HMAC-SHA512 of the raw body with TERMII_SECRET_KEY (else 401 WEBHOOK_SIGNATURE_INVALID and nothing changes). " +
      'Delivered makes the SENT notification with that message_id DELIVERED; DND Active on Phone Number, Message Failed, Rejected and Expired make it FAILED with the status as the reason. ' +
      'Reports about no SENT notification (unknown ids, other statuses) are answered 200 too, so Termii does not send them again. With TERMII_SECRET_KEY unset: 503 WEBHOOK_NOT_CONFIGURED.',
    access: 'public',
    rateLimit: 'ip',
    rawBody: { description: 'The report exactly as Termii sends it (the signature is over these bytes).', content: { 'application/json': termiiReport } },
    success: { status: 200, description: 'Taken (whether or not it matched a notification)', data: received },
    errors: [...POST_ERRORS],
    handler: async ({ ctx }: HandlerInput<undefined>) => {
      const key = uc.providerCallbacks.termiiSecretKey;
      if (!key) throw callbacksOff('Termii', 'TERMII_SECRET_KEY');
      const payload = await signedJson(ctx, { provider: 'Termii', header: 'X-Termii-Signature', maxBytes: TERMII_MAX_BYTES, valid: (body, sig) => termiiSignatureValid(key, body, sig) });
      const report = parseTermiiDeliveryReport(payload);
      return applyAll(uc, 'termii', report ? [report] : [], ctx.state.requestId as string);
    },
  }),
  route({
    method: 'get',
    path: '/webhooks/whatsapp',
    operationId: 'whatsappWebhookHandshake',
    tag: TAG,
    summary: "Meta's webhook verification handshake",
    description:
      'For Meta, not for apps: the callback URL of the Meta app (WhatsApp > Configuration). Answers hub.challenge as text/plain when hub.mode is subscribe and hub.verify_token equals WHATSAPP_WEBHOOK_VERIFY_TOKEN; ' +
      'otherwise 403 WEBHOOK_VERIFICATION_FAILED. With WhatsApp webhooks unconfigured: 503 WEBHOOK_NOT_CONFIGURED.',
    access: 'public',
    rateLimit: 'ip',
    query: handshakeQuery,
    success: { status: 200, description: 'hub.challenge, as text/plain', contentType: 'text/plain', data: challenge },
    errors: ['WEBHOOK_VERIFICATION_FAILED', 'WEBHOOK_NOT_CONFIGURED'],
    handler: async ({ query }: HandlerInput<undefined, { 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string }>) => {
      const expected = uc.providerCallbacks.whatsappVerifyToken;
      if (!expected) throw callbacksOff('WhatsApp', 'WHATSAPP_WEBHOOK_VERIFY_TOKEN and WHATSAPP_APP_SECRET');
      const token = query['hub.verify_token'];
      if (query['hub.mode'] !== 'subscribe' || token === undefined || !sameSecret(token, expected) || query['hub.challenge'] === undefined) throw handshakeRefused();
      return { status: 200, message: 'Webhook verified', data: query['hub.challenge'] };
    },
  }),
  route({
    method: 'post',
    path: '/webhooks/whatsapp',
    operationId: 'whatsappWebhook',
    tag: TAG,
    summary: "WhatsApp Cloud API status webhooks",
    description:
      'For Meta, not for apps: the same callback URL, subscribed to the messages field. Accepted only when X-Hub-Signature-256 is sha256= and the hex HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET ' +
      '(else 401 WEBHOOK_SIGNATURE_INVALID and nothing changes). Each status in the body: delivered and read make the SENT notification with that wamid DELIVERED; failed makes it FAILED with ' +
      "Meta's code, title and details as the reason; sent changes nothing. Statuses about no SENT notification, and incoming messages, are answered 200 too. With WhatsApp webhooks unconfigured: 503 WEBHOOK_NOT_CONFIGURED.",
    access: 'public',
    rateLimit: 'ip',
    rawBody: { description: 'The webhook exactly as Meta sends it (the signature is over these bytes).', content: { 'application/json': whatsappWebhook } },
    success: { status: 200, description: 'Taken (whether or not its statuses matched notifications)', data: received },
    errors: [...POST_ERRORS],
    handler: async ({ ctx }: HandlerInput<undefined>) => {
      const secret = uc.providerCallbacks.whatsappAppSecret;
      if (!secret) throw callbacksOff('WhatsApp', 'WHATSAPP_APP_SECRET and WHATSAPP_WEBHOOK_VERIFY_TOKEN');
      const payload = await signedJson(ctx, { provider: 'WhatsApp', header: 'X-Hub-Signature-256', maxBytes: WHATSAPP_MAX_BYTES, valid: (body, sig) => metaSignatureValid(secret, body, sig) });
      return applyAll(uc, 'whatsapp', parseWhatsAppStatuses(payload), ctx.state.requestId as string);
    },
  }),
];
