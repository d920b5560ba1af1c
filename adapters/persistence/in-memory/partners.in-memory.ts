import type { NetworkMembership, PartnerRepositories } from '../../../application/partners/ports.js';
import type { Partner, PartnerApiKey } from '../../../domain/partner.js';
import type { InMemoryModule } from './in-memory-store.js';
import { keysetPageInMemory } from './keyset.in-memory.js';
import { copy, values } from './rows.js';
import { inMemoryPartnerInsights, type InsightTables } from './partner-insights.in-memory.js';

/** The partners module's tables: partners and their API keys, by id. */
export interface PartnerTables {
  partners: Map<string, Partner>;
  partnerApiKeys: Map<string, PartnerApiKey>;
  /** By business id: at most one network each. */
  partnerMerchants: Map<string, NetworkMembership>;
  partnerConsents: { businessId: string; partnerId: string; kind: 'JOINED' | 'LEFT'; at: Date; byUserId: string }[];
}

/** Partners in memory: the same rules as the tables' unique indexes (code ignoring case, key hash). */
export const inMemoryPartnersModule: InMemoryModule<PartnerTables, PartnerRepositories, Omit<InsightTables, 'partnerMerchants'>> = {
  tables: () => ({ partners: new Map(), partnerApiKeys: new Map(), partnerMerchants: new Map(), partnerConsents: [] }),
  repositories: (t) => {
    const ownKey = (partnerId: string, keyId: string) => {
      const k = t.partnerApiKeys.get(keyId);
      return k && k.partnerId === partnerId ? k : undefined;
    };
    return {
      partners: {
        add: async (p) => {
          if (values(t.partners).some((x) => x.code.toUpperCase() === p.code.toUpperCase())) return 'duplicate_code';
          t.partners.set(p.id, copy(p));
          return 'added';
        },
        findById: async (id) => copy(t.partners.get(id)),
        findByCode: async (code) => values(t.partners).find((p) => p.code.toUpperCase() === code.toUpperCase()),
        save: async (p) => void t.partners.set(p.id, copy(p)),
      },
      partnerApiKeys: {
        add: async (k) => void t.partnerApiKeys.set(k.id, copy(k)),
        findByHash: async (hash) => values(t.partnerApiKeys).find((k) => k.hash === hash),
        findById: async (partnerId, keyId) => copy(ownKey(partnerId, keyId)),
        page: async (partnerId, page) =>
          keysetPageInMemory(values(t.partnerApiKeys).filter((k) => k.partnerId === partnerId), page, {
            sortValue: (k) => k.createdAt.toISOString(),
            id: (k) => k.id,
            searchText: (k) => [k.name],
            date: (k) => k.createdAt,
          }),
        list: async (partnerId) =>
          values(t.partnerApiKeys)
            .filter((k) => k.partnerId === partnerId)
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)),
        save: async (k) => {
          const old = ownKey(k.partnerId, k.id);
          if (old) t.partnerApiKeys.set(k.id, { ...old, expiresAt: k.expiresAt, revokedAt: k.revokedAt });
        },
        touch: async (partnerId, keyId, at) => {
          const k = ownKey(partnerId, keyId);
          if (k && (!k.lastUsedAt || k.lastUsedAt < at)) t.partnerApiKeys.set(k.id, { ...k, lastUsedAt: at });
        },
      },
      partnerNetwork: {
        // transactions run one at a time in memory: the lock has nothing to do
        membershipOf: async (businessId) => copy(t.partnerMerchants.get(businessId)),
        merchantIds: async (partnerId) => [...t.partnerMerchants.values()].filter((m) => m.partnerId === partnerId).map((m) => m.businessId).sort(),
        join: async (m, byUserId) => {
          if (t.partnerMerchants.has(m.businessId)) return 'already_in_network';
          t.partnerMerchants.set(m.businessId, copy(m));
          t.partnerConsents.push({ businessId: m.businessId, partnerId: m.partnerId, kind: 'JOINED', at: m.joinedAt, byUserId });
          return 'joined';
        },
        leave: async (businessId, at, byUserId) => {
          const m = t.partnerMerchants.get(businessId);
          if (!m) return false;
          t.partnerMerchants.delete(businessId);
          t.partnerConsents.push({ businessId, partnerId: m.partnerId, kind: 'LEFT', at, byUserId });
          return true;
        },
        consentLog: async (businessId) => copy(t.partnerConsents.filter((c) => c.businessId === businessId).map(({ businessId: _b, ...c }) => c)),
      },
      partnerInsights: inMemoryPartnerInsights(t),
    };
  },
};
