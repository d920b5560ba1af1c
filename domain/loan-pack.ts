import { lagosDate } from './lagos-time.js';
import { Naira, type Kobo } from './money.js';

export { Naira };
import type { Plan } from './plan.js';

// A loan pack: the proof of trading a lender asks for, computed from the books and frozen when made
// (docs/adr/0031-loan-pack.md). Its document is canonical JSON, and its SHA-256 is what a lender checks.

export const LOAN_PACK_MONTHS = [6, 12] as const;
export type LoanPackMonths = (typeof LOAN_PACK_MONTHS)[number];

/** PENDING_PAYMENT: made on a plan that pays per pack, not paid yet; READY: paid, or made on a plan that includes packs. */
export const LOAN_PACK_STATUSES = ['PENDING_PAYMENT', 'READY'] as const;
export type LoanPackStatus = (typeof LOAN_PACK_STATUSES)[number];

/** Plans whose packs are paid one by one (spec 7: "on Free or Starter plan"). */
const PAYS_PER_PACK: readonly Plan[] = ['FREE', 'STARTER'];
export const paysPerPack = (plan: Plan): boolean => PAYS_PER_PACK.includes(plan);

/** The price of a pack made on `plan`: the configured price on Free and Starter, nothing on Business and Pro. */
export const loanPackPrice = (plan: Plan, configuredPrice: Kobo): Kobo => (paysPerPack(plan) ? configuredPrice : (0 as Kobo));

/** The unguessable part of a reference: 6 of these 32 characters (no 0/O, 1/I), from a cryptographic RNG. */
export const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const REFERENCE_PATTERN = /^LP-\d{8}-[A-HJ-NP-Z2-9]{6}$/;
export const loanPackReference = (createdAt: Date, random6: string): string => `LP-${lagosDate(createdAt).replaceAll('-', '')}-${random6}`;

/** The Lagos days a pack covers: the `months` calendar months ending with today's (today's month to date). */
export const loanPackPeriod = (today: string, months: LoanPackMonths): { from: string; to: string } => {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const first = y * 12 + (m - 1) - (months - 1);
  const month = `${String(Math.floor(first / 12)).padStart(4, '0')}-${String((first % 12) + 1).padStart(2, '0')}`;
  return { from: `${month}-01`, to: today };
};

/** The document's canonical JSON: strict (integers only), the bytes its SHA-256 is of (domain/canonical-json.ts). */
export { strictCanonicalJson as canonicalJson } from './canonical-json.js';

/**
 * Parses canonical JSON with every number exact: an integer past 2^53 (a sum of kobo in a
 * bizops-loan-pack/1 document, docs/adr/0038) is read as a bigint, the others as numbers; a number
 * with decimals (money in bizops-loan-pack/2, the only non-integers canonicalJson writes) as a Naira,
 * its kobo read from the digits (a bigint past 2^53), never through a double. Strings are matched
 * first, so digits inside them are left alone.
 */
export const parseCanonicalJson = (text: string): unknown =>
  JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"|-?\d+\.\d+|-?\d{16,}/g, (token) => (token.startsWith('"') ? token : `"\\u0000${token}"`)), (_key, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith('\u0000')) return v;
    const digits = v.slice(1);
    if (digits.includes('.')) return Naira.parse(digits);
    const n = BigInt(digits);
    return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  });

/** `part` of `whole` in per cent as a string with 2 decimals (half up), "0.00" when `whole` is 0. Integer arithmetic. */
export const shareOf = (part: number, whole: number): string => {
  if (whole === 0) return '0.00';
  const bp = Math.floor((part * 10_000 * 2 + whole) / (2 * whole));
  return `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
};

/** A payment as a gateway reports it. */
export type GatewayPaymentStatus = 'success' | 'failed' | 'abandoned' | 'pending';
