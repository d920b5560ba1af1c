import * as t from 'io-ts';
import type { BusinessPartner } from '../../../application/partners/network.js';
import { API_KEY_LIFETIMES, API_KEY_STATUSES, PARTNER_SCOPES, apiKeyStatus, type ApiKeyLifetime, type PartnerApiKey, type PartnerBranding, type PartnerScope } from '../../../domain/partner.js';
import { dateTime, doc, Documented, nullableStr, shape, str, uuid } from '../codecs.js';
import { dateTimeJsonOrNull, dateTimeJson } from '../json-values.js';

// The JSON views of the partner API (docs/adr/0033) and the request pieces they share.

/** A set of scopes: 1 to 5 distinct names of PARTNER_SCOPES. */
export const scopesInput = new Documented<PartnerScope[]>(
  'scopes',
  { type: 'array', items: { type: 'string', enum: [...PARTNER_SCOPES] }, minItems: 1, maxItems: PARTNER_SCOPES.length, uniqueItems: true },
  (u, c) =>
    Array.isArray(u) && u.length >= 1 && u.length <= PARTNER_SCOPES.length && u.every((s) => (PARTNER_SCOPES as readonly unknown[]).includes(s)) && new Set(u).size === u.length
      ? t.success(u as PartnerScope[])
      : t.failure(u, c, `must be a list of distinct scopes among ${PARTNER_SCOPES.join(', ')}`),
);

export const lifetimeInput = new Documented<ApiKeyLifetime>(
  'expires_in_days',
  { type: ['integer', 'null'], enum: [...API_KEY_LIFETIMES, null], minimum: 30, maximum: 365, description: 'days the key lives (30, 90 or 365); null or left out: until revoked' },
  (u, c) => (u === null || (API_KEY_LIFETIMES as readonly unknown[]).includes(u) ? t.success(u as ApiKeyLifetime) : t.failure(u, c, 'must be 30, 90, 365 or null')),
);

const nullableDateTime = doc('date-time or null', { type: ['string', 'null'], format: 'date-time' });

export const apiKeyJson = (k: PartnerApiKey, now: Date) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: [...k.scopes],
  status: apiKeyStatus(k, now),
  created_at: dateTimeJson(k.createdAt),
  expires_at: dateTimeJsonOrNull(k.expiresAt),
  last_used_at: dateTimeJsonOrNull(k.lastUsedAt),
  revoked_at: dateTimeJsonOrNull(k.revokedAt),
});

const apiKeyProps = {
  id: uuid,
  name: str,
  prefix: doc('key prefix', { type: 'string', description: 'the first characters of the key, to tell keys apart', examples: ['pk_live_Ab3x'] }),
  scopes: doc('scope list', { type: 'array', items: { type: 'string', enum: [...PARTNER_SCOPES] } }),
  status: doc('api key status', { type: 'string', enum: [...API_KEY_STATUSES] }),
  created_at: dateTime,
  expires_at: nullableDateTime,
  last_used_at: nullableDateTime,
  revoked_at: nullableDateTime,
};
export const apiKeyShape = shape('PartnerApiKey', apiKeyProps, { last_used_at: 'to the minute', expires_at: 'after a rotation, the end of the 24-hour grace period' });
export const newApiKeyShape = shape(
  'NewPartnerApiKey',
  { ...apiKeyProps, key: doc('api key', { type: 'string', pattern: '^pk_live_[A-Za-z0-9_-]{43}$' }) },
  { key: 'the key itself, shown this once: only its SHA-256 hash is kept' },
);

export const brandingJson = (b: PartnerBranding) => ({
  display_name: b.displayName,
  logo_url: b.logoUrl,
  primary_color: b.primaryColor,
  support_phone: b.supportPhone,
  support_email: b.supportEmail,
});
export const brandingShape = shape(
  'PartnerBranding',
  { display_name: nullableStr, logo_url: nullableStr, primary_color: nullableStr, support_phone: nullableStr, support_email: nullableStr },
  { display_name: "the partner's branding, shown to its merchants; each field null until the partner sets it", logo_url: 'https', primary_color: '#RRGGBB', support_phone: 'E.164' },
);

/** The partner of a business as the merchant sees it (GET /businesses/me, POST /businesses/me/partner). */
export const businessPartnerJson = (bp: BusinessPartner) => ({
  id: bp.partner.id,
  name: bp.partner.name,
  joined_at: dateTimeJson(bp.joinedAt),
  branding: brandingJson(bp.partner.branding),
});
export const businessPartnerShape = shape(
  'BusinessPartner',
  { id: uuid, name: str, joined_at: dateTime, branding: brandingShape },
  { joined_at: "when the owner joined the partner's network (consent given)" },
);
