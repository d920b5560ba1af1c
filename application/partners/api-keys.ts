import * as E from 'fp-ts/lib/Either.js';
import {
  API_KEY_PREFIX,
  API_KEY_VISIBLE,
  NO_BRANDING,
  PARTNER_CODE_ALPHABET,
  PARTNER_CODE_LENGTH,
  PARTNER_SCOPES,
  ROTATION_GRACE_MS,
  apiKeyStatus,
  type ApiKeyLifetime,
  type Partner,
  type PartnerActor,
  type PartnerApiKey,
  type PartnerScope,
} from '../../domain/partner.js';
import { notFound, type NotFound } from '../business/errors.js';
import type { Clock } from '../ports/clock.js';
import type { PageRequest } from '../ports/list.js';
import type { Crypto } from '../ports/crypto.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';
import type { EventRepositories } from '../ports/outbox.js';
import type { ApiKeyCreated } from '../../domain/events.js';
import type { PartnerRepositories } from './ports.js';

// Partners and their API keys (docs/adr/0033): created by the operator, managed by the partner.

type Deps = { uow: UnitOfWork<PartnerRepositories & EventRepositories>; clock: Clock; crypto: Crypto };

/** What the audit log of the partner's merchants says of a key made (docs/adr/0070). */
const apiKeyCreated = (k: PartnerApiKey, rotatedFrom: string | null): ApiKeyCreated => ({
  _tag: 'ApiKeyCreated',
  businessId: null,
  partnerId: k.partnerId,
  keyId: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  keyExpiresAt: k.expiresAt?.toISOString() ?? null,
  rotatedFrom,
});

/** A key may only hand out scopes it holds itself: a key cannot mint a stronger one. */
export type ScopeNotHeld = { readonly _tag: 'ScopeNotHeld'; readonly scopes: readonly PartnerScope[] };
/** A key may only manage (revoke) keys whose scopes it holds itself: a narrow `keys:manage` key cannot revoke the full one. */
export type KeyScopesNotHeld = { readonly _tag: 'KeyScopesNotHeld'; readonly scopes: readonly PartnerScope[] };

/** A key just made: the stored row and, this once, the key itself. */
export interface IssuedApiKey {
  readonly key: string;
  readonly apiKey: PartnerApiKey;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Codes are random: a clash is rare and just draws again. */
const CODE_ATTEMPTS = 5;

const newKey = (deps: Pick<Deps, 'crypto'>, partnerId: string, name: string, scopes: readonly PartnerScope[], createdAt: Date, expiresAt: Date | null): IssuedApiKey => {
  const key = `${API_KEY_PREFIX}${deps.crypto.refreshToken()}`; // 32 random bytes, base64url
  return {
    key,
    apiKey: { id: deps.crypto.uuid(), partnerId, name, prefix: key.slice(0, API_KEY_VISIBLE), hash: deps.crypto.hashToken(key), scopes: [...scopes], createdAt, expiresAt, revokedAt: null, lastUsedAt: null },
  };
};

/** Operator: a new partner with a fresh code, and its first key (every scope, no expiry), shown once. */
export const createPartner =
  (deps: Deps) =>
  async (name: string): Promise<{ partner: Partner } & IssuedApiKey> =>
    deps.uow.run(async (r) => {
      const now = deps.clock.now();
      for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
        const partner: Partner = {
          id: deps.crypto.uuid(),
          name,
          code: deps.crypto.randomString(PARTNER_CODE_LENGTH, PARTNER_CODE_ALPHABET),
          status: 'ACTIVE',
          branding: NO_BRANDING,
          createdAt: now,
          updatedAt: now,
        };
        if ((await r.partners.add(partner)) === 'duplicate_code') continue;
        const issued = newKey(deps, partner.id, 'First key', PARTNER_SCOPES, now, null);
        await r.partnerApiKeys.add(issued.apiKey);
        return { partner, ...issued };
      }
      throw new Error(`no free partner code after ${CODE_ATTEMPTS} attempts`);
    });

export type PartnerKeyRefusal = 'API_KEY_INVALID' | 'API_KEY_EXPIRED';

/** How often a key's last_used_at is written: one write a minute at most, not one a request. */
const TOUCH_EVERY_MS = 60_000;

