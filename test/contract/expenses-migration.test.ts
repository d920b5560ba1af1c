import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm } from '../../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from '../../bootstrap/migrations.js';
import { DEFAULT_EXPENSE_CATEGORIES } from '../../domain/expense.js';
import { emptyDatabaseUrl } from '../support/database.js';

// Issue 13: the expenses migration gives every business that existed before it the default
// categories, as registration gives them to a new one.
describe('migration Migration20261126000000_expenses', function () {
  this.timeout(60_000);
  let orm: MikroORM;
  before(async () => (orm = await openOrm({ databaseUrl: await emptyDatabaseUrl(), log: () => undefined, migrations: MIGRATIONS })));
  after(async () => orm.close());

  it('gives the businesses that exist the default categories (is_default), names unique per business', async () => {
    await orm.getMigrator().up({ to: 'Migration20261125000000_sessions' });
    const [first, second] = [randomUUID(), randomUUID()];
    for (const id of [first, second]) {
      await orm.em.fork().execute(`insert into businesses (id, name, created_at, updated_at) values (?, 'Old shop', now(), now())`, [id]);
    }
    expect((await migrate(orm))[0]).to.equal('Migration20261126000000_expenses'); // and any later ones
    for (const id of [first, second]) {
      const rows = await orm.em.fork().execute<{ name: string; is_default: boolean }[]>('select name, is_default from expense_categories where business_id = ? order by name', [id]);
      expect(rows.map((r) => r.name)).to.deep.equal([...DEFAULT_EXPENSE_CATEGORIES].sort());
      expect(rows.every((r) => r.is_default === true)).to.equal(true);
    }
    const ids = await orm.em.fork().execute<{ n: string }[]>('select count(distinct id) as n from expense_categories');
    expect(Number(ids[0]!.n)).to.equal(2 * DEFAULT_EXPENSE_CATEGORIES.length);
  });
});
