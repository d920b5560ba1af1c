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

/** Naira with exactly 2 decimals, no separators, from integer kobo (no float on the way): 800000 -> "8000.00", -5 -> "-0.05". */
export const nairaDecimal = (k: Kobo | number): string => {
  if (!Number.isSafeInteger(k)) throw new RangeError(`kobo must be a safe integer, got ${k}`);
  const abs = Math.abs(k);
  return `${k < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/**
 * An amount of money a document or a message holds (a loan pack, a webhook): integer kobo inside,
 * written as naira with exactly 2 decimals (`1500.50`, like every body of the API: ADR 0046).
 */
export class Naira {
  constructor(readonly kobo: Kobo) {}
  /** The naira a document's JSON holds (a number with at most 2 decimals), as integer kobo, exactly. */
  static of(naira: unknown): Naira {
    const k = typeof naira === 'number' ? nairaToKobo(naira) : undefined;
    if (!k?.ok) throw new Error(`a document holds ${String(naira)} where an amount of naira belongs`);
    return new Naira(k.value);
  }
}

/**
 * JSON.stringify, with each Naira written as a number with exactly 2 decimals (8000.00): for bodies
 * made outside the HTTP adapter (webhooks). Placeholders start with NUL, which no stored text holds.
 */
export const stringifyWithNaira = (v: unknown): string => {
  const amounts: string[] = [];
  const text = JSON.stringify(v, (_key, x: unknown) => (x instanceof Naira ? `\u0000N${amounts.push(nairaDecimal(x.kobo)) - 1}` : x));
  return amounts.length === 0 ? text : text.replace(/"\\u0000N(\d+)"/g, (_m, i: string) => amounts[Number(i)]!);
};

/** ₦1,500.50: naira with thousands separators and 2 decimals, from integer kobo (no float on the way). */
export const formatNaira = (k: Kobo | number): string => {
  if (!Number.isSafeInteger(k)) throw new RangeError(`kobo must be a safe integer, got ${k}`);
  const abs = Math.abs(k);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${k < 0 ? '-' : ''}₦${whole}.${String(abs % 100).padStart(2, '0')}`;
};
