import type { DeliveryReport } from '../../application/ports/message-sender.js';

/**
 * Pure parsers of the providers' delivery-report webhooks, for the notifications module's routes.
 * They read only what they need and ignore the rest; a payload that is not a delivery report gives
 * nothing (a webhook answers it 200 all the same, or the provider retries it forever). They do not
 * check signatures (Termii's X-Termii-Signature, Meta's X-Hub-Signature-256): the route does, on the raw body.
 */

const record = (u: unknown): Record<string, unknown> | undefined => (u && typeof u === 'object' && !Array.isArray(u) ? (u as Record<string, unknown>) : undefined);
const list = (u: unknown): unknown[] => (Array.isArray(u) ? u : []);
const text = (u: unknown): string | undefined => (typeof u === 'string' && u.trim() !== '' ? u.trim() : typeof u === 'number' ? String(u) : undefined);

/**
 * Termii's outbound-message report (developers.termii.com/events-and-reports): `{ type: "outbound",
 * message_id, receiver, sender, message, sent_at, cost, status, channel }`, where status is one of
 * "Delivered", "DND Active on Phone Number", "Message Sent", "Received", "Message Failed", "Rejected",
 * "Expired" (older payloads: "DELIVERED | Message delivered to handset").
 */
export const parseTermiiDeliveryReport = (payload: unknown): DeliveryReport | undefined => {
  const body = record(payload);
  const providerMessageId = text(body?.message_id);
  const said = text(body?.status);
  if (!providerMessageId || !said) return undefined;
  const status = said.toLowerCase();
  if (status.startsWith('delivered')) return { providerMessageId, status: 'DELIVERED' };
  if (status.startsWith('message sent') || status.startsWith('received') || status.startsWith('sent')) return { providerMessageId, status: 'SENT' };
  if (/^(dnd active|message failed|failed|rejected|expired|undelivered)/.test(status)) return { providerMessageId, status: 'FAILED', reason: said.slice(0, 300) };
  return undefined;
};

const whatsappStatus = (s: Record<string, unknown>): DeliveryReport | undefined => {
  const providerMessageId = text(s.id);
  if (!providerMessageId) return undefined;
  switch (s.status) {
    case 'sent':
      return { providerMessageId, status: 'SENT' };
    case 'delivered':
    case 'read': // read implies delivered
      return { providerMessageId, status: 'DELIVERED' };
    case 'failed': {
      const error = record(list(s.errors)[0]);
      const details = text(record(error?.error_data)?.details);
      const head = [error?.code === undefined ? undefined : `(#${text(error.code)})`, text(error?.title) ?? text(error?.message)].filter(Boolean).join(' ');
      const reason = [head, details].filter(Boolean).join(': ');
      return { providerMessageId, status: 'FAILED', ...(reason ? { reason: reason.slice(0, 300) } : {}) };
    }
    default:
      return undefined; // "deleted", "warning" and future statuses: not about delivery
  }
};

/**
 * The `statuses` of a WhatsApp Cloud API `messages` webhook (developers.facebook.com/docs/whatsapp/
 * cloud-api/webhooks/components): `{ object: "whatsapp_business_account", entry: [{ changes: [{ field:
 * "messages", value: { statuses: [{ id: "wamid…", status: "sent"|"delivered"|"read"|"failed",
 * recipient_id, timestamp, errors?: [{ code, title, message, error_data: { details } }] }] } }] }] }`.
 * One webhook can carry several statuses; incoming messages in the same payload are ignored.
 */
export const parseWhatsAppStatuses = (payload: unknown): DeliveryReport[] => {
  const body = record(payload);
  if (body?.object !== 'whatsapp_business_account') return [];
  const reports: DeliveryReport[] = [];
  for (const entry of list(body.entry)) {
    for (const change of list(record(entry)?.changes)) {
      const c = record(change);
      if (c?.field !== 'messages') continue;
      for (const status of list(record(c.value)?.statuses)) {
        const s = record(status);
        const report = s && whatsappStatus(s);
        if (report) reports.push(report);
      }
    }
  }
  return reports;
};