/** The partner an X-API-Key stands for; revoked, unknown, or of a suspended partner: invalid. */
export const authenticatePartnerKey =
  (deps: Deps) =>
  async (key: string): Promise<E.Either<PartnerKeyRefusal, PartnerActor>> => {
    if (!key.startsWith(API_KEY_PREFIX)) return E.left('API_KEY_INVALID');
    const now = deps.clock.now();
    const found = await deps.uow.read(async (r) => {
      const k = await r.partnerApiKeys.findByHash(deps.crypto.hashToken(key));
      return k ? { k, partner: await r.partners.findById(k.partnerId) } : undefined;
    });
    if (!found || found.partner?.status !== 'ACTIVE') return E.left('API_KEY_INVALID');
    const status = apiKeyStatus(found.k, now);
    if (status !== 'ACTIVE') return E.left(status === 'EXPIRED' ? 'API_KEY_EXPIRED' : 'API_KEY_INVALID');
    if (!found.k.lastUsedAt || now.getTime() - found.k.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
      await deps.uow.run((r) => r.partnerApiKeys.touch(found.k.partnerId, found.k.id, now));
    }
    return E.right({ partnerId: found.k.partnerId, keyId: found.k.id, scopes: found.k.scopes });
  };

const notHeld = (actor: PartnerActor, scopes: readonly PartnerScope[]) => scopes.filter((s) => !actor.scopes.includes(s));

export const createApiKey =
  (deps: Deps) =>
  async (actor: PartnerActor, input: { name: string; scopes: readonly PartnerScope[]; expiresInDays: ApiKeyLifetime }): Promise<E.Either<ScopeNotHeld, IssuedApiKey>> => {
    const missing = notHeld(actor, input.scopes);
    if (missing.length > 0) return E.left({ _tag: 'ScopeNotHeld', scopes: missing });
    const now = deps.clock.now();
    const issued = newKey(deps, actor.partnerId, input.name, [...new Set(input.scopes)], now, input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS));
    await deps.uow.run(async (r) => {
      await r.partnerApiKeys.add(issued.apiKey);
      await r.events.record(now, apiKeyCreated(issued.apiKey, null));
    });
    return E.right(issued);
  };

export const listApiKeys = (deps: Pick<Deps, 'uow'>) => async (actor: PartnerActor, page: PageRequest<'created_at'>) => deps.uow.read((r) => r.partnerApiKeys.page(actor.partnerId, page));

/**
 * Revokes a key at once (the next request with it is 401); revoking a revoked key changes nothing.
 * Only a key holding every scope of the revoked one may revoke it.
 */
export const revokeApiKey =
  (deps: Deps) =>
  async (actor: PartnerActor, keyId: string): Promise<E.Either<NotFound | KeyScopesNotHeld, PartnerApiKey>> =>
    deps.uow.run(async (r) => {
      const k = await r.partnerApiKeys.findById(actor.partnerId, keyId);
      if (!k) return E.left(notFound);
      const missing = notHeld(actor, k.scopes);
      if (missing.length > 0) return E.left({ _tag: 'KeyScopesNotHeld', scopes: missing });
      if (k.revokedAt === null) {
        k.revokedAt = deps.clock.now();
        await r.partnerApiKeys.save(k);
      }
      return E.right(k);
    });

/**
 * A new key with the old one's name, scopes and lifetime; the old one keeps working for the grace
 * period (its expiry brought forward). A revoked or expired key cannot be rotated (404 like unknown: it is gone).
 */
export const rotateApiKey =
  (deps: Deps) =>
  async (actor: PartnerActor, keyId: string): Promise<E.Either<NotFound | ScopeNotHeld, IssuedApiKey & { previous: PartnerApiKey }>> =>
    deps.uow.run(async (r) => {
      const now = deps.clock.now();
      const old = await r.partnerApiKeys.findById(actor.partnerId, keyId);
      if (!old || apiKeyStatus(old, now) !== 'ACTIVE') return E.left(notFound);
      const missing = notHeld(actor, old.scopes);
      if (missing.length > 0) return E.left({ _tag: 'ScopeNotHeld', scopes: missing });
      const lifetime = old.expiresAt === null ? null : old.expiresAt.getTime() - old.createdAt.getTime();
      const issued = newKey(deps, actor.partnerId, old.name, old.scopes, now, lifetime === null ? null : new Date(now.getTime() + lifetime));
      const graceEnd = new Date(now.getTime() + ROTATION_GRACE_MS);
      if (old.expiresAt === null || old.expiresAt > graceEnd) old.expiresAt = graceEnd;
      await r.partnerApiKeys.save(old);
      await r.partnerApiKeys.add(issued.apiKey);
      await r.events.record(now, apiKeyCreated(issued.apiKey, old.id));
      return E.right({ ...issued, previous: old });
    });
