import { INVOICE_REMINDER_KINDS, REMINDERS_FROM, reminderDueDate, balanceDue } from '../../domain/invoice.js';
import { lagosDate, lagosDateTime } from '../../domain/lagos-time.js';
import { contactFor } from '../../domain/notification.js';
import { invoiceReminderMessage } from '../../domain/notification-texts.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { NotificationRepositories } from '../notifications/ports.js';
import { queueNotification } from '../notifications/send-notification.js';
import type { InvoiceRepositories } from './ports.js';

type Deps = {
  readonly uow: UnitOfWork<InvoiceRepositories & NotificationRepositories & EventRepositories & Pick<CustomerRepositories, 'customers'>>;
  readonly clock: Clock;
  readonly crypto: Crypto;
};

/** Businesses, and invoices of one business and kind, handled per pass (the next minute's pass takes the rest). */
const BATCH = 500;

/**
 * The invoices module's periodic task (docs/adr/0077), run every minute with the minute it is for: from 09:00
 * Lagos time, for each business whose preferences turn them on, one reminder to the customer of each unpaid
 * invoice due tomorrow (before_due) and of each due yesterday, its first day overdue (overdue), on the
 * preferences' channel, through the queue. The invoice's reminder row is claimed in the transaction that
 * queues the message: two workers, a retry or a restart cannot send it twice. A customer who opted out or has
 * no contact on the channel gets none (that reminder is spent all the same). Answers how many were queued.
 */
export const runInvoiceReminders =
  (deps: Deps) =>
  async (now: Date): Promise<number> => {
    if (lagosDateTime(now).slice(11, 16) < REMINDERS_FROM) return 0;
    const today = lagosDate(now);
    let queued = 0;
    let after: string | undefined;
    for (;;) {
      const businesses = await deps.uow.read((r) => r.notificationSettings.invoiceRemindingBusinesses(BATCH, after));
      for (const { businessId, preferences } of businesses) {
        const { beforeDue, overdue, channel } = preferences.invoiceReminders;
        for (const kind of INVOICE_REMINDER_KINDS) {
          if (!(kind === 'BEFORE_DUE' ? beforeDue : overdue)) continue;
          queued += await deps.uow.run(async (r) => {
            let n = 0;
            for (const invoice of await r.invoices.reminderCandidates(businessId, kind, reminderDueDate(kind, today), BATCH)) {
              if (!(await r.invoices.claimReminder(businessId, invoice.id, kind, now))) continue; // another worker's
              const customer = await r.customers.findById(businessId, invoice.customerId);
              const to = customer && !customer.notificationsOptOut ? contactFor(channel, customer) : null;
              if (!customer || !to) continue;
              const message = invoiceReminderMessage({ kind, customerName: customer.name, number: invoice.number ?? '', balance: balanceDue(invoice), dueDate: invoice.dueDate });
              await queueNotification(r, now, { id: deps.crypto.uuid(), businessId, channel, to, template: 'INVOICE_REMINDER', customerId: customer.id, message });
              n += 1;
            }
            return n;
          });
        }
      }
      if (businesses.length < BATCH) break;
      after = businesses[businesses.length - 1]!.businessId;
    }
    return queued;
  };
