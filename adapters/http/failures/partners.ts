import type { KeyScopesNotHeld, ScopeNotHeld } from '../../../application/partners/api-keys.js';
import type { AlreadyInPartnerNetwork, UnknownPartnerCode } from '../../../application/partners/network.js';
import type { WebhookUrlNotAllowed } from '../../../application/partners/manage-webhooks.js';
import { failure, moduleFailures } from '../failure-codes.js';
import type { PartnerSubject } from '../subject.js';
import { errorCodes } from '../problem.js';

// (No value import from ../failures.js: the core imports PARTNER_NOT_FOUND from here.)

export const PARTNER_NOT_FOUND: Record<PartnerSubject, string> = {
  'api key': 'No such API key.',
  'partner network': "This business is in no partner's network.",
  merchant: 'No such merchant in your network.',
  partner: 'No such partner.',
  webhook: 'No such webhook endpoint.',
  'webhook delivery': 'No such webhook delivery.',
};

const { codes, problem } = errorCodes({
  ALREADY_IN_PARTNER_NETWORK: 409,
  UNKNOWN_PARTNER_CODE: 422,
  WEBHOOK_URL_NOT_ALLOWED: 422,
});

/** The failures of the partner API (docs/adr/0033): api keys, networks, webhooks. */
export type PartnerFailure = ScopeNotHeld | KeyScopesNotHeld | UnknownPartnerCode | AlreadyInPartnerNetwork | WebhookUrlNotAllowed;

export const PARTNER_FAILURES = moduleFailures<PartnerFailure>()(codes, {
  ScopeNotHeld: failure(['INSUFFICIENT_SCOPE'], (f) =>
    problem('INSUFFICIENT_SCOPE', `A key can only hand out scopes it holds itself; this one lacks ${f.scopes.join(', ')}.`, {
      errors: [{ field: 'scopes', message: `${f.scopes.join(', ')} not held by the calling key` }],
    }),
  ),
  KeyScopesNotHeld: failure(['INSUFFICIENT_SCOPE'], (f) => problem('INSUFFICIENT_SCOPE', `A key can only revoke keys whose scopes it holds itself; this one lacks ${f.scopes.join(', ')}.`)),
  UnknownPartnerCode: failure(['UNKNOWN_PARTNER_CODE'], () =>
    problem('UNKNOWN_PARTNER_CODE', 'partner_code names no partner; check it with the partner who gave it to you.', {
      errors: [{ field: 'partner_code', message: 'is not the code of a partner' }],
    }),
  ),
  AlreadyInPartnerNetwork: failure(['ALREADY_IN_PARTNER_NETWORK'], () =>
    problem('ALREADY_IN_PARTNER_NETWORK', "This business is in another partner's network; leave it first (DELETE /businesses/me/partner)."),
  ),
  WebhookUrlNotAllowed: failure(['WEBHOOK_URL_NOT_ALLOWED'], (f) => problem('WEBHOOK_URL_NOT_ALLOWED', `The webhook URL ${f.reason}.`, { errors: [{ field: 'url', message: f.reason }] })),
});
