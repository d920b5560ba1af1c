import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { PageRequest } from '../../application/ports/list.js';
import type { RefreshToken, SessionSort } from '../../application/auth/ports.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aSession, NOW, seedTenant } from '../support/builders.js';

const at = (ms: number) => new Date(NOW.getTime() + ms);
const firstPage: PageRequest<SessionSort> = { sortBy: 'last_used_at', sortDir: 'desc', limit: 20 };
const aToken = (userId: string, familyId: string): RefreshToken => ({
  id: randomUUID(),
  familyId,
  userId,
  tokenHash: randomUUID(),
  expiresAt: at(86_400_000),
  createdAt: NOW,
  rotatedAt: null,
  revokedAt: null,
});

/** The session port's promises, on every adapter: every method filters on the user. */
const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`sessions contract: ${name}`, () => {
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const ids = async (userId: string, page = firstPage, now = NOW) =>
      (await p.uow.read((r) => r.sessions.list(userId, now, page))).items.map((s) => s.id);
    const inSession = (userId: string, sessionId: string) => p.uow.read((r) => r.memberships.findByUserInSession(userId, sessionId));

    it('lists the user’s live sessions only, newest use first, in keyset pages', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const older = aSession(t.user.id, { lastUsedAt: at(1), userAgent: 'Android app 2.1', ip: '102.89.1.7' });
      const newer = aSession(t.user.id, { lastUsedAt: at(2) });
      const revoked = aSession(t.user.id, { revokedAt: at(3) });
      const expired = aSession(t.user.id, { expiresAt: at(-1) });
      const foreign = aSession(other.user.id);
      await p.uow.run(async (r) => {
        for (const s of [older, newer, revoked, expired, foreign]) await r.sessions.add(s);
      });
      expect(await ids(t.user.id)).to.deep.equal([newer.id, older.id]);
      expect(await ids(other.user.id)).to.deep.equal([foreign.id]);
      const listed = (await p.uow.read((r) => r.sessions.list(t.user.id, NOW, firstPage))).items[1]!;
      expect(listed).to.deep.include({ userId: t.user.id, userAgent: 'Android app 2.1', ip: '102.89.1.7', revokedAt: null });
      expect(listed.lastUsedAt.getTime()).to.equal(at(1).getTime());
      expect(listed.expiresAt.getTime()).to.equal(older.expiresAt.getTime());

      const one = await p.uow.read((r) => r.sessions.list(t.user.id, NOW, { ...firstPage, limit: 1 }));
      expect(one.hasNext).to.equal(true);
      expect(await ids(t.user.id, { ...firstPage, limit: 1, after: one.next! })).to.deep.equal([older.id]);
      expect(await ids(t.user.id, { ...firstPage, search: 'android' })).to.deep.equal([older.id]);
      // a session is listed until its refresh token expires
      expect(await ids(t.user.id, firstPage, at(40 * 86_400_000))).to.deep.equal([]);
    });

    it('history: whether the user signed in before, and from this user agent (any session, ended ones too; their own only)', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      expect(await p.uow.read((r) => r.sessions.history(t.user.id, 'Android app 2.1'))).to.deep.equal({ signedInBefore: false, fromThisDevice: false });
      await p.uow.run(async (r) => {
        await r.sessions.add(aSession(t.user.id, { userAgent: 'Android app 2.1', revokedAt: at(1), expiresAt: at(-1) }));
        await r.sessions.add(aSession(t.user.id, { userAgent: null }));
        await r.sessions.add(aSession(other.user.id, { userAgent: 'iPhone Safari' }));
      });
      expect(await p.uow.read((r) => r.sessions.history(t.user.id, 'Android app 2.1'))).to.deep.equal({ signedInBefore: true, fromThisDevice: true });
      expect(await p.uow.read((r) => r.sessions.history(t.user.id, 'iPhone Safari'))).to.deep.equal({ signedInBefore: true, fromThisDevice: false });
      expect(await p.uow.read((r) => r.sessions.history(other.user.id, 'Android app 2.1'))).to.deep.equal({ signedInBefore: true, fromThisDevice: false });
    });

    it('touch records a refresh of the user’s own session; an unknown device keeps what was recorded', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const s = aSession(t.user.id, { userAgent: 'Old', ip: '10.0.0.1' });
      await p.uow.run((r) => r.sessions.add(s));
      await p.uow.run((r) => r.sessions.touch(other.user.id, s.id, at(5), at(99), { userAgent: 'Thief', ip: '6.6.6.6' }));
      await p.uow.run((r) => r.sessions.touch(t.user.id, s.id, at(7), at(9_000_000), { userAgent: null, ip: '10.0.0.2' }));
      const [touched] = (await p.uow.read((r) => r.sessions.list(t.user.id, NOW, firstPage))).items;
      expect(touched).to.deep.include({ userAgent: 'Old', ip: '10.0.0.2' });
      expect(touched!.lastUsedAt.getTime()).to.equal(at(7).getTime());
      expect(touched!.expiresAt.getTime()).to.equal(at(9_000_000).getTime());
      expect(touched!.createdAt.getTime()).to.equal(NOW.getTime());
    });

    it('revoke ends only the user’s own live session, with its refresh tokens', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const mine = aSession(t.user.id);
      const kept = aSession(t.user.id);
      const expired = aSession(t.user.id, { expiresAt: at(-1) });
      const token = aToken(t.user.id, mine.id);
      const keptToken = aToken(t.user.id, kept.id);
      await p.uow.run(async (r) => {
        for (const s of [mine, kept, expired]) await r.sessions.add(s);
        await r.refreshTokens.add(token);
        await r.refreshTokens.add(keptToken);
      });
      expect(await p.uow.run((r) => r.sessions.revoke(other.user.id, mine.id, at(1))), 'another user').to.equal(false);
      expect(await p.uow.run((r) => r.sessions.revoke(t.user.id, randomUUID(), at(1))), 'unknown').to.equal(false);
      expect(await p.uow.run((r) => r.sessions.revoke(t.user.id, expired.id, at(1))), 'expired').to.equal(false);
      expect(await ids(t.user.id)).to.have.members([mine.id, kept.id]);

      expect(await p.uow.run((r) => r.sessions.revoke(t.user.id, mine.id, at(2)))).to.equal(true);
      expect(await p.uow.run((r) => r.sessions.revoke(t.user.id, mine.id, at(3))), 'already revoked').to.equal(false);
      expect(await ids(t.user.id)).to.deep.equal([kept.id]);
      const find = (tok: RefreshToken) => p.uow.run((r) => r.refreshTokens.findByHashForUpdate(tok.tokenHash));
      expect((await find(token))!.revokedAt!.getTime()).to.equal(at(2).getTime());
      expect((await find(keptToken))!.revokedAt).to.equal(null);
    });

    it('the per-request read answers the membership and whether the session is revoked, in one call', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const live = aSession(t.user.id);
      const gone = aSession(t.user.id, { revokedAt: at(1) });
      const foreign = aSession(other.user.id);
      await p.uow.run(async (r) => {
        for (const s of [live, gone, foreign]) await r.sessions.add(s);
      });
      const found = await inSession(t.user.id, live.id);
      expect(found?.membership).to.deep.include({ id: t.membership.id, businessId: t.business.id, status: 'ACTIVE' });
      expect(found?.sessionRevoked).to.equal(false);
      expect((await inSession(t.user.id, gone.id))?.sessionRevoked, 'revoked').to.equal(true);
      expect((await inSession(t.user.id, randomUUID()))?.sessionRevoked, 'unknown').to.equal(true);
      expect((await inSession(t.user.id, foreign.id))?.sessionRevoked, 'another user’s').to.equal(true);
      expect(await inSession(randomUUID(), live.id), 'no membership').to.equal(undefined);
    });

    it('revoking a refresh-token family or all of a user’s tokens revokes the sessions too', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const a = aSession(t.user.id);
      const b = aSession(t.user.id);
      const o = aSession(other.user.id);
      await p.uow.run(async (r) => {
        for (const s of [a, b, o]) await r.sessions.add(s);
      });
      await p.uow.run((r) => r.refreshTokens.revokeFamily(a.id, at(1)));
      expect((await inSession(t.user.id, a.id))?.sessionRevoked).to.equal(true);
      expect((await inSession(t.user.id, b.id))?.sessionRevoked).to.equal(false);
      await p.uow.run((r) => r.refreshTokens.revokeAllForUser(t.user.id, at(2)));
      expect((await inSession(t.user.id, b.id))?.sessionRevoked).to.equal(true);
      expect((await inSession(other.user.id, o.id))?.sessionRevoked).to.equal(false);
      expect(await ids(t.user.id)).to.deep.equal([]);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
