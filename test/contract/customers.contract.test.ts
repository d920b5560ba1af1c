import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { kobo, MAX_KOBO } from '../../domain/money.js';
import type { Customer } from '../../domain/customer.js';
import type { Page, PageRequest } from '../../application/ports/list.js';
import { rollback, type UnitOfWork } from '../../application/ports/unit-of-work.js';
import { inMemory, openPostgres, type AppRepositories, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBusiness, aCustomer, NOW } from '../support/builders.js';

// The CustomerRepository contract on every adapter, through `uow.run` and `uow.read`: tenancy, phones
// unique per business, profile saves that leave the balance alone, setBalance, the business's total
// owed, locks, list filter/sorts/keyset pages, and read-your-own-writes inside one unit of work.
// Names that take part in an ordering assertion are lowercase ASCII (every collation agrees).

const at = (ms: number) => new Date(NOW.getTime() + ms);
type CustomerSortBy = 'created_at' | 'name' | 'credit_balance';
const customerPage = (o: Partial<PageRequest<CustomerSortBy>> = {}): PageRequest<CustomerSortBy> => ({ sortBy: 'created_at', sortDir: 'asc', limit: 100, ...o });
const ids = (page: Page<Customer>) => page.items.map((c) => c.id);

const seedBusiness = async (uow: UnitOfWork<AppRepositories>): Promise<string> => {
  const b = aBusiness();
  await uow.run((r) => r.businesses.add(b));
  return b.id;
};

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`customers contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const add = (...customers: Customer[]) => p.uow.run(async (r) => { for (const c of customers) expect(await r.customers.add(c)).to.equal('added'); return customers; });
    const find = (businessId: string, id: string) => p.uow.read((r) => r.customers.findById(businessId, id));
    const list = (businessId: string, filter: { hasBalance?: boolean } = {}, page: Partial<PageRequest<CustomerSortBy>> = {}) =>
      p.uow.read((r) => r.customers.list(businessId, customerPage(page), filter));
    const setBalance = (c: Customer, balance: number, t = 1) => p.uow.run((r) => r.customers.setBalance(c.businessId, c.id, kobo(balance), at(t)));

    it('adds a customer and finds it by id, every field intact; another business finds nothing', async () => {
      const b = await seedBusiness(p.uow);
      const other = await seedBusiness(p.uow);
      const full = aCustomer(b, { name: 'Ngozi Okafor', email: 'ngozi@example.com', address: '12 Allen Avenue, Ikeja', notes: 'pays on fridays', creditLimit: kobo(MAX_KOBO), creditBalance: kobo(0), createdAt: at(1), updatedAt: at(2) });
      const bare = aCustomer(b, { phone: null });
      await add(full, bare);
      expect(await find(b, full.id)).to.deep.equal(full);
      expect(await find(b, bare.id)).to.deep.equal(bare);
      expect(await p.uow.run((r) => r.customers.findById(b, full.id, { forUpdate: true }))).to.deep.equal(full);
      expect(await p.uow.read((r) => r.customers.exists(b, full.id))).to.equal(true);
      expect(await find(b, randomUUID())).to.equal(undefined);
      expect(await p.uow.read((r) => r.customers.exists(b, randomUUID()))).to.equal(false);
      // tenancy
      expect(await find(other, full.id)).to.equal(undefined);
      expect(await p.uow.run((r) => r.customers.findById(other, full.id, { forUpdate: true }))).to.equal(undefined);
      expect(await p.uow.read((r) => r.customers.exists(other, full.id))).to.equal(false);
      expect((await list(other)).items).to.deep.equal([]);
    });

    it("refuses a phone already taken in the business ('duplicate_phone'), also one added earlier in the same unit of work; the transaction stays usable", async () => {
      const b = await seedBusiness(p.uow);
      const other = await seedBusiness(p.uow);
      const [first] = await add(aCustomer(b));
      const later = aCustomer(b, { name: 'after the refusal' });
      const twin = aCustomer(b);
      await p.uow.run(async (r) => {
        expect(await r.customers.add(aCustomer(b, { phone: first!.phone }))).to.equal('duplicate_phone');
        expect(await r.customers.add(later)).to.equal('added');
        await r.customers.setBalance(b, later.id, kobo(700), at(5));
        expect(await r.customers.add(twin)).to.equal('added');
        expect(await r.customers.add(aCustomer(b, { phone: twin.phone }))).to.equal('duplicate_phone');
        // customers without a phone never clash
        expect(await r.customers.add(aCustomer(b, { phone: null }))).to.equal('added');
        expect(await r.customers.add(aCustomer(b, { phone: null }))).to.equal('added');
      });
      expect(await find(b, later.id)).to.deep.include({ creditBalance: 700 });
      expect(await find(b, twin.id)).to.deep.equal(twin);
      expect((await list(b)).items).to.have.length(5);
      // another business may have a customer with the same phone
      const elsewhere = aCustomer(other, { phone: first!.phone });
      await add(elsewhere);
      expect(await find(other, elsewhere.id)).to.deep.equal(elsewhere);
    });

    it("save writes the profile but never the balance; a taken phone is refused ('duplicate_phone') and later writes still commit; another business changes nothing", async () => {
      const b = await seedBusiness(p.uow);
      const other = await seedBusiness(p.uow);
      const [x, y] = await add(aCustomer(b, { email: 'x@example.com', address: 'here', notes: 'n', creditLimit: kobo(5_000) }), aCustomer(b));
      await setBalance(x!, 1_000, 3);
      const changed: Customer = { ...x!, name: 'renamed', phone: '+2348000000001', email: null, address: null, notes: null, creditLimit: null, creditBalance: kobo(999_999), updatedAt: at(60_000) };
      await p.uow.run(async (r) => {
        expect(await r.customers.save({ ...y!, phone: x!.phone, name: 'stolen' })).to.equal('duplicate_phone');
        expect(await r.customers.save(changed)).to.equal('saved');
        expect(await r.customers.save({ ...y!, phone: changed.phone })).to.equal('duplicate_phone');
        expect(await r.customers.save({ ...y!, phone: x!.phone, name: 'took the freed phone' })).to.equal('saved');
      });
      expect(await find(b, x!.id)).to.deep.equal({ ...changed, creditBalance: 1_000 });
      expect(await find(b, y!.id)).to.deep.include({ phone: x!.phone, name: 'took the freed phone' });
      expect(await p.uow.run((r) => r.customers.save({ ...changed, businessId: other, name: 'hijacked' }))).to.equal('saved');
      expect((await find(b, x!.id))?.name).to.equal('renamed');
      expect(await find(other, x!.id)).to.equal(undefined);
    });

    it('setBalance moves the balance and updatedAt of the business’s own customer only', async () => {
      const b = await seedBusiness(p.uow);
      const other = await seedBusiness(p.uow);
      const [c] = await add(aCustomer(b));
      await setBalance(c!, 2_500, 10);
      expect(await find(b, c!.id)).to.deep.equal({ ...c!, creditBalance: 2_500, updatedAt: at(10) });
      await p.uow.run((r) => r.customers.setBalance(other, c!.id, kobo(9), at(20)));
      expect(await find(b, c!.id)).to.deep.include({ creditBalance: 2_500 });
      await setBalance(c!, 0, 30);
      expect(await find(b, c!.id)).to.deep.equal({ ...c!, creditBalance: 0, updatedAt: at(30) });
    });

    it('setBalance stores a balance below zero (a credit note not used yet, docs/adr/0059) exactly', async () => {
      const b = await seedBusiness(p.uow);
      const [c] = await add(aCustomer(b));
      await setBalance(c!, 300, 10);
      await setBalance(c!, -MAX_KOBO, 20);
      expect(await find(b, c!.id)).to.deep.include({ creditBalance: -MAX_KOBO, updatedAt: at(20) });
    });

    it('totalOwedExceeds: true only when the business’s customers together owe more than the limit, summed exactly', async () => {
      const b = await seedBusiness(p.uow);
      const other = await seedBusiness(p.uow);
      const exceeds = (businessId: string, limit: number) => p.uow.read((r) => r.customers.totalOwedExceeds(businessId, limit));
      expect(await exceeds(b, 0)).to.equal(false);
      const [c1, c2] = await add(aCustomer(b), aCustomer(b), aCustomer(b));
      await setBalance(c1!, 600);
      await setBalance(c2!, 400);
      await add(aCustomer(other, { creditBalance: kobo(1_000_000) }));
      expect([await exceeds(b, 999), await exceeds(b, 1_000), await exceeds(b, 0)]).to.deep.equal([true, false, true]);
      // past the largest safe integer: the sum is still exact
      await setBalance(c1!, Number.MAX_SAFE_INTEGER);
      await setBalance(c2!, Number.MAX_SAFE_INTEGER);
      expect(await exceeds(b, Number.MAX_SAFE_INTEGER)).to.equal(true);
      expect((await find(b, c1!.id))?.creditBalance).to.equal(Number.MAX_SAFE_INTEGER);
      expect(await exceeds(randomUUID(), 0)).to.equal(false);
    });

    it('read-your-own-writes: inside one unit of work an added customer is found, listed, and its new balance counted', async () => {
      const b = await seedBusiness(p.uow);
      const c = aCustomer(b, { name: 'amaka', email: 'amaka@example.com' });
      const seen = await p.uow.run(async (r) => {
        await r.customers.add(c);
        const found = await r.customers.findById(b, c.id);
        const locked = await r.customers.findById(b, c.id, { forUpdate: true });
        const exists = await r.customers.exists(b, c.id);
        const listed = await r.customers.list(b, customerPage({ search: 'AMAKA@' }), {});
        expect(await r.customers.save({ ...c, name: 'amaka obi', updatedAt: at(1) })).to.equal('saved');
        await r.customers.setBalance(b, c.id, kobo(4_200), at(2));
        const saved = await r.customers.findById(b, c.id);
        const owing = await r.customers.list(b, customerPage(), { hasBalance: true });
        const over = [await r.customers.totalOwedExceeds(b, 4_199), await r.customers.totalOwedExceeds(b, 4_200)];
        return { found, locked, exists, listed, saved, owing, over };
      });
      expect(seen.found, 'findById').to.deep.equal(c);
      expect(seen.locked, 'findById forUpdate').to.deep.equal(c);
      expect(seen.exists, 'exists').to.equal(true);
      expect(ids(seen.listed), 'list').to.deep.equal([c.id]);
      const after = { ...c, name: 'amaka obi', creditBalance: 4_200, updatedAt: at(2) };
      expect(seen.saved, 'findById after save and setBalance').to.deep.equal(after);
      expect(seen.owing.items, 'list hasBalance').to.deep.equal([after]);
      expect(seen.over, 'totalOwedExceeds').to.deep.equal([true, false]);
      expect(await find(b, c.id), 'committed').to.deep.equal(after);
    });

    it('a rolled-back unit of work leaves nothing: no customer, no balance, its phone free again', async () => {
      const b = await seedBusiness(p.uow);
      const [kept] = await add(aCustomer(b));
      const lost = aCustomer(b);
      const failure = await p.uow
        .run(async (r) => {
          await r.customers.add(lost);
          await r.customers.setBalance(b, kept!.id, kobo(800), at(1));
          throw new Error('connection reset');
        })
        .catch((e: Error) => e.message);
      expect(failure).to.equal('connection reset');
      expect(await p.uow.run(async (r) => { await r.customers.add(lost); await r.customers.save({ ...kept!, name: 'gone' }); return rollback('refused'); })).to.equal('refused');
      expect(await find(b, lost.id)).to.equal(undefined);
      expect(await p.uow.read((r) => r.customers.exists(b, lost.id))).to.equal(false);
      expect(await find(b, kept!.id)).to.deep.equal(kept);
      expect(ids(await list(b))).to.deep.equal([kept!.id]);
      expect(await p.uow.read((r) => r.customers.totalOwedExceeds(b, 0))).to.equal(false);
      expect(await p.uow.run((r) => r.customers.add(aCustomer(b, { phone: lost.phone })))).to.equal('added');
    });

    it('findById forUpdate holds the customer until the transaction ends: a second locker sees the first one’s balance', async () => {
      const b = await seedBusiness(p.uow);
      const [c] = await add(aCustomer(b));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const first = p.uow.run(async (r) => {
        const x = (await r.customers.findById(b, c!.id, { forUpdate: true }))!;
        locked();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await r.customers.setBalance(b, x.id, kobo(x.creditBalance + 500), at(1));
      });
      const second = isLocked.then(() => p.uow.run(async (r) => (await r.customers.findById(b, c!.id, { forUpdate: true }))!.creditBalance));
      await first;
      expect(await second).to.equal(500);
    });

    describe('list', () => {
      let b: string;
      let cs: Customer[];
      before(async () => {
        b = await seedBusiness(p.uow);
        const other = await seedBusiness(p.uow);
        cs = await add(
          aCustomer(b, { name: 'emeka', email: 'emeka@shop.ng', createdAt: at(1) }),
          aCustomer(b, { name: 'bola', phone: '+2348031234567', createdAt: at(2) }),
          aCustomer(b, { name: 'chioma', createdAt: at(3) }),
          aCustomer(b, { name: 'bola', phone: null, createdAt: at(4) }),
          aCustomer(b, { name: 'dayo', createdAt: at(5) }),
          aCustomer(other, { name: 'bola', phone: '+2348031234567', createdAt: at(2) }),
        );
        await setBalance(cs[0]!, 300);
        await setBalance(cs[2]!, 100);
        await setBalance(cs[4]!, 300);
      });
      const c = (...i: number[]) => i.map((n) => cs[n]!.id);
      const sorted = (key: (x: Customer) => string | number) =>
        cs.slice(0, 5).map((x, i) => ({ key: key(x), id: x.id, i })).sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.id < y.id ? -1 : 1)).map((x) => x.id);
      const balances = [300, 0, 100, 0, 300];

      it('orders by created_at, name or credit balance (ties by id), both ways', async () => {
        expect(ids(await list(b))).to.deep.equal(c(0, 1, 2, 3, 4));
        expect(ids(await list(b, {}, { sortDir: 'desc' }))).to.deep.equal(c(4, 3, 2, 1, 0));
        expect(ids(await list(b, {}, { sortBy: 'name' }))).to.deep.equal(sorted((x) => x.name));
        expect(ids(await list(b, {}, { sortBy: 'name', sortDir: 'desc' }))).to.deep.equal(sorted((x) => x.name).reverse());
        const byBalance = sorted((x) => balances[cs.indexOf(x)]!);
        expect(ids(await list(b, {}, { sortBy: 'credit_balance' }))).to.deep.equal(byBalance);
        expect(ids(await list(b, {}, { sortBy: 'credit_balance', sortDir: 'desc' }))).to.deep.equal([...byBalance].reverse());
      });

      it('hasBalance keeps those who owe; search matches name, phone or e-mail in any case; created_at bounds; keyset pages', async () => {
        expect(ids(await list(b, { hasBalance: true }))).to.deep.equal(c(0, 2, 4));
        expect(ids(await list(b, { hasBalance: false }))).to.deep.equal(c(0, 1, 2, 3, 4));
        expect(ids(await list(b, {}, { search: 'BOLA' }))).to.deep.equal(c(1, 3));
        expect(ids(await list(b, {}, { search: '803123' }))).to.deep.equal(c(1));
        expect(ids(await list(b, {}, { search: '@shop.NG' }))).to.deep.equal(c(0));
        expect(ids(await list(b, { hasBalance: true }, { search: 'M' }))).to.deep.equal(c(0, 2));
        expect(ids(await list(b, {}, { from: at(2), to: at(4) }))).to.deep.equal(c(1, 2));
        for (const sortBy of ['created_at', 'name', 'credit_balance'] as const) {
          const all = ids(await list(b, {}, { sortBy, sortDir: 'desc' }));
          const walked: string[] = [];
          let page = await list(b, {}, { sortBy, sortDir: 'desc', limit: 2 });
          for (;;) {
            walked.push(...ids(page));
            if (!page.hasNext) break;
            expect(page.next?.id).to.equal(page.items[1]!.id);
            page = await list(b, {}, { sortBy, sortDir: 'desc', limit: 2, after: page.next! });
          }
          expect(walked, sortBy).to.deep.equal(all);
        }
      });
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
