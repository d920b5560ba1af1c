import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** A phone number in E.164 form, e.g. +2348031234567. */
export type E164Phone = string & { readonly E164Phone: unique symbol };

/**
 * Checks and normalises a phone number. Numbers without a country code are read as Nigerian,
 * so the local form 08031234567 becomes +2348031234567. Returns undefined for anything that is
 * not a valid number (libphonenumber's metadata decides, not a regex).
 */
export const normalisePhone = (input: string): E164Phone | undefined => {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > 32 || !/^[+\d\s().-]+$/.test(trimmed)) return undefined;
  const parsed = parsePhoneNumberFromString(trimmed, 'NG');
  if (!parsed || !parsed.isValid()) return undefined;
  return parsed.number as E164Phone;
};

/** For logs: keeps the country code and the last 3 digits only. */
export const maskPhone = (phone: string): string =>
  phone.length <= 7 ? '***' : `${phone.slice(0, 4)}${'*'.repeat(phone.length - 7)}${phone.slice(-3)}`;
