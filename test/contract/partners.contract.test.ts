import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { NO_BRANDING, PARTNER_SCOPES, type Partner, type PartnerApiKey } from '../../domain/partner.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { seedTenant } from '../support/builders.js';
import type { Page, PageRequest } from '../../application/ports/list.js';

// The partners port on both adapters: codes unique ignoring case, keys found by hash, every key
// method scoped by partner (another partner's key is invisible and unchanged).

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`partners contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const at = new Date('2026-11-21T12:00:00.000Z');
    const aPartner = (code: string): Partner => ({ id: randomUUID(), name: `Partner ${code}`, code, status: 'ACTIVE', branding: NO_BRANDING, createdAt: at, updatedAt: at });
    const aKey = (partnerId: string, o: Partial<PartnerApiKey> = {}): PartnerApiKey => ({
      id: randomUUID(), partnerId, name: 'k', prefix: 'pk_live_abcd', hash: randomUUID(), scopes: ['merchants:read', 'keys:manage'], createdAt: at,
      expiresAt: null, revokedAt: null, lastUsedAt: null, ...o,
    });

    it('partners: add, find by id and by code ignoring case; a taken code is duplicate_code; branding saved', async () => {
      const a = aPartner('ABCD2345');
      expect(await p.uow.run((r) => r.partners.add(a))).to.equal('added');
      expect(await p.uow.run((r) => r.partners.add({ ...aPartner('abcd2345'.toUpperCase()) }))).to.equal('duplicate_code');
      expect(await p.uow.read((r) => r.partners.findByCode('abcd2345'))).to.deep.equal(a);
      expect(await p.uow.read((r) => r.partners.findById(a.id))).to.deep.equal(a);
      expect(await p.uow.read((r) => r.partners.findByCode('ZZZZ9999'))).to.equal(undefined);
      const branded = { ...a, branding: { displayName: 'A Bank', logoUrl: 'https://a.example/logo.png', primaryColor: '#0A7F3D', supportPhone: '+2348031234567', supportEmail: 'help@a.example' }, updatedAt: new Date(at.getTime() + 1000) };
      await p.uow.run((r) => r.partners.save(branded));
      expect(await p.uow.read((r) => r.partners.findById(a.id))).to.deep.equal(branded);
    });

    it('keys and webhook endpoints page by keyset (issue 32): newest first, walked 2 at a time, only the partner\'s own; search by name, url', async () => {
      const a = aPartner('PAGE2345');
      const b = aPartner('PAGE6789');
      await p.uow.run(async (r) => void (await r.partners.add(a), await r.partners.add(b)));
      const keys = [0, 1, 2, 3, 4].map((i) => aKey(a.id, { name: `key ${i}`, createdAt: new Date(at.getTime() + i * 1000) }));
      const hook = (partnerId: string, i: number) => ({
        id: randomUUID(), partnerId, url: `https://hooks.example.com/${i}`, description: i === 2 ? 'Production' : null, events: ['sale.created' as const], secret: 'whsec_x',
        previousSecret: null, previousSecretUntil: null, status: 'ACTIVE' as const, failingSince: null, lastError: null, createdAt: new Date(at.getTime() + i * 1000), updatedAt: at,
      });
      const hooks = [0, 1, 2, 3, 4].map((i) => hook(a.id, i));
      await p.uow.run(async (r) => {
        for (const k of keys) await r.partnerApiKeys.add(k);
        await r.partnerApiKeys.add(aKey(b.id));
        for (const h of hooks) await r.webhookEndpoints.add(h);
        await r.webhookEndpoints.add(hook(b.id, 9));
      });
      const walk = async (read: (after?: PageRequest['after']) => Promise<Page<{ id: string }>>) => {
        const ids: string[] = [];
        let after: PageRequest['after'];
        for (;;) {
          const pg = await read(after);
          ids.push(...pg.items.map((x) => x.id));
          if (!pg.hasNext) break;
          after = pg.next;
        }
        return ids;
      };
      const req = (after?: PageRequest['after']) => ({ sortBy: 'created_at' as const, sortDir: 'desc' as const, limit: 2, ...(after ? { after } : {}) });
      expect(await walk((after) => p.uow.read((r) => r.partnerApiKeys.page(a.id, req(after))))).to.deep.equal(keys.map((k) => k.id).reverse());
      expect(await walk((after) => p.uow.read((r) => r.webhookEndpoints.page(a.id, req(after))))).to.deep.equal(hooks.map((h) => h.id).reverse());
      expect((await p.uow.read((r) => r.partnerApiKeys.page(a.id, { ...req(), search: 'KEY 3' }))).items.map((k) => k.id)).to.deep.equal([keys[3]!.id]);
      expect((await p.uow.read((r) => r.webhookEndpoints.page(a.id, { ...req(), search: 'producTION' }))).items.map((h) => h.id)).to.deep.equal([hooks[2]!.id]);
      expect((await p.uow.read((r) => r.webhookEndpoints.page(a.id, { ...req(), search: 'example.com/4' }))).items.map((h) => h.id)).to.deep.equal([hooks[4]!.id]);
    });

    it('keys: found by hash; by id only through their partner; listed newest first; save and touch scoped by partner', async () => {
      const a = aPartner('KEYS2345');
      const b = aPartner('KEYS6789');
      await p.uow.run(async (r) => void (await r.partners.add(a), await r.partners.add(b)));
      const k1 = aKey(a.id, { scopes: [...PARTNER_SCOPES] });
      const k2 = aKey(a.id, { createdAt: new Date(at.getTime() + 1000), expiresAt: new Date('2027-01-01T00:00:00.000Z') });
      const kb = aKey(b.id);
      await p.uow.run(async (r) => void (await r.partnerApiKeys.add(k1), await r.partnerApiKeys.add(k2), await r.partnerApiKeys.add(kb)));
      expect(await p.uow.read((r) => r.partnerApiKeys.findByHash(k1.hash))).to.deep.equal(k1);
      expect(await p.uow.read((r) => r.partnerApiKeys.findById(a.id, k2.id))).to.deep.equal(k2);
      expect(await p.uow.read((r) => r.partnerApiKeys.findById(b.id, k2.id))).to.equal(undefined);
      expect((await p.uow.read((r) => r.partnerApiKeys.list(a.id))).map((k) => k.id)).to.deep.equal([k2.id, k1.id]);

      await p.uow.run((r) => r.partnerApiKeys.save({ ...kb, partnerId: a.id, revokedAt: at })); // wrong partner: nothing changes
      expect(await p.uow.read((r) => r.partnerApiKeys.findById(b.id, kb.id))).to.deep.equal(kb);
      await p.uow.run((r) => r.partnerApiKeys.save({ ...k2, revokedAt: at, expiresAt: null }));
      expect(await p.uow.read((r) => r.partnerApiKeys.findById(a.id, k2.id))).to.deep.include({ revokedAt: at, expiresAt: null });

      const later = new Date(at.getTime() + 60_000);
      await p.uow.run((r) => r.partnerApiKeys.touch(a.id, k1.id, later));
      await p.uow.run((r) => r.partnerApiKeys.touch(a.id, k1.id, at)); // never backwards
      await p.uow.run((r) => r.partnerApiKeys.touch(a.id, kb.id, later)); // another partner's key
      expect((await p.uow.read((r) => r.partnerApiKeys.findById(a.id, k1.id)))!.lastUsedAt).to.deep.equal(later);
      expect((await p.uow.read((r) => r.partnerApiKeys.findById(b.id, kb.id)))!.lastUsedAt).to.equal(null);
    });

    it('network: at most one partner per business; join and leave log the consent; leave of a business in no network is false', async () => {
      const a = aPartner('NETA2345');
      const b = aPartner('NETB2345');
      await p.uow.run(async (r) => void (await r.partners.add(a), await r.partners.add(b)));
      const shop = await seedTenant(p.uow);
      const businessId = shop.business.id;
      const userId = shop.actor.userId;
      expect(await p.uow.read((r) => r.partnerNetwork.membershipOf(businessId))).to.equal(undefined);
      expect(await p.uow.run((r) => r.partnerNetwork.join({ businessId, partnerId: a.id, joinedAt: at }, userId))).to.equal('joined');
      expect(await p.uow.run((r) => r.partnerNetwork.join({ businessId, partnerId: b.id, joinedAt: at }, userId))).to.equal('already_in_network');
      expect(await p.uow.run((r) => r.partnerNetwork.membershipOf(businessId, { lock: true }))).to.deep.equal({ businessId, partnerId: a.id, joinedAt: at });
      const later = new Date(at.getTime() + 5000);
      expect(await p.uow.run((r) => r.partnerNetwork.leave(businessId, later, userId))).to.equal(true);
      expect(await p.uow.run((r) => r.partnerNetwork.leave(businessId, later, userId))).to.equal(false);
      expect(await p.uow.read((r) => r.partnerNetwork.membershipOf(businessId))).to.equal(undefined);
      expect(await p.uow.read((r) => r.partnerNetwork.consentLog(businessId))).to.deep.equal([
        { partnerId: a.id, kind: 'JOINED', at, byUserId: userId },
        { partnerId: a.id, kind: 'LEFT', at: later, byUserId: userId },
      ]);
    });

    it("network: merchantIds are the businesses in the partner's network now (the audit log's api_key.created goes to each)", async () => {
      const a = aPartner('MIDA2345');
      const b = aPartner('MIDB2345');
      await p.uow.run(async (r) => void (await r.partners.add(a), await r.partners.add(b)));
      const [x, y, z] = [await seedTenant(p.uow), await seedTenant(p.uow), await seedTenant(p.uow)];
      await p.uow.run(async (r) => {
        await r.partnerNetwork.join({ businessId: x.business.id, partnerId: a.id, joinedAt: at }, x.actor.userId);
        await r.partnerNetwork.join({ businessId: y.business.id, partnerId: a.id, joinedAt: at }, y.actor.userId);
        await r.partnerNetwork.join({ businessId: z.business.id, partnerId: b.id, joinedAt: at }, z.actor.userId);
      });
      await p.uow.run((r) => r.partnerNetwork.leave(y.business.id, at, y.actor.userId));
      expect(await p.uow.read((r) => r.partnerNetwork.merchantIds(a.id))).to.deep.equal([x.business.id]);
      expect(await p.uow.read((r) => r.partnerNetwork.merchantIds(b.id))).to.deep.equal([z.business.id]);
      expect(await p.uow.read((r) => r.partnerNetwork.merchantIds(randomUUID()))).to.deep.equal([]);
    });
  });

contract('in memory', async () => inMemory());
contract('PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
