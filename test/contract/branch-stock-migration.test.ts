import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm } from '../../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from '../../bootstrap/migrations.js';
import { emptyDatabaseUrl } from '../support/database.js';

// Issue 17: data written by the previous version (one quantity per product, a ledger without
// branches) moves to each business's default branch: nothing lost, and the ledger still sums.
describe('migration Migration20261127300000_branch_stock', function () {
  this.timeout(60_000);
  let orm: MikroORM;
  before(async () => (orm = await openOrm({ databaseUrl: await emptyDatabaseUrl(), log: () => undefined, migrations: MIGRATIONS })));
  after(async () => orm.close());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(text, params);

  /** A business of the previous version: its default branch and a second one, products and their ledger rows. */
  const oldBusiness = async () => {
    const business = randomUUID();
    const main = randomUUID();
    const other = randomUUID();
    await sql(`insert into businesses (id, name, created_at, updated_at) values (?, 'Old shop', now(), now())`, [business]);
    await sql(`insert into branches (id, business_id, name, is_default, created_at, updated_at) values (?, ?, 'Main branch', true, now(), now()), (?, ?, 'Lekki', false, now(), now())`, [
      main, business, other, business,
    ]);
    const rice = randomUUID();
    const beans = randomUUID();
    const haircut = randomUUID();
    const add = (id: string, sku: string, type: string, quantity: number) =>
      sql(`insert into products (id, business_id, name, sku, price, quantity, type, created_at, updated_at) values (?, ?, ?, ?, 100, ?, ?, now(), now())`, [id, business, sku, sku, quantity, type]);
    await add(rice, 'RICE', 'PRODUCT', 7);
    await add(beans, 'BEANS', 'PRODUCT', 0);
    await add(haircut, 'CUT', 'SERVICE', 0);
    // rice: 10 opened, 3 sold, 2 back from a void, 2 damaged = 7; beans: 4 opened, 4 sold = 0
    const ledger: [string, number, number, string, string | null][] = [
      [rice, 10, 0, 'INITIAL', null],
      [rice, -3, 10, 'SALE', randomUUID()],
      [rice, 2, 7, 'SALE_VOID', randomUUID()],
      [rice, -2, 9, 'DAMAGE', null],
      [beans, 4, 0, 'INITIAL', null],
      [beans, -4, 4, 'SALE', randomUUID()],
    ];
    for (const [i, [product, change, before, reason, saleId]] of ledger.entries()) {
      await sql(
        `insert into stock_movements (id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, created_at, sale_id)
         values (?, ?, ?, ?, ?, ?, ?, now() + ? * interval '1 millisecond', ?)`,
        [randomUUID(), business, product, change, before, before + change, reason, i, saleId],
      );
    }
    return { business, main, other, rice, beans, haircut };
  };

  it('moves every quantity and ledger row to the default branch; the ledger sums per branch and in total', async () => {
    await orm.getMigrator().up({ to: 'Migration20261127200000_loan_packs' }); // the one before
    const shops = [await oldBusiness(), await oldBusiness()];
    expect((await migrate(orm))[0]).to.equal('Migration20261127300000_branch_stock'); // and any later ones

    for (const shop of shops) {
      const stock = await sql<{ product_id: string; branch_id: string; quantity: number }>(
        'select product_id, branch_id, quantity from product_stock where business_id = ? order by quantity desc',
        [shop.business],
      );
      expect(stock).to.deep.equal([
        { product_id: shop.rice, branch_id: shop.main, quantity: 7 },
        { product_id: shop.beans, branch_id: shop.main, quantity: 0 },
      ]); // a service keeps no stock row; the second branch holds nothing
      const branches = await sql<{ branch_id: string; n: string }>('select branch_id, count(*) as n from stock_movements where business_id = ? group by branch_id', [shop.business]);
      expect(branches).to.deep.equal([{ branch_id: shop.main, n: '6' }]);
      // per product and branch, and per product in total, the ledger sums to what is held
      const sums = await sql<{ product_id: string; held: number; ledger: string; total: number }>(
        `select s.product_id, s.quantity as held, (select sum(quantity_change) from stock_movements m where m.product_id = s.product_id and m.branch_id = s.branch_id) as ledger,
                p.quantity as total
         from product_stock s join products p on p.id = s.product_id where s.business_id = ?`,
        [shop.business],
      );
      for (const row of sums) expect([Number(row.ledger), row.total]).to.deep.equal([row.held, row.held]);
    }
    expect(await sql('select * from stock_transfers')).to.deep.equal([]);

    // from now on a ledger row names its branch, and a branch's stock never goes below zero
    const shop = shops[0]!;
    const noBranch = sql(
      `insert into stock_movements (id, business_id, product_id, quantity_change, quantity_before, quantity_after, reason, created_at) values (?, ?, ?, 1, 7, 8, 'RESTOCK', now())`,
      [randomUUID(), shop.business, shop.rice],
    );
    await noBranch.then(
      () => expect.fail('a ledger row without a branch was stored'),
      (e: Error) => expect(e.message).to.match(/null value in column "branch_id"/),
    );
    // since the offline-sync migration (docs/adr/0034) the stock statement keeps quantities at zero or more, and
    // the ledger refuses a row that leaves a branch below zero unless it is a (synced offline) SALE
    await sql(
      `insert into stock_movements (id, business_id, branch_id, product_id, quantity_change, quantity_before, quantity_after, reason, created_at) values (?, ?, ?, ?, -9, 8, -1, 'DAMAGE', now())`,
      [randomUUID(), shop.business, shop.main, shop.rice],
    ).then(
      () => expect.fail('a ledger row took a branch below zero'),
      (e: Error) => expect(e.message).to.match(/check constraint/),
    );
  });
});
