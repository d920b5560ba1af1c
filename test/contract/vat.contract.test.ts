import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { createProduct } from '../../application/products/manage-products.js';
import { recordSale, type SaleCommand } from '../../application/sales/record-sale.js';
import { voidSale } from '../../application/sales/void-sale.js';
import { recordReturn } from '../../application/returns/record-return.js';
import { defaultExpenseCategories, type Expense } from '../../domain/expense.js';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { seedTenant } from '../support/builders.js';
import { testClock } from '../support/test-app.js';

// The reports port's VAT sums, the expenses' input VAT and the P&L's expenses net of it, on both adapters
// (docs/adr/0054). Amounts by hand, in kobo:
//   shop (VAT-registered, 7.5 %, inclusive): S1 1 x 10,750.00 (VAT 750.00, net 10,000.00) + 1 x 500.00 exempt;
//   S2 the same, voided; S3 1 x 10,750.00 on 1 Dec (another month). Expenses in November: 1,075.00 holding 75.00 of VAT,
//   500.00 without, and a deleted one of 2,150.00 holding 150.00.
//   plain (not registered): the same first sale and expenses: no output VAT; its input VAT is recorded but the P&L keeps the amounts.
//   On 2 Dec both take back S1's taxed unit: the registered shop hands back 10,750.00, VAT 750.00 of it (its December
//   return); the plain shop's sale carried no VAT, so its return is in no VAT sum.

const N = (naira: number) => kobo(Math.round(naira * 100));
const S = (naira: number) => BigInt(Math.round(naira * 100));
const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(JSON.stringify(e.left));
  return e.right;
};

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`VAT sums contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    let shop: string;
    let plain: string;
    const clock = testClock(new Date('2026-11-10T09:00:00Z'));

    const build = async (registered: boolean) => {
      const t = await seedTenant(p.uow, { business: registered ? { vatRegistered: true, tin: '1234567890' } : {} });
      const deps = { uow: p.uow, clock, crypto: nodeCrypto(new Uint8Array(32)) };
      const product = async (price: number, vatExempt = false) => right(await createProduct(deps)(t.actor, { name: 'p', price: N(price), quantity: 10, vatExempt })).id;
      const taxed = await product(10_750);
      const exempt = await product(500, true);
      const sell = async (at: string, cmd: Omit<SaleCommand, 'paymentMethod'>) => {
        clock.set(new Date(at));
        return right(await recordSale(deps)(t.actor, { paymentMethod: 'CASH', ...cmd })).sale;
      };
      const items = [{ productId: taxed, quantity: 1 }, { productId: exempt, quantity: 1 }];
      const s1 = await sell('2026-11-10T10:00:00Z', { items });
      const voided = await sell('2026-11-10T11:00:00Z', { items });
      right(await voidSale(deps)(t.actor, voided.id, 'mistake'));
      await sell('2026-12-01T10:00:00Z', { items: [{ productId: taxed, quantity: 1 }] });
      clock.set(new Date('2026-12-02T10:00:00Z'));
      const back = right(await recordReturn(deps)(t.actor, { saleId: s1.id, items: [{ productId: taxed, quantity: 1 }], restock: true, refundMethod: 'CASH', reason: 'x' }));
      expect([back.amount, back.vatAmount]).to.deep.equal(registered ? [N(10_750), N(750)] : [N(10_750), N(0)]);
      const category = defaultExpenseCategories(t.business.id, randomUUID, clock.now())[0]!;
      const expense = (amount: number, vat: number | undefined, deleted = false): Expense & { deleted: boolean } => ({
        id: randomUUID(), businessId: t.business.id, branchId: t.branch.id, categoryId: category.id, categoryName: category.name, amount: N(amount),
        ...(vat === undefined ? {} : { vatAmount: N(vat) }), description: 'x', vendor: null, paymentMethod: 'CASH', spentOn: '2026-11-12', reference: null,
        createdBy: t.user.id, createdAt: clock.now(), updatedAt: clock.now(), deleted,
      });
      await p.uow.run(async (r) => {
        await r.expenseCategories.add(category);
        for (const { deleted, ...e } of [expense(1_075, 75), expense(500, undefined), expense(2_150, 150, true)]) {
          await r.expenses.add(e);
          if (deleted) await r.expenses.softDelete(t.business.id, e.id, t.user.id, clock.now());
        }
      });
      return t.business.id;
    };

    before(async () => {
      p = await open();
      shop = await build(true);
      plain = await build(false);
    });
    after(async () => p.close());

    it('vatSums: completed sales that carried VAT by rate (voided and other months left out); live expenses with input VAT', async () => {
      const nov = { from: '2026-11-01', to: '2026-11-30' };
      expect(await p.uow.read((r) => r.reports.vatSums(shop, nov))).to.deep.equal({
        sales: [{ rate: 750, net: S(10_000), vat: S(750) }, { rate: 0, net: S(500), vat: S(0) }],
        salesCount: 1,
        returns: [],
        returnsCount: 0,
        invoices: [],
        invoicesCount: 0,
        expensesCount: 1,
        expensesAmount: S(1_075),
        inputVat: S(75),
      });
      expect(await p.uow.read((r) => r.reports.vatSums(shop, { from: '2026-12-01', to: '2026-12-31' }))).to.deep.equal({
        sales: [{ rate: 750, net: S(10_000), vat: S(750) }], salesCount: 1, returns: [{ rate: 750, net: S(10_000), vat: S(750) }], returnsCount: 1, invoices: [], invoicesCount: 0, expensesCount: 0, expensesAmount: 0n, inputVat: 0n,
      });
      expect(await p.uow.read((r) => r.reports.vatSums(plain, nov))).to.deep.equal({ sales: [], salesCount: 0, returns: [], returnsCount: 0, invoices: [], invoicesCount: 0, expensesCount: 1, expensesAmount: S(1_075), inputVat: S(75) });
      expect((await p.uow.read((r) => r.reports.vatSums(plain, { from: '2026-12-01', to: '2026-12-31' }))).returns).to.deep.equal([]);
      // December's revenue nets the return of its VAT: 10,000.00 sold, 10,000.00 back
      const dec = { from: '2026-12-01', to: '2026-12-31' };
      expect((await p.uow.read((r) => r.reports.periodSums(shop, dec, dec))).current).to.deep.include({ revenue: 0n, returns: S(10_000), returnsCount: 1 });
    });

    it('an expense keeps its input VAT (absent when none); the registered business\'s P&L and period sums count expenses net of it', async () => {
      const listed = await p.uow.read((r) => r.expenses.list(shop, { sortBy: 'amount', sortDir: 'desc', limit: 10 }, {}));
      expect(listed.items.map((e) => [e.amount, e.vatAmount])).to.deep.equal([[N(1_075), N(75)], [N(500), undefined]]);
      const nov = { from: '2026-11-01', to: '2026-11-30' };
      const [, registered] = await p.uow.read((r) => r.reports.profitLoss(shop, nov));
      expect([registered!.revenue, registered!.totalExpenses, registered!.expenses.map((c) => c.amount)]).to.deep.equal([S(10_500), S(1_500), [S(1_500)]]);
      const [, unregistered] = await p.uow.read((r) => r.reports.profitLoss(plain, nov));
      expect([unregistered!.revenue, unregistered!.totalExpenses]).to.deep.equal([S(11_250), S(1_575)]);
      const { current } = await p.uow.read((r) => r.reports.periodSums(shop, nov, nov));
      expect([current.revenue, current.expenses, current.salesCount]).to.deep.equal([S(10_500), S(1_500), 1]);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
