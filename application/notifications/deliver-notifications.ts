import { lagosDate } from '../../domain/lagos-time.js';
import type { Notification, NotificationChannel } from '../../domain/notification.js';
import { auditAlertText, creditReminderText, customText, dailySummaryText, invoiceReminderText, invoiceShareText, lowStockText, receiptText, type NotificationText } from '../../domain/notification-texts.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { CustomerRepositories } from '../customers/ports.js';
import type { ProductRepositories } from '../products/ports.js';
import type { ReportRepositories } from '../reports/ports.js';
import { dailySummaryOf } from '../reports/reports.js';
import type { SaleRepositories } from '../sales/ports.js';
import type { Clock } from '../ports/clock.js';
import { MessageRejected, type Channel, type MessageSender, type OutgoingMessage } from '../ports/message-sender.js';
import type { Subscriber } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { NotificationRepositories } from './ports.js';

/** What building a notification's text reads. */
export type TextRepositories = NotificationRepositories &
  Pick<BusinessRepositories, 'businesses'> &
  Pick<CustomerRepositories, 'customers'> &
  Pick<SaleRepositories, 'sales'> &
  Pick<ProductRepositories, 'products'> &
  Pick<ReportRepositories, 'reports'>;

const CHANNELS: Record<NotificationChannel, Channel> = { SMS: 'sms', WHATSAPP: 'whatsapp', EMAIL: 'email' };

const missing = (what: string, n: Notification) => new Error(`${what} of notification ${n.id} not found`);

/** Why a queued notification is no longer to be sent (it becomes FAILED with this reason, the provider never called). */
export type Withdrawn = { readonly withdrawn: string };

/**
 * The text of a notification from the figures of the moment it is sent (a reminder says what is owed
 * now); withdrawn when, since it was queued, its customer opted out (reminders, custom messages) or
 * paid up (reminders).
 */
export const notificationText = async (r: TextRepositories, n: Notification, now: Date): Promise<NotificationText | Withdrawn> => {
  const business = await r.businesses.findById(n.businessId);
  if (!business) throw missing('business', n);
  const businessName = business.name;
  if ((n.template === 'CREDIT_REMINDER' || n.template === 'CUSTOM' || n.template === 'INVOICE_REMINDER') && n.customerId) {
    const customer = await r.customers.findById(n.businessId, n.customerId);
    if (customer?.notificationsOptOut) return { withdrawn: 'the customer opted out of reminders and messages before it was sent' };
  }
  switch (n.template) {
    case 'RECEIPT': {
      const sale = n.saleId ? await r.sales.findById(n.businessId, n.saleId) : undefined;
      if (!sale) throw missing('sale', n);
      return receiptText({ businessName, receiptNumber: sale.receiptNumber, total: sale.total, amountPaid: sale.amountPaid, balanceDue: sale.balanceDue, at: sale.createdAt });
    }
    case 'CREDIT_REMINDER': {
      const customer = n.customerId ? await r.customers.findById(n.businessId, n.customerId) : undefined;
      if (!customer) throw missing('customer', n);
      if (customer.creditBalance <= 0) return { withdrawn: 'the customer owed nothing any more when it was to be sent' };
      return creditReminderText({ businessName, customerName: customer.name, balance: customer.creditBalance, today: lagosDate(now) });
    }
    case 'CUSTOM':
      return customText({ businessName, message: n.message ?? '' });
    case 'AUDIT_ALERT':
      return auditAlertText({ businessName, message: n.message ?? '' });
    case 'INVOICE_REMINDER':
      return invoiceReminderText({ businessName, message: n.message ?? '' });
    case 'INVOICE_SHARE':
      return invoiceShareText({ businessName, message: n.message ?? '' });
    case 'LOW_STOCK': {
      const product = n.productId ? await r.products.findById(n.businessId, n.productId) : undefined;
      if (!product) throw missing('product', n);
      return lowStockText({ businessName, productName: product.name, quantity: product.quantity, threshold: product.lowStockThreshold ?? 0 });
    }
    case 'DAILY_SUMMARY': {
      const day = n.summaryDate ?? lagosDate(now);
      const s = await dailySummaryOf(r.reports, n.businessId, day);
      return dailySummaryText({
        businessName,
        day,
        salesCount: s.salesTotal.count,
        salesTotal: s.netSalesTotal, // net of the day's returns
        expensesTotal: s.expensesTotal,
        creditCollected: s.creditCollectedTotal,
        cashExpected: s.cashExpected,
      });
    }
  }
};

