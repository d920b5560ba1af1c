import type { Channel, MessageSender } from '../../application/ports/message-sender.js';

/**
 * Sends each message through the adapter configured for its channel (Termii for SMS, WhatsApp's
 * Cloud API, SMTP for e-mail) and the rest to `fallback`, the log or file outbox: an unconfigured
 * channel behaves as before any provider existed.
 */
export const routingSender = (live: Partial<Record<Channel, MessageSender>>, fallback: MessageSender): MessageSender => ({
  send: (message) => (live[message.channel] ?? fallback).send(message),
});
