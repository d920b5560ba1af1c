import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { rollback } from '../../application/ports/unit-of-work.js';
import type { ClientIdClaimRequest } from '../../application/sync/ports.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCustomer, NOW, seedTenant } from '../support/builders.js';

// The ClientIdRegistry contract on every adapter: an id is claimed once; the same business, kind and
// fingerprint is `same`, anything else `different`; a rolled-back claim frees the id (docs/adr/0034).

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`client ids contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const request = (businessId: string, o: Partial<ClientIdClaimRequest> = {}): ClientIdClaimRequest => ({
      businessId, kind: 'SALE', id: randomUUID(), fingerprint: 'f1', clientCreatedAt: new Date('2026-11-20T09:00:00Z'), at: NOW, ...o,
    });

    it('claims an id once and tells the same content from other content, kind or business', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const q = request(t.business.id);
      expect(await p.uow.run((r) => r.clientIds.claim(q))).to.equal('claimed');
      expect(await p.uow.run((r) => r.clientIds.claim({ ...q, at: new Date(NOW.getTime() + 1000) }))).to.equal('same');
      expect(await p.uow.run((r) => r.clientIds.claim({ ...q, fingerprint: 'f2' }))).to.equal('different');
      expect(await p.uow.run((r) => r.clientIds.claim({ ...q, kind: 'EXPENSE' }))).to.equal('different');
      expect((await p.uow.read((r) => r.clientIds.clientCreatedAt(t.business.id, q.id)))?.toISOString()).to.equal('2026-11-20T09:00:00.000Z');
      expect(await p.uow.read((r) => r.clientIds.clientCreatedAt(other.business.id, q.id))).to.equal(null);
    });

    it('ids are per business: another business claims the same id as new, whatever this one made under it (no existence oracle, docs/adr/0039)', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const q = request(t.business.id);
      expect(await p.uow.run((r) => r.clientIds.claim(q))).to.equal('claimed');
      expect(await p.uow.run((r) => r.clientIds.claim({ ...q, businessId: other.business.id, fingerprint: 'f9', clientCreatedAt: null }))).to.equal('claimed');
      expect(await p.uow.run((r) => r.clientIds.claim({ ...q, businessId: other.business.id, fingerprint: 'f9', clientCreatedAt: null }))).to.equal('same');
      expect(await p.uow.run((r) => r.clientIds.claim(q))).to.equal('same');
      expect((await p.uow.read((r) => r.clientIds.clientCreatedAt(t.business.id, q.id)))?.toISOString()).to.equal('2026-11-20T09:00:00.000Z');
      expect(await p.uow.read((r) => r.clientIds.clientCreatedAt(other.business.id, q.id))).to.equal(null);
      // a customer the server numbered in one business: its id is taken there, new in the other
      const customer = aCustomer(t.business.id);
      await p.uow.run((r) => r.customers.add(customer));
      expect(await p.uow.run((r) => r.clientIds.claim(request(t.business.id, { kind: 'CUSTOMER', id: customer.id })))).to.equal('different');
      expect(await p.uow.run((r) => r.clientIds.claim(request(other.business.id, { kind: 'CUSTOMER', id: customer.id })))).to.equal('claimed');
    });

    it('a claim rolled back with its transaction leaves the id free', async () => {
      const t = await seedTenant(p.uow);
      const q = request(t.business.id, { kind: 'CUSTOMER', clientCreatedAt: null });
      await p.uow.run(async (r) => rollback(await r.clientIds.claim(q)));
      expect(await p.uow.run((r) => r.clientIds.claim({ ...q, fingerprint: 'another' }))).to.equal('claimed');
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
