import type { ScopeNotHeld } from '../../application/partners/api-keys.js';
import { problem, type Problem } from './problem.js';

/** The failures of the partner API (docs/adr/0033); part of failures.ts's one mapping. */
export type PartnerFailure = ScopeNotHeld;

export const PARTNER_FAILURES: { readonly [K in PartnerFailure['_tag']]: (f: Extract<PartnerFailure, { _tag: K }>) => Problem } = {
  ScopeNotHeld: (f) =>
    problem('INSUFFICIENT_SCOPE', `A key can only hand out scopes it holds itself; this one lacks ${f.scopes.join(', ')}.`, {
      errors: [{ field: 'scopes', message: `${f.scopes.join(', ')} not held by the calling key` }],
    }),
};
