import { isAuditAlertDue } from '../../domain/notification.js';
import { auditAlertMessage } from '../../domain/notification-texts.js';
import type { BusinessRepositories } from '../business/ports.js';
import type { Clock } from '../ports/clock.js';
import type { Crypto } from '../ports/crypto.js';
import type { EventRepositories, Subscriber } from '../ports/outbox.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import { ownerAddress } from './automatic-notifications.js';
import type { NotificationRepositories } from './ports.js';
import { queueNotification } from './send-notification.js';

type Deps = { readonly uow: UnitOfWork<NotificationRepositories & EventRepositories & Pick<BusinessRepositories, 'businesses'>>; readonly clock: Clock; readonly crypto: Crypto };

/**
 * The owner's alerts about the audit log (docs/adr/0071): a void, a discount or a stock adjustment above
 * the threshold the owner chose becomes one AUDIT_ALERT notification to the owner, through the queue, in
 * the background (the change's request does not wait). At most one per entry (its event's outbox id).
 */
export const alertOnAuditEntries = (deps: Deps): Subscriber => ({
  name: 'audit-alerts',
  handles: ['AuditEntryRecorded'],
  background: true,
  async handle(event, meta) {
    if (event._tag !== 'AuditEntryRecorded') return;
    const { businessId } = event;
    const todo = await deps.uow.read(async (r) => {
      const { auditAlerts } = await r.notificationSettings.get(businessId);
      if (!isAuditAlertDue(auditAlerts, event)) return undefined;
      const to = await ownerAddress(r, businessId, auditAlerts.channel);
      return to ? { channel: auditAlerts.channel, to } : undefined;
    });
    if (!todo) return;
    await deps.uow.run((r) =>
      queueNotification(r, deps.clock.now(), { id: deps.crypto.uuid(), businessId, ...todo, template: 'AUDIT_ALERT', message: auditAlertMessage(event), sourceEventId: meta.id }),
    );
  },
});
