import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { InvoiceFilter, InvoiceSort } from '../../application/invoices/ports.js';
import type { PageRequest } from '../../application/ports/list.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import type { Invoice } from '../../domain/invoice.js';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCustomer, anInvoice, NOW, seedShop } from '../support/builders.js';

// The InvoiceRepository contract on every adapter (docs/adr/0072): every field kept, gap-free numbers per
// business and series (a rolled-back number is given back), payments, tenancy, tokens, the list's filters.

const page = (o: Partial<PageRequest<InvoiceSort>> = {}): PageRequest<InvoiceSort> => ({ sortBy: 'created_at', sortDir: 'desc', limit: 100, ...o });

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`invoices contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const shop = async () => {
      const t = await seedShop(p.uow);
      const customer = aCustomer(t.business.id, { name: 'Zenith Catering' });
      await p.uow.run(async (r) => void (await r.customers.add(customer)));
      const invoice = (o: Partial<Invoice> = {}): Invoice =>
        anInvoice(t, customer, {
          lines: [
            { position: 0, productId: t.product.id, description: 'rice', quantity: 3, unitPrice: kobo(1000), discount: kobo(50), vatRate: 750, vatAmount: kobo(220), lineTotal: kobo(2950), unitCost: null },
            { position: 1, productId: null, description: 'Delivery fee', quantity: 1, unitPrice: kobo(500), discount: kobo(0), vatRate: 0, vatAmount: kobo(0), lineTotal: kobo(500), unitCost: null },
          ],
          subtotal: kobo(3230), discountTotal: kobo(50), vatTotal: kobo(220), total: kobo(3450), pricesIncludeVat: true, notes: 'thanks', ...o,
        });
      return { ...t, customer, invoice };
    };

    it('keeps every field, its lines and payments; numbers are gap-free per series, a rolled-back one given back', async () => {
      const t = await shop();
      const draft = t.invoice();
      await p.uow.run((r) => r.invoices.add(draft));
      expect(await p.uow.read((r) => r.invoices.findById(t.business.id, draft.id))).to.deep.equal(draft);
      expect(await p.uow.read((r) => r.invoices.findByToken(draft.shareToken))).to.deep.equal(draft);
      // a rolled-back send gives its number back
      await p.uow.run(async (r) => rollback(await r.invoices.nextNumber(t.business.id, 'INV')));
      const [n1, n2, p1] = await p.uow.run(async (r) => [await r.invoices.nextNumber(t.business.id, 'INV'), await r.invoices.nextNumber(t.business.id, 'INV'), await r.invoices.nextNumber(t.business.id, 'PRF')]);
      expect([n1, n2, p1]).to.deep.equal(['INV-000001', 'INV-000002', 'PRF-000001']);
      const sent: Invoice = { ...draft, number: n1!, status: 'SENT', sentAt: NOW, lines: draft.lines.map((l) => ({ ...l, unitCost: l.productId ? kobo(700) : null })) };
      const payment = { id: randomUUID(), amount: kobo(1000), method: 'TRANSFER' as const, paidAt: NOW, reference: 'GTB-1', createdBy: t.user.id, createdAt: NOW };
      await p.uow.run(async (r) => {
        await r.invoices.save(sent);
        await r.invoices.addPayment(t.business.id, draft.id, payment);
        await r.invoices.save({ ...sent, status: 'PARTIALLY_PAID', amountPaid: kobo(1000) });
      });
      expect(await p.uow.read((r) => r.invoices.findById(t.business.id, draft.id, { forUpdate: true }))).to.deep.equal({ ...sent, status: 'PARTIALLY_PAID', amountPaid: kobo(1000), payments: [payment] });
    });

    it('another business sees none of it; the list filters by status, type, customer, overdue and searches number and customer', async () => {
      const t = await shop();
      const other = await shop();
      const a = t.invoice({ number: 'INV-000001', status: 'SENT', dueDate: '2026-11-01', createdAt: new Date(NOW.getTime() + 1) });
      const b = t.invoice({ type: 'PROFORMA' });
      await p.uow.run(async (r) => {
        await r.invoices.add(a);
        await r.invoices.add(b);
      });
      expect(await p.uow.read((r) => r.invoices.findById(other.business.id, a.id))).to.equal(undefined);
      expect((await p.uow.read((r) => r.invoices.list(other.business.id, page(), {}))).items).to.deep.equal([]);
      const ids = async (f: InvoiceFilter, o: Partial<PageRequest<InvoiceSort>> = {}) =>
        (await p.uow.read((r) => r.invoices.list(t.business.id, page(o), f))).items.map((x) => x.id);
      expect(await ids({})).to.deep.equal([a.id, b.id]);
      expect(await ids({ status: 'DRAFT' })).to.deep.equal([b.id]);
      expect(await ids({ type: 'PROFORMA' })).to.deep.equal([b.id]);
      expect(await ids({ customerId: t.customer.id })).to.have.length(2);
      expect(await ids({ overdueOn: '2026-11-02' })).to.deep.equal([a.id]);
      expect(await ids({ overdueOn: '2026-11-01' })).to.deep.equal([]);
      expect(await ids({}, { search: 'inv-000001' })).to.deep.equal([a.id]);
      expect(await ids({}, { search: 'zenith' })).to.have.length(2);
      const listed = (await p.uow.read((r) => r.invoices.list(t.business.id, page(), {}))).items[0]!;
      expect(listed.lines).to.deep.equal([]);
      expect(listed.customerName).to.equal('Zenith Catering');
      await p.uow.run((r) => r.invoices.remove(t.business.id, b.id));
      expect(await ids({})).to.deep.equal([a.id]);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
