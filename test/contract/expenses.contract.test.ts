import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ExpenseFilter, ExpenseSort } from '../../application/expenses/ports.js';
import type { PageRequest } from '../../application/ports/list.js';
import type { Expense, ExpenseCategory } from '../../domain/expense.js';
import { kobo, MAX_KOBO } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aUser, NOW, seedTenant } from '../support/builders.js';

// The ExpenseRepository and ExpenseCategoryRepository contract on every adapter: tenancy, filters,
// search, sorts and keyset pages, the soft delete, the summary's groups and totals, category names
// unique ignoring case, and read-your-own-writes inside one unit of work.

const at = (ms: number) => new Date(NOW.getTime() + ms);
const page = (o: Partial<PageRequest<ExpenseSort>> = {}): PageRequest<ExpenseSort> => ({ sortBy: 'spent_on', sortDir: 'desc', limit: 100, ...o });

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`expenses contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const aCategory = (businessId: string, o: Partial<ExpenseCategory> = {}): ExpenseCategory => ({
      id: randomUUID(), businessId, name: `cat ${randomUUID().slice(0, 8)}`, isDefault: false, createdAt: NOW, updatedAt: NOW, ...o,
    });
    /** A business (owner, default branch) with two categories, committed. */
    const tenant = async () => {
      const t = await seedTenant(p.uow);
      const rent = aCategory(t.business.id, { name: 'rent', isDefault: true });
      const fuel = aCategory(t.business.id, { name: 'fuel' });
      await p.uow.run(async (r) => {
        await r.expenseCategories.add(rent);
        await r.expenseCategories.add(fuel);
      });
      const expense = (o: Partial<Expense> = {}): Expense => ({
        id: randomUUID(), businessId: t.business.id, branchId: t.branch.id, categoryId: rent.id, categoryName: rent.name, amount: kobo(1000), description: 'shop rent',
        vendor: null, paymentMethod: 'CASH', spentOn: '2026-11-20', reference: null, createdBy: t.user.id, createdAt: NOW, updatedAt: NOW, ...o,
      });
      const add = (...expenses: Expense[]) => p.uow.run(async (r) => { for (const e of expenses) await r.expenses.add(e); return expenses; });
      const list = (filter: ExpenseFilter = {}, o: Partial<PageRequest<ExpenseSort>> = {}) => p.uow.read((r) => r.expenses.list(t.business.id, page(o), filter));
      const ids = async (filter: ExpenseFilter = {}, o: Partial<PageRequest<ExpenseSort>> = {}) => (await list(filter, o)).items.map((e) => e.id);
      return { ...t, rent, fuel, expense, add, list, ids };
    };

    it('adds an expense and finds it by id with its category name, every field intact; another business finds nothing', async () => {
      const t = await tenant();
      const other = await tenant();
      const [full] = await t.add(t.expense({ amount: kobo(MAX_KOBO), vendor: 'Mr Ade', reference: 'INV-1', paymentMethod: 'TRANSFER', spentOn: '2026-01-31', createdAt: at(1), updatedAt: at(2) }));
      expect(await p.uow.read((r) => r.expenses.findById(t.business.id, full!.id))).to.deep.equal(full);
      expect(await p.uow.run((r) => r.expenses.findById(t.business.id, full!.id, { forUpdate: true }))).to.deep.equal(full);
      expect(await p.uow.read((r) => r.expenses.findById(other.business.id, full!.id))).to.equal(undefined);
      expect(await p.uow.read((r) => r.expenses.findById(t.business.id, randomUUID()))).to.equal(undefined);
      expect(await other.ids()).to.deep.equal([]);
      expect(await p.uow.run((r) => r.expenses.softDelete(other.business.id, full!.id, other.user.id, at(3)))).to.equal(false);
      expect(await p.uow.read((r) => r.expenses.summary(other.business.id, 'category', {}))).to.deep.equal({ groups: [], total: 0n, count: 0 });
    });

    it('saves the editable fields; a renamed category shows in its expenses', async () => {
      const t = await tenant();
      const [e] = await t.add(t.expense());
      const changed = { ...e!, categoryId: t.fuel.id, categoryName: t.fuel.name, amount: kobo(5), description: 'diesel', vendor: 'total', paymentMethod: 'POS' as const, spentOn: '2026-11-01', reference: 'R-9', updatedAt: at(9) };
      await p.uow.run((r) => r.expenses.save(changed));
      expect(await p.uow.read((r) => r.expenses.findById(t.business.id, e!.id))).to.deep.equal(changed);
      await p.uow.run((r) => r.expenseCategories.save({ ...t.fuel, name: 'Fuel and generator', updatedAt: at(10) }));
      expect((await p.uow.read((r) => r.expenses.findById(t.business.id, e!.id)))!.categoryName).to.equal('Fuel and generator');
    });

    it('filters by category, payment method, branch, creator and spent_on days (inclusive); search over description, vendor, reference ignoring case', async () => {
      const t = await tenant();
      const clerk = aUser();
      await p.uow.run((r) => r.users.add(clerk));
      const [a, b, c, d] = await t.add(
        t.expense({ spentOn: '2026-11-01', description: 'Diesel for GEN', paymentMethod: 'CASH' }),
        t.expense({ spentOn: '2026-11-02', categoryId: t.fuel.id, vendor: 'Total Allen', paymentMethod: 'POS' }),
        t.expense({ spentOn: '2026-11-03', reference: 'inv-100%', createdBy: clerk.id }),
        t.expense({ spentOn: '2026-11-04', description: 'a_b' }),
      );
      expect(await t.ids({ categoryId: t.fuel.id })).to.deep.equal([b!.id]);
      expect(await t.ids({ paymentMethod: 'POS' })).to.deep.equal([b!.id]);
      expect(await t.ids({ branchId: t.branch.id })).to.have.length(4);
      expect(await t.ids({ branchId: randomUUID() })).to.deep.equal([]);
      expect(await t.ids({ createdBy: clerk.id })).to.deep.equal([c!.id]);
      expect(await t.ids({ spentFrom: '2026-11-02', spentTo: '2026-11-03' })).to.deep.equal([c!.id, b!.id]);
      expect(await t.ids({ spentFrom: '2026-11-04' })).to.deep.equal([d!.id]);
      expect(await t.ids({ spentTo: '2026-11-01' })).to.deep.equal([a!.id]);
      expect(await t.ids({}, { search: 'diesel' })).to.deep.equal([a!.id]);
      expect(await t.ids({}, { search: 'ALLEN' })).to.deep.equal([b!.id]);
      expect(await t.ids({}, { search: '100%' })).to.deep.equal([c!.id]);
      expect(await t.ids({}, { search: '%' })).to.deep.equal([c!.id]); // LIKE characters are literal
      expect(await t.ids({}, { search: 'a_b' })).to.deep.equal([d!.id]);
    });

    it('sorts by spent_on (ties by id), amount and created_at, and pages by keyset without skipping or repeating', async () => {
      const t = await tenant();
      const rows = await t.add(...Array.from({ length: 7 }, (_, i) => t.expense({ spentOn: `2026-11-0${1 + (i % 3)}`, amount: kobo(100 * (7 - i)), createdAt: at(i) })));
      const byKey = <K>(key: (e: Expense) => K, dir: 1 | -1) => [...rows].sort((x, y) => (key(x) < key(y) ? -dir : key(x) > key(y) ? dir : x.id < y.id ? -dir : dir)).map((e) => e.id);
      expect(await t.ids()).to.deep.equal(byKey((e) => e.spentOn, -1));
      expect(await t.ids({}, { sortDir: 'asc' })).to.deep.equal(byKey((e) => e.spentOn, 1));
      expect(await t.ids({}, { sortBy: 'amount', sortDir: 'asc' })).to.deep.equal(byKey((e) => e.amount, 1));
      expect(await t.ids({}, { sortBy: 'created_at' })).to.deep.equal(byKey((e) => e.createdAt.getTime(), -1));
      for (const sortBy of ['spent_on', 'amount', 'created_at'] as const) {
        const count = (await t.ids()).length;
        const seen: string[] = [];
        let after: PageRequest<ExpenseSort>['after'];
        for (let i = 0; i < 10; i++) {
          const pg = await t.list({}, { sortBy, limit: 3, ...(after ? { after } : {}) });
          seen.push(...pg.items.map((e) => e.id));
          if (!pg.hasNext) break;
          after = pg.next;
          if (i === 0) await t.add(t.expense({ spentOn: '2026-12-31', amount: kobo(10_000), createdAt: at(100 + seen.length) })); // lands before the cursor
        }
        expect(seen, sortBy).to.have.length(count);
        expect(new Set(seen).size, sortBy).to.equal(count);
      }
    });

    it('a soft-deleted expense is gone from findById, lists and the summary, stays in the table (its category in use); deleting again is false', async () => {
      const t = await tenant();
      const [kept, gone] = await t.add(t.expense({ amount: kobo(300) }), t.expense({ amount: kobo(700), categoryId: t.fuel.id }));
      expect(await p.uow.run((r) => r.expenses.softDelete(t.business.id, gone!.id, t.user.id, at(5)))).to.equal(true);
      expect(await p.uow.read((r) => r.expenses.findById(t.business.id, gone!.id))).to.equal(undefined);
      expect(await t.ids()).to.deep.equal([kept!.id]);
      expect(await p.uow.read((r) => r.expenses.summary(t.business.id, 'category', {}))).to.deep.equal({
        groups: [{ key: t.rent.id, label: 'rent', total: 300n, count: 1 }],
        total: 300n,
        count: 1,
      });
      expect(await p.uow.run((r) => r.expenses.softDelete(t.business.id, gone!.id, t.user.id, at(6)))).to.equal(false);
      await p.uow.run((r) => r.expenses.save({ ...gone!, amount: kobo(1) })); // a deleted expense is not changed
      expect(await p.uow.read((r) => r.expenseCategories.isInUse(t.business.id, t.fuel.id))).to.equal(true);
    });

    it('summary: per category (largest first), Lagos day and month (calendar order) and overall; bounded by days; sums past 2^53 kobo exactly', async () => {
      const t = await tenant();
      await t.add(
        t.expense({ spentOn: '2026-10-31', amount: kobo(250) }),
        t.expense({ spentOn: '2026-11-01', amount: kobo(100), categoryId: t.fuel.id }),
        t.expense({ spentOn: '2026-11-01', amount: kobo(1000) }),
        t.expense({ spentOn: '2026-11-15', amount: kobo(50), categoryId: t.fuel.id }),
      );
      const summary = (groupBy: 'category' | 'day' | 'month', f: ExpenseFilter = {}) => p.uow.read((r) => r.expenses.summary(t.business.id, groupBy, f));
      expect(await summary('category')).to.deep.equal({
        groups: [{ key: t.rent.id, label: 'rent', total: 1250n, count: 2 }, { key: t.fuel.id, label: 'fuel', total: 150n, count: 2 }],
        total: 1400n,
        count: 4,
      });
      // equal totals: by name
      const bank = aCategory(t.business.id, { name: 'Bank' });
      await p.uow.run((r) => r.expenseCategories.add(bank));
      await t.add(t.expense({ spentOn: '2026-08-01', amount: kobo(150), categoryId: bank.id }));
      expect((await summary('category', { spentFrom: '2026-10-01' })).groups.map((g) => g.label)).to.deep.equal(['rent', 'fuel']);
      expect((await summary('category')).groups.map((g) => g.label)).to.deep.equal(['rent', 'Bank', 'fuel']);
      await p.uow.run(async (r) => {
        for (const e of (await r.expenses.list(t.business.id, page(), { categoryId: bank.id })).items) await r.expenses.softDelete(t.business.id, e.id, t.user.id, at(1));
      });
      expect((await summary('day')).groups).to.deep.equal([
        { key: '2026-10-31', label: '2026-10-31', total: 250n, count: 1 },
        { key: '2026-11-01', label: '2026-11-01', total: 1100n, count: 2 },
        { key: '2026-11-15', label: '2026-11-15', total: 50n, count: 1 },
      ]);
      expect(await summary('month')).to.deep.equal({
        groups: [{ key: '2026-10', label: '2026-10', total: 250n, count: 1 }, { key: '2026-11', label: '2026-11', total: 1150n, count: 3 }],
        total: 1400n,
        count: 4,
      });
      expect(await summary('month', { spentFrom: '2026-11-01', spentTo: '2026-11-01' })).to.deep.include({ total: 1100n, count: 2 });
      await t.add(...Array.from({ length: 100 }, () => t.expense({ spentOn: '2026-09-01', amount: kobo(MAX_KOBO) })));
      expect((await summary('month')).total).to.equal(BigInt(MAX_KOBO) * 100n + 1400n);
    });

    it('categories: names unique ignoring case per business (the refusal leaves the transaction usable), listed by name; rename; remove', async () => {
      const t = await tenant();
      const other = await tenant();
      const later = aCategory(t.business.id, { name: 'transport' });
      await p.uow.run(async (r) => {
        expect(await r.expenseCategories.add(aCategory(t.business.id, { name: 'RENT' }))).to.equal('duplicate_name');
        expect(await r.expenseCategories.add(later)).to.equal('added');
        expect(await r.expenseCategories.add(aCategory(t.business.id, { name: 'Transport' }))).to.equal('duplicate_name');
        expect(await r.expenseCategories.save({ ...t.fuel, name: 'Rent' })).to.equal('duplicate_name');
      });
      expect((await p.uow.read((r) => r.expenseCategories.list(t.business.id))).map((c) => c.name)).to.deep.equal(['fuel', 'rent', 'transport']);
      expect(await p.uow.read((r) => r.expenseCategories.findById(t.business.id, t.rent.id))).to.deep.equal(t.rent);
      expect(await p.uow.read((r) => r.expenseCategories.findById(other.business.id, t.rent.id))).to.equal(undefined);
      expect(await p.uow.run((r) => r.expenseCategories.findById(t.business.id, t.rent.id, { lock: 'change' }))).to.deep.equal(t.rent);
      expect(await p.uow.run((r) => r.expenseCategories.save({ ...t.fuel, name: 'FUEL', updatedAt: at(1) }))).to.equal('saved');
      expect((await p.uow.read((r) => r.expenseCategories.findById(t.business.id, t.fuel.id)))!.name).to.equal('FUEL');
      expect(await p.uow.read((r) => r.expenseCategories.isInUse(t.business.id, later.id))).to.equal(false);
      await p.uow.run((r) => r.expenseCategories.remove(other.business.id, later.id)); // another business removes nothing
      expect(await p.uow.read((r) => r.expenseCategories.findById(t.business.id, later.id))).to.deep.equal(later);
      await p.uow.run((r) => r.expenseCategories.remove(t.business.id, later.id));
      expect(await p.uow.read((r) => r.expenseCategories.findById(t.business.id, later.id))).to.equal(undefined);
    });

    it('categories page by keyset (issue 32): by created_at or by name ignoring case, walked 2 at a time; search; only the business\'s own', async () => {
      const t = await tenant();
      const other = await tenant();
      const extra = [aCategory(t.business.id, { name: 'Banana', createdAt: at(3) }), aCategory(t.business.id, { name: 'apple', createdAt: at(1) }), aCategory(t.business.id, { name: 'Cherry', createdAt: at(2) })];
      await p.uow.run(async (r) => { for (const c of extra) await r.expenseCategories.add(c); });
      const walk = async (req: Omit<PageRequest<'created_at' | 'name'>, 'limit' | 'after'>) => {
        const names: string[] = [];
        let after: PageRequest['after'];
        for (;;) {
          const pg = await p.uow.read((r) => r.expenseCategories.page(t.business.id, { ...req, limit: 2, ...(after ? { after } : {}) }));
          names.push(...pg.items.map((c) => c.name));
          expect(pg.items.length).to.be.at.most(2);
          if (!pg.hasNext) break;
          after = pg.next;
        }
        return names;
      };
      expect(await walk({ sortBy: 'name', sortDir: 'asc' })).to.deep.equal(['apple', 'Banana', 'Cherry', 'fuel', 'rent']);
      expect(await walk({ sortBy: 'name', sortDir: 'desc' })).to.deep.equal(['rent', 'fuel', 'Cherry', 'Banana', 'apple']);
      const newest = await walk({ sortBy: 'created_at', sortDir: 'desc' });
      expect(newest.slice(0, 3)).to.deep.equal(['Banana', 'Cherry', 'apple']);
      expect(newest.slice(3).sort()).to.deep.equal(['fuel', 'rent']);
      expect((await p.uow.read((r) => r.expenseCategories.page(t.business.id, { sortBy: 'name', sortDir: 'asc', limit: 10, search: 'AN' }))).items.map((c) => c.name)).to.deep.equal(['Banana']);
      expect((await p.uow.read((r) => r.expenseCategories.page(other.business.id, { sortBy: 'name', sortDir: 'asc', limit: 10 }))).items.map((c) => c.name)).to.deep.equal(['fuel', 'rent']);
    });

    it('reads its own writes inside one unit of work: a new category, its expense, the list and the summary', async () => {
      const t = await tenant();
      await p.uow.run(async (r) => {
        const misc = aCategory(t.business.id, { name: 'misc' });
        await r.expenseCategories.add(misc);
        const e = t.expense({ categoryId: misc.id, categoryName: 'misc', amount: kobo(42) });
        await r.expenses.add(e);
        expect(await r.expenses.findById(t.business.id, e.id)).to.deep.equal(e);
        expect((await r.expenses.list(t.business.id, page(), {})).items.map((x) => x.id)).to.deep.equal([e.id]);
        expect(await r.expenses.summary(t.business.id, 'category', {})).to.deep.include({ total: 42n, count: 1 });
        expect(await r.expenseCategories.isInUse(t.business.id, misc.id)).to.equal(true);
        await r.expenses.softDelete(t.business.id, e.id, t.user.id, at(1));
        expect(await r.expenses.findById(t.business.id, e.id)).to.equal(undefined);
      });
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
