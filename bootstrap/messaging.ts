import type { Logger } from 'pino';
import type { Channel, MessageSender } from '../application/ports/message-sender.js';
import { fileOutbox } from '../adapters/messaging/file-outbox.js';
import { logOutbox } from '../adapters/messaging/log-outbox.js';
import { routingSender } from '../adapters/messaging/routing-sender.js';
import { smtpEmail } from '../adapters/messaging/smtp-email.js';
import { termiiSms } from '../adapters/messaging/termii-sms.js';
import { whatsappCloud } from '../adapters/messaging/whatsapp-cloud.js';
import type { Config } from './config.js';

/** Where each channel's messages go: a provider, or the outbox fallback (`log`, or `file` with MESSAGES_FILE). */
export type ChannelRoutes = Record<Channel, 'termii' | 'whatsapp-cloud' | 'smtp' | 'log' | 'file'>;

/**
 * The MessageSender the configuration asks for: each channel with a configured provider goes to
 * it, the others to the log (or MESSAGES_FILE) as before. loadConfig has checked that each
 * provider's variables come in complete pairs. Says in one log line which channels are live.
 */
export const messageSender = (config: Config, logger: Logger): { readonly sender: MessageSender; readonly routes: ChannelRoutes } => {
  const fallbackKind = config.MESSAGES_FILE ? 'file' : 'log';
  const fallback = config.MESSAGES_FILE ? fileOutbox(config.MESSAGES_FILE) : logOutbox(logger);
  const timeoutMs = config.MESSAGE_TIMEOUT_MS;
  const live: Partial<Record<Channel, MessageSender>> = {};
  if (config.TERMII_API_KEY && config.TERMII_SENDER_ID) {
    live.sms = termiiSms({ apiKey: config.TERMII_API_KEY, senderId: config.TERMII_SENDER_ID, baseUrl: config.TERMII_BASE_URL, timeoutMs });
  }
  if (config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID) {
    live.whatsapp = whatsappCloud({
      token: config.WHATSAPP_TOKEN,
      phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
      graphUrl: config.WHATSAPP_GRAPH_URL,
      apiVersion: config.WHATSAPP_API_VERSION,
      templates: { RECEIPT: config.WHATSAPP_TEMPLATE_RECEIPT, CREDIT_REMINDER: config.WHATSAPP_TEMPLATE_CREDIT_REMINDER },
      language: config.WHATSAPP_TEMPLATE_LANGUAGE,
      timeoutMs,
    });
  }
  if (config.SMTP_URL && config.MAIL_FROM) live.email = smtpEmail({ url: config.SMTP_URL, from: config.MAIL_FROM, timeoutMs });
  const routes: ChannelRoutes = {
    sms: live.sms ? 'termii' : fallbackKind,
    whatsapp: live.whatsapp ? 'whatsapp-cloud' : fallbackKind,
    email: live.email ? 'smtp' : fallbackKind,
  };
  // Names only: no key, token, URL or address.
  logger.info({ channels: routes }, 'message channels');
  return { sender: routingSender(live, fallback), routes };
};
