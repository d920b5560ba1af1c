import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../domain/webhook.js';
import type { Page, PageRequest } from '../ports/list.js';

// The webhooks' ports (docs/adr/0033): endpoints and deliveries, every method scoped by partner
// except the delivery loop's claim (it works for all partners, and each row names its own).

export interface WebhookEndpointRepository {
  add(e: WebhookEndpoint): Promise<void>;
  findById(partnerId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  /** Oldest first (a partner has a handful). */
  list(partnerId: string): Promise<WebhookEndpoint[]>;
  /** A keyset page of the partner's endpoints; search: url and description; dates: created_at. */
  page(partnerId: string, page: PageRequest<'created_at'>): Promise<Page<WebhookEndpoint>>;
  save(e: WebhookEndpoint): Promise<void>;
  /** Deletes the endpoint and its deliveries; false when the partner has no such endpoint. */
  remove(partnerId: string, endpointId: string): Promise<boolean>;
  /** The partner's endpoints that take `event` and are not DISABLED. */
  subscribed(partnerId: string, event: WebhookEvent): Promise<WebhookEndpoint[]>;
}

/** A new delivery: of an outbox event (unique per endpoint), or of a test or redelivery (outboxId null). */
export type NewDelivery = WebhookDelivery & { readonly outboxId: string | null };

export interface WebhookDeliveryRepository {
  /** Adds the deliveries; one whose endpoint already has a delivery of its outbox id is skipped (a repeated job). */
  add(deliveries: readonly NewDelivery[]): Promise<void>;
  findById(partnerId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  list(partnerId: string, endpointId: string, page: PageRequest<'created_at'>): Promise<Page<WebhookDelivery>>;
  /**
   * Leases until `leaseUntil` the deliveries to attempt now: of each endpoint that is not DISABLED, its
   * oldest PENDING one (deliveries go out in order), when it is due and not leased by another worker.
   * `endpointIds`: only theirs.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number, endpointIds?: readonly string[]): Promise<WebhookDelivery[]>;
  /** Saves the outcome of an attempt (status, attempts, times, response) and ends the lease. */
  saveAttempt(d: WebhookDelivery): Promise<void>;
}

export interface WebhookRepositories {
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
}
