import type { Kobo, KoboSum } from '../../domain/money.js';
import type { Partner, PartnerApiKey } from '../../domain/partner.js';
import type { Plan } from '../../domain/plan.js';
import type { DayRange } from '../../domain/report.js';
import type { Page, PageRequest } from '../ports/list.js';

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
  /** A keyset page of the partner's keys (revoked and expired ones stay, so they add up); search: the name; dates: created_at. */
  page(partnerId: string, page: PageRequest<'created_at'>): Promise<Page<PartnerApiKey>>;
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
  /** The businesses in the partner's network now (the audit log tells each of them of the partner's new keys). */
  merchantIds(partnerId: string): Promise<string[]>;
  /** The consent log of a business, oldest first. */
  consentLog(businessId: string): Promise<{ partnerId: string; kind: 'JOINED' | 'LEFT'; at: Date; byUserId: string }[]>;
}

export const PARTNER_MERCHANT_SORTS = ['joined_at', 'name', 'gmv_30d'] as const;
export type PartnerMerchantSort = (typeof PARTNER_MERCHANT_SORTS)[number];
export const MERCHANT_ACTIVITY = ['ACTIVE', 'DORMANT'] as const;
export type MerchantActivity = (typeof MERCHANT_ACTIVITY)[number];

/** A merchant of the network with its last 30 days (the 30 x 24 h before `now`); completed sales only. */
export interface MerchantSummary {
  readonly businessId: string;
  readonly name: string;
  readonly ownerName: string | null;
  readonly ownerPhone: string | null;
  readonly plan: Plan;
  readonly joinedAt: Date;
  readonly lastSaleAt: Date | null;
  readonly salesCount30d: number;
  readonly gmv30d: KoboSum;
}

export interface MerchantDetail extends MerchantSummary {
  /** Each Lagos month of `months`, oldest first, empty ones too. */
  readonly months: readonly { readonly month: string; readonly gmv: KoboSum; readonly salesCount: number }[];
  /** What the merchant's customers owe it now (at most 2^53 - 1 kobo: the business credit cap, docs/adr/0017). */
  readonly creditOutstanding: Kobo;
  /** Active members with the STAFF role. */
  readonly staffCount: number;
}

/** A list's filters beyond search and joined dates (the page request's from/to). ACTIVE: a sale in the last 30 days. */
export interface MerchantFilter {
  readonly plan?: Plan;
  readonly activity?: MerchantActivity;
}

/** Sums of one period over the network's current merchants. */
export interface NetworkPeriodSums {
  /** Merchants that had joined by the end of the period (and are still in the network). */
  readonly merchants: number;
  /** Of those, with a completed sale in the period. */
  readonly activeMerchants: number;
  readonly gmv: KoboSum;
  readonly transactions: number;
}

export interface MerchantAtRisk {
  readonly businessId: string;
  readonly name: string;
  readonly ownerPhone: string | null;
  readonly lastSaleAt: Date;
}

export interface NetworkAnalytics {
  readonly current: NetworkPeriodSums;
  readonly previous: NetworkPeriodSums;
  /** GMV and transactions per Lagos day of the current period, oldest first, empty days too. */
  readonly daily: readonly { readonly day: string; readonly gmv: KoboSum; readonly transactions: number }[];
  /** Merchants whose last completed sale is at or before `riskSince`, most recently lapsed first (at most `riskLimit`). */
  readonly atRisk: readonly MerchantAtRisk[];
  readonly atRiskCount: number;
}

/**
 * What a partner sees of its network, computed by the database. Every method takes the partner id and
 * reads only the businesses in that partner's network now: another business does not exist for it.
 */
export interface PartnerInsights {
  merchants(partnerId: string, page: PageRequest<PartnerMerchantSort>, filter: MerchantFilter, now: Date): Promise<Page<MerchantSummary>>;
  merchant(partnerId: string, businessId: string, now: Date, months: { from: string; to: string }): Promise<MerchantDetail | undefined>;
  analytics(partnerId: string, current: DayRange, previous: DayRange, riskSince: Date, riskLimit: number): Promise<NetworkAnalytics>;
}

export interface PartnerRepositories {
  readonly partners: PartnerRepository;
  readonly partnerApiKeys: PartnerApiKeyRepository;
  readonly partnerNetwork: PartnerNetworkRepository;
  readonly partnerInsights: PartnerInsights;
}
