// Partners (banks, fintechs, POS providers, distributors) and their API keys (docs/adr/0033).

export const PARTNER_SCOPES = ['merchants:read', 'analytics:read', 'branding:write', 'webhooks:manage', 'keys:manage'] as const;
export type PartnerScope = (typeof PARTNER_SCOPES)[number];

export const PARTNER_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

export const API_KEY_STATUSES = ['ACTIVE', 'REVOKED', 'EXPIRED'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** How long a new key lives: 30, 90 or 365 days, or until revoked (null). */
export const API_KEY_LIFETIMES = [30, 90, 365] as const;
export type ApiKeyLifetime = (typeof API_KEY_LIFETIMES)[number] | null;

/** Every key starts so (a secret scanner can recognise a leaked one); 32 random bytes base64url follow. */
export const API_KEY_PREFIX = 'pk_live_';
/** The characters of a key kept in clear to tell keys apart in a list: the prefix and 4 more. */
export const API_KEY_VISIBLE = API_KEY_PREFIX.length + 4;
/** After a rotation the old key keeps working this long, so the partner can roll the new one out. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;
/** A partner's code: what a merchant types at registration; unambiguous capitals and digits. */
export const PARTNER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PARTNER_CODE_LENGTH = 8;

/** A partner's branding, shown to its merchants (GET /businesses/me, receipts); each field may be unset. */
export interface PartnerBranding {
  readonly displayName: string | null;
  readonly logoUrl: string | null;
  readonly primaryColor: string | null;
  readonly supportPhone: string | null;
  readonly supportEmail: string | null;
}
export const NO_BRANDING: PartnerBranding = { displayName: null, logoUrl: null, primaryColor: null, supportPhone: null, supportEmail: null };

export interface Partner {
  readonly id: string;
  readonly name: string;
  readonly code: string;
  status: PartnerStatus;
  branding: PartnerBranding;
  readonly createdAt: Date;
  updatedAt: Date;
}

/** An API key as stored: only its SHA-256 hash and a visible prefix, never the key itself. */
export interface PartnerApiKey {
  readonly id: string;
  readonly partnerId: string;
  readonly name: string;
  readonly prefix: string;
  readonly hash: string;
  readonly scopes: readonly PartnerScope[];
  readonly createdAt: Date;
  /** A rotated key's expiry is brought forward to the end of its grace period. */
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export const apiKeyStatus = (k: Pick<PartnerApiKey, 'expiresAt' | 'revokedAt'>, now: Date): ApiKeyStatus =>
  k.revokedAt !== null ? 'REVOKED' : k.expiresAt !== null && k.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'ACTIVE';

/** The caller of a partner route: the partner, through one of its keys, with that key's scopes. */
export interface PartnerActor {
  readonly partnerId: string;
  readonly keyId: string;
  readonly scopes: readonly PartnerScope[];
}

export const hasScope = (actor: PartnerActor, scope: PartnerScope): boolean => actor.scopes.includes(scope);
