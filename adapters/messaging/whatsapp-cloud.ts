import { MessageRejected, type MessageSender, type OutgoingMessage } from '../../application/ports/message-sender.js';
import { postJson, ProviderFault, redact, waitNote } from './provider-http.js';

/**
 * WhatsApp through Meta's Cloud API (developers.facebook.com/docs/whatsapp/cloud-api/reference/messages):
 * `POST {graph}/{version}/{phone-number-id}/messages` with a Bearer token, answered
 * `{ messaging_product, contacts, messages: [{ id }] }`; errors are Graph API error objects
 * `{ error: { message, type, code, error_data: { details }, error_subcode, fbtrace_id } }`.
 * Receipts and credit reminders go as approved templates (they may reach a person who has not written
 * in 24 hours); other purposes as text, which WhatsApp delivers only inside that window. docs/adr/0028.
 */
export interface WhatsAppSettings {
  readonly token: string;
  readonly phoneNumberId: string;
  /** e.g. https://graph.facebook.com */
  readonly graphUrl: string;
  /** e.g. v23.0 */
  readonly apiVersion: string;
  readonly templates: { readonly RECEIPT: string; readonly CREDIT_REMINDER: string };
  readonly language: string;
  readonly timeoutMs: number;
}

/** Cloud API error codes (support/error-codes) that a later attempt can get past: throttling and server trouble. */
const PASSING_CODES = new Set([
  2, // API Service: temporary downtime or overload
  4, // API Too Many Calls (app rate limit)
  80007, // WhatsApp Business Account rate limit
  130429, // Cloud API throughput reached
  131048, // spam rate limit
  131056, // (business, consumer) pair rate limit
  131000, // something went wrong
  131016, // service unavailable
  133004, // server temporarily unavailable
]);
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131048, 131056]);
/** Codes about the token, the app's permissions, the account or its payment: the operator fixes them; the message waits. */
const ACCOUNT_CODES = new Set([0, 3, 10, 190, 368, 131031, 131042]);
const isAccountCode = (code: number): boolean => ACCOUNT_CODES.has(code) || (code >= 200 && code <= 299);

/** Re-engagement message: more than 24 hours since the person last wrote; only a template reaches them. */
const OUTSIDE_WINDOW = 131047;
const TEMPLATE_MISSING = 132001;

interface GraphError {
  readonly code?: number;
  readonly message?: string;
  readonly details?: string;
}

const graphErrorOf = (body: unknown): GraphError => {
  const error = body && typeof body === 'object' && 'error' in body ? (body.error as Record<string, unknown> | null) : null;
  if (!error || typeof error !== 'object') return {};
  const data = error.error_data as Record<string, unknown> | undefined;
  return {
    ...(typeof error.code === 'number' ? { code: error.code } : {}),
    ...(typeof error.message === 'string' ? { message: error.message } : {}),
    ...(data && typeof data.details === 'string' ? { details: data.details } : {}),
  };
};

const TEMPLATED = ['RECEIPT', 'CREDIT_REMINDER'] as const;
type Templated = (typeof TEMPLATED)[number];
const isTemplated = (purpose: OutgoingMessage['purpose']): purpose is Templated => TEMPLATED.includes(purpose as Templated);

/** The request body for a message: a template with its body parameters, or a plain text. */
export const whatsappBody = (message: OutgoingMessage, settings: Pick<WhatsAppSettings, 'templates' | 'language'>): Record<string, unknown> => {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to.replace(/\D/g, '') };
  if (isTemplated(message.purpose)) {
    const params = message.params ?? [];
    return {
      ...base,
      type: 'template',
      template: {
        name: settings.templates[message.purpose],
        language: { code: settings.language },
        ...(params.length > 0 ? { components: [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }] } : {}),
      },
    };
  }
  return { ...base, type: 'text', text: { preview_url: false, body: message.text } };
};

const messageIdOf = (body: unknown): string | undefined => {
  const messages = body && typeof body === 'object' && 'messages' in body ? body.messages : undefined;
  const first = Array.isArray(messages) ? (messages[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' && first.id !== '' ? first.id : undefined;
};

export const whatsappCloud = (settings: WhatsAppSettings): MessageSender => {
  const url = `${settings.graphUrl.replace(/\/+$/, '')}/${settings.apiVersion}/${encodeURIComponent(settings.phoneNumberId)}/messages`;
  const headers = { authorization: `Bearer ${settings.token}` };
  return {
    async send(message) {
      const answer = await postJson('WhatsApp', url, whatsappBody(message, settings), headers, settings.timeoutMs);
      const { status } = answer;
      if (status >= 200 && status < 300) {
        const id = messageIdOf(answer.body);
        if (id) return { providerMessageId: id };
        throw new ProviderFault(`WhatsApp answered ${status} without a message id`, undefined, status);
      }
      const error = graphErrorOf(answer.body);
      const code = error.code;
      // Meta's message already starts "(#code) title"; the details say which parameter or why.
      const head = code !== undefined && !error.message?.includes(`#${code}`) ? `(#${code}) ${error.message ?? ''}`.trim() : error.message;
      const said = redact(
        [head, error.details].filter(Boolean).join(': ') || (answer.body === undefined ? 'no JSON body' : JSON.stringify(answer.body)),
        [settings.token],
      );
      const wait = answer.retryAfterMs;
      if (code === OUTSIDE_WINDOW) {
        throw new MessageRejected(`WhatsApp refused a free-form text: the person has not written to this business number in the last 24 hours, so only an approved template can reach them (${said})`);
      }
      if (code === TEMPLATE_MISSING && isTemplated(message.purpose)) {
        throw new MessageRejected(`WhatsApp has no approved template "${settings.templates[message.purpose]}" in language "${settings.language}" (${said})`);
      }
      if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) throw new ProviderFault(`WhatsApp rate limit (HTTP ${status})${waitNote(wait)}: ${said}`, wait, status);
      if (status >= 500 || (code !== undefined && PASSING_CODES.has(code))) throw new ProviderFault(`WhatsApp failed (HTTP ${status})${waitNote(wait)}: ${said}`, wait, status);
      if (status === 401 || status === 403 || (code !== undefined && isAccountCode(code))) {
        throw new ProviderFault(`WhatsApp refused the token or account (HTTP ${status}); check WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID: ${said}`, wait, status);
      }
      if (status >= 400 && status < 500) throw new MessageRejected(`WhatsApp refused the message (HTTP ${status}): ${said}`);
      throw new ProviderFault(`WhatsApp answered HTTP ${status}: ${said}`, wait, status);
    },
  };
};
