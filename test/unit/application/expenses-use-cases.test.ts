import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork } from '../../../bootstrap/persistence.js';
import { createExpenseCategory, deleteExpenseCategory, listExpenseCategories, renameExpenseCategory } from '../../../application/expenses/manage-categories.js';
import { createExpense, deleteExpense, expenseSummary, getExpense, listExpenses, updateExpense, type ExpenseFields } from '../../../application/expenses/manage-expenses.js';
import { register } from '../../../application/auth/register.js';
import { DEFAULT_EXPENSE_CATEGORIES } from '../../../domain/expense.js';
import { kobo } from '../../../domain/money.js';
import type { E164Phone } from '../../../domain/phone.js';
import type { Actor } from '../../../domain/roles.js';
import { aBranch, seedTenant } from '../../support/builders.js';
import { recordingOutbox, testClock } from '../../support/test-app.js';

const right = <A>(r: E.Either<unknown, A>): A => {
  if (E.isLeft(r)) throw new Error(`expected a success, got ${JSON.stringify(r.left)}`);
  return r.right;
};
const left = (r: E.Either<unknown, unknown>) => (E.isLeft(r) ? r.left : expect.fail(`expected a failure, got ${JSON.stringify(r)}`));

/** A tenant with an owner, a staff member on a second branch, and a Rent category; 2026-11-22 10:00 UTC (11:00 in Lagos). */
const setup = async (at = '2026-11-22T10:00:00.000Z') => {
  const uow = inMemoryUnitOfWork();
  const deps = { uow, clock: testClock(new Date(at)), crypto: nodeCrypto(new Uint8Array(32)) };
  const t = await seedTenant(uow);
  const shop = aBranch(t.business.id, { name: 'shop 2' });
  const staffUser = randomUUID();
  await uow.run(async (r) => {
    await r.branches.add(shop);
    await r.users.add({ ...t.user, id: staffUser, phone: null, email: `${staffUser}@example.com` });
    await r.memberships.add({ ...t.membership, id: randomUUID(), userId: staffUser, role: 'STAFF', branchId: shop.id });
  });
  const owner: Actor = t.actor;
  const staff: Actor = { userId: staffUser, businessId: t.business.id, roles: ['STAFF'] };
  const rent = right(await createExpenseCategory(deps)(owner, 'Rent'));
  const fields = (o: Partial<ExpenseFields> = {}): ExpenseFields => ({ categoryId: rent.id, amount: kobo(150_000), description: 'Shop rent', paymentMethod: 'TRANSFER', ...o });
  return { uow, deps, owner, staff, rent, shop, t, fields };
};

