import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Invoice, InvoiceLine } from '../../domain/invoice.js';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCustomer, aSale, NOW, seedShop } from '../support/builders.js';

// Invoices in the report queries on both adapters (docs/adr/0074), hand-worked to the kobo. On Lagos day
// 2026-11-21: a CASH sale of 1,000.00; a TAX_INVOICE, 4 x 2,500.00 less 500.00 = 9,500.00 + 7.5% VAT 712.50
// = 10,212.50, cost 4 x 1,500.00 = 6,000.00, paid 3,000.00 CASH (23:30Z on the 20th: the 21st in Lagos)
// and 2,000.00 TRANSFER; a cancelled invoice of 4,000.00 and a sent proforma of 7,777.00 (neither counts).
// Due on the 21st: overdue on the 22nd.

const day = { from: '2026-11-21', to: '2026-11-21' };

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`reports with invoices contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    let shop: string;
    let other: string;
    before(async () => {
      p = await open();
      const t = await seedShop(p.uow);
      shop = t.business.id;
      other = (await seedShop(p.uow)).business.id;
      const customer = aCustomer(shop, { name: 'Zenith Catering' });
      const line = (o: Partial<InvoiceLine>): InvoiceLine => ({
        position: 0, productId: t.product.id, description: 'Rice', quantity: 1, unitPrice: kobo(0), discount: kobo(0), vatRate: 0, vatAmount: kobo(0), lineTotal: kobo(0), unitCost: null, ...o,
      });
      let n = 0;
      const invoice = (o: Partial<Invoice>): Invoice => ({
        id: randomUUID(), businessId: shop, type: 'INVOICE', number: `INV-${String(++n).padStart(6, '0')}`, status: 'SENT', customerId: customer.id, customerName: customer.name,
        customerPhone: customer.phone, branchId: t.branch.id, issueDate: '2026-11-21', dueDate: '2026-11-21', paymentTermsDays: 0, lines: [], subtotal: kobo(0), discountTotal: kobo(0),
        vatTotal: kobo(0), total: kobo(0), amountPaid: kobo(0), pricesIncludeVat: null, notes: null, payments: [], shareToken: randomUUID().replace(/-/g, ''), convertedFrom: null,
        createdBy: t.user.id, createdAt: NOW, updatedAt: NOW, sentAt: NOW, cancelledAt: null, ...o,
      });
      const taxInvoice = invoice({
        type: 'TAX_INVOICE', status: 'PARTIALLY_PAID', pricesIncludeVat: false,
        lines: [line({ quantity: 4, unitPrice: kobo(250_000), discount: kobo(50_000), vatRate: 750, vatAmount: kobo(71_250), lineTotal: kobo(950_000), unitCost: kobo(150_000) })],
        subtotal: kobo(950_000), discountTotal: kobo(50_000), vatTotal: kobo(71_250), total: kobo(1_021_250), amountPaid: kobo(500_000),
      });
      // both carry VAT, so the VAT return leaves them out by their status and type, not for want of VAT
      const cancelled = invoice({
        status: 'CANCELLED', cancelledAt: NOW, pricesIncludeVat: false, lines: [line({ unitPrice: kobo(400_000), vatRate: 750, vatAmount: kobo(30_000), lineTotal: kobo(400_000), unitCost: kobo(100_000) })],
        subtotal: kobo(400_000), vatTotal: kobo(30_000), total: kobo(430_000),
      });
      const proforma = invoice({
        type: 'PROFORMA', number: 'PRF-000001', pricesIncludeVat: true, lines: [line({ unitPrice: kobo(777_700), vatRate: 750, vatAmount: kobo(54_258), lineTotal: kobo(777_700), unitCost: kobo(1) })],
        subtotal: kobo(723_442), vatTotal: kobo(54_258), total: kobo(777_700),
      });
      const payment = (amount: number, method: 'CASH' | 'TRANSFER', paidAt: string) =>
        ({ id: randomUUID(), amount: kobo(amount), method, paidAt: new Date(paidAt), reference: null, createdBy: t.user.id, createdAt: new Date(paidAt) });
      await p.uow.run(async (r) => {
        await r.customers.add(customer);
        for (const x of [taxInvoice, cancelled, proforma]) await r.invoices.add(x);
        await r.invoices.addPayment(shop, taxInvoice.id, payment(300_000, 'CASH', '2026-11-20T23:30:00.000Z'));
        await r.invoices.addPayment(shop, taxInvoice.id, payment(200_000, 'TRANSFER', '2026-11-21T15:00:00.000Z'));
        await r.sales.add(aSale(t, t.product.id, { createdAt: new Date('2026-11-21T09:00:00.000Z') }));
      });
    });
    after(async () => p.close());
    const q = <A>(work: (r: Parameters<Parameters<Persistence['uow']['read']>[0]>[0]['reports']) => Promise<A>) => p.uow.read((r) => work(r.reports));

    it('periodSums: a sent invoice is revenue net of VAT, its discount and its cost at send on its issue date; cancelled and proforma count 0', async () => {
      const { current, previous } = await q((r) => r.periodSums(shop, day, { from: '2026-11-20', to: '2026-11-20' }));
      expect(current).to.deep.equal({
        revenue: 1_050_000n, returns: 0n, returnsCount: 0, salesCount: 1, invoiceCount: 1, invoiceRevenue: 950_000n, discounts: 50_000n, costOfGoods: 600_000n,
        creditGiven: 0n, creditCollected: 0n, expenses: 0n,
      });
      expect(previous).to.deep.include({ revenue: 0n, invoiceCount: 0, costOfGoods: 0n });
      expect((await q((r) => r.periodSums(other, day, day))).current).to.deep.include({ revenue: 0n, invoiceCount: 0 });
    });

    it('profitLoss: the month holds the invoice beside the sale', async () => {
      const [nov, whole] = await q((r) => r.profitLoss(shop, { from: '2026-11-01', to: '2026-11-30' }));
      const expected = { revenue: 1_050_000n, returns: 0n, discounts: 50_000n, costOfGoods: 600_000n, expenses: [], totalExpenses: 0n };
      expect(nov).to.deep.equal({ month: '2026-11', ...expected });
      expect(whole).to.deep.equal({ month: null, ...expected });
    });

    it('daySums: invoice payments by method on their Lagos paid_at day', async () => {
      const s = await q((r) => r.daySums(shop, '2026-11-21'));
      expect(s.invoicePayments).to.deep.equal([{ method: 'CASH', count: 1, total: 300_000n }, { method: 'TRANSFER', count: 1, total: 200_000n }]);
      expect(s.sales).to.deep.equal([{ method: 'CASH', count: 1, total: 100_000n }]);
      expect((await q((r) => r.daySums(shop, '2026-11-20'))).invoicePayments).to.deep.equal([]);
      expect((await q((r) => r.daySums(other, '2026-11-21'))).invoicePayments).to.deep.equal([]);
    });

    it("vatSums: the sent tax invoice's VAT by rate on its issue date; cancelled and proforma count 0; other months and businesses nothing", async () => {
      const nov = { from: '2026-11-01', to: '2026-11-30' };
      expect(await q((r) => r.vatSums(shop, nov))).to.deep.include({ invoices: [{ rate: 750, net: 950_000n, vat: 71_250n }], invoicesCount: 1 });
      expect(await q((r) => r.vatSums(shop, { from: '2026-10-01', to: '2026-10-31' }))).to.deep.include({ invoices: [], invoicesCount: 0 });
      expect(await q((r) => r.vatSums(shop, { from: '2026-11-22', to: '2026-11-30' }))).to.deep.include({ invoices: [], invoicesCount: 0 });
      expect(await q((r) => r.vatSums(other, nov))).to.deep.include({ invoices: [], invoicesCount: 0 });
    });

    it('cashFlow: invoice payments are money in on their Lagos paid_at day, by method, not credit collected', async () => {
      const days = await p.uow.read((r) => r.reportExports.cashFlow(shop, '2026-11-20', '2026-11-22'));
      const pick = (d: (typeof days)[number]) => [d.day, d.salesPaid, d.creditCollected, d.invoicesPaid, d.inCash, d.inTransfer, d.inOther, d.moneyIn, d.runningBalance];
      expect(days.map(pick)).to.deep.equal([
        ['2026-11-20', 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n],
        ['2026-11-21', 100_000n, 0n, 500_000n, 400_000n, 200_000n, 0n, 600_000n, 600_000n],
        ['2026-11-22', 0n, 0n, 0n, 0n, 0n, 0n, 0n, 600_000n],
      ]);
      expect((await p.uow.read((r) => r.reportExports.cashFlow(other, '2026-11-21', '2026-11-21'))).map(pick)).to.deep.equal([['2026-11-21', 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n]]);
    });

    it('receivables: invoiced (VAT included), collected, outstanding, overdue once the due date has passed', async () => {
      expect(await q((r) => r.receivables(shop, day, '2026-11-22'))).to.deep.equal({ invoiced: 1_021_250n, collected: 500_000n, outstanding: 521_250n, overdue: 521_250n });
      expect(await q((r) => r.receivables(shop, day, '2026-11-21'))).to.deep.equal({ invoiced: 1_021_250n, collected: 500_000n, outstanding: 521_250n, overdue: 0n });
      const zero = { invoiced: 0n, collected: 0n, outstanding: 0n, overdue: 0n };
      expect(await q((r) => r.receivables(shop, { from: '2026-11-22', to: '2026-11-30' }, '2026-11-22'))).to.deep.equal(zero);
      expect(await q((r) => r.receivables(other, day, '2026-11-22'))).to.deep.equal(zero);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
