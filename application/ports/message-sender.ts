export type Channel = 'sms' | 'email' | 'whatsapp';

export interface OutgoingMessage {
  readonly channel: Channel;
  readonly to: string;
  readonly text: string;
}

/** Delivers a message to a person (OTPs, invitations, receipts). Default adapter: the log outbox. */
export interface MessageSender {
  send(message: OutgoingMessage): Promise<void>;
}
