import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import type { ReportExportRepositories, SaleExportCursor, SaleExportRow } from '../../application/report-exports/ports.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import { inMemoryAuthModule } from '../../adapters/persistence/in-memory/auth.in-memory.js';
import { inMemoryBusinessModule } from '../../adapters/persistence/in-memory/business.in-memory.js';
import { inMemoryCustomersModule } from '../../adapters/persistence/in-memory/customers.in-memory.js';
import { inMemoryInvoicesModule } from '../../adapters/persistence/in-memory/invoices.in-memory.js';
import { inMemoryStore } from '../../adapters/persistence/in-memory/in-memory-store.js';
import { inMemoryEventsModule } from '../../adapters/persistence/in-memory/outbox.in-memory.js';
import { inMemoryProductsModule } from '../../adapters/persistence/in-memory/products.in-memory.js';
import { inMemoryReportExportsModule } from '../../adapters/persistence/in-memory/report-exports.in-memory.js';
import type { ExpenseRow } from '../../adapters/persistence/in-memory/expenses.in-memory.js';

/** What the exports read of an expense. */
type ExpenseRowForReports = Pick<ExpenseRow, 'businessId' | 'amount' | 'paymentMethod' | 'spentOn' | 'deletedAt'>;
import { inMemorySalesModule } from '../../adapters/persistence/in-memory/sales.in-memory.js';
import { inMemoryReturnsModule } from '../../adapters/persistence/in-memory/returns.in-memory.js';
import { kobo } from '../../domain/money.js';
import { openPostgres, type AppRepositories } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCreditEntry, aCustomer, aSale, seedShop } from '../support/builders.js';

// The ReportExportRepository contract on both adapters: the sales export's keyset batches (range,
// ties, tenancy, names) and the cash flow per Lagos day (methods, voids, deleted expenses, running balance).

type Shop = Awaited<ReturnType<typeof seedShop>>;
interface Adapter {
  readonly uow: UnitOfWork<AppRepositories & ReportExportRepositories>;
  addExpense(shop: Shop, e: { amount: number; method: ExpenseRowForReports['paymentMethod']; spentOn: string; deleted?: boolean }): Promise<void>;
  close(): Promise<void>;
}

const at = (iso: string) => new Date(iso);

