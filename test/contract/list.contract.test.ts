import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import type { Branch, Business, Membership, MembershipStatus, User } from '../../domain/business.js';
import type { E164Phone } from '../../domain/phone.js';
import type { Page, PageRequest, SortDir, SortValue } from '../../application/ports/list.js';
import type { BranchSort, StaffMember, StaffSort } from '../../application/business/ports.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import { inMemory, openPostgres, type Persistence, type AppRepositories } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBranch, aBusiness, aUser, NOW, seedTenant } from '../support/builders.js';

// The list helper's contract (API-DECISIONS "Lists"): keyset pages ordered by (sort field, id), ties
// broken by id in the sort direction, no row skipped or repeated while rows change between pages;
// search, date bounds, tenancy and archiving. Checked through BranchRepository.list and
// MembershipRepository.list on every adapter.
//
// Text ordering: PostgreSQL orders text by the database collation (en_US.UTF-8, C, ...), which may
// order mixed case, spaces or punctuation differently from JavaScript's code-unit order. Every name
// that takes part in an ordering assertion is made of lowercase ASCII letters only, where every
// collation and JavaScript agree, so both adapters are held to the same expected order.

const now = NOW;
const at = (ms: number) => new Date(now.getTime() + ms);



const addBranches = (uow: UnitOfWork<AppRepositories>, branches: Branch[]) =>
  uow.run(async (r) => {
    for (const b of branches) await r.branches.add(b);
  });

type Key = { value: SortValue; id: string };
const cmp = <V extends SortValue>(a: V, b: V) => (a < b ? -1 : a > b ? 1 : 0);
/** Order of two keys in the walk's direction: negative when `a` comes first. */
const order = (dir: SortDir, a: Key, b: Key) => (dir === 'asc' ? 1 : -1) * (cmp(a.value, b.value) || cmp(a.id, b.id));

const branchKey = (sortBy: BranchSort, b: Branch): Key => ({
  value: sortBy === 'name' ? b.name : b.createdAt.toISOString(),
  id: b.id,
});
const staffKey = (sortBy: StaffSort, m: StaffMember): Key => ({
  value: sortBy === 'first_name' ? m.firstName : sortBy === 'last_name' ? m.lastName : m.createdAt.toISOString(),
  id: m.id,
});

/** The rows in the order a list must return them. */
const expectedOrder = <T>(rows: T[], dir: SortDir, key: (row: T) => Key) => [...rows].sort((a, b) => order(dir, key(a), key(b)));

/**
 * Walks every page (each starting after the previous page's `next`), checking the page shape on the
 * way: full pages while hasNext, `next` = the last item's key, no `next` on the last page.
 */
const walk = async <T>(
  list: (after: Page<T>['next']) => Promise<Page<T>>,
  limit: number,
  key: (row: T) => Key,
): Promise<{ rows: T[]; pages: number }> => {
  const rows: T[] = [];
  let after: Page<T>['next'];
  for (let pages = 1; pages <= 1000; pages++) {
    const page = await list(after);
    expect(page.items.length).to.be.at.most(limit);
    rows.push(...page.items);
    if (!page.hasNext) {
      expect(page.next, 'no next on the last page').to.equal(undefined);
      return { rows, pages };
    }
    expect(page.items).to.have.length(limit);
    const last = page.items[page.items.length - 1]!;
    expect(page.next).to.deep.equal(key(last));
    after = page.next;
  }
  throw new Error('the walk did not end');
};

const SORT_DIRS: SortDir[] = ['asc', 'desc'];
const BRANCH_SORT_LIST: BranchSort[] = ['created_at', 'name'];

const branchPage = (sortBy: BranchSort, sortDir: SortDir, limit: number, after: Page<Branch>['next'], extra: Partial<PageRequest<BranchSort>> = {}) =>
  ({ sortBy, sortDir, limit, ...(after ? { after } : {}), ...extra }) satisfies PageRequest<BranchSort>;

