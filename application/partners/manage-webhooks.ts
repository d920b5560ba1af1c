import * as E from 'fp-ts/lib/Either.js';
import type { PartnerActor } from '../../domain/partner.js';
import { SECRET_GRACE_MS, SECRET_PREFIX, TEST_EVENT, type WebhookDelivery, type WebhookEndpoint, type WebhookEvent } from '../../domain/webhook.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { PageRequest } from '../ports/list.js';
import { deliverDueWebhooks, newDelivery, PASSES_AT_ONCE, webhookBody, type WebhookDeliveryDeps } from './deliver-webhooks.js';

// A partner's webhook endpoints and their deliveries (docs/adr/0033). Every lookup names the partner:
// another partner's endpoint or delivery is 404.

/** The URL is not one deliveries may go to (not https, or a private or loopback address). */
export type WebhookUrlNotAllowed = { readonly _tag: 'WebhookUrlNotAllowed'; readonly reason: string };

type Deps = WebhookDeliveryDeps & {
  /** Why a URL may not receive webhooks, or undefined when it may (checked again, resolved, before each POST). */
  readonly urlRefusal: (url: string) => string | undefined;
};

const newSecret = (deps: Pick<Deps, 'crypto'>) => `${SECRET_PREFIX}${Buffer.from(deps.crypto.refreshToken(), 'base64url').toString('base64')}`;

export interface WebhookInput {
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  readonly description: string | null;
}

export const createWebhook =
  (deps: Deps) =>
  async (partner: PartnerActor, input: WebhookInput): Promise<E.Either<WebhookUrlNotAllowed, WebhookEndpoint>> => {
    const refusal = deps.urlRefusal(input.url);
    if (refusal) return E.left({ _tag: 'WebhookUrlNotAllowed', reason: refusal });
    const now = deps.clock.now();
    const endpoint: WebhookEndpoint = {
      id: deps.crypto.uuid(), partnerId: partner.partnerId, url: input.url, description: input.description, events: [...new Set(input.events)], secret: newSecret(deps),
      previousSecret: null, previousSecretUntil: null, status: 'ACTIVE', failingSince: null, lastError: null, createdAt: now, updatedAt: now,
    };
    await deps.uow.run((r) => r.webhookEndpoints.add(endpoint));
    return E.right(endpoint);
  };

export const listWebhooks = (deps: Pick<Deps, 'uow'>) => (partner: PartnerActor, page: PageRequest<'created_at'>) => deps.uow.read((r) => r.webhookEndpoints.page(partner.partnerId, page));

export const getWebhook =
  (deps: Pick<Deps, 'uow'>) =>
  async (partner: PartnerActor, id: string): Promise<E.Either<NotFound, WebhookEndpoint>> => {
    const e = await deps.uow.read((r) => r.webhookEndpoints.findById(partner.partnerId, id));
    return e ? E.right(e) : E.left(notFound);
  };

/** Changes the fields given; any update re-enables a FAILING or DISABLED endpoint (its waiting deliveries resume). */
export const updateWebhook =
  (deps: Deps) =>
  async (partner: PartnerActor, id: string, changes: Partial<WebhookInput>): Promise<E.Either<NotFound | WebhookUrlNotAllowed, WebhookEndpoint>> => {
    const refusal = changes.url === undefined ? undefined : deps.urlRefusal(changes.url);
    if (refusal) return E.left({ _tag: 'WebhookUrlNotAllowed', reason: refusal });
    const updated = await deps.uow.run(async (r) => {
      const e = await r.webhookEndpoints.findById(partner.partnerId, id);
      if (!e) return undefined;
      const next: WebhookEndpoint = {
        ...e,
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.events !== undefined ? { events: [...new Set(changes.events)] } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        status: 'ACTIVE',
        failingSince: null,
        updatedAt: deps.clock.now(),
      };
      await r.webhookEndpoints.save(next);
      return next;
    });
    if (!updated) return E.left(notFound);
    if (updated.status === 'ACTIVE') await deliverDueWebhooks(deps)([updated.id], PASSES_AT_ONCE);
    return E.right(updated);
  };

