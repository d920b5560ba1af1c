/**
 * How amounts and dates read in the texts people receive (SMS, WhatsApp, e-mail): `₦1,500.50`,
 * `22 Nov 2026` and `22 Nov 2026, 15:04`, in Lagos time. Pure: no Intl data, so the same on every host.
 */
import { lagosDate, lagosDateTime } from './lagos-time.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Integer kobo as naira for a message: 150050 → `₦1,500.50`, -5 → `-₦0.05`. */
export const formatNaira = (kobo: number): string => {
  if (!Number.isSafeInteger(kobo)) throw new RangeError(`kobo must be a safe integer, got ${kobo}`);
  const abs = Math.abs(kobo);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${kobo < 0 ? '-' : ''}₦${whole}.${String(abs % 100).padStart(2, '0')}`;
};

/** The Lagos calendar day of an instant, as a text says it: `22 Nov 2026`. */
export const lagosTextDate = (at: Date): string => {
  const [y, m, d] = lagosDate(at).split('-') as [string, string, string];
  return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
};

/** The Lagos day and wall-clock time of an instant, as a text says it: `22 Nov 2026, 15:04`. */
export const lagosTextDateTime = (at: Date): string => `${lagosTextDate(at)}, ${lagosDateTime(at).slice(11)}`;
