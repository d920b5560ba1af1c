import { notificationRoutes } from '../../adapters/http/routes/notifications.routes.js';
import { getNotification, getNotificationPreferences, listNotifications, updateNotificationPreferences } from '../../application/notifications/manage-notifications.js';
import { sendNotification } from '../../application/notifications/send-notification.js';
import { inMemoryNotificationsModule } from '../../adapters/persistence/in-memory/notifications.in-memory.js';
import { sqlNotificationsModule } from '../../adapters/persistence/sql/notifications.sql.js';
import { NOTIFICATION_FAILURES } from '../../adapters/http/failures/notifications.js';
import { deliverNotifications } from '../../application/notifications/deliver-notifications.js';
import { notifyOnEvents, runDueNotifications } from '../../application/notifications/automatic-notifications.js';
import { alertOnAuditEntries } from '../../application/notifications/audit-alerts.js';
import { defineModule, repositories } from './module.js';

/** Notifications to customers: sending, listing, preferences. Delivery reports are provider-callbacks.ts. */
export const notificationsModule = defineModule({
  name: 'notifications',
  folders: ['notifications'],
  repositories: [repositories(inMemoryNotificationsModule, sqlNotificationsModule)],
  failures: [NOTIFICATION_FAILURES],
  migrations: [
    { name: 'Migration20261127110000_notifications', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127110000_notifications.js')).Migration20261127110000_notifications },
    { name: 'Migration20261202000000_daily_message_counts', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261202000000_daily_message_counts.js')).Migration20261202000000_daily_message_counts },
    { name: 'Migration20261204000100_audit_alert_template', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261204000100_audit_alert_template.js')).Migration20261204000100_audit_alert_template },
  ],
  useCases: ({ deps, paging }) => ({
    sendNotification: sendNotification(deps),
    getNotification: getNotification(deps),
    listNotifications: listNotifications(deps),
    getNotificationPreferences: getNotificationPreferences(deps),
    updateNotificationPreferences: updateNotificationPreferences(deps),
    paging,
  }),
  routes: (uc) => notificationRoutes(uc),
  subscribers: (d) => [deliverNotifications(d), notifyOnEvents(d), alertOnAuditEntries(d)],
  periodicTasks: (d, retry) => [{ name: 'scheduled-notifications', run: async (minute) => void (await runDueNotifications(d)(minute)), ...retry }],
});
