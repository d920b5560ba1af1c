/**
 * How amounts and dates read in the texts people receive (SMS, WhatsApp, e-mail): `₦1,500.50`,
 * `22 Nov 2026` and `22 Nov 2026, 15:04`, in Lagos time. Pure: no Intl data, so the same on every host.
 */
import { lagosDate, lagosDateTime } from './lagos-time.js';

export { formatNaira } from './money.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A calendar day (`YYYY-MM-DD`) as a text says it: `22 Nov 2026`. */
export const textDay = (isoDate: string): string => {
  const [y, m, d] = isoDate.split('-') as [string, string, string];
  return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
};

/** The Lagos calendar day of an instant, as a text says it: `22 Nov 2026`. */
export const lagosTextDate = (at: Date): string => textDay(lagosDate(at));

/** The Lagos day and wall-clock time of an instant, as a text says it: `22 Nov 2026, 15:04`. */
export const lagosTextDateTime = (at: Date): string => `${lagosTextDate(at)}, ${lagosDateTime(at).slice(11)}`;
