import type { Kobo } from '../../domain/money.js';
import type { DailyQuota } from '../../domain/plan.js';
import type { Notification, NotificationChannel, NotificationPreferences, NotificationStatus } from '../../domain/notification.js';
import type { Page, PageRequest } from '../ports/list.js';

// The notifications module's ports: the notifications sent, the owner's preferences, and the marks
// that keep scheduled work from sending twice (daily summary per day, reminder per customer, low-stock alert per product).

export const NOTIFICATION_SORTS = ['created_at'] as const;
export type NotificationSort = (typeof NOTIFICATION_SORTS)[number];

export interface NotificationFilter {
  readonly channel?: NotificationChannel;
  readonly status?: NotificationStatus;
  readonly customerId?: string;
}

/** What a sending attempt ended in; each applies only to a notification still QUEUED. */
export type SendOutcome =
  | { readonly status: 'SENT'; readonly providerMessageId: string | null; readonly text: string; readonly at: Date }
  | { readonly status: 'FAILED'; readonly reason: string; readonly at: Date };

/** Notifications of one business (tenancy in every method but the provider's delivery report, which knows no business). */
export interface NotificationRepository {
  /** 'duplicate' when a notification with the same `sourceEventId` exists (a subscriber run twice). */
  add(notification: Notification): Promise<'added' | 'duplicate'>;
  findById(businessId: string, notificationId: string): Promise<Notification | undefined>;
  /** Newest first by default; filters on channel, status and customer. */
  list(businessId: string, page: PageRequest<NotificationSort>, filter: NotificationFilter): Promise<Page<Notification>>;
  /** Counts one more attempt of a QUEUED notification; answers the count, or undefined when it is no longer QUEUED. */
  countAttempt(businessId: string, notificationId: string, at: Date): Promise<number | undefined>;
  /** Settles a QUEUED notification; false when it was not QUEUED (already settled by another worker). */
  settle(businessId: string, notificationId: string, outcome: SendOutcome): Promise<boolean>;
  /** The provider's report on a SENT notification: DELIVERED, or FAILED with its reason. False when none is SENT with that id. */
  applyDeliveryReport(providerMessageId: string, report: { readonly status: 'DELIVERED' | 'FAILED'; readonly reason: string | null; readonly at: Date }): Promise<boolean>;
}

/** A customer a reminder may go to: owes something, not opted out. */
export interface ReminderCandidate {
  readonly customerId: string;
  readonly name: string;
  readonly phone: string | null;
  readonly email: string | null;
  readonly balance: Kobo;
}

/** The owner's notification preferences and the marks scheduled work leaves. */
export interface NotificationSettings {
  /** The business's preferences (the defaults until the owner saves some). */
  get(businessId: string): Promise<NotificationPreferences>;
  save(businessId: string, preferences: NotificationPreferences, at: Date): Promise<void>;
  /** Businesses whose daily summary is on, due at or before `time` (HH:MM Lagos) and not yet sent for `day`. Across tenants: the scheduler's query. */
  dueDailySummaries(day: string, time: string, limit: number): Promise<string[]>;
  /** Marks the summary of `day` sent; false when it already was (another worker, a restart). */
  claimDailySummary(businessId: string, day: string): Promise<boolean>;
  /** Businesses with credit reminders on. Across tenants: the scheduler's query. */
  remindingBusinesses(limit: number, afterBusinessId?: string): Promise<{ businessId: string; preferences: NotificationPreferences }[]>;
  /** Businesses with an invoice reminder on (before_due or overdue; docs/adr/0077). Across tenants: the scheduler's query. */
  invoiceRemindingBusinesses(limit: number, afterBusinessId?: string): Promise<{ businessId: string; preferences: NotificationPreferences }[]>;
  /**
   * Customers owing something on a credit sale made before `debtBefore`, not opted out, not reminded
   * after `remindedBefore`.
   */
  reminderCandidates(businessId: string, debtBefore: Date, remindedBefore: Date, limit: number): Promise<ReminderCandidate[]>;
  /** Marks the customer reminded at `at`, unless someone did after `remindedBefore`; false then. */
  claimReminder(businessId: string, customerId: string, at: Date, remindedBefore: Date): Promise<boolean>;
  /** True while the product is marked alerted. */
  isLowStockAlerted(businessId: string, productId: string): Promise<boolean>;
  /** Marks the product alerted; false when it already was (not restocked above its threshold since). */
  claimLowStockAlert(businessId: string, productId: string, at: Date): Promise<boolean>;
  /** Clears the mark (the product is above its threshold again). */
  clearLowStockAlert(businessId: string, productId: string): Promise<void>;
  /** True when a customer of the business with this phone or e-mail opted out of reminders and messages. */
  isOptedOut(businessId: string, contact: string): Promise<boolean>;
  /** True when a customer of the business, or a member of it (active or invited), has this phone or e-mail: who a message may go to. */
  isRecipientOf(businessId: string, contact: string): Promise<boolean>;
  /**
   * Counts one more of the business's `quota` on the Lagos `day`, unless `limit` are counted already:
   * false then. The count's row stays locked until the transaction ends, so two callers at once cannot
   * both take the last one; a rollback gives it back.
   */
  countDailyMessage(businessId: string, day: string, quota: DailyQuota, limit: number): Promise<boolean>;
  /** The business's first active owner's phone and e-mail (where alerts and summaries go). */
  ownerContact(businessId: string): Promise<{ phone: string | null; email: string | null } | undefined>;
}

/** The notifications module's repositories, as a unit of work hands them to a use case. */
export interface NotificationRepositories {
  readonly notifications: NotificationRepository;
  readonly notificationSettings: NotificationSettings;
}
