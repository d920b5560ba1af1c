import type { Identifier } from './identifier.js';

/** The fixed sign-in code of test mode (API clients on a shared staging server sign in without the log). */
export const TEST_MODE_CODE = '000000';

/** The reserved range a test-mode server answers with the fixed code unless told otherwise. */
export const DEFAULT_TEST_IDENTIFIERS = '+2348000000000-+2348000000099,*@example.com';

/**
 * Which identifiers get the fixed code in test mode, from a comma-separated list whose entries are a
 * phone (`+2348000000001`), a phone range of equal length (`+2348000000000-+2348000000099`), an
 * e-mail (`qa@shop.ng`) or every address of a domain (`*@example.com`). Undefined for a malformed list.
 */
export const parseTestIdentifiers = (spec: string): ((id: Identifier) => boolean) | undefined => {
  const rules: ((id: Identifier) => boolean)[] = [];
  for (const entry of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const range = /^(\+\d{8,15})-(\+\d{8,15})$/.exec(entry);
    if (range) {
      const [, from, to] = range as unknown as [string, string, string];
      if (from.length !== to.length || from > to) return undefined;
      rules.push((id) => id.kind === 'phone' && id.value.length === from.length && id.value >= from && id.value <= to);
    } else if (/^\+\d{8,15}$/.test(entry)) rules.push((id) => id.kind === 'phone' && id.value === entry);
    else if (/^\*@[^\s@]+\.[^\s@]+$/.test(entry)) {
      const domain = entry.slice(1).toLowerCase();
      rules.push((id) => id.kind === 'email' && id.value.endsWith(domain));
    } else if (/^[^\s@*]+@[^\s@]+\.[^\s@]+$/.test(entry)) rules.push((id) => id.kind === 'email' && id.value === entry.toLowerCase());
    else return undefined;
  }
  return (id) => rules.some((rule) => rule(id));
};
