import { appendFile } from 'node:fs/promises';
import type { MessageSender } from '../../application/ports/message-sender.js';

/**
 * A MessageSender for development and end-to-end tests: each message is appended to `path` as one
 * JSON line, for a script or a test to read the code from. The file holds codes: keep it private.
 * A failed write (no such directory) fails the send, and the outbox retries it like a provider's fault.
 */
export const fileOutbox = (path: string): MessageSender => ({
  async send(message) {
    await appendFile(path, `${JSON.stringify({ channel: message.channel, to: message.to, text: message.text })}\n`, { mode: 0o600 });
    return {};
  },
});
