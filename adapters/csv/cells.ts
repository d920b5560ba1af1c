import type { Kobo } from '../../domain/money.js';

/*
 * What every CSV this API writes or reads shares: the products file (adapters/http) and the report
 * exports (adapters/reports-export) both sit above this folder, neither inside the other (docs/adr/0050).
 */

// ---- formula-injection guard (OWASP "CSV Injection") ----

/** A cell a spreadsheet would run as a formula, once any guard quotes are set aside. */
const FORMULA = /^'*[=+\-@\t\r]/;

/** Export: a text cell that starts like a formula gets a leading single quote, which Excel shows as text. */
export const guardCell = (s: string): string => (FORMULA.test(s) ? `'${s}` : s);

/** Import: exactly the quote `guardCell` added is removed again, so export then import gives back the text. */
export const unguardCell = (s: string): string => (s.startsWith("'") && FORMULA.test(s.slice(1)) ? s.slice(1) : s);

/** Kobo as naira with exactly 2 decimals, as text (no float on the way). */
export const nairaCell = (k: Kobo): string => {
  const abs = Math.abs(k);
  return `${k < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};
