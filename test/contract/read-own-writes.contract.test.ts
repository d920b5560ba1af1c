import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Membership } from '../../domain/business.js';
import { inMemory, openPostgres, type AppRepositories, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBranch, aBusiness, aProduct, aUser, NOW } from '../support/builders.js';

// One write model per table (docs/adr/0019): inside one unit of work every repository reads what it
// has just written, and so do the others that read its table, on every adapter. Nothing here commits:
// each unit of work is rolled back by a throw at its end, so only the reads inside it can see the rows.

const rolledBack = new Error('rolled back on purpose');

/** Runs `work` in one unit of work and rolls it back. */
const insideOneUnitOfWork = async <R>(p: Persistence, work: (r: AppRepositories) => Promise<R>) => {
  await p.uow
    .run(async (r) => {
      await work(r);
      throw rolledBack;
    })
    .catch((e) => {
      if (e !== rolledBack) throw e;
    });
};

const aMembership = (businessId: string, userId: string, branchId: string): Membership => ({
  id: randomUUID(),
  businessId,
  userId,
  role: 'STAFF',
  branchId,
  status: 'INVITED',
  createdAt: NOW,
  updatedAt: NOW,
});

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`read-your-own-writes contract: ${name}`, () => {
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    it('businesses and branches: added, then found, in the same unit of work', () =>
      insideOneUnitOfWork(p, async (r) => {
        const business = aBusiness();
        const main = aBranch(business.id, { isDefault: true });
        const second = aBranch(business.id, { name: 'second' });
        await r.businesses.add(business);
        await r.branches.add(main);
        await r.branches.add(second);
        expect((await r.businesses.findById(business.id))?.name).to.equal(business.name);
        expect((await r.branches.findById(business.id, second.id))?.name).to.equal('second');
        expect((await r.branches.findDefault(business.id)).id).to.equal(main.id);
        expect((await r.branches.list(business.id, { sortBy: 'name', sortDir: 'asc', limit: 10 })).items.map((b) => b.id)).to.have.members([main.id, second.id]);
      }));

    it('users: added, then found by id and identifier; a save is seen at once', () =>
      insideOneUnitOfWork(p, async (r) => {
        const user = aUser();
        await r.users.add(user);
        expect((await r.users.findById(user.id))?.phone).to.equal(user.phone);
        expect((await r.users.findByIdentifier({ kind: 'phone', value: user.phone! }))?.id).to.equal(user.id);
        await r.users.save({ ...user, firstName: 'chidi' });
        expect((await r.users.findById(user.id))?.firstName).to.equal('chidi');
      }));

    it('memberships: added, then found by id, by user and as a staff row with the new user', () =>
      insideOneUnitOfWork(p, async (r) => {
        const business = aBusiness();
        const branch = aBranch(business.id, { isDefault: true });
        const user = aUser();
        const membership = aMembership(business.id, user.id, branch.id);
        await r.businesses.add(business);
        await r.branches.add(branch);
        await r.users.add(user);
        await r.memberships.add(membership);
        expect((await r.memberships.findById(business.id, membership.id))?.status).to.equal('INVITED');
        expect((await r.memberships.findByUser(user.id))?.id).to.equal(membership.id);
        expect((await r.memberships.findStaffMember(business.id, membership.id))?.firstName).to.equal(user.firstName);
        await r.memberships.save({ ...membership, status: 'ACTIVE' });
        expect((await r.memberships.findByUser(user.id))?.status).to.equal('ACTIVE');
        expect(await r.branches.isReferenced(business.id, branch.id)).to.equal(true);
      }));

    it('products: added, then found by id and sku, and their stock moved', () =>
      insideOneUnitOfWork(p, async (r) => {
        const business = aBusiness();
        const product = aProduct(business.id);
        const branch = aBranch(business.id, { isDefault: true });
        await r.businesses.add(business);
        await r.branches.add(branch);
        expect(await r.products.add(product)).to.equal('added');
        expect((await r.products.findById(business.id, product.id))?.sku).to.equal(product.sku);
        expect((await r.products.findBySku(business.id, product.sku.toLowerCase()))?.id).to.equal(product.id);
        expect(await r.products.changeQuantity(business.id, product.id, branch.id, 4, NOW)).to.deep.include({ ok: true, after: 4, total: 4 });
        expect((await r.products.stockOf(business.id, [product.id])).get(product.id)).to.deep.equal([{ branchId: branch.id, branchName: branch.name, quantity: 4 }]);
        expect((await r.products.findById(business.id, product.id))?.quantity).to.equal(4);
      }));

    it('sign-in codes and refresh tokens: added, then found', () =>
      insideOneUnitOfWork(p, async (r) => {
        const user = aUser();
        const key = `phone:${user.phone}`;
        const sessionId = randomUUID();
        await r.users.add(user);
        await r.otps.add({ id: randomUUID(), identifierKey: key, purpose: 'SIGN_IN', codeHash: 'h', wrongTries: 0, consumedAt: null, createdAt: NOW, expiresAt: new Date(NOW.getTime() + 600_000), requestedBy: null });
        expect((await r.otps.latest(key, 'SIGN_IN'))?.codeHash).to.equal('h');
        expect(await r.otps.createdSince(key, new Date(NOW.getTime() - 1))).to.have.length(1);
        await r.sessions.add({ id: sessionId, userId: user.id, createdAt: NOW, lastUsedAt: NOW, expiresAt: new Date(NOW.getTime() + 86_400_000), userAgent: null, ip: null, revokedAt: null });
        const token = { id: randomUUID(), familyId: sessionId, userId: user.id, tokenHash: randomUUID(), expiresAt: new Date(NOW.getTime() + 86_400_000), createdAt: NOW, rotatedAt: null, revokedAt: null };
        await r.refreshTokens.add(token);
        expect((await r.refreshTokens.findByHashForUpdate(token.tokenHash))?.id).to.equal(token.id);
        await r.refreshTokens.save({ ...token, rotatedAt: NOW });
        expect((await r.refreshTokens.findByHashForUpdate(token.tokenHash))?.rotatedAt?.getTime()).to.equal(NOW.getTime());
      }));
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
