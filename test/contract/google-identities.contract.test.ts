import { expect } from 'chai';
import type { GoogleIdentity } from '../../application/auth/ports.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { aGoogleSubject } from '../support/google-idp.js';
import { NOW, seedTenant } from '../support/builders.js';
import { freshDatabaseUrl } from '../support/database.js';

const anIdentity = (userId: string, o: Partial<GoogleIdentity> = {}): GoogleIdentity => ({
  subject: aGoogleSubject(),
  userId,
  email: 'ada@gmail.com',
  linkedAt: NOW,
  ...o,
});

/** The Google-identity port's promises, on every adapter: one Google account per user, one user per Google account. */
const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`google identities contract: ${name}`, () => {
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    it('finds a link by the Google subject and by the user, and nothing for others', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const identity = anIdentity(t.user.id);
      await p.uow.run((r) => r.googleIdentities.add(identity));
      const bySubject = await p.uow.read((r) => r.googleIdentities.findBySubject(identity.subject));
      expect(bySubject).to.deep.equal(identity);
      expect(await p.uow.read((r) => r.googleIdentities.findByUser(t.user.id))).to.deep.equal(identity);
      expect(await p.uow.read((r) => r.googleIdentities.findByUser(other.user.id))).to.equal(undefined);
      expect(await p.uow.read((r) => r.googleIdentities.findBySubject(aGoogleSubject()))).to.equal(undefined);
    });

    it('refuses a second link of a Google account, or a second Google account of a user', async () => {
      const t = await seedTenant(p.uow);
      const other = await seedTenant(p.uow);
      const identity = anIdentity(t.user.id);
      await p.uow.run((r) => r.googleIdentities.add(identity));
      let sameSubject: unknown;
      await p.uow.run((r) => r.googleIdentities.add(anIdentity(other.user.id, { subject: identity.subject }))).catch((e) => (sameSubject = e));
      expect(sameSubject, 'the subject is linked to another user').to.be.instanceOf(Error);
      let sameUser: unknown;
      await p.uow.run((r) => r.googleIdentities.add(anIdentity(t.user.id))).catch((e) => (sameUser = e));
      expect(sameUser, 'the user has a Google account already').to.be.instanceOf(Error);
      expect(await p.uow.read((r) => r.googleIdentities.findByUser(other.user.id))).to.equal(undefined);
      expect(await p.uow.read((r) => r.googleIdentities.findBySubject(identity.subject))).to.deep.equal(identity);
    });

    it('reads its own write inside the unit of work, and a rolled-back link is gone', async () => {
      const t = await seedTenant(p.uow);
      const identity = anIdentity(t.user.id);
      const seen = await p.uow.run(async (r) => {
        await r.googleIdentities.add(identity);
        return rollback(await r.googleIdentities.findBySubject(identity.subject));
      });
      expect(seen).to.deep.equal(identity);
      expect(await p.uow.read((r) => r.googleIdentities.findBySubject(identity.subject))).to.equal(undefined);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
