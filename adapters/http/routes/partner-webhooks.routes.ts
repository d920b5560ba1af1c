import type {
  createWebhook, deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks, redeliverWebhook, rotateWebhookSecret, testWebhook, updateWebhook,
} from '../../../application/partners/manage-webhooks.js';
import type { Clock } from '../../../application/ports/clock.js';
import { WEBHOOK_EVENTS } from '../../../domain/webhook.js';
import { doc, jsonSchemaOf, object, orNull, shape, text, uuid } from '../codecs.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { created, ok, route } from '../route.js';
import { deliveryJson, deliveryShape, endpointJson, endpointShape, endpointWithSecretShape, webhookEventsInput, webhookUrlInput } from './partner-webhooks.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface PartnerWebhookUseCases {
  readonly createWebhook: ReturnType<typeof createWebhook>;
  readonly listWebhooks: ReturnType<typeof listWebhooks>;
  readonly getWebhook: ReturnType<typeof getWebhook>;
  readonly updateWebhook: ReturnType<typeof updateWebhook>;
  readonly deleteWebhook: ReturnType<typeof deleteWebhook>;
  readonly rotateWebhookSecret: ReturnType<typeof rotateWebhookSecret>;
  readonly testWebhook: ReturnType<typeof testWebhook>;
  readonly listWebhookDeliveries: ReturnType<typeof listWebhookDeliveries>;
  readonly redeliverWebhook: ReturnType<typeof redeliverWebhook>;
  readonly paging: Paging;
  readonly clock: Clock;
}

const TAG = 'Partner webhooks';
const access = { partnerScope: 'webhooks:manage' } as const;
const SIGNING =
  'Each delivery is a POST of JSON `{id, type, timestamp, partner_id, data}` signed by the Standard Webhooks specification: headers `webhook-id` (the same on retries), ' +
  '`webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the secret; for 24 hours after a rotation, ' +
  'a second signature with the old secret). Verify with any Standard Webhooks library, refusing old timestamps. A 2xx within 10 s is a success; anything else is retried ' +
  'with exponential backoff (1 min, doubling, at most 6 h) for 72 hours, in order per endpoint. Events: ' + WEBHOOK_EVENTS.join(', ') + '.';
const fields = { url: webhookUrlInput, events: webhookEventsInput, description: orNull(text(1, 500, 'what the endpoint is for')) };

