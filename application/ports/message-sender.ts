export type Channel = 'sms' | 'email' | 'whatsapp';

/**
 * Why a message is sent. Providers route on it: Termii sends codes on its `dnd` route (they must
 * reach numbers on Do-Not-Disturb); WhatsApp sends receipts and reminders as approved templates.
 */
export type MessagePurpose = 'CODE' | 'INVITATION' | 'RECEIPT' | 'CREDIT_REMINDER' | 'CUSTOM' | 'LOW_STOCK' | 'DAILY_SUMMARY' | 'AUDIT_ALERT' | 'INVOICE_REMINDER' | 'INVOICE_SHARE';

export interface OutgoingMessage {
  readonly channel: Channel;
  readonly to: string;
  readonly text: string;
  /** Absent means an ordinary transactional text. */
  readonly purpose?: MessagePurpose;
  /** The values a provider's template is filled with, in order (WhatsApp template body parameters). */
  readonly params?: readonly string[];
  /** The e-mail subject (e-mail only). */
  readonly subject?: string;
}

/** What the provider said when it accepted a message. */
export interface SentMessage {
  /** The provider's id for the message, to match its delivery reports; absent for the log outbox. */
  readonly providerMessageId?: string;
}

/**
 * A provider refused the message for good (a bad number, an unknown template): retrying cannot
 * help. Any other error thrown by `send` is taken as passing (a 5xx, a timeout, a rate limit) and retried.
 */
export class MessageRejected extends Error {
  override readonly name = 'MessageRejected';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Delivers a message to a person (OTPs, invitations, receipts). Default adapter: the log outbox. */
export interface MessageSender {
  send(message: OutgoingMessage): Promise<SentMessage>;
}

/**
 * What a provider's delivery report says about one message it accepted (parsed from its webhook by
 * adapters/messaging/delivery-reports.ts): matched to the message by `providerMessageId`.
 */
export interface DeliveryReport {
  readonly providerMessageId: string;
  /** SENT: with the network, not yet on the handset; DELIVERED: on the handset (or read); FAILED: it will not arrive. */
  readonly status: 'SENT' | 'DELIVERED' | 'FAILED';
  /** Why it failed, in the provider's words. */
  readonly reason?: string;
}
