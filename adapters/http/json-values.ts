/** How values are written into the JSON the API answers (what requests may hold is codecs.ts). */
import { markedNaira, nairaText, writeMoneyJson, type Kobo, type KoboSum } from '../../domain/money.js';

/**
 * Money is written as a JSON number with exactly 2 decimals (8000.00, 7500.50: the spec's "always 2
 * decimal places", ADR 0046): a money value of a body is a marked string that `writeJson` turns into
 * its raw number text (domain/money.ts `markedNaira`, `writeMoneyJson`: the one mechanism, which the
 * webhooks use too). The mark survives the idempotency store, so a stored answer replays the same bytes.
 */
export type NairaJson = string & { readonly NairaJson: unique symbol };

/** Integer kobo as naira text with exactly 2 decimals, no float on the way (domain/money.ts: the one naira text). */
export { nairaText };

/** A money value of a body, from integer kobo: written as a number with 2 decimals by writeJson. */
export function nairaJson(k: Kobo | number): NairaJson;
export function nairaJson(k: Kobo | number | null): NairaJson | null;
export function nairaJson(k: Kobo | number | null): NairaJson | null {
  return k === null ? null : (markedNaira(k) as NairaJson);
}

/** What the OpenAPI document says of money in a body: a number written with exactly 2 decimals. */
export const NAIRA_WRITTEN = 'naira: a JSON number written with exactly 2 decimals (8000.00, 7500.50)';

/**
 * The OpenAPI schema of a money value in a body (`type` number, or [number, null]), with the
 * sentence above and an example that the document writes as 8000.00 (docs.ts writes it with writeJson).
 */
export const nairaSchema = (schema: { readonly type?: string | string[]; readonly description?: string; readonly [keyword: string]: unknown } = {}) => ({
  type: 'number',
  ...schema,
  description: schema.description ? `${NAIRA_WRITTEN}; ${schema.description}` : NAIRA_WRITTEN,
  examples: [nairaJson(800_000)],
});

/** What the OpenAPI document adds for a sum of money (docs/adr/0038), after NAIRA_WRITTEN. */
export const NAIRA_SUM = 'a sum, so it may pass 90 trillion naira (2^53 kobo): written exactly, parse it as a decimal if you need exactness beyond that';

/**
 * A sum of kobo (reports, analytics, a loan pack's totals: a bigint, docs/adr/0038) as a money value of a
 * body: the same marked money as `nairaJson`, 2 decimals always, and exact at any size (past 2^53 kobo,
 * about 90 trillion naira, its exact digits: `91000000000000.03`; a JSON number may have any number).
 */
export const nairaSumJson = (k: KoboSum): NairaJson => markedNaira(k) as NairaJson;

/** The text of a JSON body: JSON.stringify, with every money value written as its number (8000.00). */
export const writeJson: (body: unknown) => string = writeMoneyJson;

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const MS_A_DAY = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: outside them toISOString writes a signed six-digit year. */
const FOUR_DIGIT_YEARS = [-62_167_219_200_000, 253_402_300_799_999] as const;

/**
 * `d.toISOString()`, four times faster: V8's builtin costs ~0.8 µs a call, and a products page writes
 * 40 of them. The civil date of a day number is Howard Hinnant's `civil_from_days`; years outside
 * 0..9999 and invalid dates go to the builtin (a signed year, a RangeError).
 */
export const dateTimeJson = (d: Date): string => {
  const time = d.getTime();
  if (!(time >= FOUR_DIGIT_YEARS[0] && time <= FOUR_DIGIT_YEARS[1])) return d.toISOString();
  const days = Math.floor(time / MS_A_DAY);
  let ms = time - days * MS_A_DAY;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(ms / 3_600_000);
  ms -= hours * 3_600_000;
  const minutes = Math.floor(ms / 60_000);
  ms -= minutes * 60_000;
  const seconds = Math.floor(ms / 1000);
  ms -= seconds * 1000;
  const y = year < 1000 ? `${year}`.padStart(4, '0') : `${year}`;
  return `${y}-${twoDigits(month)}-${twoDigits(day)}T${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : ms}Z`;
};

/** `d?.toISOString() ?? null`, as dateTimeJson writes it. */
export const dateTimeJsonOrNull = (d: Date | null | undefined): string | null => (d ? dateTimeJson(d) : null);
