import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { PostOutcome, WebhookPoster, WebhookSigner } from '../../application/ports/webhooks.js';
import { INTERNAL_HOST_REFUSAL, isInternalAddress, webhookUrlRefusal } from './url-policy.js';

/** Standard Webhooks signatures, by the `standardwebhooks` package (the same one receivers verify with). */
export const standardWebhooksSigner: WebhookSigner = {
  sign: (secret, messageId, at, body) => new Webhook(secret).sign(messageId, at, body),
};

/** A host name's addresses, every one (the system resolver by default; tests give their own). */
export type ResolveHost = (host: string) => Promise<readonly { readonly address: string; readonly family: number }[]>;
const systemResolver: ResolveHost = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The one answer for every URL whose host is, or resolves to, a refused address: nothing is connected
 * to, so nothing about the address or its ports (open, closed, filtered) shows in `last_error`.
 */
export const REFUSED_ADDRESS_ERROR = 'the host is, or resolves to, a private, loopback or otherwise internal address; nothing was sent';

const describe = (e: unknown): string => {
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  if (err.code === 'ENOTFOUND' || err.code === 'ENODATA' || err.code === 'EAI_AGAIN') return 'the host name does not resolve';
  return (err.code ?? err.cause?.code ?? err.cause?.message ?? err.message ?? String(e)).slice(0, 200);
};

/** Rejects when `signal` aborts first (a resolver takes no signal). */
const before = <T>(work: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });

/**
 * POSTs with a deadline (`timeoutMs`, covering the name's resolution too), no redirects followed (a 3xx
 * is a failed attempt), and the address checked before anything is sent: the URL as at create
 * (docs/adr/0037), then every address its host name resolves to. The connection goes to those checked
 * addresses (the request's `lookup` answers with them), so a DNS answer that changes between the check
 * and the connect (rebinding) is never used; TLS still sends the host name (SNI) and checks the
 * certificate against it. `allowPrivate` (tests, local receivers) skips the checks. The body of the
 * answer is read and dropped (at most what arrives before the deadline).
 */
export const httpWebhookPoster = (options: { timeoutMs: number; allowPrivate: boolean; resolve?: ResolveHost }): WebhookPoster => {
  const resolve = options.resolve ?? systemResolver;
  const refusal = webhookUrlRefusal(options.allowPrivate);
  return {
    async post(url, headers, body): Promise<PostOutcome> {
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const refused = (): PostOutcome => ({ status: null, durationMs: took(), error: REFUSED_ADDRESS_ERROR });
      try {
        const u = new URL(url);
        const why = refusal(url);
        if (why) return why === INTERNAL_HOST_REFUSAL ? refused() : { status: null, durationMs: took(), error: `the URL ${why}` };
        const host = u.hostname.replace(/^\[|\]$/g, '');
        const family = isIP(host);
        const addresses = family ? [{ address: host, family }] : await before(resolve(host), deadline);
        if (addresses.length === 0) return { status: null, durationMs: took(), error: 'the host name does not resolve' };
        // Every address, not only the first: the connection may try each of them (Happy Eyeballs).
        if (!options.allowPrivate && addresses.some((a) => isInternalAddress(a.address))) return refused();
        const pinned: LookupFunction = (_name, opts, callback) => {
          if (opts.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
          else callback(null, addresses[0]!.address, addresses[0]!.family);
        };
        const status = await send(u, headers, body, pinned, deadline);
        return { status, durationMs: took(), error: status >= 200 && status < 300 ? null : `the receiver answered ${status}` };
      } catch (e) {
        return { status: null, durationMs: took(), error: describe(deadline.aborted ? deadline.reason : e) };
      }
    },
  };
};

/** One POST on a fresh connection (no pooled socket from another lookup); the status once the answer's body has been read or dropped. */
const send = (u: URL, headers: Record<string, string>, body: string, lookup: LookupFunction, signal: AbortSignal): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(u, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, signal, agent: false }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.on('error', () => resolve(status));
      res.on('close', () => resolve(status));
      res.resume();
    });
    req.on('error', reject);
    req.end(body);
  });
