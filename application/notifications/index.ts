/** The public surface of application/notifications/ (notifications: sending, preferences, delivery, and the scheduled work): what application/index.ts exports of it. */
export * from './ports.js';
export * from './send-notification.js';
export * from './manage-notifications.js';
export * from './deliver-notifications.js';
export * from './automatic-notifications.js';
export * from './audit-alerts.js';
