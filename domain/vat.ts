import { kobo, type Kobo } from './money.js';

// VAT (issue 34, docs/adr/0054): one rule for every sale line, in integer kobo, half up, on what the line
// was sold for (its line total less its share of the sale's discount: domain/sale-allocation.ts).

/** A VAT rate in basis points: 750 is 7.5 %. On the wire it is a percentage with at most 2 decimals. */
export type VatRate = number;

/** The Nigerian standard rate (Finance Act 2019): 7.5 %. */
export const DEFAULT_VAT_RATE: VatRate = 750;
/** 100 %: a rate above it is not a rate. */
export const MAX_VAT_RATE: VatRate = 10_000;

/**
 * A Nigerian Tax Identification Number as FIRS and the Joint Tax Board issue it: the FIRS TIN, 8 digits, a
 * hyphen and 4 digits (`12345678-0001`), or the JTB TIN, 10 digits (`1234567890`). Only the shape is
 * checked; whether it is registered is for FIRS (TaxPro-Max) to say.
 */
export const TIN_PATTERN = /^(?:\d{8}-\d{4}|\d{10})$/;

/** A VAT-registered business prints its TIN on every receipt: registering without one is refused. */
export type TinRequired = { readonly _tag: 'TinRequired' };

/** The settings after a change keep the rule: registered means a TIN is held. */
export const checkVatSettings = (s: Pick<VatSettings, 'vatRegistered' | 'tin'>): TinRequired | undefined =>
  s.vatRegistered && !s.tin ? { _tag: 'TinRequired' } : undefined;

/** A business's VAT settings (PUT /businesses/me). Not registered: no VAT at all, whatever the rest says. */
export interface VatSettings {
  readonly vatRegistered: boolean;
  readonly tin: string | null;
  readonly vatRate: VatRate;
  /** Shelf prices already hold the VAT (inclusive), or VAT is added on top of them (exclusive). */
  readonly pricesIncludeVat: boolean;
}

export const DEFAULT_VAT_SETTINGS: VatSettings = { vatRegistered: false, tin: null, vatRate: DEFAULT_VAT_RATE, pricesIncludeVat: true };

/** How a sale is charged VAT; null when the business is not registered (no VAT, every figure as before). */
export interface VatMode {
  readonly rate: VatRate;
  readonly pricesIncludeVat: boolean;
}

export const vatModeOf = (s: VatSettings): VatMode | null => (s.vatRegistered ? { rate: s.vatRate, pricesIncludeVat: s.pricesIncludeVat } : null);

/** The rate of one line: 0 for an exempt product (basic food, medical, educational items), else the business's. */
export const lineVatRate = (mode: VatMode, vatExempt: boolean): VatRate => (vatExempt ? 0 : mode.rate);

/** n / d rounded half up, for n >= 0 and d > 0, exactly (bigint). */
const halfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

/**
 * The VAT of one line sold for `amount` kobo at `rate` basis points, half up to the kobo:
 * inclusive prices hold it, vat = amount x r / (10000 + r); exclusive prices have it added, vat = amount x r / 10000.
 */
export const vatOn = (amount: Kobo, rate: VatRate, pricesIncludeVat: boolean): Kobo => {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`a line amount must be kobo >= 0, got ${amount}`);
  if (!Number.isInteger(rate) || rate < 0 || rate > MAX_VAT_RATE) throw new RangeError(`a VAT rate must be 0 to ${MAX_VAT_RATE} basis points, got ${rate}`);
  const a = BigInt(amount);
  const r = BigInt(rate);
  return kobo(Number(pricesIncludeVat ? halfUp(a * r, 10_000n + r) : halfUp(a * r, 10_000n)));
};

/** What a line charges: its amount as sold, plus its VAT when prices exclude it (inclusive: the VAT is inside). */
export const lineCharge = (amountAsSold: Kobo, vat: Kobo, pricesIncludeVat: boolean): Kobo => (pricesIncludeVat ? amountAsSold : kobo(amountAsSold + vat));

/** What a line earned net of VAT: its amount as sold less its VAT when prices include it. */
export const lineNet = (amountAsSold: Kobo, vat: Kobo, pricesIncludeVat: boolean): Kobo => (pricesIncludeVat ? kobo(amountAsSold - vat) : amountAsSold);

/**
 * Each line's VAT and the sale's: per line (`vatOn` on what the line was sold for, at its own rate), and the
 * sale's VAT is the sum of its lines', so the two always agree to the kobo. The sale's total is the lines'
 * amounts as sold (inclusive) or those plus the VAT (exclusive); its net (`subtotal` on the wire) is total - VAT.
 */
export const vatOfLines = (amountsAsSold: readonly Kobo[], rates: readonly VatRate[], pricesIncludeVat: boolean): { lines: Kobo[]; total: Kobo } => {
  const lines = amountsAsSold.map((a, i) => vatOn(a, rates[i]!, pricesIncludeVat));
  return { lines, total: kobo(lines.reduce((n, v) => n + v, 0)) };
};

/** A percentage with at most 2 decimals (7.5) as basis points (750), exactly; undefined when it is not one or is outside 0..100. */
export const percentToBasisPoints = (pct: number): VatRate | undefined => {
  if (typeof pct !== 'number' || !Number.isFinite(pct) || pct < 0 || pct > 100) return undefined;
  const text = pct.toString();
  if (/e/i.test(text)) return undefined; // below 1e-6: more than 2 decimals
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 2) return undefined;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};

/** Basis points as the percentage the wire shows (750 -> 7.5): exact, the double nearest bp / 100, as its 2-decimal text reads. */
export const basisPointsToPercent = (bp: VatRate): number => bp / 100;

/** A VAT return's month, `YYYY-MM` (a Lagos month, 0001-01 to 9999-12). */
export const isVatMonth = (s: string): boolean => /^\d{4}-(0[1-9]|1[0-2])$/.test(s) && s >= '0001-01';

/** When a month's VAT return is due with FIRS: the 21st of the month after (`2026-11` is due `2026-12-21`). */
export const vatFilingDueDate = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const [ny, nm] = m === 12 ? [y + 1, 1] : [y, m + 1];
  return `${String(ny).padStart(4, '0')}-${String(nm).padStart(2, '0')}-21`;
};

/** The first and last Lagos day of a month. */
export const monthDays = (month: string): { from: string; to: string } => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
};
