import type { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '../../../application/partners/api-keys.js';
import type { Clock } from '../../../application/ports/clock.js';
import { doc, jsonSchemaOf, object, text } from '../codecs.js';
import { successOf } from '../failures.js';
import { listQuery, pageSchema, type Paging } from '../paging.js';
import { created, ok, route } from '../route.js';
import { apiKeyJson, apiKeyShape, lifetimeInput, newApiKeyShape, scopesInput } from './partner.views.js';
import { failuresOf, type FailureOf } from '../failure-codes.js';

export interface PartnerKeyUseCases {
  readonly createApiKey: ReturnType<typeof createApiKey>;
  readonly listApiKeys: ReturnType<typeof listApiKeys>;
  readonly revokeApiKey: ReturnType<typeof revokeApiKey>;
  readonly rotateApiKey: ReturnType<typeof rotateApiKey>;
  readonly paging: Paging;
  readonly clock: Clock;
}

const TAG = 'Partner';

/** A partner's own API keys (scope keys:manage): make, list, revoke, rotate (docs/adr/0033). */
export const partnerKeyRoutes = (uc: PartnerKeyUseCases) => [
  route({
    method: 'post',
    path: '/partner/api-keys',
    operationId: 'createPartnerApiKey',
    tag: TAG,
    summary: 'Make an API key',
    description:
      'A new key (`pk_live_` and 32 random bytes, base64url) answered this once in `key`: only its SHA-256 hash and prefix are kept. ' +
      'scopes: among those the calling key holds (a key cannot make a stronger one: 403 INSUFFICIENT_SCOPE). expires_in_days: 30, 90, 365, or null / left out for no expiry.',
    access: { partnerScope: 'keys:manage' },
    rateLimit: 'partner',
    idempotent: true,
    bodyExample: { name: 'Reporting dashboard', scopes: ['merchants:read', 'analytics:read'], expires_in_days: 90 },
    body: object('CreatePartnerApiKeyRequest', { name: text(1, 100, 'what the key is for'), scopes: scopesInput }, { expires_in_days: lifetimeInput }),
    success: { status: 201, description: 'The key, shown once', data: newApiKeyShape },
    failures: failuresOf<FailureOf<typeof uc.createApiKey>>({ ScopeNotHeld: true }),
    errors: [],
    handler: async ({ partner, body }) => {
      const issued = successOf(await uc.createApiKey(partner, { name: body.name, scopes: body.scopes, expiresInDays: body.expires_in_days ?? null }), 'api key');
      return created('API key made; store it now: it is not shown again', { ...apiKeyJson(issued.apiKey, uc.clock.now()), key: issued.key });
    },
  }),
  route({
    method: 'get',
    path: '/partner/api-keys',
    operationId: 'listPartnerApiKeys',
    tag: TAG,
    summary: 'API keys',
    description:
      'The keys of the partner with their status (ACTIVE, REVOKED, EXPIRED); never the key itself. Paged (keyset) like every list, newest first: ' +
      'revoked and expired keys stay listed, and every rotation adds one. search: the name; start_date/end_date bound created_at.',
    access: { partnerScope: 'keys:manage' },
    rateLimit: 'partner',
    query: listQuery('PartnerApiKeyListQuery', ['created_at'] as const, {}),
    success: { status: 200, description: 'A page of keys', data: doc('PartnerApiKeyPage', pageSchema(jsonSchemaOf(apiKeyShape))) },
    errors: [],
    handler: async ({ partner, query }) => {
      const now = uc.clock.now();
      const req = uc.paging.request('listPartnerApiKeys', query, 'created_at');
      return ok('API keys', uc.paging.render('listPartnerApiKeys', query, req, await uc.listApiKeys(partner, req), (k) => apiKeyJson(k, now)));
    },
  }),
  route({
    method: 'post',
    path: '/partner/api-keys/:id/revoke',
    operationId: 'revokePartnerApiKey',
    tag: TAG,
    summary: 'Revoke an API key',
    description:
      'The key stops working at once (its next request is 401 API_KEY_INVALID). Revoking a revoked key answers it again. Another partner\'s key is 404. ' +
      'Only a key holding every scope of the revoked one may revoke it (403 INSUFFICIENT_SCOPE): a narrow keys:manage key cannot revoke a stronger key.',
    access: { partnerScope: 'keys:manage' },
    rateLimit: 'partner',
    success: { status: 200, description: 'The revoked key', data: apiKeyShape },
    failures: failuresOf<FailureOf<typeof uc.revokeApiKey>>({ NotFound: true, KeyScopesNotHeld: true }),
    errors: [],
    handler: async ({ partner, params }) => ok('API key revoked', apiKeyJson(successOf(await uc.revokeApiKey(partner, params.id), 'api key'), uc.clock.now())),
  }),
  route({
    method: 'post',
    path: '/partner/api-keys/:id/rotate',
    operationId: 'rotatePartnerApiKey',
    tag: TAG,
    summary: 'Rotate an API key',
    description:
      'A new key with the same name, scopes and lifetime, shown once; the old key keeps working for 24 hours (its expires_at is brought forward), then is EXPIRED. ' +
      'A revoked or expired key cannot be rotated (404); a key with scopes the calling key lacks cannot be rotated by it (403 INSUFFICIENT_SCOPE).',
    access: { partnerScope: 'keys:manage' },
    rateLimit: 'partner',
    idempotent: true,
    success: { status: 201, description: 'The new key, shown once', data: newApiKeyShape },
    failures: failuresOf<FailureOf<typeof uc.rotateApiKey>>({ NotFound: true, ScopeNotHeld: true }),
    errors: [],
    handler: async ({ partner, params }) => {
      const issued = successOf(await uc.rotateApiKey(partner, params.id), 'api key');
      return created('API key rotated; the old key works for 24 more hours', { ...apiKeyJson(issued.apiKey, uc.clock.now()), key: issued.key });
    },
  }),
];
