import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { kobo } from '../../domain/money.js';
import type { Customer } from '../../domain/customer.js';
import type { CreditEntry } from '../../domain/credit.js';
import type { SaleDraft } from '../../domain/sale.js';
import type { PageRequest } from '../../application/ports/list.js';
import type { AppRepositories as Repositories } from '../../bootstrap/persistence.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCreditEntry, aCustomer, aSale, NOW, seedShop } from '../support/builders.js';

// The CreditLedger contract on every adapter, through `uow.run` and `uow.read`: entry times as a
// chain, list pages, the last payment, open debts (oldest first, locked, reduced), allocations, the
// aging report in Lagos days, tenancy, and read-your-own-writes inside one unit of work. The
// balance-equals-ledger property over use cases is credit-ledger.property.test.ts.

const at = (ms: number) => new Date(NOW.getTime() + ms);
const entryPage = (o: Partial<PageRequest<'created_at'>> = {}): PageRequest<'created_at'> => ({ sortBy: 'created_at', sortDir: 'desc', limit: 100, ...o });
const agingPage = (o: Partial<PageRequest<'total' | 'name'>> = {}): PageRequest<'total' | 'name'> => ({ sortBy: 'total', sortDir: 'desc', limit: 100, ...o });
const TODAY = '2026-11-22'; // Lagos
const zeroBuckets = { days_0_30: 0, days_31_60: 0, days_61_90: 0, days_over_90: 0 };

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`credit ledger contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    /** A shop with customers (the first is `debtor`) and credit sales to them. */
    const seedDebtor = async (customers = 1) => {
      const shop = await seedShop(p.uow);
      const cs = Array.from({ length: customers }, (_, i) => aCustomer(shop.business.id, { name: ['ada', 'bayo', 'chika'][i] ?? 'dami' }));
      await p.uow.run(async (r) => { for (const c of cs) await r.customers.add(c); });
      const owes = (c: Customer, total: number, o: Partial<SaleDraft> = {}) => aSale(shop, shop.product.id, { customerId: c.id, paymentMethod: 'CREDIT', total: kobo(total), ...o });
      return { shop, b: shop.business.id, debtor: cs[0]!, customers: cs, owes };
    };
    const addSales = (sales: SaleDraft[]) => p.uow.run(async (r) => { for (const s of sales) await r.sales.add(s); });
    const addEntries = (entries: CreditEntry[]) => p.uow.run(async (r) => { const times: Date[] = []; for (const e of entries) times.push(await r.credit.add(e)); return times; });
    const debts = (b: string, c: Customer) => p.uow.read((r) => r.credit.openDebts(b, c.id));
    const list = (b: string, c: Customer, page: Partial<PageRequest<'created_at'>> = {}) => p.uow.read((r) => r.credit.list(b, c.id, entryPage(page)));

    it('add answers the time recorded, strictly after the customer’s previous entry; list gives every field intact, newest or oldest first, in keyset pages', async () => {
      const { b, debtor, customers } = await seedDebtor(2);
      const [e1, e2, e3] = [
        aCreditEntry(debtor, { createdAt: at(0), note: 'rice on credit', saleId: randomUUID() }),
        aCreditEntry(debtor, { kind: 'PAYMENT', amount: -40_000, balanceAfter: kobo(60_000), method: 'TRANSFER', note: 'Paid by transfer', createdAt: at(0) }),
        aCreditEntry(debtor, { kind: 'VOID', amount: -60_000, balanceAfter: kobo(0), createdAt: at(-5_000) }),
      ];
      const theirs = aCreditEntry(customers[1]!, { createdAt: at(0) });
      expect(await addEntries([e1!, e2!, e3!, theirs])).to.deep.equal([at(0), at(1), at(2), at(0)]);
      const recorded = [{ ...e1!, createdAt: at(0) }, { ...e2!, createdAt: at(1) }, { ...e3!, createdAt: at(2) }];
      expect((await list(b, debtor)).items).to.deep.equal([...recorded].reverse());
      expect((await list(b, debtor, { sortDir: 'asc' })).items).to.deep.equal(recorded);
      const first = await list(b, debtor, { limit: 2 });
      expect(first.items.map((e) => e.id)).to.deep.equal([e3!.id, e2!.id]);
      expect(first.hasNext).to.equal(true);
      const rest = await list(b, debtor, { limit: 2, after: first.next! });
      expect([rest.items.map((e) => e.id), rest.hasNext]).to.deep.equal([[e1!.id], false]);
      expect((await list(b, debtor, { search: 'PAID BY' })).items.map((e) => e.id)).to.deep.equal([e2!.id]);
      expect((await list(b, debtor, { from: at(1), to: at(2) })).items.map((e) => e.id)).to.deep.equal([e2!.id]);
      // each customer has their own chain; another business reads nothing
      expect((await list(b, customers[1]!)).items).to.deep.equal([theirs]);
      expect((await list(randomUUID(), debtor)).items).to.deep.equal([]);
      expect(await addEntries([aCreditEntry(debtor, { createdAt: at(50) })])).to.deep.equal([at(50)]);
    });

    it('a RETURN entry (a credit note, docs/adr/0059) may leave the balance below zero, kept exactly; the newest first', async () => {
      const { b, debtor } = await seedDebtor();
      const sale = aCreditEntry(debtor, { createdAt: at(1) });
      const note = aCreditEntry(debtor, { kind: 'RETURN', amount: -100_001, balanceAfter: kobo(-1), note: 'credit note', createdAt: at(2) });
      await addEntries([sale, note]);
      expect((await list(b, debtor)).items).to.deep.equal([note, sale]);
    });

    it('lastPaymentAt: the time of the customer’s latest payment, no other kind, customer or business', async () => {
      const { b, debtor, customers } = await seedDebtor(2);
      const last = (businessId: string, c: Customer) => p.uow.read((r) => r.credit.lastPaymentAt(businessId, c.id));
      await addEntries([aCreditEntry(debtor, { createdAt: at(0) })]);
      expect(await last(b, debtor)).to.equal(undefined);
      const pay = (ms: number) => aCreditEntry(debtor, { kind: 'PAYMENT', amount: -10, balanceAfter: kobo(99_990), method: 'CASH', createdAt: at(ms) });
      await addEntries([pay(10), pay(30), aCreditEntry(debtor, { kind: 'VOID', amount: -99_970, balanceAfter: kobo(0), createdAt: at(40) }), aCreditEntry(customers[1]!, { kind: 'PAYMENT', createdAt: at(99) })]);
      expect(await last(b, debtor)).to.deep.equal(at(30));
      expect(await last(b, customers[1]!)).to.deep.equal(at(99));
      expect(await last(randomUUID(), debtor)).to.equal(undefined);
    });

    it('openDebts: the customer’s sales still owed, oldest first (ties by id); reduceOutstanding lowers one of the business’s own', async () => {
      const { shop, b, debtor, customers, owes } = await seedDebtor(2);
      const other = await seedDebtor();
      const [d1, d2, paid, d3, theirs] = [
        owes(debtor, 500, { createdAt: at(3) }), owes(debtor, 300, { createdAt: at(1) }), owes(debtor, 200, { createdAt: at(2), amountPaid: kobo(200) }),
        owes(debtor, 100, { createdAt: at(1) }), owes(customers[1]!, 900, { createdAt: at(0) }),
      ];
      await addSales([d1!, d2!, paid!, d3!, theirs!, aSale(shop, shop.product.id, { createdAt: at(0) })]);
      const early = [d2!, d3!].sort((x, y) => (x.id < y.id ? -1 : 1));
      const debt = (s: SaleDraft, outstanding = s.total) => ({ saleId: s.id, outstanding, createdAt: s.createdAt });
      expect(await debts(b, debtor)).to.deep.equal([...early.map((s) => debt(s)), debt(d1!)]);
      expect(await p.uow.run((r) => r.credit.openDebts(b, debtor.id, { forUpdate: true }))).to.deep.equal(await debts(b, debtor));
      expect(await debts(b, customers[1]!)).to.deep.equal([debt(theirs!)]);
      expect(await debts(other.b, debtor)).to.deep.equal([]);

      const reduce = (businessId: string, s: SaleDraft, amount: number) => p.uow.run((r) => r.credit.reduceOutstanding(businessId, s.id, kobo(amount)));
      await reduce(b, d1!, 120);
      await reduce(other.b, d1!, 380);
      expect((await debts(b, debtor)).at(-1)).to.deep.equal(debt(d1!, kobo(380)));
      expect((await p.uow.read((r) => r.sales.findById(b, d1!.id)))?.creditOutstanding).to.equal(380);
      await reduce(b, d2!, 300);
      expect((await debts(b, debtor)).map((x) => x.saleId)).to.deep.equal([d3!.id, d1!.id]);
    });

    it('reduceOutstanding never takes a debt below zero: refused, the debt unchanged', async () => {
      const { b, debtor, owes } = await seedDebtor();
      const sale = owes(debtor, 100);
      await addSales([sale]);
      const refused = await p.uow.run((r) => r.credit.reduceOutstanding(b, sale.id, kobo(101))).then(() => 'stored', () => 'refused');
      expect(refused, 'reduced below zero').to.equal('refused');
      expect(await debts(b, debtor)).to.deep.equal([{ saleId: sale.id, outstanding: 100, createdAt: sale.createdAt }]);
    });

    it('openDebts forUpdate holds the debts until the transaction ends: a second locker sees them paid', async () => {
      const { b, debtor, owes } = await seedDebtor();
      const sale = owes(debtor, 700);
      await addSales([sale]);
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const first = p.uow.run(async (r) => {
        const [d] = await r.credit.openDebts(b, debtor.id, { forUpdate: true });
        locked();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await r.credit.reduceOutstanding(b, d!.saleId, d!.outstanding);
      });
      const second = isLocked.then(() => p.uow.run((r) => r.credit.openDebts(b, debtor.id, { forUpdate: true })));
      await first;
      expect(await second).to.deep.equal([]);
    });

    it('addAllocations and allocationsOf: a payment’s allocations, oldest sale first; nothing for another payment or business', async () => {
      const { b, debtor, owes } = await seedDebtor();
      const [older, newer] = [owes(debtor, 500, { createdAt: at(1) }), owes(debtor, 500, { createdAt: at(2) })];
      await addSales([older!, newer!]);
      const [payment, empty] = [aCreditEntry(debtor, { kind: 'PAYMENT', amount: -700, balanceAfter: kobo(300) }), aCreditEntry(debtor, { kind: 'PAYMENT', amount: -1, balanceAfter: kobo(299) })];
      await p.uow.run(async (r) => {
        for (const e of [payment!, empty!]) await r.credit.add(e);
        await r.credit.addAllocations(b, payment!.id, [{ saleId: newer!.id, amount: kobo(200) }, { saleId: older!.id, amount: kobo(500) }]);
        await r.credit.addAllocations(b, empty!.id, []);
      });
      const allocations = (businessId: string, paymentId: string) => p.uow.read((r) => r.credit.allocationsOf(businessId, paymentId));
      expect(await allocations(b, payment!.id)).to.deep.equal([{ saleId: older!.id, amount: 500 }, { saleId: newer!.id, amount: 200 }]);
      expect(await allocations(b, empty!.id)).to.deep.equal([]);
      expect(await allocations(b, randomUUID())).to.deep.equal([]);
      expect(await allocations(randomUUID(), payment!.id)).to.deep.equal([]);
    });

    it('aging: what each customer owes by age of debt in Lagos days (0-30, 31-60, 61-90, over 90), sorted, searched, paged; totals; own business only', async () => {
      const { b, debtor, customers, owes } = await seedDebtor(3);
      const other = await seedDebtor();
      const lagos = (utc: string, total: number, c = debtor, o: Partial<SaleDraft> = {}) => owes(c, total, { createdAt: new Date(utc), ...o });
      await addSales([
        lagos('2026-11-22T10:00:00Z', 100), // 0 days
        lagos('2026-10-22T23:30:00Z', 200), // Lagos 2026-10-23: 30 days (the UTC date would make it 31)
        lagos('2026-10-22T22:30:00Z', 400), // 31
        lagos('2026-09-22T23:00:00Z', 800), // Lagos 2026-09-23 00:00: 60
        lagos('2026-09-22T12:00:00Z', 1_600), // 61
        lagos('2026-08-24T12:00:00Z', 3_200), // 90
        lagos('2026-08-23T12:00:00Z', 6_400), // 91
        lagos('2026-01-01T12:00:00Z', 9_999, debtor, { amountPaid: kobo(9_999) }), // paid: owes nothing
        lagos('2026-11-01T12:00:00Z', 50, customers[1]!),
        lagos('2026-03-01T12:00:00Z', 70, customers[2]!, { amountPaid: kobo(70) }),
      ]);
      await addSales([other.owes(other.debtor, 5)]);
      const ada = { customerId: debtor.id, customerName: 'ada', customerPhone: debtor.phone, buckets: { days_0_30: 300, days_31_60: 1_200, days_61_90: 4_800, days_over_90: 6_400 }, total: 12_700, oldestUnpaidAt: new Date('2026-08-23T12:00:00Z') };
      const bayo = { customerId: customers[1]!.id, customerName: 'bayo', customerPhone: customers[1]!.phone, buckets: { ...zeroBuckets, days_0_30: 50 }, total: 50, oldestUnpaidAt: new Date('2026-11-01T12:00:00Z') };
      const aging = (page: Partial<PageRequest<'total' | 'name'>> = {}, businessId = b) => p.uow.read((r) => r.credit.aging(businessId, TODAY, agingPage(page)));
      expect((await aging()).items).to.deep.equal([ada, bayo]);
      expect((await aging({ sortDir: 'asc' })).items).to.deep.equal([bayo, ada]);
      expect((await aging({ sortBy: 'name', sortDir: 'asc' })).items).to.deep.equal([ada, bayo]);
      expect((await aging({ sortBy: 'name', sortDir: 'desc' })).items).to.deep.equal([bayo, ada]);
      const first = await aging({ limit: 1 });
      expect([first.items, first.hasNext, first.next?.id]).to.deep.equal([[ada], true, debtor.id]);
      const second = await aging({ limit: 1, after: first.next! });
      expect([second.items, second.hasNext]).to.deep.equal([[bayo], false]);
      expect((await aging({ search: 'BAY' })).items).to.deep.equal([bayo]);
      expect((await aging({ search: debtor.phone!.slice(-9) })).items).to.deep.equal([ada]);
      expect((await aging({ from: new Date('2026-09-01T00:00:00Z') })).items).to.deep.equal([bayo]);
      expect(await p.uow.read((r) => r.credit.agingTotals(b, TODAY))).to.deep.equal({ customers: 2, total: 12_750, buckets: { ...ada.buckets, days_0_30: 350 } });
      // another business: its own debtor only; a business with no debts: nothing
      expect((await aging({}, other.b)).items.map((a) => a.customerId)).to.deep.equal([other.debtor.id]);
      expect((await aging({}, randomUUID())).items).to.deep.equal([]);
      expect(await p.uow.read((r) => r.credit.agingTotals(randomUUID(), TODAY))).to.deep.equal({ customers: 0, total: 0, buckets: zeroBuckets });
    });

    /** A credit sale of 1,000, its ledger entry, a payment of 400 allocated to it: the writes of a sale and a payment. */
    const creditHistory = async (r: Repositories, owes: (c: Customer, total: number) => SaleDraft, debtor: Customer) => {
      const sale = owes(debtor, 1_000);
      await r.sales.add(sale);
      const owed = await r.credit.openDebts(debtor.businessId, debtor.id);
      const saleAt = await r.credit.add(aCreditEntry(debtor, { saleId: sale.id, amount: 1_000, balanceAfter: kobo(1_000) }));
      await r.credit.reduceOutstanding(debtor.businessId, sale.id, kobo(400));
      const payment = aCreditEntry(debtor, { kind: 'PAYMENT', amount: -400, balanceAfter: kobo(600), method: 'CASH' });
      const paidAt = await r.credit.add(payment);
      await r.credit.addAllocations(debtor.businessId, payment.id, [{ saleId: sale.id, amount: kobo(400) }]);
      return { sale, payment, owed, saleAt, paidAt };
    };
    /** What every read of the ledger answers for the debtor, one statement at a time. */
    const ledgerOf = async (r: Repositories, debtor: Customer, paymentId: string) => {
      const [b, c] = [debtor.businessId, debtor.id];
      return [
        (await r.credit.list(b, c, entryPage())).items.map((e) => [e.kind, e.createdAt.getTime() - NOW.getTime()]),
        (await r.credit.openDebts(b, c, { forUpdate: true })).map((d) => d.outstanding),
        await r.credit.lastPaymentAt(b, c),
        (await r.credit.allocationsOf(b, paymentId)).map((a) => a.amount),
        (await r.credit.aging(b, TODAY, agingPage())).items.map((a) => a.total),
        (await r.credit.agingTotals(b, TODAY)).total,
      ];
    };

    it('read-your-own-writes: inside one unit of work the sale’s debt, the entries, the payment and its allocations are all read back', async () => {
      const { debtor, owes } = await seedDebtor();
      const seen = await p.uow.run(async (r) => {
        const h = await creditHistory(r, owes, debtor);
        return { ...h, ledger: await ledgerOf(r, debtor, h.payment.id) };
      });
      expect(seen.owed, 'openDebts after sales.add').to.deep.equal([{ saleId: seen.sale.id, outstanding: 1_000, createdAt: NOW }]);
      expect([seen.saleAt, seen.paidAt], 'add: times as a chain').to.deep.equal([at(0), at(1)]);
      const expected = [[['PAYMENT', 1], ['SALE', 0]], [600], at(1), [400], [600], 600];
      expect(seen.ledger, 'list, openDebts, lastPaymentAt, allocationsOf, aging, agingTotals').to.deep.equal(expected);
      expect(await p.uow.read((r) => ledgerOf(r, debtor, seen.payment.id)), 'committed').to.deep.equal(expected);
    });

    it('a rolled-back unit of work (or atomically) leaves nothing in the ledger, the debts or the report', async () => {
      const { debtor, owes } = await seedDebtor();
      let paymentId = '';
      const failure = await p.uow
        .run(async (r) => {
          paymentId = (await creditHistory(r, owes, debtor)).payment.id;
          throw new Error('the network dropped');
        })
        .catch((e: Error) => e.message);
      expect(failure).to.equal('the network dropped');
      const nothing = [[], [], undefined, [], [], 0];
      expect(await p.uow.read((r) => ledgerOf(r, debtor, paymentId))).to.deep.equal(nothing);
      const inside = await p.uow
        .atomically(async () => {
          paymentId = (await p.uow.run((r) => creditHistory(r, owes, debtor))).payment.id;
          const seen = await p.uow.read((r) => ledgerOf(r, debtor, paymentId));
          throw Object.assign(new Error('the process died'), { seen });
        })
        .catch((e: Error & { seen: unknown }) => e.seen);
      expect(inside, 'read inside atomically').to.deep.equal([[['PAYMENT', 1], ['SALE', 0]], [600], at(1), [400], [600], 600]);
      expect(await p.uow.read((r) => ledgerOf(r, debtor, paymentId))).to.deep.equal(nothing);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
