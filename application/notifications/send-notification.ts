import * as E from 'fp-ts/lib/Either.js';
import { notificationRequested } from '../../domain/events.js';
import { lagosDate } from '../../domain/lagos-time.js';
import { containsLink, type Notification, type NotificationChannel } from '../../domain/notification.js';
import { checkMessageLinks, dailyLimit, type DailyLimitExceeded, type DailyQuota, type LinksNotAllowed, type Plan } from '../../domain/plan.js';
import { hasAnyRole, type Actor } from '../../domain/roles.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import { rollback, type UnitOfWork } from '../ports/unit-of-work.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { UnknownCustomer } from '../sales/record-sale.js';
import type { SaleRepositories } from '../sales/ports.js';
import type { NotificationRepositories, NotificationRepository, NotificationSettings } from './ports.js';

export type UnknownSale = { readonly _tag: 'UnknownSale' };
export type CustomerHasNoPhone = { readonly _tag: 'CustomerHasNoPhone' };
/** The customer asked for no reminders or custom messages (receipts still go). */
export type CustomerOptedOut = { readonly _tag: 'CustomerOptedOut' };
/** CUSTOM messages are the owner's: STAFF may send receipts and reminders only. */
export type CustomMessageOwnerOnly = { readonly _tag: 'CustomMessageOwnerOnly' };
/** A credit reminder to a customer who owes nothing. */
export type NothingOwed = { readonly _tag: 'NothingOwed' };

/** A `to` that is neither a customer's nor a member's of the business (the platform pays for every message). */
export type RecipientNotAllowed = { readonly _tag: 'RecipientNotAllowed' };

export type SendFailure =
  | UnknownCustomer
  | UnknownSale
  | CustomerHasNoPhone
  | CustomerOptedOut
  | CustomMessageOwnerOnly
  | NothingOwed
  | RecipientNotAllowed
  | LinksNotAllowed
  | DailyLimitExceeded;

/**
 * Counts one more message of the business's daily `quota` (Lagos day of `at`), in the caller's
 * transaction: the failure when the plan's cap is reached. Call it last, just before the message is
 * queued, so the count's row lock is held only until the commit.
 */
export const countDailyMessage = async (
  r: { notificationSettings: NotificationSettings },
  business: { readonly id: string; readonly plan: Plan },
  quota: DailyQuota,
  at: Date,
): Promise<DailyLimitExceeded | undefined> => {
  const limit = dailyLimit(business.plan, quota);
  return (await r.notificationSettings.countDailyMessage(business.id, lagosDate(at), quota, limit)) ? undefined : { _tag: 'DailyLimitExceeded', plan: business.plan, quota, limit };
};

/** What POST /notifications/{sms,whatsapp} asks; the route checks the fields each template needs (400 otherwise). */
export type SendCommand = { readonly customerId?: string; readonly to?: string } & (
  | { readonly template: 'RECEIPT'; readonly saleId: string }
  | { readonly template: 'CREDIT_REMINDER' }
  | { readonly template: 'CUSTOM'; readonly message: string }
);

type Deps = {
  uow: UnitOfWork<NotificationRepositories & EventRepositories & Pick<CustomerRepositories, 'customers'> & Pick<SaleRepositories, 'sales'> & Pick<BusinessRepositories, 'businesses'>>;
  clock: Clock;
  crypto: Crypto;
};

/** A new QUEUED notification, and its NotificationRequested event, in the caller's transaction. */
export const queueNotification = async (
  r: { notifications: NotificationRepository } & EventRepositories,
  at: Date,
  n: Pick<Notification, 'id' | 'businessId' | 'channel' | 'to' | 'template'> & Partial<Pick<Notification, 'customerId' | 'saleId' | 'productId' | 'message' | 'summaryDate' | 'createdBy' | 'sourceEventId'>>,
): Promise<Notification | undefined> => {
  const notification: Notification = {
    customerId: null,
    saleId: null,
    productId: null,
    message: null,
    summaryDate: null,
    createdBy: null,
    sourceEventId: null,
    ...n,
    status: 'QUEUED',
    attempts: 0,
    providerMessageId: null,
    failureReason: null,
    text: null,
    createdAt: at,
    updatedAt: at,
    sentAt: null,
  };
  if ((await r.notifications.add(notification)) === 'duplicate') return undefined;
  await r.events.record(at, notificationRequested(n.businessId, n.id));
  return notification;
};

/**
 * Queues a receipt, credit reminder or custom message by SMS or WhatsApp; the outbox sends it after
 * the commit. To a customer (their phone) or a number; a customer who opted out gets receipts only,
 * and so does any number of an opted-out customer. CUSTOM is the owner's. A number must be a
 * customer's or a member's of the business; a CUSTOM message's links need a plan that allows them;
 * each message counts against the plan's daily cap (docs/adr/0040).
 */
export const sendNotification =
  (deps: Deps) =>
  async (actor: Actor, channel: Exclude<NotificationChannel, 'EMAIL'>, cmd: SendCommand): Promise<E.Either<SendFailure, Notification>> => {
    if (cmd.template === 'CUSTOM' && !hasAnyRole(actor, ['BUSINESS_OWNER'])) return E.left({ _tag: 'CustomMessageOwnerOnly' });
    return deps.uow.run(async (r) => {
      const now = deps.clock.now();
      let to = cmd.to;
      if (cmd.customerId) {
        const customer = await r.customers.findById(actor.businessId, cmd.customerId);
        if (!customer) return E.left({ _tag: 'UnknownCustomer' as const });
        if (cmd.template !== 'RECEIPT' && customer.notificationsOptOut) return E.left({ _tag: 'CustomerOptedOut' as const });
        if (cmd.template === 'CREDIT_REMINDER' && customer.creditBalance <= 0) return E.left({ _tag: 'NothingOwed' as const });
        if (!customer.phone) return E.left({ _tag: 'CustomerHasNoPhone' as const });
        to = customer.phone;
      } else if (!(await r.notificationSettings.isRecipientOf(actor.businessId, to!))) {
        return E.left({ _tag: 'RecipientNotAllowed' as const });
      } else if (cmd.template !== 'RECEIPT' && (await r.notificationSettings.isOptedOut(actor.businessId, to!))) {
        return E.left({ _tag: 'CustomerOptedOut' as const });
      }
      if (cmd.template === 'RECEIPT' && !(await r.sales.findById(actor.businessId, cmd.saleId))) return E.left({ _tag: 'UnknownSale' as const });
      const business = await r.businesses.findById(actor.businessId);
      if (!business) throw new Error(`business ${actor.businessId} vanished`);
      const links = cmd.template === 'CUSTOM' ? checkMessageLinks(business.plan, containsLink(cmd.message)) : undefined;
      if (links) return E.left(links);
      // a reminder sent by hand counts: the scheduled ones wait repeat_every_days from it
      if (cmd.template === 'CREDIT_REMINDER') await r.notificationSettings.claimReminder(actor.businessId, cmd.customerId!, now, now);
      const capped = await countDailyMessage(r, business, 'MESSAGES', now);
      if (capped) return rollback(E.left(capped)); // the reminder's mark too
      const queued = await queueNotification(r, now, {
        id: deps.crypto.uuid(),
        businessId: actor.businessId,
        channel,
        to: to!,
        template: cmd.template,
        customerId: cmd.customerId ?? null,
        saleId: cmd.template === 'RECEIPT' ? cmd.saleId : null,
        message: cmd.template === 'CUSTOM' ? cmd.message : null,
        createdBy: actor.userId,
      });
      return E.right(queued!); // no source event: never a duplicate
    });
  };