/** A partner's webhook endpoints and their deliveries (docs/adr/0033). */
export const partnerWebhookRoutes = (uc: PartnerWebhookUseCases) => {
  const json = (e: Parameters<typeof endpointJson>[0]) => endpointJson(e, uc.clock.now());
  return [
    route({
      method: 'post',
      path: '/partner/webhooks',
      operationId: 'createPartnerWebhook',
      tag: TAG,
      summary: 'Add a webhook endpoint',
      description: `The answer carries the signing secret (whsec_...) this once. url: https, not a private or loopback address (else 422 WEBHOOK_URL_NOT_ALLOWED). ${SIGNING}`,
      access,
      rateLimit: 'partner',
      idempotent: true,
      bodyExample: { url: 'https://hooks.partner.example/bizops', events: ['sale.created', 'merchant.joined'], description: 'Production' },
      body: object('CreatePartnerWebhookRequest', { url: webhookUrlInput, events: webhookEventsInput }, { description: fields.description }),
      success: { status: 201, description: 'The endpoint and its secret', data: endpointWithSecretShape },
      failures: failuresOf<FailureOf<typeof uc.createWebhook>>({ WebhookUrlNotAllowed: true }),
    errors: [],
      handler: async ({ partner, body }) => {
        const e = successOf(await uc.createWebhook(partner, { url: body.url, events: body.events, description: body.description ?? null }), 'webhook');
        return created('Webhook endpoint added; store the secret now: it is not shown again', { ...json(e), secret: e.secret });
      },
    }),
    route({
      method: 'get',
      path: '/partner/webhooks',
      operationId: 'listPartnerWebhooks',
      tag: TAG,
      summary: 'Webhook endpoints',
      description:
        'The endpoints of the partner with their status and why they fail; never the secret. Paged (keyset) like every list, newest first. ' +
        'search: url and description; start_date/end_date bound created_at.',
      access,
      rateLimit: 'partner',
      query: listQuery('WebhookEndpointListQuery', ['created_at'] as const, {}),
      success: { status: 200, description: 'A page of endpoints', data: doc('WebhookEndpointPage', pageSchema(jsonSchemaOf(endpointShape))) },
      errors: [],
      handler: async ({ partner, query }) => {
        const req = uc.paging.request('listPartnerWebhooks', query, 'created_at');
        return ok('Webhook endpoints', uc.paging.render('listPartnerWebhooks', query, req, await uc.listWebhooks(partner, req), json));
      },
    }),
    route({
      method: 'get',
      path: '/partner/webhooks/:id',
      operationId: 'getPartnerWebhook',
      tag: TAG,
      summary: 'A webhook endpoint',
      access,
      rateLimit: 'partner',
      success: { status: 200, description: 'The endpoint', data: endpointShape },
      failures: failuresOf<FailureOf<typeof uc.getWebhook>>({ NotFound: true }),
    errors: [],
      handler: async ({ partner, params }) => ok('Webhook endpoint', json(successOf(await uc.getWebhook(partner, params.id), 'webhook'))),
    }),
    route({
      method: 'put',
      path: '/partner/webhooks/:id',
      operationId: 'updatePartnerWebhook',
      tag: TAG,
      summary: 'Update a webhook endpoint (re-enables it)',
      description: 'Fields present are changed (description null clears it). Any update makes a FAILING or DISABLED endpoint ACTIVE again, and its waiting deliveries resume.',
      access,
      rateLimit: 'partner',
      bodyExample: { events: ['sale.created', 'sale.voided'] },
      body: object('UpdatePartnerWebhookRequest', {}, fields),
      success: { status: 200, description: 'The endpoint', data: endpointShape },
      failures: failuresOf<FailureOf<typeof uc.updateWebhook>>({ NotFound: true, WebhookUrlNotAllowed: true }),
    errors: [],
      handler: async ({ partner, params, body }) => ok('Webhook endpoint updated', json(successOf(await uc.updateWebhook(partner, params.id, body), 'webhook'))),
    }),
    route({
      method: 'delete',
      path: '/partner/webhooks/:id',
      operationId: 'deletePartnerWebhook',
      tag: TAG,
      summary: 'Delete a webhook endpoint',
      description: 'The endpoint and its deliveries (waiting ones are not sent).',
      access,
      rateLimit: 'partner',
      success: { status: 200, description: 'Deleted', data: shape('DeletedWebhookEndpoint', { id: uuid }) },
      failures: failuresOf<FailureOf<typeof uc.deleteWebhook>>({ NotFound: true }),
    errors: [],
      handler: async ({ partner, params }) => {
        successOf(await uc.deleteWebhook(partner, params.id), 'webhook');
        return ok('Webhook endpoint deleted', { id: params.id });
      },
    }),
    route({
      method: 'post',
      path: '/partner/webhooks/:id/rotate-secret',
      operationId: 'rotatePartnerWebhookSecret',
      tag: TAG,
      summary: "Rotate a webhook endpoint's secret",
      description: "A new secret, shown this once; for 24 hours every delivery carries both signatures (new and old), so the receiver can switch without losing one.",
      access,
      rateLimit: 'partner',
      idempotent: true,
      success: { status: 200, description: 'The endpoint and its new secret', data: endpointWithSecretShape },
      failures: failuresOf<FailureOf<typeof uc.rotateWebhookSecret>>({ NotFound: true }),
    errors: [],
      handler: async ({ partner, params }) => {
        const e = successOf(await uc.rotateWebhookSecret(partner, params.id), 'webhook');
        return ok('Secret rotated; store it now: it is not shown again', { ...json(e), secret: e.secret });
      },
    }),
    route({
      method: 'post',
      path: '/partner/webhooks/:id/test',
      operationId: 'testPartnerWebhook',
      tag: TAG,
      summary: 'Send a test event',
      description: 'A `webhook.test` delivery (data: {endpoint_id}), queued after the endpoint\'s earlier deliveries and attempted at once; the answer is the delivery as it stands (its status, response code and duration).',
      access,
      rateLimit: 'partner',
      success: { status: 200, description: 'The test delivery', data: deliveryShape },
      failures: failuresOf<FailureOf<typeof uc.testWebhook>>({ NotFound: true }),
    errors: [],
      handler: async ({ partner, params }) => ok('Test event sent', deliveryJson(successOf(await uc.testWebhook(partner, params.id), 'webhook'))),
    }),
    route({
      method: 'get',
      path: '/partner/webhooks/:id/deliveries',
      operationId: 'listPartnerWebhookDeliveries',
      tag: TAG,
      summary: "A webhook endpoint's deliveries",
      description: 'Paged (keyset), newest first: event, status, attempts, response code, duration, the last error. search: the event type; start_date/end_date bound created_at.',
      access,
      rateLimit: 'partner',
      query: listQuery('WebhookDeliveryListQuery', ['created_at'] as const, {}),
      success: { status: 200, description: 'A page of deliveries', data: doc('WebhookDeliveryPage', pageSchema(jsonSchemaOf(deliveryShape))) },
      failures: failuresOf<FailureOf<typeof uc.listWebhookDeliveries>>({ NotFound: true }),
    errors: [],
      handler: async ({ partner, params, query }) => {
        const req = uc.paging.request('listPartnerWebhookDeliveries', query, 'created_at');
        const page = successOf(await uc.listWebhookDeliveries(partner, params.id, req), 'webhook');
        return ok('Webhook deliveries', uc.paging.render('listPartnerWebhookDeliveries', query, req, page, deliveryJson));
      },
    }),
    route({
      method: 'post',
      path: '/partner/webhooks/deliveries/:delivery_id/redeliver',
      operationId: 'redeliverPartnerWebhook',
      tag: TAG,
      summary: 'Send a delivery again',
      description: 'A new delivery of the same body with the same webhook-id (a receiver that got the first may drop it), queued in order and attempted at once.',
      access,
      rateLimit: 'partner',
      success: { status: 200, description: 'The new delivery', data: deliveryShape },
      failures: failuresOf<FailureOf<typeof uc.redeliverWebhook>>({ NotFound: true }),
    errors: [],
      handler: async ({ partner, params }) => ok('Delivery queued again', deliveryJson(successOf(await uc.redeliverWebhook(partner, params.delivery_id), 'webhook delivery'))),
    }),
  ];
};
