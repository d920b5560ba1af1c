import type { Sql } from './sql-session.js';
import type { NotificationFilter, NotificationRepositories, NotificationRepository, NotificationSettings, NotificationSort } from '../../../application/notifications/ports.js';
import { kobo } from '../../../domain/money.js';
import { DEFAULT_PREFERENCES, type Notification, type NotificationChannel, type NotificationPreferences, type NotificationStatus, type NotificationTemplate } from '../../../domain/notification.js';
import { asDate, asOptionalDate, keysetPage, type KeysetSource, type SqlCondition } from './keyset.sql.js';
import { firstRow, type Row } from './sql-helpers.js';

const COLUMNS =
  'id, business_id, channel, recipient, template, customer_id, sale_id, product_id, message, summary_date, status, attempts, ' +
  'provider_message_id, failure_reason, text, created_by, source_event_id, created_at, updated_at, sent_at';
const SELECT = COLUMNS.replace('summary_date', 'summary_date::text as summary_date');

const NOTIFICATIONS: KeysetSource<NotificationSort> = {
  select: SELECT,
  from: 'notifications',
  tenantColumn: 'business_id',
  idColumn: 'id',
  sort: { created_at: { column: 'created_at', type: 'timestamptz' } },
  search: ['recipient'],
  dateColumn: 'created_at',
};

const orNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

const fromRow = (r: Row): Notification => ({
  id: String(r.id),
  businessId: String(r.business_id),
  channel: r.channel as NotificationChannel,
  to: String(r.recipient),
  template: r.template as NotificationTemplate,
  customerId: orNull(r.customer_id),
  saleId: orNull(r.sale_id),
  productId: orNull(r.product_id),
  message: orNull(r.message),
  summaryDate: orNull(r.summary_date),
  status: r.status as NotificationStatus,
  attempts: Number(r.attempts),
  providerMessageId: orNull(r.provider_message_id),
  failureReason: orNull(r.failure_reason),
  text: orNull(r.text),
  createdBy: orNull(r.created_by),
  sourceEventId: orNull(r.source_event_id),
  createdAt: asDate(r.created_at),
  updatedAt: asDate(r.updated_at),
  sentAt: asOptionalDate(r.sent_at),
});

const conditions = (f: NotificationFilter): SqlCondition[] => [
  ...(f.channel ? [{ sql: 'channel = ?', params: [f.channel] }] : []),
  ...(f.status ? [{ sql: 'status = ?', params: [f.status] }] : []),
  ...(f.customerId ? [{ sql: 'customer_id = ?', params: [f.customerId] }] : []),
];

/** Notifications as plain rows; every change of status is conditional on the status it leaves. */
export const sqlNotifications = (db: Sql): NotificationRepository => ({
  async add(n) {
    const rows = await db.execute<unknown[]>(
      `insert into notifications (${COLUMNS}) values (${COLUMNS.split(',').map(() => '?').join(', ')}) on conflict (source_event_id, business_id) do nothing returning id`,
      [
        n.id, n.businessId, n.channel, n.to, n.template, n.customerId, n.saleId, n.productId, n.message, n.summaryDate, n.status, n.attempts,
        n.providerMessageId, n.failureReason, n.text, n.createdBy, n.sourceEventId, n.createdAt, n.updatedAt, n.sentAt,
      ],
    );
    return rows.length === 1 ? 'added' : 'duplicate';
  },
  findById: (businessId, id) => firstRow(db, `select ${SELECT} from notifications where business_id = ? and id = ?`, [businessId, id], fromRow),
  list: (businessId, page, filter) => keysetPage(db, NOTIFICATIONS, businessId, page, conditions(filter), fromRow),
  async countAttempt(businessId, id, at) {
    const rows = await db.execute<{ attempts: number }[]>(
      "update notifications set attempts = attempts + 1, updated_at = ? where business_id = ? and id = ? and status = 'QUEUED' returning attempts",
      [at, businessId, id],
    );
    return rows[0] ? Number(rows[0].attempts) : undefined;
  },
  async settle(businessId, id, o) {
    const rows =
      o.status === 'SENT'
        ? await db.execute<unknown[]>(
            "update notifications set status = 'SENT', provider_message_id = ?, text = ?, sent_at = ?, updated_at = ? where business_id = ? and id = ? and status = 'QUEUED' returning id",
            [o.providerMessageId, o.text, o.at, o.at, businessId, id],
          )
        : await db.execute<unknown[]>(
            "update notifications set status = 'FAILED', failure_reason = ?, updated_at = ? where business_id = ? and id = ? and status = 'QUEUED' returning id",
            [o.reason, o.at, businessId, id],
          );
    return rows.length === 1;
  },
  async applyDeliveryReport(providerMessageId, report) {
    const rows = await db.execute<unknown[]>(
      "update notifications set status = ?, failure_reason = ?, updated_at = ? where provider_message_id = ? and status = 'SENT' returning id",
      [report.status, report.reason, report.at, providerMessageId],
    );
    return rows.length > 0;
  },
});