/** Every page of a business's branches for one request shape. */
const allBranches = async (uow: UnitOfWork<AppRepositories>, businessId: string, req: Partial<PageRequest<BranchSort>> = {}) => {
  const sortBy = req.sortBy ?? 'created_at';
  const sortDir = req.sortDir ?? 'asc';
  const limit = req.limit ?? 100;
  const { rows } = await walk(
    (after) => uow.read((r) => r.branches.list(businessId, branchPage(sortBy, sortDir, limit, after, req))),
    limit,
    (b) => branchKey(sortBy, b),
  );
  return rows;
};
const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);
const sortedIds = (rows: { id: string }[]) => idsOf(rows).sort();

// Names and instants drawn from small pools, so the sort field ties often.
const NAMES = ['ada', 'ada', 'bola', 'chi', 'chi', 'dayo', 'emeka', 'zainab'];
const INSTANTS = [at(0), at(0), at(1), at(1000), at(-1), at(86_400_000), at(1)];

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`list helper contract: ${name}`, function () {
    this.timeout(120_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    describe('branches', () => {
      it('pages in every sort and direction in (sort field, id) order, ties broken by id, every row exactly once', async () => {
        const t = await seedTenant(p.uow);
        const extra = Array.from({ length: 29 }, (_, i) =>
          aBranch(t.business.id, { name: NAMES[i % NAMES.length]!, createdAt: INSTANTS[(i * 3) % INSTANTS.length]! }),
        );
        // Several branches with the same name AND the same created_at: only the id tells them apart.
        extra.push(...Array.from({ length: 5 }, () => aBranch(t.business.id, { name: 'ada', createdAt: at(0) })));
        await addBranches(p.uow, extra);
        const all = [t.branch, ...extra];
        for (const sortBy of BRANCH_SORT_LIST) {
          for (const sortDir of SORT_DIRS) {
            const expected = idsOf(expectedOrder(all, sortDir, (b) => branchKey(sortBy, b)));
            for (const limit of [1, 3, 7, 34, 35, 100]) {
              const { rows, pages } = await walk(
                (after) => p.uow.read((r) => r.branches.list(t.business.id, branchPage(sortBy, sortDir, limit, after))),
                limit,
                (b) => branchKey(sortBy, b),
              );
              const what = `${sortBy} ${sortDir} limit ${limit}`;
              expect(idsOf(rows), what).to.deep.equal(expected);
              expect(new Set(idsOf(rows)).size, what).to.equal(all.length);
              // hasNext looks one row ahead, so a page holding exactly the remaining rows is the last.
              expect(pages, what).to.equal(Math.max(1, Math.ceil(all.length / limit)));
            }
          }
        }
        // The rows come back whole.
        const byName = await allBranches(p.uow, t.business.id, { sortBy: 'name', sortDir: 'asc' });
        const one = byName.find((b) => b.id === extra[0]!.id)!;
        expect(one).to.deep.include({ businessId: t.business.id, name: extra[0]!.name, isDefault: false, archivedAt: null, address: null, phone: null });
        expect(one.createdAt.getTime()).to.equal(extra[0]!.createdAt.getTime());
      });

      it('a page of exactly the remaining rows says hasNext false (no empty last page)', async () => {
        const t = await seedTenant(p.uow);
        await addBranches(p.uow, [aBranch(t.business.id, { name: 'bola' }), aBranch(t.business.id, { name: 'chi' })]);
        const page = await p.uow.read((r) => r.branches.list(t.business.id, branchPage('name', 'asc', 3, undefined)));
        expect(page.items.map((b) => b.name)).to.deep.equal(['bola', 'chi', 'main']);
        expect(page.hasNext).to.equal(false);
        expect(page.next).to.equal(undefined);
        const first = await p.uow.read((r) => r.branches.list(t.business.id, branchPage('name', 'asc', 2, undefined)));
        expect(first.hasNext).to.equal(true);
        const second = await p.uow.read((r) => r.branches.list(t.business.id, branchPage('name', 'asc', 2, first.next)));
        expect(second.items.map((b) => b.name)).to.deep.equal(['main']);
        expect(second.hasNext).to.equal(false);
      });

      it('stays consistent while rows are inserted and deleted between pages (property)', async () => {
        const step = fc.record({
          inserts: fc.array(fc.record({ name: fc.nat(NAMES.length - 1), instant: fc.nat(INSTANTS.length - 1) }), { maxLength: 3 }),
          deleteSeen: fc.array(fc.nat(), { maxLength: 2 }),
          deleteUnseen: fc.array(fc.nat(), { maxLength: 2 }),
        });
        const scenario = fc.record({
          sortBy: fc.constantFrom<BranchSort>(...BRANCH_SORT_LIST),
          sortDir: fc.constantFrom<SortDir>(...SORT_DIRS),
          initial: fc.array(fc.record({ name: fc.nat(NAMES.length - 1), instant: fc.nat(INSTANTS.length - 1) }), { minLength: 4, maxLength: 16 }),
          steps: fc.array(step, { minLength: 1, maxLength: 8 }),
        });
        const LIMIT = 3;
        await fc.assert(
          fc.asyncProperty(scenario, async ({ sortBy, sortDir, initial, steps }) => {
            const t = await seedTenant(p.uow);
            const key = (b: Branch) => branchKey(sortBy, b);
            const make = (s: { name: number; instant: number }) =>
              aBranch(t.business.id, { name: NAMES[s.name]!, createdAt: INSTANTS[s.instant]! });
            const start = initial.map(make);
            await addBranches(p.uow, start);

            /** The rows as they are now (the model), and how each came and went. */
            const live = new Map<string, Branch>([t.branch, ...start].map((b) => [b.id, b]));
            const fromStart = new Set(live.keys());
            const deleted = new Set<string>();
            /** Rows inserted ahead of the walk's position: the walk must still reach them. */
            const insertedAhead = new Set<string>();
            const seen: Branch[] = [];
            let after: Page<Branch>['next'];
            for (let pageNo = 0; ; pageNo++) {
              if (pageNo > 200) throw new Error('the walk did not end');
              const page = await p.uow.read((r) => r.branches.list(t.business.id, branchPage(sortBy, sortDir, LIMIT, after)));
              for (const b of page.items) {
                expect(live.has(b.id), `row ${b.id} was returned after it was deleted`).to.equal(true);
                const previous = seen[seen.length - 1];
                if (previous) expect(order(sortDir, key(previous), key(b)), 'rows come in strict (sort, id) order').to.be.lessThan(0);
                seen.push(b);
              }
              if (!page.hasNext) break;
              after = page.next;
              expect(after).to.deep.equal(key(page.items[page.items.length - 1]!));
              const s = steps[pageNo];
              if (!s) continue;
              const seenIds = new Set(idsOf(seen));
              const candidates = (wasSeen: boolean) =>
                [...live.values()].filter((b) => !b.isDefault && seenIds.has(b.id) === wasSeen).sort((a, b) => cmp(a.id, b.id));
              const toDelete = new Set<string>();
              for (const [picks, wasSeen] of [[s.deleteSeen, true], [s.deleteUnseen, false]] as const) {
                const pool = candidates(wasSeen);
                for (const i of picks) if (pool.length > 0) toDelete.add(pool[i % pool.length]!.id);
              }
              const added = s.inserts.map(make);
              await p.uow.run(async (r) => {
                for (const id of toDelete) await r.branches.remove(t.business.id, id);
                for (const b of added) await r.branches.add(b);
              });
              for (const id of toDelete) {
                live.delete(id);
                deleted.add(id);
              }
              for (const b of added) {
                live.set(b.id, b);
                if (order(sortDir, after!, key(b)) < 0) insertedAhead.add(b.id);
              }
            }
            const seenIds = idsOf(seen);
            expect(new Set(seenIds).size, 'no row is repeated').to.equal(seenIds.length);
            const counts = new Map<string, number>();
            for (const id of seenIds) counts.set(id, (counts.get(id) ?? 0) + 1);
            for (const id of fromStart) {
              if (!deleted.has(id)) expect(counts.get(id), `row ${id} present for the whole walk is returned once`).to.equal(1);
            }
            for (const id of insertedAhead) {
              if (!deleted.has(id)) expect(counts.get(id), `row ${id} inserted ahead of the walk is returned once`).to.equal(1);
            }
            // A row inserted behind the walk's position cannot appear (it would break the strict order above).
          }),
          { numRuns: 25 },
        );
      });

      it('search: case-insensitive substring over name, address and phone; % _ and \\ are literal', async () => {
        const t = await seedTenant(p.uow);
        const ikeja = aBranch(t.business.id, { name: 'Ikeja Mall', address: null, phone: null });
        const allen = aBranch(t.business.id, { name: 'second', address: 'Plot 5, ALLEN Avenue', phone: null });
        const phoned = aBranch(t.business.id, { name: 'third', address: null, phone: '+2348031112222' });
        const percent = aBranch(t.business.id, { name: 'fifty%off' });
        const fiftyX = aBranch(t.business.id, { name: 'fiftyxoff' });
        const under = aBranch(t.business.id, { name: 'a_b shop' });
        const axb = aBranch(t.business.id, { name: 'axb shop' });
        const slash = aBranch(t.business.id, { name: 'c\\d' });
        const cd = aBranch(t.business.id, { name: 'cxd' });
        await addBranches(p.uow, [ikeja, allen, phoned, percent, fiftyX, under, axb, slash, cd]);
        const search = async (s: string) => sortedIds(await allBranches(p.uow, t.business.id, { search: s, limit: 2 }));
        expect(await search('IKEJA')).to.deep.equal(sortedIds([ikeja]));
        expect(await search('kEj')).to.deep.equal(sortedIds([ikeja]));
        expect(await search('allen av')).to.deep.equal(sortedIds([allen]));
        expect(await search('1112')).to.deep.equal(sortedIds([phoned]));
        expect(await search('+234803')).to.deep.equal(sortedIds([phoned]));
        expect(await search('y%o')).to.deep.equal(sortedIds([percent]));
        expect(await search('%')).to.deep.equal(sortedIds([percent]));
        expect(await search('a_b')).to.deep.equal(sortedIds([under]));
        expect(await search('_')).to.deep.equal(sortedIds([under]));
        expect(await search('c\\d')).to.deep.equal(sortedIds([slash]));
        expect(await search('\\')).to.deep.equal(sortedIds([slash]));
        expect(await search('SHOP')).to.deep.equal(sortedIds([under, axb]));
        expect(await search('nothing like it')).to.deep.equal([]);
      });

      it('from/to bound created_at: from inclusive, to exclusive; with search and paging', async () => {
        const t = await seedTenant(p.uow); // default branch at `now`
        const from = at(10_000);
        const to = at(20_000);
        const rows = [-1, 0, 1, 9_999, 10_000, 10_000, 10_001, 19_999, 19_999, 20_000, 20_001].map((ms) =>
          aBranch(t.business.id, { name: ms % 2 === 0 ? 'even' : 'odd', createdAt: at(ms) }),
        );
        await addBranches(p.uow, rows);
        const within = (lo: number | undefined, hi: number | undefined) =>
          sortedIds([t.branch, ...rows].filter((b) => (lo === undefined || b.createdAt.getTime() >= lo) && (hi === undefined || b.createdAt.getTime() < hi)));
        for (const sortBy of BRANCH_SORT_LIST) {
          for (const sortDir of SORT_DIRS) {
            const list = (req: Partial<PageRequest<BranchSort>>) => allBranches(p.uow, t.business.id, { sortBy, sortDir, limit: 2, ...req });
            const both = await list({ from, to });
            expect(sortedIds(both)).to.deep.equal(within(from.getTime(), to.getTime()));
            expect(both).to.have.length(5);
            expect(idsOf(both)).to.deep.equal(idsOf(expectedOrder(both, sortDir, (b) => branchKey(sortBy, b))));
            expect(sortedIds(await list({ from }))).to.deep.equal(within(from.getTime(), undefined));
            expect(sortedIds(await list({ to }))).to.deep.equal(within(undefined, to.getTime()));
            expect(sortedIds(await list({ from, to, search: 'EVEN' }))).to.deep.equal(
              sortedIds(rows.filter((b) => b.name === 'even' && b.createdAt >= from && b.createdAt < to)),
            );
          }
        }
        // An empty range (from = to) lists nothing.
        expect(await allBranches(p.uow, t.business.id, { from, to: from })).to.deep.equal([]);
      });

      it("another business's branches never appear, whatever the search, bounds or cursor", async () => {
        const a = await seedTenant(p.uow);
        const b = await seedTenant(p.uow);
        const mine = Array.from({ length: 4 }, (_, i) => aBranch(a.business.id, { name: 'ada', createdAt: at(i) }));
        const theirs = Array.from({ length: 4 }, (_, i) => aBranch(b.business.id, { name: 'ada', createdAt: at(i) }));
        await addBranches(p.uow, [...mine, ...theirs]);
        const expected = sortedIds([a.branch, ...mine]);
        for (const sortBy of BRANCH_SORT_LIST) {
          for (const sortDir of SORT_DIRS) {
            expect(sortedIds(await allBranches(p.uow, a.business.id, { sortBy, sortDir, limit: 1 }))).to.deep.equal(expected);
          }
        }
        expect(sortedIds(await allBranches(p.uow, a.business.id, { search: 'ada' }))).to.deep.equal(sortedIds(mine));
        expect(sortedIds(await allBranches(p.uow, a.business.id, { from: at(0), to: at(4) }))).to.deep.equal(sortedIds([a.branch, ...mine]));
        // A cursor taken from the other business's list still reads only the caller's rows.
        const theirPage = await p.uow.read((r) => r.branches.list(b.business.id, branchPage('name', 'asc', 1, undefined)));
        const fromTheirs = await p.uow.read((r) => r.branches.list(a.business.id, branchPage('name', 'asc', 100, theirPage.next)));
        for (const row of fromTheirs.items) expect(row.businessId).to.equal(a.business.id);
        expect(await allBranches(p.uow, randomUUID())).to.deep.equal([]);
      });

      it('archived branches do not appear', async () => {
        const t = await seedTenant(p.uow);
        const kept = aBranch(t.business.id, { name: 'kept' });
        const gone = aBranch(t.business.id, { name: 'gone', address: 'kept street' });
        await addBranches(p.uow, [kept, gone]);
        await p.uow.run(async (r) => {
          const b = (await r.branches.findById(t.business.id, gone.id))!;
          b.archivedAt = at(5);
          b.updatedAt = at(5);
          await r.branches.save(b);
        });
        for (const sortBy of BRANCH_SORT_LIST) {
          for (const sortDir of SORT_DIRS) {
            expect(sortedIds(await allBranches(p.uow, t.business.id, { sortBy, sortDir, limit: 1 }))).to.deep.equal(sortedIds([t.branch, kept]));
          }
        }
        expect(idsOf(await allBranches(p.uow, t.business.id, { search: 'kept' }))).to.deep.equal([kept.id]);
        expect(idsOf(await allBranches(p.uow, t.business.id, { search: 'gone' }))).to.deep.equal([]);
      });
    });

    describe('staff (memberships)', () => {
      /** A tenant with members whose first names repeat and who joined at the same instants. */
      const seedStaff = async () => {
        const t = await seedTenant(p.uow); // the owner: first name 'ada', ACTIVE
        const FIRST = ['ada', 'bola', 'bola', 'chi', 'bola', 'ada', 'dayo', 'bola'];
        const STATUSES: MembershipStatus[] = ['INVITED', 'ACTIVE', 'DEACTIVATED'];
        const members = Array.from({ length: 16 }, (_, i) => {
          const user = aUser({ firstName: FIRST[i % FIRST.length]!, lastName: i % 3 === 0 ? 'okafor' : 'bakare', email: `m${i}.${randomUUID().slice(0, 8)}@example.com` });
          const membership: Membership = {
            id: randomUUID(),
            businessId: t.business.id,
            userId: user.id,
            role: 'STAFF',
            branchId: t.branch.id,
            status: STATUSES[i % STATUSES.length]!,
            createdAt: i % 4 === 0 ? at(1) : now,
            updatedAt: now,
          };
          return { user, membership };
        });
        await p.uow.run(async (r) => {
          for (const m of members) {
            await r.users.add(m.user);
            await r.memberships.add(m.membership);
          }
        });
        // Someone in another business with the same names: never listed.
        const other = await seedTenant(p.uow);
        return { t, other, members };
      };

      const allStaff = async (uow: UnitOfWork<AppRepositories>, businessId: string, sortBy: StaffSort, sortDir: SortDir, limit: number, filter: { status?: MembershipStatus } = {}, extra: Partial<PageRequest<StaffSort>> = {}) =>
        walk(
          (after) => uow.read((r) => r.memberships.list(businessId, { sortBy, sortDir, limit, ...(after ? { after } : {}), ...extra }, filter)),
          limit,
          (m) => staffKey(sortBy, m),
        );

      it('sorted by first_name (and the other sorts) with duplicates: ties broken by id, every member exactly once', async () => {
        const { t, other, members } = await seedStaff();
        const listed = await allStaff(p.uow, t.business.id, 'created_at', 'asc', 100);
        expect(listed.rows).to.have.length(members.length + 1);
        const owner = listed.rows.find((m) => m.id === t.membership.id)!;
        expect(owner).to.deep.include({ userId: t.user.id, firstName: 'ada', lastName: 'obi', role: 'BUSINESS_OWNER', status: 'ACTIVE', phone: t.user.phone });
        const everyone = listed.rows;
        expect(sortedIds(everyone)).to.not.include(other.membership.id);
        for (const sortBy of ['first_name', 'last_name', 'created_at'] as StaffSort[]) {
          for (const sortDir of SORT_DIRS) {
            const expected = idsOf(expectedOrder(everyone, sortDir, (m) => staffKey(sortBy, m)));
            for (const limit of [1, 2, 4, 17, 100]) {
              const { rows } = await allStaff(p.uow, t.business.id, sortBy, sortDir, limit);
              expect(idsOf(rows), `${sortBy} ${sortDir} limit ${limit}`).to.deep.equal(expected);
            }
          }
        }
        // The four 'bola's in first_name order are ordered by id.
        const bolas = (await allStaff(p.uow, t.business.id, 'first_name', 'desc', 1)).rows.filter((m) => m.firstName === 'bola');
        expect(bolas.length).to.be.greaterThan(3);
        expect(idsOf(bolas)).to.deep.equal(idsOf(bolas).sort().reverse());
      });

      it('the status filter keeps only that status, across pages and sorts', async () => {
        const { t, members } = await seedStaff();
        for (const status of ['INVITED', 'ACTIVE', 'DEACTIVATED'] as MembershipStatus[]) {
          const expectedIds = [...members.filter((m) => m.membership.status === status).map((m) => m.membership.id), ...(status === 'ACTIVE' ? [t.membership.id] : [])];
          for (const sortDir of SORT_DIRS) {
            const { rows } = await allStaff(p.uow, t.business.id, 'first_name', sortDir, 2, { status });
            expect(sortedIds(rows), `${status} ${sortDir}`).to.deep.equal([...expectedIds].sort());
            expect(rows.every((m) => m.status === status)).to.equal(true);
            expect(idsOf(rows)).to.deep.equal(idsOf(expectedOrder(rows, sortDir, (m) => staffKey('first_name', m))));
          }
        }
        // Search over the full name (across the space), with the filter.
        const { rows } = await allStaff(p.uow, t.business.id, 'first_name', 'asc', 3, { status: 'INVITED' }, { search: 'BOLA OKA' });
        expect(rows.length).to.be.greaterThan(1);
        expect(sortedIds(rows)).to.deep.equal(
          members.filter((m) => m.membership.status === 'INVITED' && m.user.firstName === 'bola' && m.user.lastName === 'okafor').map((m) => m.membership.id).sort(),
        );
      });
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
