import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { problem } from './problem.js';

/** Raw bodies the runner read ahead of the handler (an upload under an Idempotency-Key). */
const buffered = new WeakMap<Context, Buffer>();

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Reads a raw body (an upload) whole, at most `maxBytes` (413 beyond), and keeps it for the handler,
 * which then reads it from `rawBodyStream` as it would have read the request. Used where the body must
 * be known before the handler runs: the fingerprint of an idempotent request (docs/adr/0045).
 */
/**
 * The request's bytes as received, at most `maxBytes` (413 naming `limit` beyond; a chunked body past
 * the limit is answered and its connection closed after the answer). The one reader of raw bodies:
 * uploads under an Idempotency-Key and signed provider callbacks.
 */
export const readBodyBytes = (ctx: Context, maxBytes: number, limit: string): Promise<Buffer> => {
  const tooLarge = () => problem('PAYLOAD_TOO_LARGE', `The body is larger than ${limit}.`, { headers: { Connection: 'close' } });
  if ((ctx.request.length ?? 0) > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      ctx.req.off('data', onData);
      reject(tooLarge());
    };
    ctx.req.on('data', onData);
    ctx.req.once('end', () => resolve(Buffer.concat(chunks)));
    ctx.req.once('error', reject);
  });
};

/**
 * Reads a raw body (an upload) whole, at most `maxBytes` (413 beyond), and keeps it for the handler,
 * which then reads it from `rawBodyStream` as it would have read the request. Used where the body must
 * be known before the handler runs: the fingerprint of an idempotent request (docs/adr/0045).
 */
export const bufferRawBody = async (ctx: Context, maxBytes: number): Promise<Buffer> => {
  const body = await readBodyBytes(ctx, maxBytes, megabytes(maxBytes));
  buffered.set(ctx, body);
  return body;
};

/** The request body as a stream: the copy `bufferRawBody` kept, else the request itself. */
export const rawBodyStream = (ctx: Context): Readable => {
  const body = buffered.get(ctx);
  return body ? Readable.from([body]) : ctx.req;
};

/**
 * What a raw body is, for an idempotency fingerprint: its media type and its bytes. A multipart body's
 * boundary is left out (a client may draw a new one for each retry), so the same file sent again
 * matches, and another file does not.
 */
export const rawBodyFingerprint = (ctx: Context, body: Buffer): string => {
  const boundary = /boundary="?([^";]+)"?/i.exec(ctx.get('content-type'))?.[1];
  const bytes = boundary ? Buffer.from(body.toString('latin1').split(boundary).join(''), 'latin1') : body;
  return `${ctx.request.type} ${createHash('sha256').update(bytes).digest('base64url')}`;
};
