import * as t from 'io-ts';
import {
  MAX_REMINDER_DAYS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TEMPLATES,
  RECEIPT_CHANNELS,
  isClockTime,
  type Notification,
  type NotificationPreferences,
} from '../../../domain/notification.js';
import { bool, dateTime, doc, Documented, int, nullableStr, shape, str, uuid } from '../codecs.js';
import { dateTimeJsonOrNull, dateTimeJson, nairaJson, nairaSchema } from '../json-values.js';
import { MAX_STOCK } from '../../../domain/product.js';

// The JSON views of a notification and of the preferences, and the shapes the OpenAPI document gives them.

const enumDoc = (name: string, values: readonly string[]) => doc(name, { type: 'string', enum: [...values] });
const nullableUuid = doc('uuid or null', { type: ['string', 'null'], format: 'uuid' });

export const notificationJson = (n: Notification) => ({
  id: n.id,
  channel: n.channel,
  to: n.to,
  template: n.template,
  status: n.status,
  customer_id: n.customerId,
  sale_id: n.saleId,
  product_id: n.productId,
  message: n.message,
  text: n.text,
  attempts: n.attempts,
  provider_message_id: n.providerMessageId,
  failure_reason: n.failureReason,
  created_by: n.createdBy,
  created_at: dateTimeJson(n.createdAt),
  updated_at: dateTimeJson(n.updatedAt),
  sent_at: dateTimeJsonOrNull(n.sentAt),
});
export const notificationShape = shape(
  'Notification',
  {
    id: uuid,
    channel: enumDoc('channel', NOTIFICATION_CHANNELS),
    to: str,
    template: enumDoc('template', NOTIFICATION_TEMPLATES),
    status: enumDoc('status', NOTIFICATION_STATUSES),
    customer_id: nullableUuid,
    sale_id: nullableUuid,
    product_id: nullableUuid,
    message: nullableStr,
    text: nullableStr,
    attempts: int,
    provider_message_id: nullableStr,
    failure_reason: nullableStr,
    created_by: nullableUuid,
    created_at: dateTime,
    updated_at: dateTime,
    sent_at: doc('date-time or null', { type: ['string', 'null'], format: 'date-time' }),
  },
  {
    to: 'E.164 phone (SMS, WhatsApp) or e-mail address (EMAIL)',
    status: 'QUEUED until the provider takes it (SENT); DELIVERED where the provider reports it; FAILED with failure_reason',
    message: "the owner's words of a CUSTOM message",
    text: 'the text as it was sent (null until then)',
    attempts: 'sending attempts so far',
    created_by: 'who asked for it; null for what the system sends on its own (receipts after a sale, alerts, reminders, summaries)',
  },
);

/** HH:MM on a 24-hour clock, Lagos time. */
export const clockTime = new Documented<string>('HH:MM', { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5, examples: ['20:00'], description: 'Lagos time, 24-hour clock' }, (u, c) =>
  typeof u === 'string' && isClockTime(u) ? t.success(u) : t.failure(u, c, 'must be a time of day, HH:MM (24-hour clock, Lagos time)'),
);

export const days = new Documented<number>('days', { type: 'integer', minimum: 1, maximum: MAX_REMINDER_DAYS }, (u, c) =>
  typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= MAX_REMINDER_DAYS ? t.success(u) : t.failure(u, c, `must be a whole number of days from 1 to ${MAX_REMINDER_DAYS}`),
);

/** An alert's threshold in units (a stock adjustment's size): 0 to the most a product can hold. */
export const thresholdUnits = new Documented<number>('units', { type: 'integer', minimum: 0, maximum: MAX_STOCK }, (u, c) =>
  typeof u === 'number' && Number.isInteger(u) && u >= 0 && u <= MAX_STOCK ? t.success(u) : t.failure(u, c, `must be a whole number of units from 0 to ${MAX_STOCK}`),
);
const thresholdNaira = doc('naira or null', nairaSchema({ type: ['number', 'null'], minimum: 0, maximum: 1_000_000_000_000 }));

