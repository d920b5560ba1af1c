import type { Logger } from 'pino';
import type { MessageSender } from '../../application/ports/message-sender.js';

/**
 * The default MessageSender when no SMS/e-mail provider is configured: each message becomes one
 * log line (`msg: "outgoing message"`), so a developer can read their OTP locally.
 * This is the one place a full phone number and a code may appear in the log.
 */
export const logOutbox = (logger: Logger): MessageSender => ({
  async send(message) {
    logger.info({ channel: message.channel, to: message.to, text: message.text }, 'outgoing message');
    return {};
  },
});
