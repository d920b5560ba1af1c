import type { DomainEvent, EventType } from '../../domain/events.js';

/**
 * How long a freshly recorded event is left to the request that recorded it (its first attempt,
 * right after the commit) before a dispatcher's loop may take it: longer than that attempt is
 * awaited, short enough that an event whose request died is soon delivered by the loop.
 */
export const FIRST_ATTEMPT_GRACE_MS = 5_000;

/** What happened, written in the unit of work's transaction: a rolled-back change records nothing. */
export interface EventLog {
  /** Records the events (in one write) at `at`; answers their outbox ids, in order. */
  record(at: Date, ...events: DomainEvent[]): Promise<readonly string[]>;
}

/** An undelivered event as a dispatcher claimed it. */
export interface OutboxEntry {
  readonly id: string;
  readonly event: DomainEvent;
  readonly occurredAt: Date;
  /** Attempts so far, this one included. */
  readonly attempts: number;
  /** Subscribers that already handled it (an earlier attempt failed in another one). */
  readonly deliveredTo: readonly string[];
  /** The W3C traceparent of the request that recorded it, when it brought one (docs/adr/0066). */
  readonly traceparent?: string;
}

/** What a subscriber is told with an event: its outbox id, when it happened, and its trace (docs/adr/0066). */
export interface EventMeta {
  readonly id: string;
  readonly occurredAt: Date;
  readonly traceparent?: string;
}

/** How one claimed entry ended. `payload` is what is kept of the event (no secrets). */
export type Settlement =
  | { readonly id: string; readonly outcome: 'delivered'; readonly payload: Record<string, unknown> }
  | { readonly id: string; readonly outcome: 'retry'; readonly error: string; readonly retryAt: Date; readonly deliveredTo: readonly string[] }
  | { readonly id: string; readonly outcome: 'given_up'; readonly error: string; readonly deliveredTo: readonly string[]; readonly payload: Record<string, unknown> };

export interface ClaimRequest {
  readonly now: Date;
  /** The claimed entries are not due again before this (a dispatcher that dies mid-delivery is retried then). */
  readonly leaseUntil: Date;
  readonly limit: number;
  /** The first attempt of these entries (just committed, never tried), whether due or not. */
  readonly ids?: readonly string[];
}

/**
 * The dispatcher's side of the outbox. Each call is its own short transaction; entries another
 * dispatcher is claiming at the same moment are skipped, not waited for, and never claimed twice.
 */
export interface Outbox {
  /** Claims undelivered entries due at `now` (oldest due first), or the never-tried ones among `ids`. */
  claim(request: ClaimRequest): Promise<OutboxEntry[]>;
  settle(at: Date, settlements: readonly Settlement[]): Promise<void>;
}

/** A handler of events of some types (the message sender; webhooks, sync, jobs to come). */
export interface Subscriber {
  /** Stable: it is stored with the entries it has handled. */
  readonly name: string;
  readonly handles: readonly EventType[];
  /** Throws to have the event retried later. Runs at least once per event: make it idempotent where it can be. */
  handle(event: DomainEvent, meta: EventMeta): Promise<void>;
  /**
   * Called once when the queue stops retrying an event this subscriber failed on (its last attempt
   * failed): the subscriber records the failure for people to see (a notification becomes FAILED).
   * Optional; must not throw for an event it has already settled.
   */
  giveUp?(event: DomainEvent, meta: EventMeta & { readonly error: string }): Promise<void>;
  /**
   * True: the request that recorded the event does not wait for this subscriber's first attempt (kept
   * off hot paths such as a sale); the queue delivers it after FIRST_ATTEMPT_GRACE_MS.
   */
  readonly background?: boolean;
}

/** The events module's repositories, handed out by the unit of work like any module's. */
export interface EventRepositories {
  readonly events: EventLog;
}