export const deleteWebhook =
  (deps: Pick<Deps, 'uow'>) =>
  async (partner: PartnerActor, id: string): Promise<E.Either<NotFound, true>> =>
    (await deps.uow.run((r) => r.webhookEndpoints.remove(partner.partnerId, id))) ? E.right(true) : E.left(notFound);

/** A new secret; for 24 h each delivery carries the old secret's signature as well (receivers roll over). */
export const rotateWebhookSecret =
  (deps: Deps) =>
  async (partner: PartnerActor, id: string): Promise<E.Either<NotFound, WebhookEndpoint>> =>
    deps.uow.run(async (r) => {
      const e = await r.webhookEndpoints.findById(partner.partnerId, id);
      if (!e) return E.left(notFound);
      const now = deps.clock.now();
      const next = { ...e, previousSecret: e.secret, previousSecretUntil: new Date(now.getTime() + SECRET_GRACE_MS), secret: newSecret(deps), updatedAt: now };
      await r.webhookEndpoints.save(next);
      return E.right(next);
    });

/** Queues a `webhook.test` delivery to the endpoint and attempts it (after the endpoint's earlier deliveries). */
export const testWebhook =
  (deps: Deps) =>
  async (partner: PartnerActor, id: string): Promise<E.Either<NotFound, WebhookDelivery>> => {
    const now = deps.clock.now();
    const delivery = await deps.uow.run(async (r) => {
      const e = await r.webhookEndpoints.findById(partner.partnerId, id);
      if (!e) return undefined;
      const messageId = `msg_${deps.crypto.uuid()}`;
      const d = newDelivery(deps, e, messageId, TEST_EVENT, webhookBody(messageId, TEST_EVENT, now, partner.partnerId, { endpoint_id: e.id }), null, now);
      await r.webhookDeliveries.add([d]);
      return d;
    });
    if (!delivery) return E.left(notFound);
    return E.right(await attemptAndRead(deps, partner, delivery));
  };

export const listWebhookDeliveries =
  (deps: Pick<Deps, 'uow'>) =>
  async (partner: PartnerActor, endpointId: string, page: PageRequest<'created_at'>) =>
    deps.uow.read(async (r) => ((await r.webhookEndpoints.findById(partner.partnerId, endpointId)) ? E.right(await r.webhookDeliveries.list(partner.partnerId, endpointId, page)) : E.left(notFound)));

/** Sends a delivery again, as a new delivery with the same `webhook-id` and body (the receiver may drop it as a duplicate). */
export const redeliverWebhook =
  (deps: Deps) =>
  async (partner: PartnerActor, deliveryId: string): Promise<E.Either<NotFound, WebhookDelivery>> => {
    const now = deps.clock.now();
    const delivery = await deps.uow.run(async (r) => {
      const old = await r.webhookDeliveries.findById(partner.partnerId, deliveryId);
      const e = old && (await r.webhookEndpoints.findById(partner.partnerId, old.endpointId));
      if (!old || !e) return undefined;
      const d = newDelivery(deps, e, old.messageId, old.event, old.payload, null, now, old.traceparent); // the same event: the same trace
      await r.webhookDeliveries.add([d]);
      return d;
    });
    if (!delivery) return E.left(notFound);
    return E.right(await attemptAndRead(deps, partner, delivery));
  };

const attemptAndRead = async (deps: Deps, partner: PartnerActor, d: WebhookDelivery): Promise<WebhookDelivery> => {
  await deliverDueWebhooks(deps)([d.endpointId], PASSES_AT_ONCE);
  return (await deps.uow.read((r) => r.webhookDeliveries.findById(partner.partnerId, d.id))) ?? d;
};
