import { Naira } from './money.js';

/**
 * Canonical JSON, the one writer of it (docs/adr/0050): object keys sorted by UTF-16 code unit (as
 * `Array.prototype.sort` and `<` compare), keys whose value is undefined left out, arrays in order, no
 * whitespace, so equal content gives equal bytes whatever its key order. Its bytes are hashed and kept:
 * the Idempotency-Key fingerprints (request bodies as parsed JSON), the client-id fingerprints (commands:
 * a Date as its ISO string) and, strict, the loan pack's document. For every input those three had,
 * it writes the bytes they wrote, so fingerprints stored before it still match.
 */
export const canonicalJson = (v: unknown): string => write(v, false);

/**
 * Canonical JSON that other languages write the same: only strings, integers (a safe integer, or a
 * bigint with its exact digits: a sum past 2^53 kobo, docs/adr/0038), money (a Naira, written with
 * exactly 2 decimals), booleans, null, arrays and objects. A fraction or anything else is refused rather than written in a way another language might
 * print differently (the loan pack's document, whose SHA-256 a lender checks: docs/adr/0031).
 */
export const strictCanonicalJson = (v: unknown): string => write(v, true);

const write = (v: unknown, strict: boolean): string => {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Naira) return v.text; // money in a loan pack: exactly 2 decimals, exact at any size (ADR 0046)
  if (typeof v === 'number') {
    if (strict && !Number.isSafeInteger(v)) throw new Error(`canonical JSON holds integers only, not ${v}`);
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map((e) => write(e, strict)).join(',')}]`;
  if (v instanceof Date && !strict) return JSON.stringify(v.toISOString());
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${write(o[k], strict)}`).join(',')}}`;
  }
  if (strict) throw new Error(`canonical JSON cannot hold ${typeof v}`);
  return JSON.stringify(v ?? null);
};
