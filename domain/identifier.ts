import type { E164Phone } from './phone.js';

/** How a person proves who they are: a phone (code by SMS) or an e-mail (code by e-mail). */
export type Identifier =
  | { readonly kind: 'phone'; readonly value: E164Phone }
  | { readonly kind: 'email'; readonly value: string };

export const phoneIdentifier = (value: E164Phone): Identifier => ({ kind: 'phone', value });
/**
 * The one spelling of an e-mail address: trimmed, lower case, and without the root dot a domain may
 * end in (`ada@example.com.` is `ada@example.com`), so one person cannot hold two accounts.
 */
export const normaliseEmail = (value: string): string => value.trim().toLowerCase().replace(/\.+$/, '');

export const emailIdentifier = (value: string): Identifier => ({ kind: 'email', value: normaliseEmail(value) });

/** One string per identifier, used as the key of OTP codes and rate limits. */
export const identifierKey = (id: Identifier): string => `${id.kind}:${id.value}`;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (s: string): boolean => s.length <= 254 && EMAIL.test(normaliseEmail(s));
