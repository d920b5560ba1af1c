import type { EndpointStatus } from '../../domain/webhook.js';

/**
 * The operator's side of the tables (docs/adr/0065, 0068): rows past their use pruned, and the
 * readings the metrics show. Across every business on purpose (an operator's task, never a
 * request's); no method returns a row's content. Each prune is one short statement on at most
 * `limit` rows that nothing else holds (rows locked by a request are skipped, never waited for).
 * The audit log is no table of these: nothing prunes it.
 */
export interface HousekeepingRepository {
  /** Outbox entries delivered before `before` (given-up ones stay, for a person to look at). */
  pruneDeliveredEvents(before: Date, limit: number): Promise<number>;
  /** Sessions that expired or were signed out before `before`, with their refresh tokens. */
  pruneEndedSessions(before: Date, limit: number): Promise<number>;
  /** Sign-in codes made before `before` (a code lives 10 minutes: all spent, expired or dead by then). */
  pruneOldOtps(before: Date, limit: number): Promise<number>;
  /** Webhook deliveries made before `before` that succeeded or failed for good (pending ones stay). */
  pruneSettledWebhookDeliveries(before: Date, limit: number): Promise<number>;
  /** When the oldest event still waiting for delivery happened; null when none waits. */
  oldestUndeliveredEvent(): Promise<Date | null>;
  /** Partner webhook endpoints by status. */
  webhookEndpointCounts(): Promise<Record<EndpointStatus, number>>;
}

export interface HousekeepingRepositories {
  readonly housekeeping: HousekeepingRepository;
}