export const preferencesJson = (p: NotificationPreferences) => ({
  low_stock_alerts: { enabled: p.lowStockAlerts.enabled, channel: p.lowStockAlerts.channel },
  daily_summary: { enabled: p.dailySummary.enabled, time: p.dailySummary.time, channel: p.dailySummary.channel },
  credit_reminders: {
    enabled: p.creditReminders.enabled,
    days_overdue: p.creditReminders.daysOverdue,
    repeat_every_days: p.creditReminders.repeatEveryDays,
    channel: p.creditReminders.channel,
  },
  receipt_channel: p.receiptChannel,
  audit_alerts: {
    enabled: p.auditAlerts.enabled,
    channel: p.auditAlerts.channel,
    sale_voided_over: nairaJson(p.auditAlerts.saleVoidedOver),
    sale_discounted_over: nairaJson(p.auditAlerts.saleDiscountedOver),
    stock_adjusted_over: p.auditAlerts.stockAdjustedOver,
  },
  invoice_reminders: { before_due: p.invoiceReminders.beforeDue, overdue: p.invoiceReminders.overdue, channel: p.invoiceReminders.channel },
});
const channelDoc = enumDoc('channel', NOTIFICATION_CHANNELS);
const daysDoc = doc('days', { type: 'integer', minimum: 1, maximum: MAX_REMINDER_DAYS });
export const preferencesShape = shape(
  'NotificationPreferences',
  {
    low_stock_alerts: shape('LowStockAlertPreferences', { enabled: bool, channel: channelDoc }),
    daily_summary: shape('DailySummaryPreferences', { enabled: bool, time: doc('HH:MM', { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }), channel: channelDoc }, { time: 'Lagos time' }),
    credit_reminders: shape('CreditReminderPreferences', { enabled: bool, days_overdue: daysDoc, repeat_every_days: daysDoc, channel: channelDoc }),
    receipt_channel: enumDoc('receipt_channel', RECEIPT_CHANNELS),
    audit_alerts: shape(
      'AuditAlertPreferences',
      { enabled: bool, channel: channelDoc, sale_voided_over: thresholdNaira, sale_discounted_over: thresholdNaira, stock_adjusted_over: doc('units or null', { type: ['integer', 'null'], minimum: 0, maximum: 1_000_000_000 }) },
      {
        sale_voided_over: 'alert when a sale whose total is above this is voided; null: no alert for voids',
        sale_discounted_over: "alert when a sale's discounts (its own and its lines') come to more than this; null: none",
        stock_adjusted_over: 'alert when a stock adjustment moves more than this many units, up or down; null: none',
      },
    ),
    invoice_reminders: shape('InvoiceReminderPreferences', { before_due: bool, overdue: bool, channel: channelDoc }, {
      before_due: 'a reminder to the customer the day before an unpaid invoice is due',
      overdue: 'a reminder to the customer on the first day an invoice is overdue (once; docs/adr/0077)',
    }),
  },
  {
    low_stock_alerts: "one alert to the owner when a sale or adjustment takes a product to or below its low-stock threshold (not again until restocked above it)",
    daily_summary: "the day's sales, expenses, credit collected and cash expected, to the owner at this Lagos time",
    credit_reminders: 'to each customer owing on a credit sale older than days_overdue, at most every repeat_every_days; never to customers who opted out',
    receipt_channel: 'a receipt after each sale to a customer with that contact (phone for SMS and WhatsApp, e-mail for EMAIL); NONE: none',
    audit_alerts: 'an alert to the owner when the audit log records a void, a discount or a stock adjustment above these thresholds (docs/adr/0071)',
    invoice_reminders: "reminders to an unpaid invoice's customer, from 09:00 Lagos time, by this channel; never to customers who opted out",
  },
);
