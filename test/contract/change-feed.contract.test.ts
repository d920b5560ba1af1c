import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import pg from 'pg';
import { kobo } from '../../domain/money.js';
import { pullChanges, type ChangesPage, type SyncCursor } from '../../application/sync/changes.js';
import type { Actor } from '../../domain/roles.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl, testDatabase } from '../support/database.js';
import { aBranch, aCustomer, aProduct, aSale, NOW, seedTenant } from '../support/builders.js';

// The change feed on every adapter (docs/adr/0034 addendum): what changed after a cursor comes on the
// next pull, at least once; archived products come as tombstones; paging with a limit sends each row once.

const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(`a pull failed: ${JSON.stringify(e.left)}`);
  return e.right;
};

const key = (c: { kind: string; key: string; data: unknown }) => `${c.kind}:${c.key}${c.data === null ? ':deleted' : ''}`;

const contract = (name: string, open: () => Promise<{ p: Persistence; url?: string }>) =>
  describe(`change feed contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    let url: string | undefined;
    before(async () => ({ p, url } = await open()));
    after(async () => p.close());

    /** Every page of one pull: the rows, and the cursor the last page answers. */
    const pullAll = async (actor: Actor, cursor: SyncCursor | null, limit = 100) => {
      const pages: ChangesPage[] = [];
      let at = cursor;
      do {
        pages.push(right(await pullChanges({ uow: p.uow })(actor, { cursor: at, limit })));
        at = pages[pages.length - 1]!.cursor;
      } while (pages[pages.length - 1]!.hasMore);
      return { rows: pages.flatMap((x) => x.changes), cursor: at!, pages };
    };

    const shop = async () => {
      const t = await seedTenant(p.uow);
      const product = aProduct(t.business.id, { name: 'Peak Milk', price: kobo(150_000) });
      const customer = aCustomer(t.business.id);
      await p.uow.run(async (r) => {
        await r.products.add(product);
        await r.products.changeQuantity(t.business.id, product.id, t.branch.id, 12, NOW);
        await r.customers.add(customer);
      });
      return { ...t, product, customer };
    };

    it('sends everything first, nothing when nothing changed, then exactly what changed (price, archive, void)', async () => {
      const s = await shop();
      await shop(); // another business: never in this one's feed
      const first = await pullAll(s.actor, null);
      expect(first.rows.map(key).sort()).to.deep.equal([`customer:${s.customer.id}`, `product:${s.product.id}`, `stock:${s.product.id}:${s.branch.id}`].sort());
      const product = first.rows.find((c) => c.kind === 'product')!;
      expect(product.data).to.deep.include({ name: 'Peak Milk', price: 150_000 });
      expect(first.rows.find((c) => c.kind === 'stock')!.data).to.deep.include({ quantity: 12, branchId: s.branch.id });

      const quiet = await pullAll(s.actor, first.cursor);
      expect(quiet.rows).to.deep.equal([]);
      expect(quiet.cursor).to.deep.equal(first.cursor);

      const sale = aSale(s, s.product.id);
      const receipt = await p.uow.run(async (r) => {
        await r.products.save({ ...s.product, price: kobo(160_000) });
        return r.sales.add(sale);
      });
      const priced = await pullAll(s.actor, quiet.cursor);
      expect(priced.rows.map(key)).to.deep.equal([`product:${s.product.id}`]);
      expect(priced.rows[0]!.data).to.deep.include({ price: 160_000 });

      await p.uow.run(async (r) => {
        const stored = (await r.sales.findById(s.business.id, sale.id))!;
        await r.sales.markVoided({ ...stored, status: 'VOIDED', voidedAt: NOW, voidReason: 'wrong item', voidedBy: s.user.id });
        await r.products.save({ ...s.product, price: kobo(160_000), archivedAt: NOW });
      });
      const voided = await pullAll(s.actor, priced.cursor);
      expect(voided.rows.map(key).sort()).to.deep.equal([`product:${s.product.id}:deleted`, `sale:${sale.id}`].sort());
      expect(voided.rows.find((c) => c.kind === 'sale')!.data).to.deep.include({ status: 'VOIDED', receiptNumber: receipt });
    });

    it('pages with a limit: each row once, in order, then the pull ends where the next one starts', async () => {
      const s = await shop();
      await p.uow.run(async (r) => {
        for (let i = 0; i < 3; i++) await r.customers.add(aCustomer(s.business.id));
      });
      const paged = await pullAll(s.actor, null, 2);
      expect(paged.pages.map((x) => x.changes.length)).to.deep.equal([2, 2, 2]);
      expect(paged.pages.map((x) => x.hasMore)).to.deep.equal([true, true, false]);
      expect(new Set(paged.rows.map(key)).size).to.equal(6);
      const whole = await pullAll(s.actor, null, 500);
      expect(paged.rows.map(key)).to.deep.equal(whole.rows.map(key));
      const after = await pullAll(s.actor, paged.cursor, 2);
      expect(after.rows).to.deep.equal([]);
      // a change made while paging comes on the next pull
      const mid = right(await pullChanges({ uow: p.uow })(s.actor, { cursor: null, limit: 1 }));
      await p.uow.run((r) => r.customers.setBalance(s.business.id, s.customer.id, kobo(5_000), NOW));
      let rest = await pullAll(s.actor, mid.cursor, 1);
      rest = await pullAll(s.actor, rest.cursor);
      expect(rest.rows.map(key)).to.include(`customer:${s.customer.id}`);
      expect(rest.rows.find((c) => c.key === s.customer.id)!.data).to.deep.include({ creditBalance: 5_000 });
    });

    it('a cursor ahead of the server (past every transaction given out) is refused, its own cursors are not (issue 32)', async () => {
      const s = await shop();
      const made = await pullAll(s.actor, null);
      const pull = (cursor: SyncCursor) => pullChanges({ uow: p.uow })(s.actor, { cursor, limit: 10 });
      const far = '900000000000';
      const row = { version: far, kind: 'product' as const, key: s.product.id };
      for (const cursor of [{ since: `${far}:${far}:`, next: null, after: null }, { since: '1:1:', next: `${far}:${far}:`, after: { ...row, version: '1' } }, { since: '1:1:', next: '2:2:', after: row }]) {
        expect(await pull(cursor), JSON.stringify(cursor)).to.deep.equal(E.left({ _tag: 'SyncCursorAhead' }));
      }
      expect(E.isRight(await pull(made.cursor))).to.equal(true);
    });

    it("a staff member with a branch gets that branch's stock; the owner every branch's", async () => {
      const s = await shop();
      const other = aBranch(s.business.id, { createdAt: NOW, updatedAt: NOW });
      await p.uow.run(async (r) => {
        await r.branches.add(other);
        await r.products.changeQuantity(s.business.id, s.product.id, other.id, 3, NOW);
      });
      const stock = (rows: { kind: string; key: string }[]) => rows.filter((c) => c.kind === 'stock').map((c) => c.key).sort();
      expect(stock((await pullAll(s.actor, null)).rows)).to.deep.equal([`${s.product.id}:${s.branch.id}`, `${s.product.id}:${other.id}`].sort());
      const staff: Actor = { userId: s.user.id, businessId: s.business.id, roles: ['STAFF'], branchId: other.id };
      expect(stock((await pullAll(staff, null)).rows)).to.deep.equal([`${s.product.id}:${other.id}`]);
      expect(stock((await pullAll({ ...staff, branchId: null }, null)).rows)).to.have.length(2);
    });

    if (name === 'SQL/PostgreSQL (two connections)') {
      it('a change committed after the read by a transaction that began before it comes on the next pull', async () => {
        const s = await shop();
        const first = await pullAll(s.actor, null);
        const late = new pg.Client({ connectionString: url });
        await late.connect();
        try {
          await late.query('begin');
          await late.query('update products set price = 170000 where id = $1', [s.product.id]);
          // a change that commits meanwhile, after the late one began (a timestamp feed would pass the late one)
          await p.uow.run((r) => r.customers.setBalance(s.business.id, s.customer.id, kobo(2_000), NOW));
          const meanwhile = await pullAll(s.actor, first.cursor);
          expect(meanwhile.rows.map(key)).to.deep.equal([`customer:${s.customer.id}`]);
          await late.query('commit');
          const next = await pullAll(s.actor, meanwhile.cursor);
          // exactly the late one: the cursor names what was in flight, so what the last pull saw is not sent again
          expect(next.rows.map(key)).to.deep.equal([`product:${s.product.id}`]);
          expect(next.rows.find((c) => c.kind === 'product')!.data).to.deep.include({ price: 170_000 });
        } finally {
          await late.end();
        }
      });
    }
  });

contract('in-memory', async () => ({ p: inMemory() }));
// PGlite runs one session, so the two-connection case needs a server; the rest runs on both.
const onServer = (await testDatabase()).kind !== 'embedded PGlite';
contract(onServer ? 'SQL/PostgreSQL (two connections)' : 'SQL/PGlite', async () => {
  const url = await freshDatabaseUrl();
  return { p: await openPostgres({ databaseUrl: url, dataDir: '/tmp', poolMax: 4, log: () => undefined }), url };
});
