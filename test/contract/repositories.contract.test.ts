import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Branch, Business, Membership, User } from '../../domain/business.js';
import type { OtpCode } from '../../domain/otp.js';
import type { E164Phone } from '../../domain/phone.js';
import type { RefreshToken } from '../../application/auth/ports.js';
import { rollback, type UnitOfWork } from '../../application/ports/unit-of-work.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBranch, aBusiness, aSession, aUser, NOW, seedTenant } from '../support/builders.js';

const now = NOW;
const later = (ms: number) => new Date(now.getTime() + ms);
let n = 0;
const aCode = (key: string, o: Partial<OtpCode> = {}): OtpCode => ({
  id: randomUUID(),
  identifierKey: key,
  purpose: 'SIGN_IN',
  codeHash: 'hash',
  createdAt: now,
  expiresAt: later(600_000),
  wrongTries: 0,
  consumedAt: null,
  requestedBy: null,
  ...o,
});
const aToken = (userId: string, familyId: string, o: Partial<RefreshToken> = {}): RefreshToken => ({
  id: randomUUID(),
  familyId,
  userId,
  tokenHash: randomUUID(),
  expiresAt: later(86_400_000),
  createdAt: now,
  rotatedAt: null,
  revokedAt: null,
  ...o,
});


/** The same promises, checked against every adapter of the persistence ports. */
const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`persistence contract: ${name}`, () => {
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    it('users: found by id, phone and e-mail; changes saved', async () => {
      const user = aUser({ email: `ada${n}@example.com` });
      await p.uow.run((r) => r.users.add(user));
      const byPhone = await p.uow.run((r) => r.users.findByIdentifier({ kind: 'phone', value: user.phone! }));
      expect(byPhone).to.deep.include({ id: user.id, firstName: 'ada', verifiedAt: null });
      expect(byPhone!.createdAt.getTime()).to.equal(now.getTime());
      expect((await p.uow.run((r) => r.users.findByIdentifier({ kind: 'email', value: user.email! })))?.id).to.equal(user.id);
      await p.uow.run(async (r) => {
        const u = (await r.users.findById(user.id))!;
        u.verifiedAt = later(5);
        await r.users.save(u);
      });
      expect((await p.uow.run((r) => r.users.findById(user.id)))!.verifiedAt!.getTime()).to.equal(later(5).getTime());
      expect(await p.uow.run((r) => r.users.findById(randomUUID()))).to.equal(undefined);
    });

    it('users: a second user with the same phone is refused', async () => {
      const user = aUser();
      await p.uow.run((r) => r.users.add(user));
      let failed = false;
      await p.uow.run((r) => r.users.add(aUser({ phone: user.phone }))).catch(() => (failed = true));
      expect(failed).to.equal(true);
    });

    it('unit of work: a throw rolls everything back; rollback(value) too, returning the value', async () => {
      const user = aUser();
      await p.uow
        .run(async (r) => {
          await r.users.add(user);
          throw new Error('boom');
        })
        .catch(() => undefined);
      expect(await p.uow.run((r) => r.users.findById(user.id))).to.equal(undefined);
      const value = await p.uow.run(async (r) => {
        await r.users.add(user);
        return rollback('refused');
      });
      expect(value).to.equal('refused');
      expect(await p.uow.run((r) => r.users.findById(user.id))).to.equal(undefined);
    });

    it('tenancy: a branch is found only through its own business', async () => {
      const a = await seedTenant(p.uow);
      const b = await seedTenant(p.uow);
      expect((await p.uow.run((r) => r.branches.findById(a.business.id, a.branch.id)))?.name).to.equal('main');
      expect(await p.uow.run((r) => r.branches.findById(b.business.id, a.branch.id))).to.equal(undefined);
      expect((await p.uow.run((r) => r.businesses.findById(a.business.id)))?.plan).to.equal('FREE');
    });

    it('memberships: found by user, changes saved', async () => {
      const t = await seedTenant(p.uow);
      await p.uow.run(async (r) => {
        const m = (await r.memberships.findByUser(t.user.id))!;
        expect(m.businessId).to.equal(t.business.id);
        m.status = 'DEACTIVATED';
        await r.memberships.save(m);
      });
      expect((await p.uow.run((r) => r.memberships.findByUser(t.user.id)))?.status).to.equal('DEACTIVATED');
    });

    it('otp codes: newest by purpose, created since, who asked, wrong tries saved', async () => {
      const key = `phone:+23480${randomUUID().slice(0, 8)}`;
      await p.uow.run(async (r) => {
        await r.otps.lockIdentifier(key);
        await r.otps.add(aCode(key, { createdAt: now }));
        await r.otps.add(aCode(key, { createdAt: later(1), codeHash: 'newest', requestedBy: '102.89.7.7' }));
        await r.otps.add(aCode(key, { createdAt: later(2), purpose: 'VERIFY' }));
        await r.otps.add(aCode(`${key}0`, { createdAt: later(3) }));
      });
      const latest = (await p.uow.run((r) => r.otps.latest(key, 'SIGN_IN')))!;
      expect(latest.codeHash).to.equal('newest');
      expect(latest.requestedBy).to.equal('102.89.7.7');
      expect((await p.uow.run((r) => r.otps.createdSince(key, now))).map((c) => c.requestedBy)).to.have.members(['102.89.7.7', null]);
      expect(await p.uow.run((r) => r.otps.createdSince(key, now))).to.have.length(2);
      await p.uow.run(async (r) => {
        const c = (await r.otps.latest(key, 'SIGN_IN'))!;
        c.wrongTries = 3;
        c.consumedAt = later(9);
        await r.otps.save(c);
      });
      const saved = (await p.uow.run((r) => r.otps.latest(key, 'SIGN_IN')))!;
      expect(saved.wrongTries).to.equal(3);
      expect(saved.consumedAt!.getTime()).to.equal(later(9).getTime());
    });

    it('refresh tokens: found by hash, family and user revocation touch only their own', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const famA = randomUUID();
      const famB = randomUUID();
      const a1 = aToken(t.user.id, famA);
      const a2 = aToken(t.user.id, famA);
      const b1 = aToken(t.user.id, famB);
      const o1 = aToken(other.user.id, randomUUID());
      await p.uow.run(async (r) => {
        for (const [familyId, userId] of [[famA, t.user.id], [famB, t.user.id], [o1.familyId, other.user.id]] as const) {
          await r.sessions.add(aSession(userId, { id: familyId }));
        }
        for (const tok of [a1, a2, b1, o1]) await r.refreshTokens.add(tok);
      });
      await p.uow.run((r) => r.refreshTokens.revokeFamily(famA, later(1)));
      const find = (tok: RefreshToken) => p.uow.run((r) => r.refreshTokens.findByHashForUpdate(tok.tokenHash));
      expect((await find(a1))!.revokedAt).to.not.equal(null);
      expect((await find(a2))!.revokedAt).to.not.equal(null);
      expect((await find(b1))!.revokedAt).to.equal(null);
      await p.uow.run((r) => r.refreshTokens.revokeAllForUser(t.user.id, later(2)));
      expect((await find(b1))!.revokedAt).to.not.equal(null);
      expect((await find(o1))!.revokedAt).to.equal(null);
      expect(await p.uow.run((r) => r.refreshTokens.findByHashForUpdate('missing'))).to.equal(undefined);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
