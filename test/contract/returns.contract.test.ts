import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ReturnFilter, ReturnSort } from '../../application/returns/ports.js';
import type { PageRequest } from '../../application/ports/list.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import { kobo, MAX_KOBO } from '../../domain/money.js';
import type { SaleDraft } from '../../domain/sale.js';
import type { SaleReturn, SaleReturnDraft } from '../../domain/sale-return.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aProduct, aSale, aUser, NOW, seedShop } from '../support/builders.js';

// The SaleReturnRepository contract on every adapter (docs/adr/0058): gap-free return numbers per business,
// every field kept, units returned per sale line, a sale's returns, tenancy, and the list's filters and pages.

const at = (ms: number) => new Date(NOW.getTime() + ms);
const page = (o: Partial<PageRequest<ReturnSort>> = {}): PageRequest<ReturnSort> => ({ sortBy: 'created_at', sortDir: 'desc', limit: 100, ...o });

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`returns contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    /** A shop with a committed two-line sale (3 and 2 units) and a second product. */
    const shop = async () => {
      const t = await seedShop(p.uow);
      const other = aProduct(t.business.id, { name: 'beans' });
      const base = aSale(t, t.product.id);
      const sale: SaleDraft = {
        ...base,
        lines: [
          { productId: t.product.id, name: 'rice', sku: 'RICE-1', quantity: 3, unitPrice: kobo(1000), discount: kobo(0), lineTotal: kobo(3000), costPrice: kobo(700) },
          { productId: other.id, name: 'beans', sku: 'BEANS-1', quantity: 2, unitPrice: kobo(500), discount: kobo(0), lineTotal: kobo(1000), costPrice: null },
        ],
        subtotal: kobo(4000), total: kobo(4000), amountPaid: kobo(4000),
      };
      const receiptNumber = await p.uow.run(async (r) => {
        await r.products.add(other);
        return r.sales.add(sale);
      });
      const draft = (o: Partial<SaleReturnDraft> = {}): SaleReturnDraft => ({
        id: randomUUID(), businessId: t.business.id, saleId: sale.id, branchId: t.branch.id, customerId: null,
        lines: [{ position: 0, productId: t.product.id, name: 'rice', sku: 'RICE-1', quantity: 1, amount: kobo(1000), lineAmount: kobo(1000), vatAmount: kobo(0), unitCost: kobo(700), costReturned: kobo(700) }],
        restock: true, refundMethod: 'CASH', reason: 'torn bag', amount: kobo(1000), vatAmount: kobo(0), debtReduced: kobo(0), refundAmount: kobo(1000), costReturned: kobo(700),
        createdBy: t.user.id, createdAt: NOW, ...o,
      });
      const add = async (...drafts: SaleReturnDraft[]): Promise<SaleReturn[]> => {
        const saved: SaleReturn[] = [];
        for (const d of drafts) saved.push({ ...d, receiptNumber, returnNumber: await p.uow.run((r) => r.saleReturns.add(d)) });
        return saved;
      };
      const ids = async (filter: ReturnFilter = {}, o: Partial<PageRequest<ReturnSort>> = {}) =>
        (await p.uow.read((r) => r.saleReturns.list(t.business.id, page(o), filter))).items.map((x) => x.id);
      return { ...t, other, sale, receiptNumber, draft, add, ids };
    };

    it('numbers each business\'s returns RTN-000001, RTN-000002, …; a rolled-back return gives its number back', async () => {
      const a = await shop();
      const b = await shop();
      const [one, two] = await a.add(a.draft(), a.draft());
      expect([one!.returnNumber, two!.returnNumber]).to.deep.equal(['RTN-000001', 'RTN-000002']);
      const undone = await p.uow.run(async (r) => rollback(await r.saleReturns.add(a.draft())));
      expect(undone).to.equal('RTN-000003');
      expect((await a.add(a.draft()))[0]!.returnNumber, 'gap-free').to.equal('RTN-000003');
      expect((await b.add(b.draft()))[0]!.returnNumber).to.equal('RTN-000001');
    });

    it('keeps every field, lines in order, with the sale\'s receipt number; another business finds nothing', async () => {
      const t = await shop();
      const other = await shop();
      const [full] = await t.add(
        t.draft({
          customerId: null, restock: false, refundMethod: 'CREDIT_NOTE', reason: 'wrong size', amount: kobo(MAX_KOBO), vatAmount: kobo(7), debtReduced: kobo(MAX_KOBO - 5), refundAmount: kobo(5),
          costReturned: kobo(0), createdAt: at(5), offline: { deviceId: 'till-1', clientCreatedAt: at(-60_000) },
          lines: [
            { position: 1, productId: t.other.id, name: 'beans', sku: 'BEANS-1', quantity: 2, amount: kobo(999), lineAmount: kobo(1000), vatAmount: kobo(7), unitCost: null, costReturned: kobo(0) },
            { position: 0, productId: t.product.id, name: 'rice', sku: 'RICE-1', quantity: 1, amount: kobo(MAX_KOBO - 999), lineAmount: kobo(MAX_KOBO), vatAmount: kobo(0), unitCost: kobo(700), costReturned: kobo(0) },
          ],
        }),
      );
      expect(await p.uow.read((r) => r.saleReturns.findById(t.business.id, full!.id))).to.deep.equal(full);
      expect(full!.receiptNumber).to.equal(t.receiptNumber);
      expect(await p.uow.read((r) => r.saleReturns.findById(other.business.id, full!.id))).to.equal(undefined);
      expect(await p.uow.read((r) => r.saleReturns.findById(t.business.id, randomUUID()))).to.equal(undefined);
      expect(await other.ids()).to.deep.equal([]);
      expect(await p.uow.read((r) => r.saleReturns.countOfSale(other.business.id, t.sale.id))).to.equal(0);
      const [online] = await t.add(t.draft());
      expect(await p.uow.read((r) => r.saleReturns.findById(t.business.id, online!.id))).to.deep.equal(online).and.not.have.property('offline');
    });

    it('adds up the units returned per sale line; lists a sale\'s returns oldest first without lines; counts them', async () => {
      const t = await shop();
      expect([...(await p.uow.read((r) => r.saleReturns.returnedUnits(t.business.id, t.sale.id)))]).to.deep.equal([]);
      const beans = { position: 1, productId: t.other.id, name: 'beans', sku: 'BEANS-1', quantity: 2, amount: kobo(1000), lineAmount: kobo(1000), vatAmount: kobo(0), unitCost: null, costReturned: kobo(0) };
      const [first, second] = await t.add(t.draft({ createdAt: at(2) }), t.draft({ createdAt: at(1), lines: [{ ...t.draft().lines[0]!, quantity: 2 }, beans] }));
      const units = await p.uow.read((r) => r.saleReturns.returnedUnits(t.business.id, t.sale.id));
      expect(Object.fromEntries(units)).to.deep.equal({ 0: 3, 1: 2 });
      const of = await p.uow.read((r) => r.saleReturns.ofSale(t.business.id, t.sale.id));
      expect(of).to.deep.equal([{ ...second!, lines: [] }, { ...first!, lines: [] }]);
      expect(await p.uow.read((r) => r.saleReturns.countOfSale(t.business.id, t.sale.id))).to.equal(2);
      expect(await p.uow.read((r) => r.saleReturns.ofSale(t.business.id, randomUUID()))).to.deep.equal([]);
    });

    it('reads its own writes inside a unit of work', async () => {
      const t = await shop();
      const seen = await p.uow.run(async (r) => {
        const d = t.draft();
        await r.saleReturns.add(d);
        return [await r.saleReturns.countOfSale(t.business.id, t.sale.id), (await r.saleReturns.returnedUnits(t.business.id, t.sale.id)).get(0), (await r.saleReturns.findById(t.business.id, d.id))?.returnNumber];
      });
      expect(seen).to.deep.equal([1, 1, 'RTN-000001']);
    });

    it('lists with filters (branch, creator, sale, refund method, dates), search over numbers and reason, sorts and keyset pages', async () => {
      const t = await shop();
      const clerk = aUser();
      await p.uow.run((r) => r.users.add(clerk));
      const [a, b, c] = await t.add(
        t.draft({ createdAt: at(1), amount: kobo(300), debtReduced: kobo(0), refundAmount: kobo(300) }),
        t.draft({ createdAt: at(2), amount: kobo(100), debtReduced: kobo(0), refundAmount: kobo(100), refundMethod: 'POS', createdBy: clerk.id, reason: 'Zipper 100% broken' }),
        t.draft({ createdAt: at(86_400_000), amount: kobo(200), debtReduced: kobo(0), refundAmount: kobo(200) }),
      );
      expect(await t.ids()).to.deep.equal([c!.id, b!.id, a!.id]);
      expect(await t.ids({}, { sortDir: 'asc' })).to.deep.equal([a!.id, b!.id, c!.id]);
      expect(await t.ids({}, { sortBy: 'amount', sortDir: 'asc' })).to.deep.equal([b!.id, c!.id, a!.id]);
      expect(await t.ids({ branchId: t.branch.id })).to.have.length(3);
      expect(await t.ids({ branchId: randomUUID() })).to.deep.equal([]);
      expect(await t.ids({ createdBy: clerk.id })).to.deep.equal([b!.id]);
      expect(await t.ids({ saleId: t.sale.id })).to.have.length(3);
      expect(await t.ids({ saleId: randomUUID() })).to.deep.equal([]);
      expect(await t.ids({ refundMethod: 'POS' })).to.deep.equal([b!.id]);
      expect(await t.ids({}, { from: at(2), to: at(3) })).to.deep.equal([b!.id]);
      expect(await t.ids({}, { from: at(3) })).to.deep.equal([c!.id]);
      expect(await t.ids({}, { search: b!.returnNumber.toLowerCase() })).to.deep.equal([b!.id]);
      expect(await t.ids({}, { search: t.receiptNumber })).to.have.length(3);
      expect(await t.ids({}, { search: '100%' })).to.deep.equal([b!.id]);
      const first = await p.uow.read((r) => r.saleReturns.list(t.business.id, page({ limit: 2 }), {}));
      expect(first.items.map((x) => x.id)).to.deep.equal([c!.id, b!.id]);
      expect(first.items[0]!.lines).to.deep.equal([]);
      expect(first.items[0]!.receiptNumber).to.equal(t.receiptNumber);
      expect(first.hasNext).to.equal(true);
      const rest = await p.uow.read((r) => r.saleReturns.list(t.business.id, page({ limit: 2, after: first.next! }), {}));
      expect(rest.items.map((x) => x.id)).to.deep.equal([a!.id]);
      expect(rest.hasNext).to.equal(false);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
