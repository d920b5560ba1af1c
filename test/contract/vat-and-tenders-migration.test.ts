import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openOrm } from '../../adapters/persistence/sql/orm.js';
import { MIGRATIONS } from '../../bootstrap/migrations.js';
import { emptyDatabaseUrl } from '../support/database.js';

const NAME = 'Migration20261205000000_vat_and_tenders';
/** The migration before this one, whatever others the list holds. */
const before_ = MIGRATIONS[MIGRATIONS.findIndex((m) => m.name === NAME) - 1]!.name;

// Issue 34 (docs/adr/0055): sales written before tenders existed get theirs from the migration, by the rule of
// tendersOf (domain/sale.ts): what was paid by the sale's method (a CREDIT sale's deposit as CASH), then the rest as
// CREDIT; a sale of 0 is one tender of its method. VAT columns start empty: no sale of the past carried VAT.
describe('migration Migration20261205000000_vat_and_tenders', function () {
  this.timeout(60_000);
  let orm: MikroORM;
  before(async () => (orm = await openOrm({ databaseUrl: await emptyDatabaseUrl(), log: () => undefined, migrations: MIGRATIONS })));
  after(async () => orm.close());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(text, params);

  it('backfills one tender of the method for what was paid, plus CREDIT for what was left owed; nothing carries VAT', async () => {
    await orm.getMigrator().up({ to: before_ });
    const business = randomUUID();
    const branch = randomUUID();
    const customer = randomUUID();
    const user = randomUUID();
    await sql(`insert into businesses (id, name, created_at, updated_at) values (?, 'Old shop', now(), now())`, [business]);
    await sql(`insert into branches (id, business_id, name, is_default, created_at, updated_at) values (?, ?, 'Main', true, now(), now())`, [branch, business]);
    await sql(`insert into customers (id, business_id, name, created_at, updated_at) values (?, ?, 'Chika', now(), now())`, [customer, business]);
    let n = 0;
    const sale = async (method: string, total: number, paid: number, status = 'COMPLETED') => {
      const id = randomUUID();
      n += 1;
      await sql(
        `insert into sales (id, business_id, branch_id, receipt_number, customer_id, payment_method, subtotal, discount, total, amount_paid, balance_due, status, created_by, created_at, credit_outstanding)
         values (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, now(), 0)`,
        [id, business, branch, `RCP-00000${n}`, paid < total ? customer : null, method, total, total, paid, status === 'VOIDED' ? 0 : total - paid, status, user],
      );
      return id;
    };
    const cash = await sale('CASH', 150_000, 150_000);
    const deposit = await sale('CREDIT', 300_000, 100_000);
    const owed = await sale('CREDIT', 300_000, 0);
    const partTransfer = await sale('TRANSFER', 50_000, 20_000);
    const free = await sale('CARD', 0, 0);
    const voided = await sale('CARD', 80_000, 80_000, 'VOIDED');

    expect((await migrate(orm))[0]).to.equal(NAME);

    const tenders = async (id: string) =>
      (await sql<{ method: string; amount: string }>('select method, amount from sale_payments where business_id = ? and sale_id = ? order by position', [business, id])).map(
        (t) => [t.method, Number(t.amount)],
      );
    expect(await tenders(cash)).to.deep.equal([['CASH', 150_000]]);
    expect(await tenders(deposit)).to.deep.equal([['CASH', 100_000], ['CREDIT', 200_000]]);
    expect(await tenders(owed)).to.deep.equal([['CREDIT', 300_000]]);
    expect(await tenders(partTransfer)).to.deep.equal([['TRANSFER', 20_000], ['CREDIT', 30_000]]);
    expect(await tenders(free)).to.deep.equal([['CARD', 0]]);
    expect(await tenders(voided)).to.deep.equal([['CARD', 80_000]]);
    // every sale's tenders add up to its total
    const sums = await sql<{ total: string; tendered: string }>('select s.total, (select sum(amount) from sale_payments p where p.sale_id = s.id) as tendered from sales s');
    for (const s of sums) expect(Number(s.tendered)).to.equal(Number(s.total));
    const vat = await sql<{ vat_total: string; prices_include_vat: boolean | null }>('select vat_total, prices_include_vat from sales');
    expect(vat.every((v) => Number(v.vat_total) === 0 && v.prices_include_vat === null)).to.equal(true);
    expect(await sql('select vat_registered, tin, vat_rate, prices_include_vat from businesses where id = ?', [business])).to.deep.equal([
      { vat_registered: false, tin: null, vat_rate: 750, prices_include_vat: true },
    ]);
  });
});
