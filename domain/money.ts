/** Money is integer kobo inside the system; naira with at most 2 decimals only at the JSON edge. */
export type Kobo = number & { readonly Kobo: unique symbol };

/** The largest amount we accept: 1,000,000,000,000.00 naira (API-DECISIONS "Wire format"). */
export const MAX_KOBO = 100_000_000_000_000;

export const kobo = (n: number): Kobo => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`kobo must be a safe integer, got ${n}`);
  return n as Kobo;
};

export type NairaParseFailure = 'NOT_A_NUMBER' | 'TOO_MANY_DECIMALS' | 'TOO_LARGE';

/**
 * Converts a naira JSON number to kobo without float arithmetic: the number's shortest
 * decimal representation is split at the point, so 0.1 + 0.2 style errors cannot occur.
 */
export const nairaToKobo = (naira: number): { ok: true; value: Kobo } | { ok: false; reason: NairaParseFailure } => {
  if (typeof naira !== 'number' || !Number.isFinite(naira)) return { ok: false, reason: 'NOT_A_NUMBER' };
  const text = Math.abs(naira).toString();
  if (/e/i.test(text)) {
    // Exponent notation only appears for |n| < 1e-6 (too many decimals) or >= 1e21 (too large).
    return { ok: false, reason: Math.abs(naira) < 1 ? 'TOO_MANY_DECIMALS' : 'TOO_LARGE' };
  }
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 2) return { ok: false, reason: 'TOO_MANY_DECIMALS' };
  const magnitude = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (magnitude > MAX_KOBO) return { ok: false, reason: 'TOO_LARGE' };
  return { ok: true, value: (naira < 0 ? -magnitude : magnitude) as Kobo };
};

/**
 * Kobo to a naira JSON number: the double nearest to amount / 100. IEEE division rounds the exact
 * quotient to the nearest double, as parsing its decimal text ("123.45") does, so this is the same
 * number the text would give, for every integer kobo (test/unit/domain/money.test.ts checks it).
 */
export const koboToNaira = (amount: Kobo): number => amount / 100;

/**
 * A sum of amounts, exact at any size: integer kobo as a bigint. One amount is at most MAX_KOBO, but what
 * a report adds up (a year of sales, a network's GMV, price x units of the stock) passes 2^53 kobo
 * (about 90 trillion naira), where a number is no longer exact (docs/adr/0038).
 */
export type KoboSum = bigint;

/** Adds amounts (kobo numbers or sums) exactly. */
export const sumKobo = (amounts: Iterable<number | bigint>): KoboSum => {
  let total = 0n;
  for (const a of amounts) total += BigInt(a);
  return total;
};

/** Whether a sum is still exact as a number (within +-2^53 - 1 kobo). */
const MAX_SAFE_KOBO = BigInt(Number.MAX_SAFE_INTEGER);
export const isSafeKobo = (k: KoboSum): boolean => k <= MAX_SAFE_KOBO && k >= -MAX_SAFE_KOBO;

/**
 * Kobo as naira text with exactly 2 decimals, no separators, no float on the way: 800000 -> "8000.00",
 * -5 -> "-0.05", a sum past 2^53 kobo -> "90071992547409.93" (exact at any size). The one naira text of
 * the system: JSON bodies (ADR 0046), loan packs, webhooks, CSV, Problem details. A number must be a
 * safe integer (a fraction of a kobo, or a number past 2^53 that is no longer exact, is a RangeError).
 */
export const nairaText = (k: Kobo | number | KoboSum): string => {
  if (typeof k === 'number' && !Number.isSafeInteger(k)) throw new RangeError(`kobo must be a safe integer, got ${k}`);
  const v = typeof k === 'bigint' ? k : BigInt(k);
  const abs = v < 0n ? -v : v;
  return `${v < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

/**
 * An amount of money a document or a message holds (a loan pack, a webhook): integer kobo inside (a
 * number, or a bigint for a sum past 2^53 kobo: docs/adr/0038), written as naira with exactly 2
 * decimals (`1500.50`, like every body of the API: ADR 0046), exactly at any size.
 */
export class Naira {
  readonly kobo: Kobo | KoboSum;
  /** A sum that is exact as a number is held as one, so `kobo` is a number below 2^53 whatever was given. */
  constructor(k: Kobo | KoboSum) {
    this.kobo = typeof k === 'bigint' && isSafeKobo(k) ? (Number(k) as Kobo) : k;
  }
  /** The naira a document's JSON holds (a number with at most 2 decimals), as integer kobo, exactly. */
  static of(naira: unknown): Naira {
    if (naira instanceof Naira) return naira;
    const k = typeof naira === 'number' ? nairaToKobo(naira) : undefined;
    if (!k?.ok) throw new Error(`a document holds ${String(naira)} where an amount of naira belongs`);
    return new Naira(k.value);
  }
  /** Naira text with exactly 2 decimals (the bytes a document holds). */
  get text(): string {
    return nairaText(this.kobo);
  }
  /** Reads naira text with at most 2 decimals (`-1500.50`, any size) as integer kobo, exactly. */
  static parse(text: string): Naira {
    const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
    if (!m) throw new Error(`a document holds ${text} where an amount of naira belongs`);
    const abs = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'));
    return new Naira(m[1] ? -abs : abs);
  }
}

/**
 * Money in JSON is written as a number with exactly 2 decimals (8000.00, ADR 0046), which
 * JSON.stringify cannot do: a money value is a marked string (`markedNaira`) until `writeMoneyJson`
 * turns each into its raw number text. The mark starts with NUL, which no stored or accepted text can
 * hold, and survives JSON.stringify/parse, so a stored body replays with the same bytes. The HTTP
 * bodies (adapters/http/json-values.ts) and the webhooks both write through this one mechanism.
 */
const MARK = '\u0000N:';
/** The mark as JSON.stringify escapes it, inside a JSON string that is only a money value. */
const MARKED = /"\\u0000N:(-?\d+\.\d\d)"/g;

/** Kobo (or a sum) as a marked money value, written by `writeMoneyJson` as naira with 2 decimals. */
export const markedNaira = (k: Kobo | number | KoboSum): string => MARK + nairaText(k);

/** JSON.stringify, with every marked money value written as its number (8000.00). Costs one `includes` when there is none. */
export const writeMoneyJson = (v: unknown): string => {
  const text = JSON.stringify(v);
  return text !== undefined && text.includes('\\u0000N:') ? text.replace(MARKED, '$1') : text;
};

/** ₦1,500.50: naira with thousands separators and 2 decimals, from integer kobo (no float on the way; a bigint sum exact at any size). */
export const formatNaira = (k: Kobo | number | KoboSum): string => {
  if (typeof k === 'bigint') {
    const [whole, fraction] = nairaText(k < 0n ? -k : k).split('.') as [string, string];
    return `${k < 0n ? '-' : ''}₦${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
  }
  if (!Number.isSafeInteger(k)) throw new RangeError(`kobo must be a safe integer, got ${k}`);
  const abs = Math.abs(k);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${k < 0 ? '-' : ''}₦${whole}.${String(abs % 100).padStart(2, '0')}`;
};