const contract = (name: string, open: () => Promise<Adapter>) =>
  describe(`report exports contract: ${name}`, function () {
    this.timeout(60_000);
    let a: Adapter;
    before(async () => (a = await open()));
    after(async () => a.close());

    const batch = (businessId: string, from: string, to: string, after: SaleExportCursor | undefined, limit: number) =>
      a.uow.read((r) => r.reportExports.salesBatch(businessId, { from: at(from), to: at(to) }, after, limit));

    it('salesBatch: the range [from, to), oldest first with ties by id, in keyset batches, names joined, voided included; one business only', async () => {
      const shop = await seedShop(a.uow);
      const other = await seedShop(a.uow);
      const customer = aCustomer(shop.business.id, { name: 'Chinedu Eze' });
      const same = '2026-11-02T09:00:00.000Z';
      const drafts = [
        aSale(shop, shop.product.id, { createdAt: at('2026-10-31T22:59:59.999Z') }), // before the range
        aSale(shop, shop.product.id, { createdAt: at('2026-10-31T23:00:00.000Z'), total: kobo(150_050), amountPaid: kobo(150_050) }),
        ...[1, 2, 3, 4].map(() => aSale(shop, shop.product.id, { createdAt: at(same) })),
        aSale(shop, shop.product.id, { createdAt: at('2026-11-03T10:00:00.000Z'), paymentMethod: 'CREDIT', customerId: customer.id, amountPaid: kobo(40_000) }),
        aSale(shop, shop.product.id, { createdAt: at('2026-11-30T22:59:59.999Z'), status: 'VOIDED' as const }),
        aSale(shop, shop.product.id, { createdAt: at('2026-11-30T23:00:00.000Z') }), // after the range
      ];
      await a.uow.run(async (r) => {
        await r.customers.add(customer);
        for (const s of drafts) await r.sales.add(s.status === 'VOIDED' ? { ...s, balanceDue: kobo(0) } : s);
        await r.sales.add(aSale(other, other.product.id, { createdAt: at(same) }));
      });
      const inRange = drafts.slice(1, -1);
      const expected = [inRange[0]!, ...inRange.slice(1, 5).sort((x, y) => (x.id < y.id ? -1 : 1)), ...inRange.slice(5)].map((s) => s.id);
      const walked: SaleExportRow[] = [];
      let after: SaleExportCursor | undefined;
      for (;;) {
        const rows = await batch(shop.business.id, '2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z', after, 3);
        walked.push(...rows);
        if (rows.length < 3) break;
        after = { createdAt: rows[2]!.createdAt, id: rows[2]!.id };
      }
      expect(walked.map((s) => s.id)).to.deep.equal(expected);
      expect(walked[0]).to.deep.include({ receiptNumber: 'RCP-000002', cashier: `${shop.user.firstName} ${shop.user.lastName}`, customer: null, paymentMethod: 'CASH', status: 'COMPLETED', total: 150_050, amountPaid: 150_050, balanceDue: 0, outstanding: 0 });
      expect(walked[0]!.createdAt.toISOString()).to.equal('2026-10-31T23:00:00.000Z');
      expect(walked.find((s) => s.paymentMethod === 'CREDIT')).to.deep.include({ customer: 'Chinedu Eze', amountPaid: 40_000, balanceDue: 60_000, outstanding: 60_000 });
      expect(walked[walked.length - 1]!.status).to.equal('VOIDED');
      expect(await batch(other.business.id, '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z', undefined, 10)).to.deep.equal([]);
    });

    it('cashFlow: every Lagos day, sales paid (voids left out) and credit collected by method, live expenses by method, net and running balance', async () => {
      const shop = await seedShop(a.uow);
      const other = await seedShop(a.uow);
      const customer = aCustomer(shop.business.id);
      await a.uow.run(async (r) => {
        await r.customers.add(customer);
        await r.sales.add(aSale(shop, shop.product.id, { createdAt: at('2026-11-01T08:00:00.000Z'), total: kobo(100_000) }));
        await r.sales.add(aSale(shop, shop.product.id, { createdAt: at('2026-11-01T09:00:00.000Z'), paymentMethod: 'TRANSFER', total: kobo(5_000) }));
        await r.sales.add({ ...aSale(shop, shop.product.id, { createdAt: at('2026-11-01T10:00:00.000Z'), total: kobo(7_777) }), status: 'VOIDED' });
        await r.sales.add(aSale(shop, shop.product.id, { createdAt: at('2026-11-01T23:30:00.000Z'), paymentMethod: 'CARD', total: kobo(20_000) })); // Lagos 2 Nov
        await r.sales.add(aSale(shop, shop.product.id, { createdAt: at('2026-11-02T10:00:00.000Z'), paymentMethod: 'CREDIT', customerId: customer.id, total: kobo(30_000), amountPaid: kobo(10_000) }));
        await r.credit.add(aCreditEntry(customer, { kind: 'PAYMENT', amount: -20_000, balanceAfter: kobo(0), method: 'CASH', createdAt: at('2026-11-03T11:00:00.000Z') }));
        await r.sales.add(aSale(other, other.product.id, { createdAt: at('2026-11-01T08:00:00.000Z') }));
      });
      await a.addExpense(shop, { amount: 4_000, method: 'POS', spentOn: '2026-11-02' });
      await a.addExpense(shop, { amount: 1_000, method: 'CASH', spentOn: '2026-11-03' });
      await a.addExpense(shop, { amount: 9_999, method: 'CASH', spentOn: '2026-11-03', deleted: true });
      await a.addExpense(other, { amount: 8_888, method: 'CASH', spentOn: '2026-11-03' });
      const days = await a.uow.read((r) => r.reportExports.cashFlow(shop.business.id, '2026-10-31', '2026-11-04'));
      // every figure an exact bigint sum (docs/adr/0038), compared here as numbers
      const pick = (keys: string[]) => days.map((d) => keys.map((k) => {
        const v = (d as unknown as Record<string, unknown>)[k];
        expect(typeof v, k).to.equal('bigint');
        return Number(v);
      }));
      expect(days.map((d) => d.day)).to.deep.equal(['2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04']);
      // by tender (docs/adr/0055): the CREDIT sale's deposit of 10,000 is a CASH tender
      expect(pick(['salesPaid', 'creditCollected', 'inCash', 'inTransfer', 'inCard', 'inPos', 'inOther', 'moneyIn'])).to.deep.equal([
        [0, 0, 0, 0, 0, 0, 0, 0],
        [105_000, 0, 100_000, 5_000, 0, 0, 0, 105_000],
        [30_000, 0, 10_000, 0, 20_000, 0, 0, 30_000],
        [0, 20_000, 20_000, 0, 0, 0, 0, 20_000],
        [0, 0, 0, 0, 0, 0, 0, 0],
      ]);
      expect(pick(['outCash', 'outTransfer', 'outCard', 'outPos', 'outOther', 'moneyOut', 'net', 'runningBalance'])).to.deep.equal([
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 105_000, 105_000],
        [0, 0, 0, 4_000, 0, 4_000, 26_000, 131_000],
        [1_000, 0, 0, 0, 0, 1_000, 19_000, 150_000],
        [0, 0, 0, 0, 0, 0, 0, 150_000],
      ]);
    });
  });

