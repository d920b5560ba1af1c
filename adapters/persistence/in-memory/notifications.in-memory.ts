import type { NotificationRepositories } from '../../../application/notifications/ports.js';
import { DEFAULT_PREFERENCES, type Notification, type NotificationPreferences } from '../../../domain/notification.js';
import type { AuthTables } from './auth.in-memory.js';
import type { BusinessTables } from './business.in-memory.js';
import type { CustomerTables } from './customers.in-memory.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, values } from './rows.js';
import type { SaleTables } from './sales.in-memory.js';

/** The notifications module's tables, as the SQL adapter's (see its migration). */
export interface NotificationTables {
  notifications: Map<string, Notification>;
  notificationPreferences: Map<string, { preferences: NotificationPreferences; dailySummarySentOn: string | null }>;
  customerReminders: Map<string, { businessId: string; lastRemindedAt: Date }>;
  lowStockAlerts: Map<string, { businessId: string; alertedAt: Date }>;
  /** Keyed by business, day and quota. */
  dailyMessageCounts: Map<string, number>;
}

// Reminders read customers and their credit sales, the owner's contact reads members and users: the SQL's joins.
type Reads = Pick<CustomerTables, 'customers'> & Pick<SaleTables, 'sales'> & Pick<BusinessTables, 'memberships'> & Pick<AuthTables, 'users'>;

const byId = (a: { businessId: string }, b: { businessId: string }) => (a.businessId < b.businessId ? -1 : a.businessId > b.businessId ? 1 : 0);

