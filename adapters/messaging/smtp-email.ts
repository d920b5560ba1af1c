import type { Transporter } from 'nodemailer';
import { MessageRejected, type MessagePurpose, type MessageSender } from '../../application/ports/message-sender.js';
import { ProviderFault, redact } from './provider-http.js';

/**
 * E-mail over SMTP with nodemailer (nodemailer.com/smtp): `SMTP_URL` (smtp://user:pass@host:587 or
 * smtps://…:465) and a From address. A 5xx reply (RFC 5321 §4.2.1: permanent negative) is a
 * refusal of the message; a 4xx reply, a lost connection or a timeout passes and is retried; an
 * authentication failure is the operator's to fix, so it passes too. docs/adr/0028.
 */
export interface SmtpSettings {
  readonly url: string;
  readonly from: string;
  readonly timeoutMs: number;
}

/** The subject when the message brings none: plain English, by purpose. */
const SUBJECTS: Record<MessagePurpose, string> = {
  CODE: 'Your verification code',
  INVITATION: 'You are invited to join a team on BizOps',
  RECEIPT: 'Your receipt',
  CREDIT_REMINDER: 'Payment reminder',
  CUSTOM: 'A message from BizOps',
  LOW_STOCK: 'Low stock',
  DAILY_SUMMARY: 'Your daily summary',
  AUDIT_ALERT: 'Audit alert',
  INVOICE_REMINDER: 'Invoice reminder',
  INVOICE_SHARE: 'Your invoice',
};

/** The secrets an SMTP URL may hold (password, user), kept out of every error message. */
const secretsOf = (url: string): string[] => {
  try {
    const parsed = new URL(url);
    return [url, decodeURIComponent(parsed.password), parsed.password].filter((s) => s.length > 0);
  } catch {
    return [url];
  }
};

/** RFC 5321 reply codes for a failed authentication: the account, not the message. */
const AUTH_FAILED = new Set([530, 534, 535, 538]);

export const smtpEmail = (settings: SmtpSettings): MessageSender => {
  // The URL's host, port, TLS and login, plus our timeouts (nodemailer merges `url` into the options).
  // nodemailer is loaded with the first message, not at start: most servers send no e-mail.
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: settings.url,
        connectionTimeout: settings.timeoutMs,
        greetingTimeout: settings.timeoutMs,
        socketTimeout: settings.timeoutMs,
      }),
    ));
  const secrets = secretsOf(settings.url);
  return {
    async send(message) {
      try {
        const info = await (await transporter()).sendMail({
          from: settings.from,
          to: message.to,
          subject: message.subject ?? SUBJECTS[message.purpose ?? 'CUSTOM'],
          text: message.text,
        });
        return typeof info.messageId === 'string' ? { providerMessageId: info.messageId } : {};
      } catch (error) {
        const e = error as { responseCode?: unknown; code?: unknown; response?: unknown; message?: unknown };
        const reply = typeof e.responseCode === 'number' ? e.responseCode : undefined;
        const said = redact(typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : String(error), secrets);
        if (e.code === 'EAUTH' || (reply !== undefined && AUTH_FAILED.has(reply))) {
          throw new ProviderFault(`SMTP server refused the login; check SMTP_URL: ${said}`, undefined, reply);
        }
        if (reply !== undefined && reply >= 500) throw new MessageRejected(`SMTP server refused the message (${reply}): ${said}`);
        const what = reply !== undefined ? `SMTP server deferred the message (${reply})` : `SMTP delivery failed (${typeof e.code === 'string' ? e.code : 'no reply'})`;
        throw new ProviderFault(`${what}: ${said}`, undefined, reply);
      }
    },
  };
};
