import type { Partner, PartnerApiKey } from '../../domain/partner.js';

// The partners module's ports: partners and their API keys (docs/adr/0033). Every key method is
// scoped by partner id, so one partner can never read or change another's keys.

export interface PartnerRepository {
  /** `duplicate_code`: the (random) code is taken; the caller draws another. */
  add(partner: Partner): Promise<'added' | 'duplicate_code'>;
  findById(partnerId: string): Promise<Partner | undefined>;
  /** The partner with this code, ignoring case. */
  findByCode(code: string): Promise<Partner | undefined>;
  save(partner: Partner): Promise<void>;
}

export interface PartnerApiKeyRepository {
  add(key: PartnerApiKey): Promise<void>;
  /** The key with this SHA-256 hash, whatever its partner or status (authentication). */
  findByHash(hash: string): Promise<PartnerApiKey | undefined>;
  findById(partnerId: string, keyId: string): Promise<PartnerApiKey | undefined>;
  /** Every key of the partner, newest first (a partner has a handful). */
  list(partnerId: string): Promise<PartnerApiKey[]>;
  /** Saves expiry and revocation. */
  save(key: PartnerApiKey): Promise<void>;
  /** Records a use; only moves last_used_at forward. */
  touch(partnerId: string, keyId: string, at: Date): Promise<void>;
}

/** A business in a partner's network, since when. */
export interface NetworkMembership {
  readonly businessId: string;
  readonly partnerId: string;
  readonly joinedAt: Date;
}

/**
 * Which partner's network each business is in (at most one), and the consent log: every join and
 * leave with its time and the user who gave or withdrew consent (kept after leaving).
 */
export interface PartnerNetworkRepository {
  /** `lock`: the business's membership cannot change until the transaction ends (join and leave race). */
  membershipOf(businessId: string, options?: { lock?: boolean }): Promise<NetworkMembership | undefined>;
  /** Adds the membership and logs JOINED; `already_in_network` when the business is in a network. */
  join(m: NetworkMembership, byUserId: string): Promise<'joined' | 'already_in_network'>;
  /** Removes the membership and logs LEFT; false when the business was in no network. */
  leave(businessId: string, at: Date, byUserId: string): Promise<boolean>;
  /** The consent log of a business, oldest first. */
  consentLog(businessId: string): Promise<{ partnerId: string; kind: 'JOINED' | 'LEFT'; at: Date; byUserId: string }[]>;
}

export interface PartnerRepositories {
  readonly partners: PartnerRepository;
  readonly partnerApiKeys: PartnerApiKeyRepository;
  readonly partnerNetwork: PartnerNetworkRepository;
}
