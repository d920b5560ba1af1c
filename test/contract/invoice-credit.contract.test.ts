import { expect } from 'chai';
import type { Invoice } from '../../domain/invoice.js';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCreditEntry, aCustomer, anInvoice, NOW, seedShop } from '../support/builders.js';

// Invoices in the credit ledger on every adapter (docs/adr/0073): entries keyed to an invoice round-trip;
// open invoices are the sent ones (not proformas, drafts, paid or cancelled) with a balance, by due date;
// the aging report ages their balances from the due date beside the credit sales; own business only.

const TODAY = '2026-11-22'; // Lagos day of NOW
const agingPage = { sortBy: 'total' as const, sortDir: 'desc' as const, limit: 100 };

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`invoice credit contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const shop = async () => {
      const t = await seedShop(p.uow);
      const customer = aCustomer(t.business.id, { name: 'Zenith Catering' });
      await p.uow.run(async (r) => void (await r.customers.add(customer)));
      let n = 0;
      const invoice = (o: Partial<Invoice>): Invoice =>
        anInvoice(t, customer, { number: `INV-${String(++n).padStart(6, '0')}`, status: 'SENT', issueDate: '2026-08-01', dueDate: '2026-11-10', paymentTermsDays: 0, total: kobo(100_000), sentAt: NOW, ...o });
      return { ...t, customer, invoice };
    };

    it('open invoices and the aging report: balances of sent invoices aged from their due date, to the kobo; own business only', async () => {
      const t = await shop();
      const other = await shop();
      const a = t.invoice({ total: kobo(100_000), amountPaid: kobo(30_000), status: 'PARTIALLY_PAID', dueDate: '2026-11-10' }); // 12 days late: 0-30
      const b = t.invoice({ total: kobo(250_000), amountPaid: kobo(50_000), status: 'PARTIALLY_PAID', dueDate: '2026-09-01' }); // 82 days: 61-90
      const e = t.invoice({ total: kobo(15_000), dueDate: '2026-12-20' }); // not due yet: 0-30
      const left = [
        t.invoice({ total: kobo(40_000), amountPaid: kobo(40_000), status: 'PAID', dueDate: '2026-01-01' }),
        t.invoice({ status: 'CANCELLED', cancelledAt: NOW, dueDate: '2026-01-01' }),
        t.invoice({ type: 'PROFORMA', number: 'PRF-000001', dueDate: '2026-01-01' }),
        t.invoice({ status: 'DRAFT', number: null, sentAt: null, dueDate: '2026-01-01' }),
      ];
      await p.uow.run(async (r) => {
        for (const x of [a, b, e, ...left]) await r.invoices.add(x);
        await r.invoices.add(other.invoice({ total: kobo(999_999), dueDate: '2026-01-01' }));
      });
      expect(await p.uow.read((r) => r.credit.openInvoices(t.business.id, t.customer.id))).to.deep.equal([
        { invoiceId: b.id, outstanding: 200_000, dueDate: '2026-09-01' },
        { invoiceId: a.id, outstanding: 70_000, dueDate: '2026-11-10' },
        { invoiceId: e.id, outstanding: 15_000, dueDate: '2026-12-20' },
      ]);
      expect(await p.uow.read((r) => r.credit.openInvoices(t.business.id, other.customer.id))).to.deep.equal([]);
      const buckets = { days_0_30: 85_000, days_31_60: 0, days_61_90: 200_000, days_over_90: 0 };
      const page = await p.uow.read((r) => r.credit.aging(t.business.id, TODAY, agingPage));
      expect(page.items).to.deep.equal([
        { customerId: t.customer.id, customerName: 'Zenith Catering', customerPhone: t.customer.phone, buckets, total: 285_000, oldestUnpaidAt: new Date('2026-08-31T23:00:00.000Z') },
      ]);
      expect(await p.uow.read((r) => r.credit.agingTotals(t.business.id, TODAY))).to.deep.equal({ customers: 1, total: 285_000, buckets });
      // the day after b is 90 days late it moves to over 90
      expect((await p.uow.read((r) => r.credit.agingTotals(t.business.id, '2026-12-01'))).buckets).to.deep.equal({ days_0_30: 85_000, days_31_60: 0, days_61_90: 0, days_over_90: 200_000 });
    });

    it('an entry keyed to an invoice keeps its invoice id and method (ONLINE too); an INVOICE_PAYMENT is the last payment', async () => {
      const t = await shop();
      const x = t.invoice({});
      await p.uow.run((r) => r.invoices.add(x));
      const debt = aCreditEntry(t.customer, { kind: 'INVOICE', amount: 100_000, balanceAfter: kobo(100_000), invoiceId: x.id, note: x.number, createdAt: NOW });
      const paid = aCreditEntry(t.customer, { kind: 'INVOICE_PAYMENT', amount: -40_000, balanceAfter: kobo(60_000), invoiceId: x.id, method: 'ONLINE', note: x.number, createdAt: new Date(NOW.getTime() + 5) });
      await p.uow.run(async (r) => { await r.credit.add(debt); await r.credit.add(paid); });
      expect(await p.uow.read((r) => r.credit.entryById(t.business.id, paid.id))).to.deep.equal(paid);
      expect(await p.uow.read((r) => r.credit.entryById(t.business.id, debt.id))).to.deep.equal(debt);
      expect(await p.uow.read((r) => r.credit.lastPaymentAt(t.business.id, t.customer.id))).to.deep.equal(paid.createdAt);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
