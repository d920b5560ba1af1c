import type { getNotification, getNotificationPreferences, listNotifications, updateNotificationPreferences, PreferenceChanges } from '../../../application/notifications/manage-notifications.js';
import { NOTIFICATION_SORTS } from '../../../application/notifications/ports.js';
import type { SendCommand, sendNotification } from '../../../application/notifications/send-notification.js';
import { MAX_CUSTOM_MESSAGE, NOTIFICATION_CHANNELS, NOTIFICATION_STATUSES, RECEIPT_CHANNELS, REQUESTED_TEMPLATES } from '../../../domain/notification.js';
import * as t from 'io-ts';
import { booleanInput, doc, enumOf, exactlyOneOf, jsonSchemaOf, money, object, orNull, phone, text, uuidInput, type FieldError } from '../codecs.js';
import type { Kobo } from '../../../domain/money.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { problem } from '../problem.js';
import { accepted, ok, OWNER_AND_STAFF, OWNER_ONLY, route, type RouteDef } from '../route.js';
import { clockTime, days, notificationJson, notificationShape, preferencesJson, preferencesShape, thresholdUnits } from './notifications.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface NotificationUseCases {
  readonly sendNotification: ReturnType<typeof sendNotification>;
  readonly getNotification: ReturnType<typeof getNotification>;
  readonly listNotifications: ReturnType<typeof listNotifications>;
  readonly getNotificationPreferences: ReturnType<typeof getNotificationPreferences>;
  readonly updateNotificationPreferences: ReturnType<typeof updateNotificationPreferences>;
  readonly paging: Paging;
}

const TAG = 'Notifications';

// exactly one of customer_id or to: in the document too, so a generated client cannot send both or neither (issue 32)
const sendBody = exactlyOneOf(
  object(
    'SendNotificationRequest',
    { template: enumOf('template', REQUESTED_TEMPLATES) },
    {
      customer_id: uuidInput,
      to: phone,
      sale_id: uuidInput,
      message: text(1, MAX_CUSTOM_MESSAGE, 'the words of a CUSTOM message (the business name is put before them)'),
    },
  ),
  'customer_id',
  'to',
);
type SendBody = t.TypeOf<typeof sendBody>;

