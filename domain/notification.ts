import type { Kobo } from './money.js';

/** How a notification reaches its person. POST /notifications/{sms,whatsapp} pick SMS or WHATSAPP; alerts may use EMAIL. */
export const NOTIFICATION_CHANNELS = ['SMS', 'WHATSAPP', 'EMAIL'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** What a person asks for through the API; the system adds LOW_STOCK, DAILY_SUMMARY and AUDIT_ALERT (to the owner). */
export const REQUESTED_TEMPLATES = ['RECEIPT', 'CREDIT_REMINDER', 'CUSTOM'] as const;
export type RequestedTemplate = (typeof REQUESTED_TEMPLATES)[number];
/** INVOICE_REMINDER: the day before due and the first day overdue (docs/adr/0077). INVOICE_SHARE: an invoice's share link, sent by POST /invoices/{id}/share (docs/adr/0076). */
export const NOTIFICATION_TEMPLATES = [...REQUESTED_TEMPLATES, 'LOW_STOCK', 'DAILY_SUMMARY', 'AUDIT_ALERT', 'INVOICE_REMINDER', 'INVOICE_SHARE'] as const;
export type NotificationTemplate = (typeof NOTIFICATION_TEMPLATES)[number];

/** QUEUED until the provider took it (SENT), then DELIVERED where the provider reports it; FAILED with the reason. */
export const NOTIFICATION_STATUSES = ['QUEUED', 'SENT', 'DELIVERED', 'FAILED'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** The longest CUSTOM message (three SMS pages). */
export const MAX_CUSTOM_MESSAGE = 480;

/**
 * Does the text carry a link a phone would make clickable: http:// or https://, www., or a bare domain
 * (`evil.example/x`, `evil.com`)? Two words joined by a dot without a space (`paid.Thanks`) count too:
 * a space after the dot is the way out; amounts (`₦1,500.50`) do not.
 */
export const containsLink = (text: string): boolean =>
  /\bhttps?:\/\/|\bwww\./i.test(text) || /(^|[^\p{L}\p{N}@._-])[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?![\p{L}\p{N}])/iu.test(text);

/** One message to one person, and what became of it. */
export interface Notification {
  readonly id: string;
  readonly businessId: string;
  readonly channel: NotificationChannel;
  /** E.164 phone (SMS, WhatsApp) or e-mail address. */
  readonly to: string;
  readonly template: NotificationTemplate;
  readonly customerId: string | null;
  readonly saleId: string | null;
  readonly productId: string | null;
  /** The owner's words of a CUSTOM message. */
  readonly message: string | null;
  /** The Lagos day a DAILY_SUMMARY reports. */
  readonly summaryDate: string | null;
  status: NotificationStatus;
  /** Sending attempts so far (a failed provider call counts). */
  attempts: number;
  providerMessageId: string | null;
  failureReason: string | null;
  /** The text as it was sent; null until then. */
  text: string | null;
  /** Who asked for it; null for what the system sends on its own (receipts after a sale, alerts, reminders). */
  readonly createdBy: string | null;
  /** The outbox entry that made the system create it (at most one notification per entry). */
  readonly sourceEventId: string | null;
  readonly createdAt: Date;
  updatedAt: Date;
  sentAt: Date | null;
}

export const RECEIPT_CHANNELS = ['NONE', 'SMS', 'WHATSAPP', 'EMAIL'] as const;
export type ReceiptChannel = (typeof RECEIPT_CHANNELS)[number];

/** Bounds of the credit-reminder settings, in days. */
export const MAX_REMINDER_DAYS = 365;

/** What the owner wants sent on its own. Alerts and summaries go to the owner; reminders and receipts to customers. */
export interface NotificationPreferences {
  readonly lowStockAlerts: { readonly enabled: boolean; readonly channel: NotificationChannel };
  /** `time` is HH:MM, Lagos time. */
  readonly dailySummary: { readonly enabled: boolean; readonly time: string; readonly channel: NotificationChannel };
  readonly creditReminders: { readonly enabled: boolean; readonly daysOverdue: number; readonly repeatEveryDays: number; readonly channel: NotificationChannel };
  readonly receiptChannel: ReceiptChannel;
  /**
   * An alert to the owner when the audit log records one of these above its threshold (docs/adr/0071):
   * a void of a sale whose total is above `saleVoidedOver`, discounts on a sale above `saleDiscountedOver`,
   * a stock adjustment of more than `stockAdjustedOver` units either way. A null threshold: no alert for it.
   */
  readonly auditAlerts: AuditAlertPreferences;
  /** Reminders to an invoice's customer (docs/adr/0077): the day before its due date, and on its first day overdue. */
  readonly invoiceReminders: InvoiceReminderPreferences;
}

export interface InvoiceReminderPreferences {
  readonly beforeDue: boolean;
  readonly overdue: boolean;
  readonly channel: NotificationChannel;
}

export interface AuditAlertPreferences {
  readonly enabled: boolean;
  readonly channel: NotificationChannel;
  readonly saleVoidedOver: Kobo | null;
  readonly saleDiscountedOver: Kobo | null;
  readonly stockAdjustedOver: number | null;
}

/** Nothing is sent (nor paid for) until the owner turns it on. */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  lowStockAlerts: { enabled: false, channel: 'SMS' },
  dailySummary: { enabled: false, time: '20:00', channel: 'SMS' },
  creditReminders: { enabled: false, daysOverdue: 7, repeatEveryDays: 7, channel: 'SMS' },
  receiptChannel: 'NONE',
  auditAlerts: { enabled: false, channel: 'SMS', saleVoidedOver: null, saleDiscountedOver: null, stockAdjustedOver: null },
  invoiceReminders: { beforeDue: false, overdue: false, channel: 'SMS' },
};

/** Is this audited change one the owner asked to be alerted to: its action's threshold set, and passed? */
export const isAuditAlertDue = (p: AuditAlertPreferences, change: { readonly action: 'sale.voided' | 'sale.discounted' | 'stock.adjusted'; readonly amount: Kobo | null; readonly quantity: number | null }): boolean => {
  if (!p.enabled) return false;
  switch (change.action) {
    case 'sale.voided':
      return p.saleVoidedOver !== null && change.amount !== null && change.amount > p.saleVoidedOver;
    case 'sale.discounted':
      return p.saleDiscountedOver !== null && change.amount !== null && change.amount > p.saleDiscountedOver;
    case 'stock.adjusted':
      return p.stockAdjustedOver !== null && change.quantity !== null && Math.abs(change.quantity) > p.stockAdjustedOver;
  }
};

/** HH:MM on a 24-hour clock. */
export const isClockTime = (s: string): boolean => /^([01]\d|2[0-3]):[0-5]\d$/.test(s);

/** A person's contact for a channel: the phone for SMS and WhatsApp, the e-mail for EMAIL. */
export const contactFor = (channel: NotificationChannel, who: { readonly phone: string | null; readonly email: string | null }): string | null =>
  channel === 'EMAIL' ? who.email : who.phone;
