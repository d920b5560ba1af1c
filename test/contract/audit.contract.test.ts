import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { AuditSort } from '../../application/audit/ports.js';
import type { PageRequest } from '../../application/ports/list.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import { SYSTEM_ACTOR, type AuditEntry } from '../../domain/audit.js';
import { markedNaira, writeMoneyJson } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { NOW } from '../support/builders.js';

// The AuditLog contract on every adapter (docs/adr/0069, 0070): entries read back whole (money values
// keep their mark), only in their business, newest first in keyset pages, with the list's filters; an
// append rolls back with its transaction; one append takes any number of entries.

const at = (ms: number) => new Date(NOW.getTime() + ms);
const page = (o: Partial<PageRequest<AuditSort>> = {}): PageRequest<AuditSort> => ({ sortBy: 'at', sortDir: 'desc', limit: 100, ...o });

const anEntry = (businessId: string, o: Partial<AuditEntry> = {}): AuditEntry => ({
  id: randomUUID(),
  businessId,
  at: NOW,
  actor: { type: 'USER', userId: randomUUID(), name: 'Bola Ade', role: 'STAFF', deviceId: null, apiKeyId: null },
  action: 'sale.voided',
  subject: { type: 'sale', id: randomUUID(), label: 'RCP-000001' },
  branchId: randomUUID(),
  before: { status: 'COMPLETED', total: markedNaira(150_050) },
  after: { status: 'VOIDED', refund_amount: markedNaira(0), reason: null, returned_stock: [{ product_id: randomUUID(), quantity: 2 }] },
  requestId: randomUUID(),
  ...o,
});

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`audit log contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());
    const append = (...entries: AuditEntry[]) => p.uow.run((r) => r.auditLog.append(entries));
    const list = (businessId: string, req: Partial<PageRequest<AuditSort>> = {}, filter = {}) => p.uow.read((r) => r.auditLog.list(businessId, page(req), filter));

    it('reads an entry back whole, its money values still marked (written 1500.50), only in its own business', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const device = anEntry(a, { actor: { type: 'DEVICE', userId: randomUUID(), name: 'Bola Ade', role: 'STAFF', deviceId: 'till-1', apiKeyId: null } });
      const system = anEntry(a, { at: at(1), actor: SYSTEM_ACTOR, action: 'loan_pack.paid', subject: { type: 'loan_pack', id: 'LP-20261121-K7M2QX', label: 'LP-20261121-K7M2QX' }, branchId: null, before: null, requestId: null });
      const key = anEntry(a, { at: at(2), actor: { type: 'PARTNER_KEY', userId: null, name: 'Kudi', role: null, deviceId: null, apiKeyId: randomUUID() }, action: 'api_key.created', after: null });
      await append(device, system, key);
      const read = (await list(a)).items;
      expect(read).to.deep.equal([key, system, device]);
      expect(writeMoneyJson(read[2]!.before)).to.equal('{"status":"COMPLETED","total":1500.50}');
      expect((await list(b)).items).to.deep.equal([]);
    });

    it('pages newest first (or oldest first) by time then id, without skipping or repeating an entry', async () => {
      const businessId = randomUUID();
      const entries = [anEntry(businessId, { at: at(1) }), anEntry(businessId, { at: at(2) }), anEntry(businessId, { at: at(2) }), anEntry(businessId, { at: at(3) }), anEntry(businessId, { at: at(4) })];
      await append(...entries);
      const walk = async (sortDir: 'asc' | 'desc') => {
        const seen: string[] = [];
        let after: PageRequest<AuditSort>['after'];
        do {
          const got = await list(businessId, { sortDir, limit: 2, ...(after ? { after } : {}) });
          seen.push(...got.items.map((e) => e.id));
          after = got.hasNext ? got.next : undefined;
        } while (after);
        return seen;
      };
      const byTimeThenId = [...entries].sort((x, y) => x.at.getTime() - y.at.getTime() || (x.id < y.id ? -1 : 1)).map((e) => e.id);
      expect(await walk('asc')).to.deep.equal(byTimeThenId);
      expect(await walk('desc')).to.deep.equal([...byTimeThenId].reverse());
    });

    it('filters by action, actor (a member or a partner key), branch, subject, search and time', async () => {
      const businessId = randomUUID();
      const [member, keyId, branch, saleId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      const voided = anEntry(businessId, { at: at(1), subject: { type: 'sale', id: saleId, label: 'RCP-000042' }, actor: { type: 'USER', userId: member, name: 'Chidi Eze', role: 'STAFF', deviceId: null, apiKeyId: null } });
      const discounted = anEntry(businessId, { at: at(2), action: 'sale.discounted', subject: { type: 'sale', id: saleId, label: 'RCP-000042' }, branchId: branch });
      const keyed = anEntry(businessId, { at: at(3), action: 'api_key.created', actor: { type: 'PARTNER_KEY', userId: null, name: 'Kudi', role: null, deviceId: null, apiKeyId: keyId }, subject: { type: 'api_key', id: randomUUID(), label: 'Dashboard (pk_live_AbCd…)' }, branchId: null });
      const adjusted = anEntry(businessId, { at: at(4), action: 'stock.adjusted', subject: { type: 'product', id: randomUUID(), label: 'Rice 50kg' }, branchId: branch });
      await append(voided, discounted, keyed, adjusted);
      const ids = async (filter: object, req: Partial<PageRequest<AuditSort>> = {}) => (await list(businessId, req, filter)).items.map((e) => e.id);
      expect(await ids({ action: 'sale.voided' })).to.deep.equal([voided.id]);
      expect(await ids({ actorId: member })).to.deep.equal([voided.id]);
      expect(await ids({ actorId: keyId })).to.deep.equal([keyed.id]);
      expect(await ids({ branchId: branch })).to.deep.equal([adjusted.id, discounted.id]);
      expect(await ids({ subjectType: 'sale', subjectId: saleId })).to.deep.equal([discounted.id, voided.id]);
      expect(await ids({ subjectType: 'product' })).to.deep.equal([adjusted.id]);
      expect(await ids({}, { search: 'chidi' })).to.deep.equal([voided.id]);
      expect(await ids({}, { search: 'rice' })).to.deep.equal([adjusted.id]);
      expect(await ids({}, { from: at(2), to: at(4) })).to.deep.equal([keyed.id, discounted.id]);
      expect(await ids({ action: 'sale.voided', branchId: branch })).to.deep.equal([]);
    });

    it('an append rolls back with its transaction', async () => {
      const businessId = randomUUID();
      await p.uow.run(async (r) => rollback(await r.auditLog.append([anEntry(businessId)])));
      await p.uow.run(async (r) => {
        await r.auditLog.append([anEntry(businessId)]);
        return rollback(undefined);
      });
      expect((await list(businessId)).items).to.deep.equal([]);
    });

    it('appends thousands of entries in one call (a partner with a large network)', async () => {
      const businesses = Array.from({ length: 5000 }, () => randomUUID());
      const subject = { type: 'api_key' as const, id: randomUUID(), label: 'Dashboard (pk_live_AbCd…)' };
      await append(...businesses.map((b) => anEntry(b, { action: 'api_key.created', subject, before: null })));
      expect((await list(businesses[4999]!)).items.map((e) => e.subject)).to.deep.equal([subject]);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