export const messageOf = (n: Notification, t: NotificationText): OutgoingMessage => ({
  channel: CHANNELS[n.channel],
  to: n.to,
  text: t.text,
  purpose: n.template,
  params: t.params,
  ...(n.channel === 'EMAIL' ? { subject: t.subject } : {}),
});

/**
 * Sends queued notifications (NotificationRequested). Idempotent: a notification no longer QUEUED is
 * not sent again. Each attempt is counted in the row before the provider is called. A provider's
 * permanent refusal (MessageRejected) makes it FAILED with the reason; any other error is thrown for
 * the queue to retry, and `giveUp` (called by the queue after the last attempt) makes it FAILED.
 */
export const deliverNotifications = (deps: { readonly uow: UnitOfWork<TextRepositories>; readonly messages: MessageSender; readonly clock: Clock }): Subscriber => ({
  name: 'notifications',
  handles: ['NotificationRequested'],
  async handle(event) {
    if (event._tag !== 'NotificationRequested') return;
    const { businessId, notificationId } = event;
    const n = await deps.uow.read((r) => r.notifications.findById(businessId, notificationId));
    if (!n || n.status !== 'QUEUED') return;
    const attempts = await deps.uow.run((r) => r.notifications.countAttempt(businessId, notificationId, deps.clock.now()));
    if (attempts === undefined) return; // settled meanwhile by another worker
    const text = await deps.uow.read((r) => notificationText(r, n, deps.clock.now()));
    if ('withdrawn' in text) {
      await deps.uow.run((r) => r.notifications.settle(businessId, notificationId, { status: 'FAILED', reason: text.withdrawn, at: deps.clock.now() }));
      return;
    }
    let providerMessageId: string | null;
    try {
      providerMessageId = (await deps.messages.send(messageOf(n, text))).providerMessageId ?? null;
    } catch (e) {
      if (!(e instanceof MessageRejected)) throw e;
      await deps.uow.run((r) => r.notifications.settle(businessId, notificationId, { status: 'FAILED', reason: e.reason.slice(0, 500), at: deps.clock.now() }));
      return;
    }
    await deps.uow.run((r) => r.notifications.settle(businessId, notificationId, { status: 'SENT', providerMessageId, text: text.text, at: deps.clock.now() }));
  },
  async giveUp(event, meta) {
    if (event._tag !== 'NotificationRequested') return;
    await deps.uow.run((r) => r.notifications.settle(event.businessId, event.notificationId, { status: 'FAILED', reason: meta.error.slice(0, 500), at: deps.clock.now() }));
  },
});

/** A provider's delivery report (its webhook, later): a SENT notification becomes DELIVERED, or FAILED with the provider's reason. */
export const recordDeliveryReport =
  (deps: { readonly uow: UnitOfWork<NotificationRepositories>; readonly clock: Clock }) =>
  (report: { readonly providerMessageId: string; readonly status: 'DELIVERED' | 'FAILED'; readonly reason?: string }): Promise<boolean> =>
    deps.uow.run((r) =>
      r.notifications.applyDeliveryReport(report.providerMessageId, {
        status: report.status,
        reason: report.status === 'FAILED' ? (report.reason ?? 'the provider reported a failure').slice(0, 500) : null,
        at: deps.clock.now(),
      }),
    );
