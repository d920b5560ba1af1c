import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { LoanPack, LoanPackPayment } from '../../application/loan-packs/ports.js';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { seedTenant } from '../support/builders.js';
import { buildReportsFixture } from '../support/reports-fixture.js';

// The loan-packs port and the reports port's monthActivity on both adapters (amounts in kobo; the
// activity figures are those of the hand-worked fixture in test/support/reports-fixture.ts).

const K = (naira: number) => kobo(Math.round(naira * 100));
/** A sum: exact bigint kobo (docs/adr/0038). */
const S = (naira: number) => BigInt(Math.round(naira * 100));

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`loan packs contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    let shop: { businessId: string; userId: string };
    let other: { businessId: string; userId: string };
    before(async () => {
      p = await open();
      const tenant = await seedTenant(p.uow);
      shop = { businessId: tenant.business.id, userId: tenant.actor.userId };
      await buildReportsFixture(p, tenant.actor, tenant.branch.id);
      const t2 = await seedTenant(p.uow);
      other = { businessId: t2.business.id, userId: t2.actor.userId };
    });
    after(async () => p.close());

    let n = 0;
    const aPack = (owner = shop, o: Partial<LoanPack> = {}): LoanPack => ({
      id: randomUUID(), businessId: owner.businessId, reference: `LP-20261121-ABC${'DEFGH'[n % 5]}${'JKLMN'[Math.floor(n / 5) % 5]}${'PQRST'[Math.floor(n++ / 25) % 5]}`,
      status: 'PENDING_PAYMENT', months: 6, periodStart: '2026-06-01', periodEnd: '2026-11-21', price: K(5000), currency: 'NGN', purpose: null, lenderName: 'LAPO',
      document: '{"a":1}', sha256: 'a'.repeat(64), createdBy: owner.userId, createdAt: new Date(Date.UTC(2026, 10, 21, 12, 0, n)), paidAt: null, checkout: null, ...o,
    });
    const payment = (pack: LoanPack, source: LoanPackPayment['source'] = 'verify'): LoanPackPayment => ({
      id: randomUUID(), businessId: pack.businessId, reference: pack.reference, gateway: 'sandbox', amount: pack.price, currency: 'NGN',
      paidAt: new Date('2026-11-21T13:00:00.000Z'), recordedAt: new Date('2026-11-21T13:00:01.000Z'), source,
    });

    it('monthActivity: completed sales, voids, TRANSFER and CARD sales and days with sales per Lagos month, empty months too', async () => {
      const empty = (month: string) => ({ month, salesCount: 0, salesTotal: 0n, tenderedTotal: 0n, voidedCount: 0, transferCount: 0, transferTotal: 0n, cardCount: 0, cardTotal: 0n, daysWithSales: 0 });
      expect(await p.uow.read((r) => r.reports.monthActivity(shop.businessId, { from: '2026-09-10', to: '2026-11-21' }))).to.deep.equal([
        empty('2026-09'),
        { month: '2026-10', salesCount: 1, salesTotal: S(5000), tenderedTotal: S(5000), voidedCount: 0, transferCount: 0, transferTotal: 0n, cardCount: 0, cardTotal: 0n, daysWithSales: 1 },
        // S5 at 23:30Z on the 20th is the 21st in Lagos: two days with sales; S3 voided
        { month: '2026-11', salesCount: 4, salesTotal: S(27000), tenderedTotal: S(27000), voidedCount: 1, transferCount: 1, transferTotal: S(1000), cardCount: 0, cardTotal: 0n, daysWithSales: 2 },
      ]);
      expect(await p.uow.read((r) => r.reports.monthActivity(shop.businessId, { from: '2026-11-21', to: '2026-11-21' }))).to.deep.equal([
        { month: '2026-11', salesCount: 1, salesTotal: S(5000), tenderedTotal: S(5000), voidedCount: 0, transferCount: 0, transferTotal: 0n, cardCount: 0, cardTotal: 0n, daysWithSales: 1 },
      ]);
      expect(await p.uow.read((r) => r.reports.monthActivity(other.businessId, { from: '2026-11-01', to: '2026-11-30' }))).to.deep.equal([empty('2026-11')]);
    });

    it('add, find (tenancy in the port), a reference unique over every business', async () => {
      const pack = aPack();
      expect(await p.uow.run((r) => r.loanPacks.add(pack))).to.equal('added');
      expect(await p.uow.read((r) => r.loanPacks.findByReference(shop.businessId, pack.reference))).to.deep.equal(pack);
      expect(await p.uow.read((r) => r.loanPacks.findByReference(other.businessId, pack.reference))).to.equal(undefined);
      expect(await p.uow.read((r) => r.loanPacks.findAnyByReference(pack.reference))).to.deep.equal(pack);
      expect(await p.uow.run((r) => r.loanPacks.add({ ...aPack(other), reference: pack.reference }))).to.equal('duplicate_reference');
      // the transaction stays usable after a clash: a second add in the same unit of work goes in
      const next = aPack();
      expect(await p.uow.run(async (r) => [await r.loanPacks.add({ ...aPack(), reference: pack.reference }), await r.loanPacks.add(next)])).to.deep.equal(['duplicate_reference', 'added']);
    });

    it('list: the business\'s packs, newest first, keyset pages', async () => {
      const mine = await p.uow.read((r) => r.loanPacks.list(shop.businessId, { sortBy: 'created_at', sortDir: 'desc', limit: 100 }));
      expect(mine.items.length).to.be.at.least(2);
      expect(mine.items.every((x) => x.businessId === shop.businessId)).to.equal(true);
      const times = mine.items.map((x) => x.createdAt.getTime());
      expect(times).to.deep.equal([...times].sort((a, b) => b - a));
      const first = await p.uow.read((r) => r.loanPacks.list(shop.businessId, { sortBy: 'created_at', sortDir: 'desc', limit: 1 }));
      expect(first.hasNext).to.equal(true);
      const second = await p.uow.read((r) => r.loanPacks.list(shop.businessId, { sortBy: 'created_at', sortDir: 'desc', limit: 1, after: first.next! }));
      expect(second.items[0]!.reference).to.equal(mine.items[1]!.reference);
    });

    it('saveCheckout: the first checkout kept wins', async () => {
      const pack = aPack();
      await p.uow.run((r) => r.loanPacks.add(pack));
      const a = { authorizationUrl: 'https://checkout.example/a', accessCode: 'a' };
      expect(await p.uow.run((r) => r.loanPacks.saveCheckout(shop.businessId, pack.reference, a))).to.deep.equal(a);
      expect(await p.uow.run((r) => r.loanPacks.saveCheckout(shop.businessId, pack.reference, { authorizationUrl: 'https://checkout.example/b', accessCode: 'b' }))).to.deep.equal(a);
      expect((await p.uow.read((r) => r.loanPacks.findByReference(shop.businessId, pack.reference)))!.checkout).to.deep.equal(a);
    });

    it('markPaid: PENDING_PAYMENT -> READY with one payment row, once, even when three race', async () => {
      const pack = aPack();
      await p.uow.run((r) => r.loanPacks.add(pack));
      expect(await p.uow.read((r) => r.loanPacks.paymentOf(shop.businessId, pack.reference))).to.equal(undefined);
      const outcomes = await Promise.all([payment(pack), payment(pack, 'webhook'), payment(pack)].map((y) => p.uow.run((r) => r.loanPacks.markPaid(y))));
      expect(outcomes.filter((o) => o === 'paid')).to.have.length(1);
      expect(outcomes.filter((o) => o === 'already')).to.have.length(2);
      const paid = (await p.uow.read((r) => r.loanPacks.findByReference(shop.businessId, pack.reference)))!;
      expect(paid).to.include({ status: 'READY' });
      expect(paid.paidAt).to.deep.equal(new Date('2026-11-21T13:00:00.000Z'));
      const row = (await p.uow.read((r) => r.loanPacks.paymentOf(shop.businessId, pack.reference)))!;
      expect(row).to.include({ reference: pack.reference, gateway: 'sandbox', amount: K(5000), currency: 'NGN' });
      expect(await p.uow.read((r) => r.loanPacks.paymentOf(other.businessId, pack.reference))).to.equal(undefined);
      // another business cannot settle it, and a READY pack stays as it is
      expect(await p.uow.run((r) => r.loanPacks.markPaid({ ...payment(pack), businessId: other.businessId }))).to.equal('already');
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
