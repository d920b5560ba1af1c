import * as E from 'fp-ts/lib/Either.js';
import type { Notification, NotificationPreferences } from '../../domain/notification.js';
import { checkAmounts, type NegativeAmount } from '../../domain/amount-rules.js';
import type { Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Page, PageRequest } from '../ports/list.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { EventRepositories } from '../ports/outbox.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { NotificationFilter, NotificationRepositories, NotificationSort } from './ports.js';

type Deps = { uow: UnitOfWork<NotificationRepositories & EventRepositories> };

/** One notification of the caller's business, with its status, attempts and the provider's reason when it failed. */
export const getNotification =
  (deps: Deps) =>
  async (actor: Actor, notificationId: string): Promise<E.Either<NotFound, Notification>> => {
    const n = await deps.uow.read((r) => r.notifications.findById(actor.businessId, notificationId));
    return n ? E.right(n) : E.left(notFound);
  };

/** A page of the business's notifications, newest first unless asked otherwise. */
export const listNotifications =
  (deps: Deps) =>
  (actor: Actor, page: PageRequest<NotificationSort>, filter: NotificationFilter): Promise<Page<Notification>> =>
    deps.uow.read((r) => r.notifications.list(actor.businessId, page, filter));

/** The business's notification preferences (nothing is on until the owner turns it on). */
export const getNotificationPreferences =
  (deps: Deps) =>
  (actor: Actor): Promise<NotificationPreferences> =>
    deps.uow.read((r) => r.notificationSettings.get(actor.businessId));

/** What PUT /notifications/preferences may change: any section, any field of it; the rest stays. */
export interface PreferenceChanges {
  readonly lowStockAlerts?: Partial<NotificationPreferences['lowStockAlerts']>;
  readonly dailySummary?: Partial<NotificationPreferences['dailySummary']>;
  readonly creditReminders?: Partial<NotificationPreferences['creditReminders']>;
  readonly receiptChannel?: NotificationPreferences['receiptChannel'];
  readonly auditAlerts?: Partial<NotificationPreferences['auditAlerts']>;
  readonly invoiceReminders?: Partial<NotificationPreferences['invoiceReminders']>;
}

/** The fields of each section that differ, as `{ section: { field } }` before and after; undefined when none does. */
const changedPreferences = (current: NotificationPreferences, next: NotificationPreferences) => {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const key of Object.keys(next) as (keyof NotificationPreferences)[]) {
    const was: unknown = current[key];
    const now: unknown = next[key];
    if (typeof now !== 'object' || now === null) {
      if (was !== now) [before[key], after[key]] = [was, now];
      continue;
    }
    const fields = Object.keys(now).filter((f) => (was as Record<string, unknown>)[f] !== (now as Record<string, unknown>)[f]);
    if (fields.length === 0) continue;
    before[key] = Object.fromEntries(fields.map((f) => [f, (was as Record<string, unknown>)[f]]));
    after[key] = Object.fromEntries(fields.map((f) => [f, (now as Record<string, unknown>)[f]]));
  }
  return Object.keys(after).length > 0 ? { before, after } : undefined;
};

/**
 * Changes the fields present and answers the whole preferences (the route checks ranges: days 1 to 365, HH:MM).
 * An alert's amount threshold is money the owner names: not negative.
 */
export const updateNotificationPreferences =
  (deps: Deps & { clock: Clock }) =>
  async (actor: Actor, changes: PreferenceChanges): Promise<E.Either<NegativeAmount, NotificationPreferences>> => {
    const alerts = changes.auditAlerts;
    const negative = checkAmounts([['auditAlerts.saleVoidedOver', alerts?.saleVoidedOver], ['auditAlerts.saleDiscountedOver', alerts?.saleDiscountedOver]]);
    if (negative) return E.left(negative);
    return deps.uow.run(async (r) => {
      const current = await r.notificationSettings.get(actor.businessId);
      const next: NotificationPreferences = {
        lowStockAlerts: { ...current.lowStockAlerts, ...changes.lowStockAlerts },
        dailySummary: { ...current.dailySummary, ...changes.dailySummary },
        creditReminders: { ...current.creditReminders, ...changes.creditReminders },
        receiptChannel: changes.receiptChannel ?? current.receiptChannel,
        auditAlerts: { ...current.auditAlerts, ...alerts },
        invoiceReminders: { ...current.invoiceReminders, ...changes.invoiceReminders },
      };
      await r.notificationSettings.save(actor.businessId, next, deps.clock.now());
      // the sections and fields that really changed, before and after (the audit log's notifications.preferences_changed)
      const changed = changedPreferences(current, next);
      if (changed) await r.events.record(deps.clock.now(), { _tag: 'NotificationPreferencesChanged', businessId: actor.businessId, ...changed });
      return E.right(next);
    });
  };
