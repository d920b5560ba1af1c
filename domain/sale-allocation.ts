import { kobo, type Kobo } from './money.js';

/**
 * How a sale's own discount (the one on the whole sale, beside the lines' discounts) falls on its lines
 * (docs/adr/0053). Each line bears the share of its line total, rounded down to the kobo; the kobo the
 * rounding leaves go one each to the lines with the largest remainders (the earlier line first on a
 * tie). The shares add up to the discount exactly and no line bears more than its total, so a line's
 * "amount as sold" (line total - its share) is never negative and the lines add up to the sale.
 * Both VAT (computed on what a line was sold for) and a return's refund (a share of that) stand on it.
 */
export const allocateSaleDiscount = (lineTotals: readonly Kobo[], discount: Kobo): Kobo[] => {
  const sum = lineTotals.reduce((n, t) => n + BigInt(t), 0n);
  if (discount === 0 || sum === 0n) return lineTotals.map(() => kobo(0));
  if (BigInt(discount) > sum) throw new RangeError('a sale discount larger than its lines');
  const d = BigInt(discount);
  const shares = lineTotals.map((t) => (BigInt(t) * d) / sum);
  let left = d - shares.reduce((n, s) => n + s, 0n);
  const byRemainder = lineTotals
    .map((t, i) => ({ i, remainder: (BigInt(t) * d) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left === 0n) break;
    shares[i]! += 1n;
    left -= 1n;
  }
  return shares.map((s) => kobo(Number(s)));
};

/** What each line was sold for: its line total less its share of the sale's discount. */
export const amountsAsSold = (lineTotals: readonly Kobo[], discount: Kobo): Kobo[] => {
  const shares = allocateSaleDiscount(lineTotals, discount);
  return lineTotals.map((t, i) => kobo(t - shares[i]!));
};

/**
 * The part of `amount` that `returned` of `sold` units stand for, counted cumulatively so the parts of
 * several returns add up to `amount` exactly when every unit is back: a return that brings the units
 * returned from `before` to `before + returning` takes floor(amount x after / sold) - floor(amount x before / sold).
 * The last return of a line therefore takes the remainder, and returns never add up to more than the line.
 */
export const shareOfReturn = (amount: Kobo, sold: number, before: number, returning: number): Kobo => {
  if (!Number.isInteger(sold) || sold <= 0 || before < 0 || returning < 0 || before + returning > sold) throw new RangeError('a return outside what was sold');
  const upTo = (units: number) => (BigInt(amount) * BigInt(units)) / BigInt(sold);
  return kobo(Number(upTo(before + returning) - upTo(before)));
};
