import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { PostOutcome, WebhookPoster, WebhookSigner } from '../../application/ports/webhooks.js';
import { isInternalAddress } from './url-policy.js';

/** Standard Webhooks signatures, by the `standardwebhooks` package (the same one receivers verify with). */
export const standardWebhooksSigner: WebhookSigner = {
  sign: (secret, messageId, at, body) => new Webhook(secret).sign(messageId, at, body),
};

const describe = (e: unknown): string => {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  return (err.cause?.code ?? err.cause?.message ?? err.message ?? String(e)).slice(0, 200);
};

/**
 * POSTs with a deadline (`timeoutMs`), no redirects followed (a 3xx is a failed attempt), and the
 * host's addresses checked first: a name resolving to an internal address is refused unless
 * `allowPrivate`. The body of the answer is read and dropped (at most what arrives before the deadline).
 */
export const httpWebhookPoster = (options: { timeoutMs: number; allowPrivate: boolean }): WebhookPoster => ({
  async post(url, headers, body): Promise<PostOutcome> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    try {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivate) {
        const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
        if (addresses.some(isInternalAddress)) return { status: null, durationMs: took(), error: 'the host resolves to a private or loopback address' };
      }
      const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status, durationMs: took(), error: res.ok ? null : `the receiver answered ${res.status}` };
    } catch (e) {
      return { status: null, durationMs: took(), error: describe(e) };
    }
  },
});
