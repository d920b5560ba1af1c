import type { ScopeNotHeld } from '../../application/partners/api-keys.js';
import type { AlreadyInPartnerNetwork, UnknownPartnerCode } from '../../application/partners/network.js';
import { problem, type Problem } from './problem.js';

/** The failures of the partner API (docs/adr/0033); part of failures.ts's one mapping. */
export type PartnerFailure = ScopeNotHeld | UnknownPartnerCode | AlreadyInPartnerNetwork;

export const PARTNER_FAILURES: { readonly [K in PartnerFailure['_tag']]: (f: Extract<PartnerFailure, { _tag: K }>) => Problem } = {
  ScopeNotHeld: (f) =>
    problem('INSUFFICIENT_SCOPE', `A key can only hand out scopes it holds itself; this one lacks ${f.scopes.join(', ')}.`, {
      errors: [{ field: 'scopes', message: `${f.scopes.join(', ')} not held by the calling key` }],
    }),
  UnknownPartnerCode: () =>
    problem('UNKNOWN_PARTNER_CODE', 'partner_code names no partner; check it with the partner who gave it to you.', {
      errors: [{ field: 'partner_code', message: 'is not the code of a partner' }],
    }),
  AlreadyInPartnerNetwork: () =>
    problem('ALREADY_IN_PARTNER_NETWORK', "This business is in another partner's network; leave it first (DELETE /businesses/me/partner)."),
};