/** The fields each template needs (400 VALIDATION_FAILED, naming each), as the use case's command. */
const commandOf = (b: SendBody): SendCommand => {
  const errors: FieldError[] = [];
  if ((b.customer_id === undefined) === (b.to === undefined)) errors.push({ field: 'customer_id', message: 'give exactly one of customer_id or to' });
  if (b.template === 'RECEIPT' && b.sale_id === undefined) errors.push({ field: 'sale_id', message: 'is required for a RECEIPT' });
  if (b.template !== 'RECEIPT' && b.sale_id !== undefined) errors.push({ field: 'sale_id', message: 'is only for a RECEIPT' });
  if (b.template === 'CUSTOM' && b.message === undefined) errors.push({ field: 'message', message: 'is required for a CUSTOM message' });
  if (b.template !== 'CUSTOM' && b.message !== undefined) errors.push({ field: 'message', message: 'is only for a CUSTOM message' });
  if (b.template === 'CREDIT_REMINDER' && b.customer_id === undefined) errors.push({ field: 'customer_id', message: 'is required for a CREDIT_REMINDER (what they owe)' });
  if (errors.length > 0) throw problem('VALIDATION_FAILED', `The request is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, { errors });
  const who = { ...(b.customer_id ? { customerId: b.customer_id } : {}), ...(b.to ? { to: b.to } : {}) };
  if (b.template === 'RECEIPT') return { ...who, template: 'RECEIPT', saleId: b.sale_id! };
  if (b.template === 'CUSTOM') return { ...who, template: 'CUSTOM', message: b.message! };
  return { ...who, template: 'CREDIT_REMINDER' };
};

const sendRoute = (uc: NotificationUseCases, channel: 'SMS' | 'WHATSAPP'): RouteDef<SendBody, undefined> =>
  route({
    method: 'post',
    path: `/notifications/${channel.toLowerCase()}`,
    operationId: channel === 'SMS' ? 'sendSms' : 'sendWhatsApp',
    tag: TAG,
    summary: `Send ${channel === 'SMS' ? 'an SMS' : 'a WhatsApp message'}`,
    description:
      'Queues a RECEIPT (sale_id), a CREDIT_REMINDER (what the customer owes when it is sent) or a CUSTOM message (owner only, at most 480 characters), ' +
      "to a customer (customer_id from GET /customers: their phone) or a number (to, E.164): exactly one of them; sale_id from GET /sales. Answers 202 with the notification QUEUED; it is sent right after, and " +
      'GET /notifications/{id} shows SENT, DELIVERED or FAILED (with the reason) and the attempts. A customer who opted out (notifications_opt_out), or a number ' +
      'of one, gets receipts only (422 CUSTOMER_OPTED_OUT). `to` must be the phone of a customer or staff member of the business (422 RECIPIENT_NOT_ALLOWED). ' +
      'Links (http://, https://, www., a web address) in a CUSTOM message need the BUSINESS or PRO plan (402 FEATURE_NOT_AVAILABLE). ' +
      'A business sends at most a number of these a Lagos day by plan (FREE 20, STARTER 200, BUSINESS 1000, PRO 5000; then 402 PLAN_LIMIT_EXCEEDED). ' +
      'Texts carry the business name, amounts as ₦1,500.50 and Lagos dates. Honours Idempotency-Key.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    idempotent: true,
    bodyExample: { customer_id: '5f0c6b8e-2d4a-4c1e-9b7f-3a8d2e6c1f90', template: 'CREDIT_REMINDER' },
    body: sendBody,
    success: { status: 202, description: 'The notification, QUEUED', data: notificationShape },
    failures: failuresOf<FailureOf<typeof uc.sendNotification>>({
      UnknownCustomer: true, UnknownSale: true, CustomerHasNoPhone: true, CustomerOptedOut: true, CustomMessageOwnerOnly: true, NothingOwed: true,
      RecipientNotAllowed: true, LinksNotAllowed: true, DailyLimitExceeded: true,
    }),
    errors: ['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'],
    handler: async ({ actor, body }) => accepted('Notification queued', notificationJson(successOf(await uc.sendNotification(actor, channel, commandOf(body)), 'notification'))),
  });

const section = <R extends t.Props>(name: string, props: R) => object(name, {}, props);
const channel = enumOf('channel', NOTIFICATION_CHANNELS);
const preferencesBody = object(
  'UpdateNotificationPreferencesRequest',
  {},
  {
    low_stock_alerts: section('LowStockAlertChanges', { enabled: booleanInput, channel }),
    daily_summary: section('DailySummaryChanges', { enabled: booleanInput, time: clockTime, channel }),
    credit_reminders: section('CreditReminderChanges', { enabled: booleanInput, days_overdue: days, repeat_every_days: days, channel }),
    receipt_channel: enumOf('receipt_channel', RECEIPT_CHANNELS),
    audit_alerts: section('AuditAlertChanges', {
      enabled: booleanInput,
      channel,
      sale_voided_over: orNull(money),
      sale_discounted_over: orNull(money),
      stock_adjusted_over: orNull(thresholdUnits),
    }),
    invoice_reminders: section('InvoiceReminderChanges', { before_due: booleanInput, overdue: booleanInput, channel }),
  },
);
type Channel = (typeof NOTIFICATION_CHANNELS)[number];
type PreferencesBody = {
  low_stock_alerts?: { enabled?: boolean; channel?: Channel };
  daily_summary?: { enabled?: boolean; time?: string; channel?: Channel };
  credit_reminders?: { enabled?: boolean; days_overdue?: number; repeat_every_days?: number; channel?: Channel };
  receipt_channel?: (typeof RECEIPT_CHANNELS)[number];
  audit_alerts?: { enabled?: boolean; channel?: Channel; sale_voided_over?: Kobo | null; sale_discounted_over?: Kobo | null; stock_adjusted_over?: number | null };
  invoice_reminders?: { before_due?: boolean; overdue?: boolean; channel?: Channel };
};
const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
const changesOf = (b: PreferencesBody): PreferenceChanges => ({
  ...(b.low_stock_alerts ? { lowStockAlerts: defined(b.low_stock_alerts) } : {}),
  ...(b.daily_summary ? { dailySummary: defined(b.daily_summary) } : {}),
  ...(b.credit_reminders
    ? { creditReminders: defined({ enabled: b.credit_reminders.enabled, daysOverdue: b.credit_reminders.days_overdue, repeatEveryDays: b.credit_reminders.repeat_every_days, channel: b.credit_reminders.channel }) }
    : {}),
  ...(b.receipt_channel ? { receiptChannel: b.receipt_channel } : {}),
  ...(b.audit_alerts
    ? {
        auditAlerts: defined({
          enabled: b.audit_alerts.enabled, channel: b.audit_alerts.channel,
          saleVoidedOver: b.audit_alerts.sale_voided_over, saleDiscountedOver: b.audit_alerts.sale_discounted_over, stockAdjustedOver: b.audit_alerts.stock_adjusted_over,
        }),
      }
    : {}),
  ...(b.invoice_reminders ? { invoiceReminders: defined({ beforeDue: b.invoice_reminders.before_due, overdue: b.invoice_reminders.overdue, channel: b.invoice_reminders.channel }) } : {}),
});

export const notificationRoutes = (uc: NotificationUseCases) => [
  sendRoute(uc, 'SMS'),
  sendRoute(uc, 'WHATSAPP'),
  route({
    method: 'get',
    path: '/notifications/preferences',
    operationId: 'getNotificationPreferences',
    tag: TAG,
    summary: 'Notification preferences (owner)',
    description: 'What the business sends on its own. Everything is off until the owner turns it on. Alerts and summaries go to the owner (their phone or e-mail). Push notifications are not offered yet.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    success: { status: 200, description: 'The preferences', data: preferencesShape },
    errors: [],
    handler: async ({ actor }) => ok('Notification preferences', preferencesJson(await uc.getNotificationPreferences(actor))),
  }),
  route({
    method: 'put',
    path: '/notifications/preferences',
    operationId: 'updateNotificationPreferences',
    tag: TAG,
    summary: 'Change notification preferences (owner)',
    description:
      'Any section, any field of it: the rest stays. days_overdue and repeat_every_days: 1 to 365; time: HH:MM, Lagos time. The daily summary goes once a day ' +
      "from that time (today's, if the time has already passed when it is turned on); a credit reminder at most every repeat_every_days per customer. " +
      'audit_alerts: an alert to the owner when the audit log (GET /audit-log) records a void of a sale whose total is above sale_voided_over (naira), ' +
      'discounts on a sale above sale_discounted_over (naira), or a stock adjustment of more than stock_adjusted_over units either way (0 to 1,000,000,000); ' +
      'null turns that one off. A negative amount is 422 AMOUNT_MUST_NOT_BE_NEGATIVE. invoice_reminders: to the customer of each unpaid invoice, ' +
      'once the day before its due date (before_due) and once on its first day overdue (overdue), from 09:00 Lagos time, never to customers who opted out.',
    access: { roles: OWNER_ONLY },
    rateLimit: 'user',
    bodyExample: {
      daily_summary: { enabled: true, time: '20:30', channel: 'WHATSAPP' }, credit_reminders: { enabled: true, days_overdue: 14, repeat_every_days: 7 }, receipt_channel: 'SMS',
      audit_alerts: { enabled: true, channel: 'SMS', sale_voided_over: 20000, sale_discounted_over: 5000, stock_adjusted_over: 10 },
      invoice_reminders: { before_due: true, overdue: true, channel: 'WHATSAPP' },
    },
    body: preferencesBody,
    success: { status: 200, description: 'The preferences', data: preferencesShape },
    failures: failuresOf<FailureOf<typeof uc.updateNotificationPreferences>>({ NegativeAmount: true }),
    errors: [],
    handler: async ({ actor, body }) =>
      ok('Notification preferences updated', preferencesJson(successOf(await uc.updateNotificationPreferences(actor, changesOf(body)), 'notification'))),
  }),
  route({
    method: 'get',
    path: '/notifications',
    operationId: 'listNotifications',
    tag: TAG,
    summary: 'Notifications',
    description: 'Paged (keyset), newest first. Filters: channel, status, customer_id. search: the recipient.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    query: listQuery('NotificationListQuery', NOTIFICATION_SORTS, {
      channel: enumOf('channel', NOTIFICATION_CHANNELS),
      status: enumOf('status', NOTIFICATION_STATUSES),
      customer_id: uuidInput,
    }),
    success: { status: 200, description: 'A page of notifications', data: doc('NotificationPage', pageSchema(jsonSchemaOf(notificationShape))) },
    errors: [],
    handler: async ({ actor, query }) => {
      const req = uc.paging.request('listNotifications', query, 'created_at');
      const page = await uc.listNotifications(actor, req, {
        ...(query.channel ? { channel: query.channel } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.customer_id ? { customerId: query.customer_id } : {}),
      });
      return ok('Notifications', uc.paging.render('listNotifications', query, req, page, notificationJson));
    },
  }),
  route({
    method: 'get',
    path: '/notifications/:id',
    operationId: 'getNotification',
    tag: TAG,
    summary: 'A notification',
    description: 'Its status (QUEUED, SENT, DELIVERED, FAILED with the reason), attempts and the text sent.',
    access: { roles: OWNER_AND_STAFF },
    rateLimit: 'user',
    success: { status: 200, description: 'The notification', data: notificationShape },
    failures: failuresOf<FailureOf<typeof uc.getNotification>>({ NotFound: true }),
    errors: [],
    handler: async ({ actor, params }) => ok('Notification', notificationJson(successOf(await uc.getNotification(actor, params.id), 'notification'))),
  }),
];
