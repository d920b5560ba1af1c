/**
 * What the HTTP message providers (Termii, WhatsApp Cloud API) share: one JSON POST bounded by a
 * timeout, the provider's Retry-After, and the error a passing fault is thrown as. Secrets travel in
 * the request only: no error message built here holds a URL's query, a header or a request body.
 */

/**
 * A passing fault at a provider (a 5xx, a timeout, a rate limit, an account problem the operator can
 * fix): the outbox retries the message. `retryAfterMs` is the provider's own wait (Retry-After), for
 * a queue to honour; `status` the HTTP status, when there was an answer.
 */
export class ProviderFault extends Error {
  override readonly name = 'ProviderFault';
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export const retryAfterMs = (header: string | null, now: number = Date.now()): number | undefined => {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** A provider's words, safe for a log line: secrets replaced, one line, bounded. */
export const redact = (text: string, secrets: readonly string[]): string => {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > 300 ? `${out.slice(0, 297)}...` : out;
};

export interface ProviderAnswer {
  readonly status: number;
  /** The parsed JSON body; undefined when the body is not JSON. */
  readonly body: unknown;
  readonly retryAfterMs?: number;
}

const reasonOf = (error: unknown): string => {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown error';
};

/** POSTs `body` as JSON; a timeout or a network failure is a ProviderFault, any HTTP answer is returned. */
export const postJson = async (
  provider: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<ProviderAnswer> => {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    const text = await response.text(); // under the same timeout: a stalled body is a timeout too
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const wait = retryAfterMs(response.headers.get('retry-after'));
    return { status: response.status, body: json, ...(wait === undefined ? {} : { retryAfterMs: wait }) };
  } catch (error) {
    if (signal.aborted) throw new ProviderFault(`${provider} did not answer within ${timeoutMs} ms`);
    throw new ProviderFault(`${provider} could not be reached (${reasonOf(error)})`);
  }
};

/** "retry after 30 s" for a message, when the provider said how long to wait. */
export const waitNote = (ms: number | undefined): string => (ms === undefined ? '' : `; retry after ${Math.ceil(ms / 1000)} s`);
