import type { PartnerRepositories } from '../../../application/partners/ports.js';
import type { Partner, PartnerApiKey } from '../../../domain/partner.js';
import type { InMemoryModule } from './in-memory-store.js';
import { copy, values } from './rows.js';

/** The partners module's tables: partners and their API keys, by id. */
export interface PartnerTables {
  partners: Map<string, Partner>;
  partnerApiKeys: Map<string, PartnerApiKey>;
}

/** Partners in memory: the same rules as the tables' unique indexes (code ignoring case, key hash). */
export const inMemoryPartnersModule: InMemoryModule<PartnerTables, PartnerRepositories> = {
  tables: () => ({ partners: new Map(), partnerApiKeys: new Map() }),
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
    };
  },
};
