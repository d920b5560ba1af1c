/** Africa/Lagos is UTC+1 all year (no daylight saving): business days and months are Lagos days and months. */
const LAGOS_OFFSET_MS = 3_600_000;

/** The instant a Lagos calendar day (YYYY-MM-DD) starts. */
export const lagosDayStart = (isoDate: string): Date => new Date(Date.parse(`${isoDate}T00:00:00.000Z`) - LAGOS_OFFSET_MS);

/** The first instant after a Lagos calendar day. */
export const lagosDayEnd = (isoDate: string): Date => new Date(lagosDayStart(isoDate).getTime() + 86_400_000);

/** The Lagos calendar date (YYYY-MM-DD) of an instant. */
export const lagosDate = (at: Date): string => new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);

/** The instant the Lagos calendar month holding `at` starts. */
export const lagosMonthStart = (at: Date): Date => lagosDayStart(`${lagosDate(at).slice(0, 7)}-01`);

/** Lagos wall-clock time of an instant, as a receipt prints it: `2026-11-22 15:04`. */
export const lagosDateTime = (at: Date): string => new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');

/** Lagos local time of an instant in ISO 8601 with its offset, to the second: `2026-11-28T04:32:00+01:00`. */
export const lagosIsoDateTime = (at: Date): string => `${new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 19)}+01:00`;

/** The instant the Lagos calendar month after the one holding `at` starts. */
export const lagosNextMonthStart = (at: Date): Date => {
  const [y, m] = lagosDate(at).slice(0, 7).split('-').map(Number) as [number, number];
  return lagosDayStart(`${String(m === 12 ? y + 1 : y).padStart(4, "0")}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`);
};
