import { lagosDate, lagosDateTime } from '../../domain/lagos-time.js';
import { contactFor, type NotificationChannel } from '../../domain/notification.js';
import { isLowStock } from '../../domain/product.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { ProductRepositories } from '../products/ports.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories, Subscriber } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { NotificationRepositories } from './ports.js';
import { queueNotification } from './send-notification.js';

type Repos = NotificationRepositories & EventRepositories & Pick<BusinessRepositories, 'businesses'> & Pick<CustomerRepositories, 'customers'> & Pick<ProductRepositories, 'products'>;
type Deps = { readonly uow: UnitOfWork<Repos>; readonly clock: Clock; readonly crypto: Crypto };

const DAY_MS = 86_400_000;
/** Businesses, and customers of one business, handled per pass of the scheduler (the next minute's pass takes the rest). */
const BATCH = 500;

/** Where the owner's alerts go on a channel: the first active owner's phone or e-mail, else the business's. */
export const ownerAddress = async (r: Pick<NotificationRepositories, 'notificationSettings'> & Pick<BusinessRepositories, 'businesses'>, businessId: string, channel: NotificationChannel): Promise<string | null> => {
  const owner = await r.notificationSettings.ownerContact(businessId);
  const own = owner ? contactFor(channel, owner) : null;
  if (own) return own;
  const business = await r.businesses.findById(businessId);
  return business ? contactFor(channel, business) : null;
};

/**
 * Notifications the system queues on its own after events (in the background: a sale's request does not
 * wait for them). A sale to a customer: a receipt on the business's receipt channel, when the customer
 * has that contact. A stock change that leaves a product at or below its threshold: one alert to the
 * owner, not again until the product is restocked above it.
 */
export const notifyOnEvents = (deps: Deps): Subscriber => ({
  name: 'notification-triggers',
  handles: ['SaleRecorded', 'StockChanged'],
  background: true,
  async handle(event, meta) {
    const now = deps.clock.now();
    // Every sale and stock change comes here: decide on a read, and write only when there is something to do.
    if (event._tag === 'SaleRecorded') {
      const customerId = event.customerId;
      if (!customerId) return;
      const receipt = await deps.uow.read(async (r) => {
        const channel = (await r.notificationSettings.get(event.businessId)).receiptChannel;
        if (channel === 'NONE') return undefined;
        const customer = await r.customers.findById(event.businessId, customerId);
        const to = customer && contactFor(channel, customer);
        return to ? { channel, to } : undefined;
      });
      if (!receipt) return;
      await deps.uow.run((r) => queueNotification(r, now, { id: deps.crypto.uuid(), businessId: event.businessId, ...receipt, template: 'RECEIPT', customerId, saleId: event.saleId, sourceEventId: meta.id }));
    } else if (event._tag === 'StockChanged') {
      const { businessId, productId } = event;
      // the product as it is now: a later restock clears the mark even when this event comes late
      const todo = await deps.uow.read(async (r) => {
        const product = await r.products.findById(businessId, productId);
        if (!product) return undefined;
        const alerted = await r.notificationSettings.isLowStockAlerted(businessId, productId);
        if (!isLowStock(product)) return alerted ? ('clear' as const) : undefined;
        if (alerted) return undefined;
        const { enabled, channel } = (await r.notificationSettings.get(businessId)).lowStockAlerts;
        const to = enabled ? await ownerAddress(r, businessId, channel) : null;
        return to ? { channel, to } : undefined;
      });
      if (todo === 'clear') await deps.uow.run((r) => r.notificationSettings.clearLowStockAlert(businessId, productId));
      else if (todo) {
        await deps.uow.run(async (r) => {
          if (!(await r.notificationSettings.claimLowStockAlert(businessId, productId, now))) return; // another worker's
          await queueNotification(r, now, { id: deps.crypto.uuid(), businessId, ...todo, template: 'LOW_STOCK', productId, sourceEventId: meta.id });
        });
      }
    }
  },
});

/**
 * The scheduled work, run every minute by the job queue with the time of the run: each daily summary
 * whose Lagos time has come today and was not sent today (marked in the transaction that queues it,
 * so two workers or a restart cannot send it twice), and a credit reminder to each customer owing on a
 * credit sale older than `days_overdue`, at most once per `repeat_every_days`, unless opted out.
 */
export const runDueNotifications =
  (deps: Deps) =>
  async (now: Date): Promise<{ dailySummaries: number; creditReminders: number }> => {
    const day = lagosDate(now);
    const time = lagosDateTime(now).slice(11, 16);
    let dailySummaries = 0;
    for (const businessId of await deps.uow.read((r) => r.notificationSettings.dueDailySummaries(day, time, BATCH))) {
      const queued = await deps.uow.run(async (r) => {
        if (!(await r.notificationSettings.claimDailySummary(businessId, day))) return false;
        const { channel } = (await r.notificationSettings.get(businessId)).dailySummary;
        const to = await ownerAddress(r, businessId, channel);
        if (!to) return false; // nobody to send it to: today's is spent all the same
        return (await queueNotification(r, now, { id: deps.crypto.uuid(), businessId, channel, to, template: 'DAILY_SUMMARY', summaryDate: day })) !== undefined;
      });
      if (queued) dailySummaries += 1;
    }
    let creditReminders = 0;
    let after: string | undefined;
    for (;;) {
      const businesses = await deps.uow.read((r) => r.notificationSettings.remindingBusinesses(BATCH, after));
      for (const { businessId, preferences } of businesses) {
        const { daysOverdue, repeatEveryDays, channel } = preferences.creditReminders;
        const debtBefore = new Date(now.getTime() - daysOverdue * DAY_MS);
        const remindedBefore = new Date(now.getTime() - repeatEveryDays * DAY_MS);
        creditReminders += await deps.uow.run(async (r) => {
          let queued = 0;
          for (const c of await r.notificationSettings.reminderCandidates(businessId, debtBefore, remindedBefore, BATCH)) {
            const to = contactFor(channel, c);
            if (!to || !(await r.notificationSettings.claimReminder(businessId, c.customerId, now, remindedBefore))) continue;
            await queueNotification(r, now, { id: deps.crypto.uuid(), businessId, channel, to, template: 'CREDIT_REMINDER', customerId: c.customerId });
            queued += 1;
          }
          return queued;
        });
      }
      if (businesses.length < BATCH) break;
      after = businesses[businesses.length - 1]!.businessId;
    }
    return { dailySummaries, creditReminders };
  };
