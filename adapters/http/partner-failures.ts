import type { KeyScopesNotHeld, ScopeNotHeld } from '../../application/partners/api-keys.js';
import type { AlreadyInPartnerNetwork, UnknownPartnerCode } from '../../application/partners/network.js';
import type { WebhookUrlNotAllowed } from '../../application/partners/manage-webhooks.js';
import { problem, type Problem } from './problem.js';

/** What a partner route acts on (names the resource of a 404); part of failures.ts's Subject. */
export type PartnerSubject = 'api key' | 'partner network' | 'merchant' | 'partner' | 'webhook' | 'webhook delivery';

export const PARTNER_NOT_FOUND: Record<PartnerSubject, string> = {
  'api key': 'No such API key.',
  'partner network': "This business is in no partner's network.",
  merchant: 'No such merchant in your network.',
  partner: 'No such partner.',
  webhook: 'No such webhook endpoint.',
  'webhook delivery': 'No such webhook delivery.',
};

/** The failures of the partner API (docs/adr/0033); part of failures.ts's one mapping. */
export type PartnerFailure = ScopeNotHeld | KeyScopesNotHeld | UnknownPartnerCode | AlreadyInPartnerNetwork | WebhookUrlNotAllowed;

export const PARTNER_FAILURES: { readonly [K in PartnerFailure['_tag']]: (f: Extract<PartnerFailure, { _tag: K }>) => Problem } = {
  ScopeNotHeld: (f) =>
    problem('INSUFFICIENT_SCOPE', `A key can only hand out scopes it holds itself; this one lacks ${f.scopes.join(', ')}.`, {
      errors: [{ field: 'scopes', message: `${f.scopes.join(', ')} not held by the calling key` }],
    }),
  KeyScopesNotHeld: (f) => problem('INSUFFICIENT_SCOPE', `A key can only revoke keys whose scopes it holds itself; this one lacks ${f.scopes.join(', ')}.`),
  UnknownPartnerCode: () =>
    problem('UNKNOWN_PARTNER_CODE', 'partner_code names no partner; check it with the partner who gave it to you.', {
      errors: [{ field: 'partner_code', message: 'is not the code of a partner' }],
    }),
  AlreadyInPartnerNetwork: () =>
    problem('ALREADY_IN_PARTNER_NETWORK', "This business is in another partner's network; leave it first (DELETE /businesses/me/partner)."),
  WebhookUrlNotAllowed: (f) => problem('WEBHOOK_URL_NOT_ALLOWED', `The webhook URL ${f.reason}.`, { errors: [{ field: 'url', message: f.reason }] }),
};