describe('expenses use cases (in memory)', () => {
  it('records an expense: today in Lagos by default (23:30 UTC is the next Lagos day), the caller\'s branch, the category\'s name', async () => {
    const { deps, owner, staff, t, shop, fields } = await setup('2026-11-22T23:30:00.000Z');
    const e = right(await createExpense(deps)(owner, fields({ vendor: 'Mr Ade' })));
    expect(e).to.include({ spentOn: '2026-11-23', branchId: t.branch.id, categoryName: 'Rent', amount: 150_000, vendor: 'Mr Ade', reference: null, createdBy: owner.userId });
    expect(right(await createExpense(deps)(staff, fields())).branchId).to.equal(shop.id);
    expect(right(await createExpense(deps)(staff, fields({ branchId: t.branch.id }))).branchId).to.equal(t.branch.id);
  });

  it('refuses an amount of 0 or less, a day after today in Lagos, an unknown category, an unknown or archived branch', async () => {
    const { deps, owner, uow, t, fields } = await setup('2026-11-22T22:59:59.000Z');
    expect(left(await createExpense(deps)(owner, fields({ amount: kobo(0) })))).to.deep.equal({ _tag: 'AmountNotPositive', field: 'amount' });
    expect(left(await createExpense(deps)(owner, fields({ amount: kobo(-1) })))).to.include({ _tag: 'AmountNotPositive' });
    expect(left(await createExpense(deps)(owner, fields({ spentOn: '2026-11-23' })))).to.deep.equal({ _tag: 'SpentOnInFuture', spentOn: '2026-11-23', today: '2026-11-22' });
    expect(right(await createExpense(deps)(owner, fields({ spentOn: '2026-11-22' }))).spentOn).to.equal('2026-11-22');
    const unknown = randomUUID();
    expect(left(await createExpense(deps)(owner, fields({ categoryId: unknown })))).to.deep.equal({ _tag: 'UnknownCategory', categoryId: unknown });
    expect(left(await createExpense(deps)(owner, fields({ branchId: unknown })))).to.include({ _tag: 'UnknownBranch' });
    const archived = aBranch(t.business.id, { archivedAt: new Date() });
    await uow.run((r) => r.branches.add(archived));
    expect(left(await createExpense(deps)(owner, fields({ branchId: archived.id })))).to.include({ _tag: 'UnknownBranch' });
    // another business's category is unknown here
    const other = await seedTenant(uow);
    const theirs = right(await createExpenseCategory(deps)(other.actor, 'Theirs'));
    expect(left(await createExpense(deps)(owner, fields({ categoryId: theirs.id })))).to.include({ _tag: 'UnknownCategory' });
  });

  it('STAFF read only their own: another member\'s expense is NotFound, lists and the summary hold only theirs', async () => {
    const { deps, owner, staff, fields } = await setup();
    const mine = right(await createExpense(deps)(staff, fields({ amount: kobo(100) })));
    const owners = right(await createExpense(deps)(owner, fields({ amount: kobo(900) })));
    expect(left(await getExpense(deps)(staff, owners.id))).to.deep.equal({ _tag: 'NotFound' });
    expect(right(await getExpense(deps)(staff, mine.id)).id).to.equal(mine.id);
    expect(right(await getExpense(deps)(owner, mine.id)).id).to.equal(mine.id);
    const page = { sortBy: 'spent_on' as const, sortDir: 'desc' as const, limit: 20 };
    expect((await listExpenses(deps)(staff, page, {})).items.map((e) => e.id)).to.deep.equal([mine.id]);
    // asking for another member's expenses still shows only one's own
    expect((await listExpenses(deps)(staff, page, { createdBy: owner.userId })).items).to.deep.equal([]);
    expect((await listExpenses(deps)(owner, page, {})).items).to.have.length(2);
    expect(await expenseSummary(deps)(staff, 'category', {})).to.deep.include({ total: 100n, count: 1 });
    expect(await expenseSummary(deps)(owner, 'category', {})).to.deep.include({ total: 1000n, count: 2 });
  });

  it('updates the fields given under the same rules; null clears vendor and reference', async () => {
    const { deps, owner, fields } = await setup();
    const e = right(await createExpense(deps)(owner, fields({ vendor: 'Mr Ade', reference: 'INV-1' })));
    const fuel = right(await createExpenseCategory(deps)(owner, 'Fuel'));
    const changed = right(await updateExpense(deps)(owner, e.id, { amount: kobo(200), categoryId: fuel.id, vendor: null, reference: null, spentOn: '2026-11-01' }));
    expect(changed).to.include({ amount: 200, categoryId: fuel.id, categoryName: 'Fuel', vendor: null, reference: null, spentOn: '2026-11-01', description: 'Shop rent' });
    expect(right(await getExpense(deps)(owner, e.id))).to.deep.equal(changed);
    expect(left(await updateExpense(deps)(owner, e.id, { amount: kobo(0) }))).to.include({ _tag: 'AmountNotPositive' });
    expect(left(await updateExpense(deps)(owner, e.id, { spentOn: '2026-11-23' }))).to.include({ _tag: 'SpentOnInFuture' });
    expect(left(await updateExpense(deps)(owner, e.id, { categoryId: randomUUID() }))).to.include({ _tag: 'UnknownCategory' });
    expect(left(await updateExpense(deps)(owner, randomUUID(), { amount: kobo(5) }))).to.deep.equal({ _tag: 'NotFound' });
  });

  it('a deleted expense is NotFound, out of lists and the summary; deleting twice is NotFound', async () => {
    const { deps, owner, fields } = await setup();
    const e = right(await createExpense(deps)(owner, fields()));
    expect(right(await deleteExpense(deps)(owner, e.id))).to.deep.equal({ id: e.id, deletedAt: deps.clock.now() });
    expect(left(await getExpense(deps)(owner, e.id))).to.deep.equal({ _tag: 'NotFound' });
    expect(left(await deleteExpense(deps)(owner, e.id))).to.deep.equal({ _tag: 'NotFound' });
    expect(left(await updateExpense(deps)(owner, e.id, { amount: kobo(1) }))).to.deep.equal({ _tag: 'NotFound' });
    expect((await listExpenses(deps)(owner, { sortBy: 'spent_on', sortDir: 'desc', limit: 20 }, {})).items).to.deep.equal([]);
    expect(await expenseSummary(deps)(owner, 'day', {})).to.deep.equal({ groups: [], total: 0n, count: 0 });
  });

  it('list: start_date/end_date instants select their Lagos days of spent_on', async () => {
    const { deps, owner, fields } = await setup();
    for (const spentOn of ['2026-11-01', '2026-11-02', '2026-11-03']) await createExpense(deps)(owner, fields({ spentOn }));
    const days = async (from: string, to: string) =>
      (await listExpenses(deps)(owner, { sortBy: 'spent_on', sortDir: 'asc', limit: 20, from: new Date(from), to: new Date(to) }, {})).items.map((e) => e.spentOn);
    // the Lagos day 2026-11-02 runs from 2026-11-01T23:00Z to 2026-11-02T23:00Z
    expect(await days('2026-11-01T23:00:00.000Z', '2026-11-02T23:00:00.000Z')).to.deep.equal(['2026-11-02']);
    expect(await days('2026-11-01T22:59:59.999Z', '2026-11-03T23:00:00.000Z')).to.deep.equal(['2026-11-01', '2026-11-02', '2026-11-03']);
  });

  it('categories: duplicate names (ignoring case) refused; rename; delete only when no expense (deleted ones too) is filed under it', async () => {
    const { deps, owner, rent, fields } = await setup();
    expect(left(await createExpenseCategory(deps)(owner, 'RENT'))).to.deep.equal({ _tag: 'DuplicateCategory', name: 'RENT' });
    const misc = right(await createExpenseCategory(deps)(owner, 'Misc'));
    expect(left(await renameExpenseCategory(deps)(owner, misc.id, 'rent'))).to.include({ _tag: 'DuplicateCategory' });
    expect(right(await renameExpenseCategory(deps)(owner, misc.id, 'misc'))).to.include({ name: 'misc' });
    const byName = { sortBy: 'name', sortDir: 'asc', limit: 100 } as const;
    expect((await listExpenseCategories(deps)(owner, byName)).items.map((c) => c.name)).to.deep.equal(['misc', 'Rent']);
    const e = right(await createExpense(deps)(owner, fields()));
    expect(left(await deleteExpenseCategory(deps)(owner, rent.id))).to.deep.equal({ _tag: 'CategoryInUse' });
    right(await deleteExpense(deps)(owner, e.id));
    expect(left(await deleteExpenseCategory(deps)(owner, rent.id))).to.deep.equal({ _tag: 'CategoryInUse' });
    right(await deleteExpenseCategory(deps)(owner, misc.id));
    expect(left(await deleteExpenseCategory(deps)(owner, misc.id))).to.deep.equal({ _tag: 'NotFound' });
    expect(left(await renameExpenseCategory(deps)(owner, randomUUID(), 'x'))).to.deep.equal({ _tag: 'NotFound' });
  });

  it('registration gives the new business the default categories, in the same unit of work', async () => {
    const uow = inMemoryUnitOfWork();
    const outbox = recordingOutbox();
    const deps = { uow, clock: testClock(), crypto: nodeCrypto(new Uint8Array(32)), messages: outbox };
    const reg = right(await register(deps)({ identifier: { kind: 'phone', value: '+2348031234567' as E164Phone }, firstName: 'Ada', lastName: 'Obi', businessName: 'Ada Stores' }));
    const membership = await uow.read((r) => r.memberships.findByUser(reg.userId));
    const actor: Actor = { userId: reg.userId, businessId: membership!.businessId, roles: ['BUSINESS_OWNER'] };
    const categories = (await listExpenseCategories(deps)(actor, { sortBy: 'created_at', sortDir: 'desc', limit: 100 })).items;
    expect(categories.map((c) => c.name).sort()).to.deep.equal([...DEFAULT_EXPENSE_CATEGORIES].sort());
    expect(categories.every((c) => c.isDefault)).to.equal(true);
  });
});
