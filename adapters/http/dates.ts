import * as t from 'io-ts';
import { isCalendarDay, onCalendar } from '../../domain/calendar.js';
import { Documented } from './codecs.js';

// Dates and date-times at the JSON edge (docs/adr/0047). Checked field by field, never by handing the
// text to Date: JavaScript's parser moves 2026-02-30 to March 2 and throws on 2026-13-01 later, in
// toISOString (a 500), so a date that is not on the calendar is refused here, as a 400 naming the field.

// RFC 3339: seconds and up to 9 fraction digits (Python writes 6, Java 9), then Z or an offset.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

export { isCalendarDay };

/**
 * The instant an RFC 3339 date-time names, or undefined when it is not one: a real calendar day, hours
 * 00-23, minutes and seconds 00-59 (no leap second: an instant cannot hold it), an offset of at most
 * ±23:59. Fraction digits past the millisecond are cut off, not rounded: .123999 is .123, so a time
 * never moves into the next second, day or month (a sale's plan month is the Lagos month of its time).
 */
export const parseInstant = (s: string, options: { secondsRequired?: boolean } = {}): Date | undefined => {
  const m = INSTANT.exec(s);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, sec, fraction, zone, sign, oh, om] = m;
  if (!onCalendar(Number(y), Number(mo), Number(d))) return undefined;
  if (sec === undefined && options.secondsRequired) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(sec ?? 0) > 59) return undefined;
  if (zone !== 'Z' && (Number(oh) > 23 || Number(om) > 59)) return undefined;
  const millis = (fraction ?? '').padEnd(3, '0').slice(0, 3);
  const utc = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec ?? '00'}.${millis}Z`);
  const offset = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  return new Date(utc - offset);
};

/** The JSON Schema pattern of what parseInstant takes (seconds optional unless `secondsRequired`). */
export const instantPattern = (secondsRequired = false) =>
  `^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}${secondsRequired ? ':\\d{2}(\\.\\d{1,9})?' : '(:\\d{2}(\\.\\d{1,9})?)?'}(Z|[+-]\\d{2}:\\d{2})$`;

/** The longest date-time parseInstant takes: `2026-11-28T10:00:00.123456789+01:00`. */
export const INSTANT_MAX_LENGTH = 35;

/**
 * A Lagos calendar day in a request (YYYY-MM-DD), a real date from `firstYear` (default 0001) to 9999:
 * the one day codec of every route that takes a day (expense spent_on, the summary's and the report
 * exports' ranges, the reports' ranges).
 */
export const lagosDayInput = (description: string, firstYear: 1 | 1900 = 1) => {
  const message = `must be a real calendar date (YYYY-MM-DD, a Lagos day)${firstYear > 1 ? ` in the years ${firstYear} to 9999` : ''}`;
  const pattern = firstYear === 1900 ? '^(19|[2-9][0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}$' : '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
  return new Documented<string>(
    'date',
    { type: 'string', format: 'date', minLength: 10, maxLength: 10, pattern, description, examples: ['2026-11-21'] },
    (u, c) => (typeof u === 'string' && isCalendarDay(u) && Number(u.slice(0, 4)) >= firstYear ? t.success(u) : t.failure(u, c, message)),
  );
};
