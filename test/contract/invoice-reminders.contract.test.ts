import { expect } from 'chai';
import type { Invoice } from '../../domain/invoice.js';
import { kobo } from '../../domain/money.js';
import { DEFAULT_PREFERENCES } from '../../domain/notification.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCustomer, anInvoice, NOW, seedShop } from '../support/builders.js';

// The invoice reminders' part of the InvoiceRepository and NotificationSettings contracts (docs/adr/0077), on
// every adapter: the candidates of a due date and kind, a claim that holds once, tenancy, the businesses that remind.

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`invoice reminders contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const shop = async () => {
      const t = await seedShop(p.uow);
      const customer = aCustomer(t.business.id, { name: 'Zenith Catering' });
      await p.uow.run(async (r) => void (await r.customers.add(customer)));
      let n = 0;
      const invoice = (o: Partial<Invoice> = {}): Invoice =>
        anInvoice(t, customer, {
          number: `INV-${String(++n).padStart(6, '0')}`, status: 'SENT', issueDate: '2026-12-01', dueDate: '2026-12-11', paymentTermsDays: 10,
          lines: [{ position: 0, productId: null, description: 'Delivery fee', quantity: 1, unitPrice: kobo(500), discount: kobo(0), vatRate: 0, vatAmount: kobo(0), lineTotal: kobo(500), unitCost: null }],
          subtotal: kobo(500), total: kobo(500), sentAt: NOW, ...o,
        });
      return { ...t, customer, invoice };
    };

    it('candidates: sent or part-paid with a balance, not proformas, due that day, not yet reminded of that kind; a claim holds once; tenancy', async () => {
      const t = await shop();
      const other = await shop();
      const due = t.invoice({ createdAt: new Date(NOW.getTime() + 1) });
      const part = t.invoice({ status: 'PARTIALLY_PAID', amountPaid: kobo(100), createdAt: new Date(NOW.getTime() + 2) });
      const skipped = [t.invoice({ status: 'PAID', amountPaid: kobo(500) }), t.invoice({ status: 'CANCELLED' }), t.invoice({ type: 'PROFORMA', number: 'PRF-000001' }), t.invoice({ status: 'DRAFT', number: null }), t.invoice({ dueDate: '2026-12-12' })];
      const theirs = other.invoice();
      await p.uow.run(async (r) => {
        for (const i of [due, part, ...skipped, theirs]) await r.invoices.add(i);
      });
      const ids = async (kind: 'BEFORE_DUE' | 'OVERDUE', businessId = t.business.id) => (await p.uow.read((r) => r.invoices.reminderCandidates(businessId, kind, '2026-12-11', 10))).map((i) => i.id);
      expect(await ids('BEFORE_DUE')).to.deep.equal([due.id, part.id]);
      expect(await ids('BEFORE_DUE', other.business.id)).to.deep.equal([theirs.id]);
      const first = await p.uow.read((r) => r.invoices.reminderCandidates(t.business.id, 'BEFORE_DUE', '2026-12-11', 1));
      expect(first.map((i) => [i.id, i.number, i.customerName, i.total, i.amountPaid])).to.deep.equal([[due.id, 'INV-000001', 'Zenith Catering', 500, 0]]);

      expect(await p.uow.run((r) => r.invoices.claimReminder(t.business.id, due.id, 'BEFORE_DUE', NOW))).to.equal(true);
      expect(await p.uow.run((r) => r.invoices.claimReminder(t.business.id, due.id, 'BEFORE_DUE', NOW))).to.equal(false);
      // two claims at once: one wins
      const both = await Promise.all([0, 1].map(() => p.uow.run((r) => r.invoices.claimReminder(t.business.id, part.id, 'BEFORE_DUE', NOW))));
      expect(both.filter(Boolean)).to.have.length(1);
      expect(await ids('BEFORE_DUE')).to.deep.equal([]);
      expect(await ids('OVERDUE')).to.deep.equal([due.id, part.id]); // the other kind is its own
      expect(await ids('BEFORE_DUE', other.business.id)).to.deep.equal([theirs.id]);
    });

    it('the businesses that remind: either switch on', async () => {
      const [a, b, c] = [await shop(), await shop(), await shop()];
      await p.uow.run(async (r) => {
        await r.notificationSettings.save(a.business.id, { ...DEFAULT_PREFERENCES, invoiceReminders: { beforeDue: true, overdue: false, channel: 'SMS' } }, NOW);
        await r.notificationSettings.save(b.business.id, { ...DEFAULT_PREFERENCES, invoiceReminders: { beforeDue: false, overdue: true, channel: 'EMAIL' } }, NOW);
        await r.notificationSettings.save(c.business.id, DEFAULT_PREFERENCES, NOW);
      });
      const found = await p.uow.read((r) => r.notificationSettings.invoiceRemindingBusinesses(1000));
      const mine = found.filter((x) => [a, b, c].some((s) => s.business.id === x.businessId));
      expect(mine.map((x) => [x.businessId, x.preferences.invoiceReminders]).sort()).to.deep.equal(
        [[a.business.id, { beforeDue: true, overdue: false, channel: 'SMS' }], [b.business.id, { beforeDue: false, overdue: true, channel: 'EMAIL' }]].sort(),
      );
      const after = [a.business.id, b.business.id].sort()[0]!;
      expect((await p.uow.read((r) => r.notificationSettings.invoiceRemindingBusinesses(1000, after))).every((x) => x.businessId > after)).to.equal(true);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
