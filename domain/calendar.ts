// The proleptic Gregorian calendar, checked by arithmetic (docs/adr/0047): JavaScript's Date rolls
// 2026-02-30 over to 2 March and throws on month 13 in toISOString, so a day is never checked with it.

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => (m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31);

/** True when year, month (1-12) and day name a real day in the years 0001 to 9999. */
export const onCalendar = (y: number, m: number, d: number): boolean => y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);

/** True when `s` is YYYY-MM-DD naming a real day in the years 0001 to 9999 (no 2026-02-30, no month 13). */
export const isCalendarDay = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m !== null && onCalendar(Number(m[1]), Number(m[2]), Number(m[3]));
};
