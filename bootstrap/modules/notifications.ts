import { notificationRoutes } from '../../adapters/http/routes/notifications.routes.js';
import { getNotification, getNotificationPreferences, listNotifications, updateNotificationPreferences } from '../../application/notifications/manage-notifications.js';
import { sendNotification } from '../../application/notifications/send-notification.js';
import { inMemoryNotificationsModule } from '../../adapters/persistence/in-memory/notifications.in-memory.js';
import { sqlNotificationsModule } from '../../adapters/persistence/sql/notifications.sql.js';
import { defineModule, repositories } from './module.js';

/** Notifications to customers: sending, listing, preferences. Delivery reports are provider-callbacks.ts. */
export const notificationsModule = defineModule({
  name: 'notifications',
  folders: ['notifications'],
  repositories: [repositories(inMemoryNotificationsModule, sqlNotificationsModule)],
  useCases: ({ deps, paging }) => ({
    sendNotification: sendNotification(deps),
    getNotification: getNotification(deps),
    listNotifications: listNotifications(deps),
    getNotificationPreferences: getNotificationPreferences(deps),
    updateNotificationPreferences: updateNotificationPreferences(deps),
    paging,
  }),
  routes: (uc) => notificationRoutes(uc),
});