const prefsOf = (v: unknown): NotificationPreferences => {
  const stored = (typeof v === 'string' ? JSON.parse(v) : v) as NotificationPreferences;
  return { ...DEFAULT_PREFERENCES, ...stored };
};

/** Preferences (one jsonb row, with the columns the scheduler filters on beside it) and the scheduler's marks. */
export const sqlNotificationSettings = (db: Sql): NotificationSettings => ({
  async get(businessId) {
    return (await firstRow(db, 'select preferences from notification_preferences where business_id = ?', [businessId], (r) => prefsOf(r.preferences))) ?? DEFAULT_PREFERENCES;
  },
  async save(businessId, p, at) {
    await db.execute(
      `insert into notification_preferences (business_id, preferences, daily_summary_enabled, daily_summary_time, credit_reminders_enabled, updated_at)
       values (?, ?::jsonb, ?, ?, ?, ?)
       on conflict (business_id) do update set preferences = excluded.preferences, daily_summary_enabled = excluded.daily_summary_enabled,
         daily_summary_time = excluded.daily_summary_time, credit_reminders_enabled = excluded.credit_reminders_enabled, updated_at = excluded.updated_at`,
      [businessId, JSON.stringify(p), p.dailySummary.enabled, p.dailySummary.time, p.creditReminders.enabled, at],
    );
  },
  async dueDailySummaries(day, time, limit) {
    const rows = await db.execute<{ business_id: string }[]>(
      `select business_id from notification_preferences
       where daily_summary_enabled and daily_summary_time <= ? and (daily_summary_sent_on is null or daily_summary_sent_on < ?::date)
       order by business_id limit ?`,
      [time, day, limit],
    );
    return rows.map((r) => String(r.business_id));
  },
  async claimDailySummary(businessId, day) {
    const rows = await db.execute<unknown[]>(
      'update notification_preferences set daily_summary_sent_on = ?::date where business_id = ? and (daily_summary_sent_on is null or daily_summary_sent_on < ?::date) returning business_id',
      [day, businessId, day],
    );
    return rows.length === 1;
  },
  async remindingBusinesses(limit, afterBusinessId) {
    const rows = await db.execute<Row[]>(
      `select business_id, preferences from notification_preferences where credit_reminders_enabled${afterBusinessId ? ' and business_id > ?' : ''} order by business_id limit ?`,
      afterBusinessId ? [afterBusinessId, limit] : [limit],
    );
    return rows.map((r) => ({ businessId: String(r.business_id), preferences: prefsOf(r.preferences) }));
  },
  async invoiceRemindingBusinesses(limit, afterBusinessId) {
    const rows = await db.execute<Row[]>(
      `select business_id, preferences from notification_preferences
       where (coalesce((preferences #>> '{invoiceReminders,beforeDue}')::boolean, false) or coalesce((preferences #>> '{invoiceReminders,overdue}')::boolean, false))${afterBusinessId ? ' and business_id > ?' : ''}
       order by business_id limit ?`,
      afterBusinessId ? [afterBusinessId, limit] : [limit],
    );
    return rows.map((r) => ({ businessId: String(r.business_id), preferences: prefsOf(r.preferences) }));
  },
  async reminderCandidates(businessId, debtBefore, remindedBefore, limit) {
    const rows = await db.execute<Row[]>(
      `select c.id, c.name, c.phone, c.email, c.credit_balance from customers c
       left join customer_reminders r on r.business_id = c.business_id and r.customer_id = c.id
       where c.business_id = ? and c.credit_balance > 0 and not c.notifications_opt_out
         and exists (select 1 from sales s where s.business_id = c.business_id and s.customer_id = c.id and s.credit_outstanding > 0 and s.created_at < ?)
         and (r.last_reminded_at is null or r.last_reminded_at <= ?)
       order by c.id limit ?`,
      [businessId, debtBefore, remindedBefore, limit],
    );
    return rows.map((r) => ({ customerId: String(r.id), name: String(r.name), phone: orNull(r.phone), email: orNull(r.email), balance: kobo(Number(r.credit_balance)) }));
  },
  async claimReminder(businessId, customerId, at, remindedBefore) {
    const rows = await db.execute<unknown[]>(
      `insert into customer_reminders (customer_id, business_id, last_reminded_at) values (?, ?, ?)
       on conflict (customer_id, business_id) do update set last_reminded_at = excluded.last_reminded_at
       where customer_reminders.business_id = excluded.business_id and customer_reminders.last_reminded_at <= ? returning customer_id`,
      [customerId, businessId, at, remindedBefore],
    );
    return rows.length === 1;
  },
  async isLowStockAlerted(businessId, productId) {
    const rows = await db.execute<unknown[]>('select 1 from low_stock_alerts where business_id = ? and product_id = ?', [businessId, productId]);
    return rows.length > 0;
  },
  async claimLowStockAlert(businessId, productId, at) {
    const rows = await db.execute<unknown[]>(
      'insert into low_stock_alerts (product_id, business_id, alerted_at) values (?, ?, ?) on conflict (product_id, business_id) do nothing returning product_id',
      [productId, businessId, at],
    );
    return rows.length === 1;
  },
  async clearLowStockAlert(businessId, productId) {
    await db.execute('delete from low_stock_alerts where business_id = ? and product_id = ?', [businessId, productId]);
  },
  async isOptedOut(businessId, contact) {
    const rows = await db.execute<unknown[]>(
      'select 1 from customers where business_id = ? and notifications_opt_out and (phone = ? or lower(email) = lower(?)) limit 1',
      [businessId, contact, contact],
    );
    return rows.length > 0;
  },
  async isRecipientOf(businessId, contact) {
    const rows = await db.execute<unknown[]>(
      `select 1 from customers where business_id = ? and (phone = ? or lower(email) = lower(?))
       union all
       select 1 from memberships m join users u on u.id = m.user_id
        where m.business_id = ? and m.status in ('ACTIVE', 'INVITED') and (u.phone = ? or lower(u.email) = lower(?))
       limit 1`,
      [businessId, contact, contact, businessId, contact, contact],
    );
    return rows.length > 0;
  },
  async countDailyMessage(businessId, day, quota, limit) {
    if (limit < 1) return false;
    const rows = await db.execute<unknown[]>(
      `insert into daily_message_counts (business_id, day, quota, count) values (?, ?, ?, 1)
       on conflict (business_id, day, quota) do update set count = daily_message_counts.count + 1
       where daily_message_counts.count < ? returning count`,
      [businessId, day, quota, limit],
    );
    return rows.length === 1;
  },
  ownerContact: (businessId) =>
    firstRow(
      db,
      `select u.phone, u.email from memberships m join users u on u.id = m.user_id
       where m.business_id = ? and m.role = 'BUSINESS_OWNER' and m.status = 'ACTIVE' order by m.created_at, m.id limit 1`,
      [businessId],
      (r) => ({ phone: orNull(r.phone), email: orNull(r.email) }),
    ),
});

/** The notifications module over one transaction's Sql. */
export const sqlNotificationsModule = (db: Sql): NotificationRepositories => ({
  notifications: sqlNotifications(db),
  notificationSettings: sqlNotificationSettings(db),
});