contract('in-memory', async () => {
  type Expenses = { expenses: Map<string, ExpenseRowForReports> };
  // the expenses table as the expenses module's in-memory adapter owns it
  const expensesTable = { tables: (): Expenses => ({ expenses: new Map() }), repositories: (t: Expenses) => ({ testExpenses: t.expenses }) };
  const uow = inMemoryStore<AppRepositories & ReportExportRepositories & { testExpenses: Map<string, ExpenseRowForReports> }>([
    inMemoryAuthModule, inMemoryBusinessModule, inMemoryProductsModule, inMemorySalesModule, inMemoryReturnsModule, inMemoryCustomersModule, inMemoryInvoicesModule, inMemoryEventsModule, inMemoryReportExportsModule, expensesTable,
  ]);
  return {
    uow,
    addExpense: (shop, e) =>
      uow.run(async (r) => void r.testExpenses.set(randomUUID(), { businessId: shop.business.id, amount: kobo(e.amount), paymentMethod: e.method, spentOn: e.spentOn, deletedAt: e.deleted ? new Date() : null })),
    close: async () => undefined,
  };
});

contract('SQL/PostgreSQL', async () => {
  const databaseUrl = await freshDatabaseUrl();
  const p = await openPostgres({ databaseUrl, dataDir: '/tmp', poolMax: 4, log: () => undefined });
  return {
    uow: p.uow,
    async addExpense(shop, e) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const categoryId = randomUUID();
        await client.query(`insert into expense_categories (id, business_id, name, created_at, updated_at) values ($1, $2, $3, now(), now())`, [categoryId, shop.business.id, `c-${categoryId}`]);
        await client.query(
          `insert into expenses (id, business_id, branch_id, category_id, amount, description, payment_method, spent_on, created_by, created_at, updated_at, deleted_at, deleted_by)
           values ($1, $2, $3, $4, $5, 'x', $6, $7, $8, now(), now(), $9, $10)`,
          [randomUUID(), shop.business.id, shop.branch.id, categoryId, e.amount, e.method, e.spentOn, shop.user.id, e.deleted ? new Date() : null, e.deleted ? shop.user.id : null],
        );
      } finally {
        await client.end();
      }
    },
    close: () => p.close(),
  };
});
