import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { PROVIDER_CALLBACK_CODES } from './failures/provider-callbacks.js';
import { readBodyBytes } from './raw-body.js';

const { problem } = PROVIDER_CALLBACK_CODES;

/**
 * What the providers' callbacks (Termii delivery reports, WhatsApp Cloud API webhooks) share at the
 * edge: the raw body as received, its HMAC signature checked in constant time, then JSON. The
 * signature is over the exact bytes the provider sent, so these routes read the body themselves
 * (`rawBody` in the route table) instead of the JSON body parser, which would hand over a re-parsed
 * object whose bytes are lost. docs/adr/0030 ("Provider callbacks").
 */

const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** The body's bytes as received, at most `maxBytes` (413 beyond); a compressed body is 415 (its signature is over other bytes). */
export const readRawBody = (ctx: Context, maxBytes: number): Promise<Buffer> => {
  const encoding = (ctx.get('content-encoding') || 'identity').trim().toLowerCase();
  if (encoding !== 'identity') return Promise.reject(problem('UNSUPPORTED_MEDIA_TYPE', 'Send the body without a Content-Encoding: its signature is over the bytes as sent.'));
  return readBodyBytes(ctx, maxBytes, kilobytes(maxBytes));
};

/** True when `givenHex` is the hex of `expected`, compared in constant time. */
const sameDigest = (expected: Buffer, givenHex: string): boolean => {
  const given = Buffer.from(givenHex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** Termii: `X-Termii-Signature` is the hex HMAC-SHA512 of the body with the account's secret key. */
export const termiiSignatureValid = (secretKey: string, body: Buffer, header: string): boolean => {
  const hex = header.trim();
  return /^[0-9a-f]{128}$/i.test(hex) && sameDigest(createHmac('sha512', secretKey).update(body).digest(), hex);
};

/** Meta: `X-Hub-Signature-256` is `sha256=` and the hex HMAC-SHA256 of the body with the app secret. */
export const metaSignatureValid = (appSecret: string, body: Buffer, header: string): boolean => {
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(header.trim())?.[1];
  return hex !== undefined && sameDigest(createHmac('sha256', appSecret).update(body).digest(), hex);
};

/** Two secrets compared in constant time, whatever their lengths (their digests are compared). */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

export interface SignedBody {
  readonly provider: string;
  /** The header that carries the signature, as the provider names it. */
  readonly header: string;
  readonly maxBytes: number;
  readonly valid: (body: Buffer, signature: string) => boolean;
}

/**
 * The body of a provider's callback, as JSON, once its signature is checked: a missing or wrong
 * signature is 401 WEBHOOK_SIGNATURE_INVALID (nothing is read into the system), a signed body that is
 * not JSON 400 MALFORMED_JSON.
 */
export const signedJson = async (ctx: Context, s: SignedBody): Promise<unknown> => {
  const body = await readRawBody(ctx, s.maxBytes);
  const signature = ctx.get(s.header);
  if (!signature || !s.valid(body, signature)) {
    throw problem('WEBHOOK_SIGNATURE_INVALID', `The ${s.header} header is missing or is not the signature of this body with the ${s.provider} key this server has.`, {
      headers: { 'WWW-Authenticate': `Signature realm="${s.provider}", header="${s.header}"` },
    });
  }
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw problem('MALFORMED_JSON', 'The body is not valid JSON.');
  }
};

/** 503 WEBHOOK_NOT_CONFIGURED: the variables that turn a provider's callbacks on are unset. */
export const callbacksOff = (provider: string, variables: string) =>
  problem('WEBHOOK_NOT_CONFIGURED', `${provider} callbacks are not configured on this server (${variables} unset).`);

/** 403 WEBHOOK_VERIFICATION_FAILED: a webhook subscription handshake with the wrong mode or verify token. */
export const handshakeRefused = () => problem('WEBHOOK_VERIFICATION_FAILED', 'hub.mode must be subscribe and hub.verify_token the verify token configured on this server.');
