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

export interface PartnerRepositories {
  readonly partners: PartnerRepository;
  readonly partnerApiKeys: PartnerApiKeyRepository;
}
