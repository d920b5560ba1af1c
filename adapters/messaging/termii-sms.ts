import { MessageRejected, type MessageSender, type OutgoingMessage } from '../../application/ports/message-sender.js';
import { postJson, ProviderFault, redact, waitNote } from './provider-http.js';

/**
 * SMS through Termii's Messaging API (https://developers.termii.com/messaging-api):
 * `POST {base}/api/sms/send` with `{ api_key, to, from, sms, type: "plain", channel }`, answered
 * `{ message_id, message, balance, user }`. Codes go on the `dnd` route, which reaches numbers on
 * Do-Not-Disturb (and MTN numbers at night); everything else on `generic`. docs/adr/0028.
 */
export interface TermiiSettings {
  readonly apiKey: string;
  readonly senderId: string;
  /** e.g. https://api.ng.termii.com (the base URL on the Termii dashboard). */
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

/** Termii's 4xx answers that are about the account, not the message: fixed by the operator, then retried. */
const ACCOUNT_PROBLEM = /balance|sender ?id|not active|route|api ?key|unauthori[sz]ed|daily limit/i;

const saidBy = (body: unknown): string => {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message;
  return body === undefined ? 'no JSON body' : JSON.stringify(body);
};

const messageIdOf = (body: unknown): string | undefined => {
  const id = body && typeof body === 'object' && 'message_id' in body ? body.message_id : undefined;
  return (typeof id === 'string' && id !== '') || typeof id === 'number' ? String(id) : undefined;
};

/** Termii wants the number in international format without `+` (2348031234567). */
const termiiNumber = (to: string): string => to.replace(/\D/g, '');

export const termiiChannel = (message: OutgoingMessage): 'dnd' | 'generic' => (message.purpose === 'CODE' ? 'dnd' : 'generic');

export const termiiSms = (settings: TermiiSettings): MessageSender => {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/api/sms/send`;
  return {
    async send(message) {
      const answer = await postJson(
        'Termii',
        url,
        { api_key: settings.apiKey, to: termiiNumber(message.to), from: settings.senderId, sms: message.text, type: 'plain', channel: termiiChannel(message) },
        {},
        settings.timeoutMs,
      );
      const { status } = answer;
      if (status >= 200 && status < 300) {
        const id = messageIdOf(answer.body);
        if (id) return { providerMessageId: id };
        // Not Termii's documented answer (a proxy's page?): we cannot tell it was sent, so try again.
        throw new ProviderFault(`Termii answered ${status} without a message_id`, undefined, status);
      }
      const said = redact(saidBy(answer.body), [settings.apiKey]);
      if (status === 429) throw new ProviderFault(`Termii rate limit (HTTP 429)${waitNote(answer.retryAfterMs)}: ${said}`, answer.retryAfterMs, status);
      if (status === 401 || status === 403) throw new ProviderFault(`Termii refused the API key (HTTP ${status}); check TERMII_API_KEY: ${said}`, undefined, status);
      if (status >= 400 && status < 500) {
        if (ACCOUNT_PROBLEM.test(said)) throw new ProviderFault(`Termii account problem (HTTP ${status}): ${said}`, answer.retryAfterMs, status);
        throw new MessageRejected(`Termii refused the message (HTTP ${status}): ${said}`);
      }
      throw new ProviderFault(`Termii failed (HTTP ${status})${waitNote(answer.retryAfterMs)}: ${said}`, answer.retryAfterMs, status);
    },
  };
};
