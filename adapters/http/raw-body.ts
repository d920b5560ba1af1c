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
export const bufferRawBody = (ctx: Context, maxBytes: number): Promise<Buffer> => {
  const tooLarge = () => problem('PAYLOAD_TOO_LARGE', `The body is larger than ${megabytes(maxBytes)}.`, { headers: { Connection: 'close' } });
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
    ctx.req.once('end', () => {
      const body = Buffer.concat(chunks);
      buffered.set(ctx, body);
      resolve(body);
    });
    ctx.req.once('error', reject);
  });
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