/** The notifications module in memory. */
export const inMemoryNotificationsModule: InMemoryModule<NotificationTables, NotificationRepositories, Reads> = {
  tables: () => ({ notifications: new Map(), notificationPreferences: new Map(), customerReminders: new Map(), lowStockAlerts: new Map(), dailyMessageCounts: new Map() }),
  repositories: (t) => {
    const own = (businessId: string, id: string) => {
      const n = t.notifications.get(id);
      return n && n.businessId === businessId ? n : undefined;
    };
    return {
      notifications: {
        add: async (n) => {
          if (n.sourceEventId !== null && values(t.notifications).some((x) => x.sourceEventId === n.sourceEventId)) return 'duplicate';
          t.notifications.set(n.id, copy(n));
          return 'added';
        },
        findById: async (businessId, id) => {
          const n = own(businessId, id);
          return n && copy(n);
        },
        list: async (businessId, page, f) => {
          const found = keysetPageInMemory(
            values(t.notifications).filter(
              (n) => n.businessId === businessId && (!f.channel || n.channel === f.channel) && (!f.status || n.status === f.status) && (!f.customerId || n.customerId === f.customerId),
            ),
            page,
            { sortValue: (n) => n.createdAt.toISOString(), id: (n) => n.id, searchText: (n) => [n.to], date: (n) => n.createdAt },
          );
          return { ...found, items: found.items.map(copy) };
        },
        countAttempt: async (businessId, id, at) => {
          const n = own(businessId, id);
          if (!n || n.status !== 'QUEUED') return undefined;
          Object.assign(n, { attempts: n.attempts + 1, updatedAt: at });
          return n.attempts;
        },
        settle: async (businessId, id, o) => {
          const n = own(businessId, id);
          if (!n || n.status !== 'QUEUED') return false;
          if (o.status === 'SENT') Object.assign(n, { status: 'SENT', providerMessageId: o.providerMessageId, text: o.text, sentAt: o.at, updatedAt: o.at });
          else Object.assign(n, { status: 'FAILED', failureReason: o.reason, updatedAt: o.at });
          return true;
        },
        applyDeliveryReport: async (providerMessageId, r) => {
          const sent = [...t.notifications.values()].filter((n) => n.providerMessageId === providerMessageId && n.status === 'SENT');
          for (const n of sent) Object.assign(n, { status: r.status, failureReason: r.reason, updatedAt: r.at });
          return sent.length > 0;
        },
      },
      notificationSettings: {
        get: async (businessId) => copy(t.notificationPreferences.get(businessId)?.preferences ?? DEFAULT_PREFERENCES),
        save: async (businessId, preferences) => {
          t.notificationPreferences.set(businessId, { preferences: copy(preferences), dailySummarySentOn: t.notificationPreferences.get(businessId)?.dailySummarySentOn ?? null });
        },
        dueDailySummaries: async (day, time, limit) =>
          [...t.notificationPreferences.entries()]
            .filter(([, p]) => p.preferences.dailySummary.enabled && p.preferences.dailySummary.time <= time && (p.dailySummarySentOn === null || p.dailySummarySentOn < day))
            .map(([businessId]) => businessId)
            .sort()
            .slice(0, limit),
        claimDailySummary: async (businessId, day) => {
          const p = t.notificationPreferences.get(businessId);
          if (!p || (p.dailySummarySentOn !== null && p.dailySummarySentOn >= day)) return false;
          p.dailySummarySentOn = day;
          return true;
        },
        remindingBusinesses: async (limit, after) =>
          [...t.notificationPreferences.entries()]
            .map(([businessId, p]) => ({ businessId, preferences: copy(p.preferences) }))
            .filter((x) => x.preferences.creditReminders.enabled && (!after || x.businessId > after))
            .sort(byId)
            .slice(0, limit),
        invoiceRemindingBusinesses: async (limit, after) =>
          [...t.notificationPreferences.entries()]
            .map(([businessId, p]) => ({ businessId, preferences: { ...DEFAULT_PREFERENCES, ...copy(p.preferences) } }))
            .filter((x) => (x.preferences.invoiceReminders.beforeDue || x.preferences.invoiceReminders.overdue) && (!after || x.businessId > after))
            .sort(byId)
            .slice(0, limit),
        reminderCandidates: async (businessId, debtBefore, remindedBefore, limit) =>
          values(t.customers)
            .filter((c) => c.businessId === businessId && c.creditBalance > 0 && !c.notificationsOptOut)
            .filter((c) => values(t.sales).some((s) => s.businessId === businessId && s.customerId === c.id && s.creditOutstanding > 0 && s.createdAt < debtBefore))
            .filter((c) => {
              const r = t.customerReminders.get(c.id);
              return !r || r.lastRemindedAt <= remindedBefore;
            })
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .slice(0, limit)
            .map((c) => ({ customerId: c.id, name: c.name, phone: c.phone, email: c.email, balance: c.creditBalance })),
        claimReminder: async (businessId, customerId, at, remindedBefore) => {
          const r = t.customerReminders.get(customerId);
          if (r && (r.businessId !== businessId || r.lastRemindedAt > remindedBefore)) return false;
          t.customerReminders.set(customerId, { businessId, lastRemindedAt: at });
          return true;
        },
        isLowStockAlerted: async (businessId, productId) => t.lowStockAlerts.get(productId)?.businessId === businessId,
        claimLowStockAlert: async (businessId, productId, at) => {
          if (t.lowStockAlerts.has(productId)) return false;
          t.lowStockAlerts.set(productId, { businessId, alertedAt: at });
          return true;
        },
        clearLowStockAlert: async (businessId, productId) => {
          if (t.lowStockAlerts.get(productId)?.businessId === businessId) t.lowStockAlerts.delete(productId);
        },
        isOptedOut: async (businessId, contact) =>
          values(t.customers).some((c) => c.businessId === businessId && c.notificationsOptOut && (c.phone === contact || c.email?.toLowerCase() === contact.toLowerCase())),
        isRecipientOf: async (businessId, contact) => {
          const matches = (who: { phone: string | null; email: string | null }) => who.phone === contact || (who.email !== null && who.email.toLowerCase() === contact.toLowerCase());
          return (
            values(t.customers).some((c) => c.businessId === businessId && matches(c)) ||
            values(t.memberships).some((m) => m.businessId === businessId && (m.status === 'ACTIVE' || m.status === 'INVITED') && !!t.users.get(m.userId) && matches(t.users.get(m.userId)!))
          );
        },
        countDailyMessage: async (businessId, day, quota, limit) => {
          const key = `${businessId}\n${day}\n${quota}`;
          const count = t.dailyMessageCounts.get(key) ?? 0;
          if (count >= limit) return false;
          t.dailyMessageCounts.set(key, count + 1);
          return true;
        },
        ownerContact: async (businessId) => {
          const owner = values(t.memberships)
            .filter((m) => m.businessId === businessId && m.role === 'BUSINESS_OWNER' && m.status === 'ACTIVE')
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))[0];
          const user = owner && t.users.get(owner.userId);
          return user ? { phone: user.phone, email: user.email } : undefined;
        },
      },
    };
  },
};
