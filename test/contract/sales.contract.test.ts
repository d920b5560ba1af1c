import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { kobo } from '../../domain/money.js';
import type { Sale, SaleDraft } from '../../domain/sale.js';
import type { Page, PageRequest } from '../../application/ports/list.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import { IdempotencyClaimLost } from '../../application/ports/idempotency-store.js';
import { saleRecorded, type SaleRecorded } from '../../domain/events.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBranch, aCustomer, aSale, NOW, seedShop } from '../support/builders.js';

// The SaleRepository contract on every adapter, through `uow.run` and `uow.read`: tenancy, gap-free
// receipt numbers, the monthly counter, the void, locks, list filters and keyset pages, and
// read-your-own-writes inside one unit of work.

const at = (ms: number) => new Date(NOW.getTime() + ms);
type Shop = Awaited<ReturnType<typeof seedShop>>;
const salePage = (o: Partial<PageRequest<'created_at' | 'total'>> = {}): PageRequest<'created_at' | 'total'> => ({ sortBy: 'created_at', sortDir: 'asc', limit: 100, ...o });
const ids = (page: Page<Sale>) => page.items.map((s) => s.id);
const stored = (draft: SaleDraft, receiptNumber: string): Sale => ({ ...draft, receiptNumber });
const voided = (s: Sale, o: Partial<Sale> = {}): Sale => ({
  ...s, status: 'VOIDED', voidedAt: at(60_000), voidReason: 'wrong item', voidedBy: s.createdBy, refundAmount: s.amountPaid, creditOutstanding: kobo(0), balanceDue: kobo(0), ...o,
});

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`sales contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const addSales = (drafts: SaleDraft[]) => p.uow.run(async (r) => { const numbers: string[] = []; for (const d of drafts) numbers.push(await r.sales.add(d)); return numbers; });
    const find = (businessId: string, id: string) => p.uow.read((r) => r.sales.findById(businessId, id));
    const list = (businessId: string, filter = {}, page: Partial<PageRequest<'created_at' | 'total'>> = {}) => p.uow.read((r) => r.sales.list(businessId, salePage(page), filter));

    it('a split sale keeps its tenders in order and its VAT per line, found by id, receipt number and in lists; another business sees neither (docs/adr/0054, 0055)', async () => {
      const shop = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const split = aSale(shop, shop.product.id, {
        createdAt: at(5), total: kobo(1_045_000), subtotal: kobo(1_000_000), amountPaid: kobo(1_045_000), paymentMethod: 'TRANSFER',
        payments: [{ method: 'TRANSFER', amount: kobo(45_000) }, { method: 'CASH', amount: kobo(500_000) }, { method: 'POS', amount: kobo(500_000) }],
        amountTendered: kobo(600_000), changeDue: kobo(100_000),
        lines: [
          { productId: shop.product.id, name: 'Rice', sku: 'RICE', quantity: 1, unitPrice: kobo(600_000), discount: kobo(0), lineTotal: kobo(600_000), costPrice: null, vat: { rate: 750, amount: kobo(45_000), net: kobo(600_000) } },
          { productId: shop.product.id, name: 'Salt', sku: 'SALT', quantity: 1, unitPrice: kobo(400_000), discount: kobo(0), lineTotal: kobo(400_000), costPrice: null, vat: { rate: 0, amount: kobo(0), net: kobo(400_000) } },
        ],
        vat: { pricesIncludeVat: false, total: kobo(45_000) },
      });
      const [number] = await addSales([split]);
      expect(await find(shop.business.id, split.id)).to.deep.equal(stored(split, number!));
      expect(await p.uow.read((r) => r.sales.findByReceiptNumber(shop.business.id, number!))).to.deep.equal(stored(split, number!));
      const listed = (await list(shop.business.id)).items.find((x) => x.id === split.id)!;
      expect([listed.payments, listed.vat]).to.deep.equal([split.payments, split.vat]);
      expect(await find(other.business.id, split.id)).to.equal(undefined);
      // a sale without VAT has none on it or its lines; one tender of the old shape
      const plain = aSale(shop, shop.product.id, { createdAt: at(6), paymentMethod: 'CREDIT', amountPaid: kobo(30_000), customerId: null });
      const [second] = await addSales([plain]);
      const read = (await find(shop.business.id, plain.id))!;
      expect([read.vat, read.lines[0]!.vat, read.payments]).to.deep.equal([undefined, undefined, [{ method: 'CASH', amount: 30_000 }, { method: 'CREDIT', amount: 70_000 }]]);
      expect(read).to.deep.equal(stored(plain, second!));
    });

    it('add stores the sale with its lines under the business’s next receipt number; found by id and receipt number, never by another business', async () => {
      const shop = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const customer = aCustomer(shop.business.id);
      await p.uow.run(async (r) => void (await r.customers.add(customer)));
      const full = aSale(shop, shop.product.id, {
        customerId: customer.id, paymentMethod: 'CREDIT', note: 'deliver friday', createdAt: at(1),
        lines: [
          { productId: shop.product.id, name: 'Rice 5kg', sku: 'RICE-5', quantity: 3, unitPrice: kobo(250_000), discount: kobo(50_000), lineTotal: kobo(700_000), costPrice: kobo(200_000) },
          { productId: shop.product.id, name: 'Rice 1kg', sku: 'rice-1', quantity: 1, unitPrice: kobo(60_000), discount: kobo(0), lineTotal: kobo(60_000), costPrice: null },
        ],
        subtotal: kobo(760_000), discount: kobo(10_000), lineDiscountTotal: kobo(50_000), total: kobo(750_000), amountPaid: kobo(200_000),
        amountTendered: kobo(250_000), changeDue: kobo(50_000), balanceDue: kobo(550_000), creditOutstanding: kobo(550_000),
      });
      const bare = aSale(shop, shop.product.id, { createdAt: at(2) });
      expect(await addSales([full, bare])).to.deep.equal(['RCP-000001', 'RCP-000002']);
      expect(await addSales([aSale(other, other.product.id)])).to.deep.equal(['RCP-000001']);

      expect(await find(shop.business.id, full.id)).to.deep.equal(stored(full, 'RCP-000001'));
      expect(await find(shop.business.id, bare.id)).to.deep.equal(stored(bare, 'RCP-000002'));
      expect(await p.uow.read((r) => r.sales.findByReceiptNumber(shop.business.id, 'RCP-000001'))).to.deep.equal(stored(full, 'RCP-000001'));
      expect(await p.uow.run((r) => r.sales.findById(shop.business.id, full.id, { forUpdate: true }))).to.deep.equal(stored(full, 'RCP-000001'));
      expect(await find(shop.business.id, randomUUID())).to.equal(undefined);
      expect(await p.uow.read((r) => r.sales.findByReceiptNumber(shop.business.id, 'RCP-000003'))).to.equal(undefined);
      // tenancy
      expect(await find(other.business.id, full.id)).to.equal(undefined);
      expect(await p.uow.run((r) => r.sales.findById(other.business.id, full.id, { forUpdate: true }))).to.equal(undefined);
      expect((await p.uow.read((r) => r.sales.findByReceiptNumber(other.business.id, 'RCP-000001')))?.businessId).to.equal(other.business.id);
      expect(await p.uow.read((r) => r.sales.findByReceiptNumber(other.business.id, 'RCP-000002'))).to.equal(undefined);
    });

    it('read-your-own-writes: inside one unit of work the added sale is found, listed, counted and voided', async () => {
      const shop = await seedShop(p.uow);
      const draft = aSale(shop, shop.product.id, { createdAt: at(5) });
      const b = shop.business.id;
      const seen = await p.uow.run(async (r) => {
        const receiptNumber = await r.sales.add(draft);
        const byId = await r.sales.findById(b, draft.id);
        const byNumber = await r.sales.findByReceiptNumber(b, receiptNumber);
        const locked = await r.sales.findById(b, draft.id, { forUpdate: true });
        const listed = await r.sales.list(b, salePage(), { status: 'COMPLETED' });
        const counted = await r.sales.countCreatedBetween(b, at(0), at(10));
        const atBranch = await r.sales.existsForBranch(b, shop.branch.id);
        await r.sales.markVoided(voided(byId!));
        const afterVoid = await r.sales.findById(b, draft.id);
        const voidedList = await r.sales.list(b, salePage(), { status: 'VOIDED' });
        const month = [await r.sales.countSaleInMonth(b, '2026-11'), await r.sales.monthlySaleCount(b, '2026-11')];
        return { receiptNumber, byId, byNumber, locked, listed, counted, atBranch, afterVoid, voidedList, month };
      });
      const expected = stored(draft, 'RCP-000001');
      expect(seen.receiptNumber).to.equal('RCP-000001');
      expect(seen.byId, 'findById').to.deep.equal(expected);
      expect(seen.byNumber, 'findByReceiptNumber').to.deep.equal(expected);
      expect(seen.locked, 'findById forUpdate').to.deep.equal(expected);
      expect(seen.listed.items, 'list').to.deep.equal([{ ...expected, lines: [] }]);
      expect(seen.counted, 'countCreatedBetween').to.equal(1);
      expect(seen.atBranch, 'existsForBranch').to.equal(true);
      expect(seen.afterVoid, 'findById after markVoided').to.deep.equal(voided(expected));
      expect(ids(seen.voidedList), 'list after markVoided').to.deep.equal([draft.id]);
      expect(seen.month, 'countSaleInMonth, monthlySaleCount').to.deep.equal([1, 1]);
      expect(await find(b, draft.id), 'committed').to.deep.equal(voided(expected));
    });

    it('a rolled-back unit of work leaves nothing: no sale, no count, and its receipt number is given back', async () => {
      const shop = await seedShop(p.uow);
      const b = shop.business.id;
      const thrown = aSale(shop, shop.product.id);
      const refused = aSale(shop, shop.product.id);
      const failure = await p.uow
        .run(async (r) => {
          await r.sales.countSaleInMonth(b, '2026-11');
          expect(await r.sales.add(thrown)).to.equal('RCP-000001');
          throw new Error('the till lost power');
        })
        .catch((e: Error) => e.message);
      expect(failure).to.equal('the till lost power');
      expect(await p.uow.run(async (r) => { await r.sales.countSaleInMonth(b, '2026-11'); await r.sales.add(refused); return rollback('refused'); })).to.equal('refused');
      for (const s of [thrown, refused]) expect(await find(b, s.id)).to.equal(undefined);
      expect(await p.uow.read((r) => r.sales.findByReceiptNumber(b, 'RCP-000001'))).to.equal(undefined);
      expect((await list(b)).items).to.deep.equal([]);
      expect(await p.uow.read((r) => r.sales.monthlySaleCount(b, '2026-11'))).to.equal(0);
      expect(await p.uow.read((r) => r.sales.countCreatedBetween(b, at(-1), at(1)))).to.equal(0);
      expect(await p.uow.read((r) => r.sales.existsForBranch(b, shop.branch.id))).to.equal(false);
      expect(await addSales([aSale(shop, shop.product.id)])).to.deep.equal(['RCP-000001']);
    });

    it('addNumberedAtCommit: numbered with the COMMIT, gap-free beside add; the events recorded meanwhile carry the number (docs/adr/0084)', async () => {
      const shop = await seedShop(p.uow);
      const b = shop.business.id;
      const rolledBack = aSale(shop, shop.product.id, { createdAt: at(1) });
      await p.uow.run(async (r) => rollback(await r.sales.addNumberedAtCommit(rolledBack))); // gives its number back
      const drafts = Array.from({ length: 6 }, (_, i) => aSale(shop, shop.product.id, { createdAt: at(10 + i) }));
      // side by side, every other one numbered at once (a credit sale's way)
      const numbers = await Promise.all(
        drafts.map(async (d, i) => {
          let committed: Promise<string> | undefined;
          const now = await p.uow.run(async (r) => {
            const numbered = i % 2 === 0 ? await r.sales.addNumberedAtCommit(d) : { receiptNumber: await r.sales.add(d) };
            committed = numbered.committed;
            await r.events.record(NOW, saleRecorded({ ...d, receiptNumber: numbered.receiptNumber }));
            return numbered.receiptNumber;
          });
          return committed ? await committed : now;
        }),
      );
      expect([...numbers].sort()).to.deep.equal(Array.from({ length: 6 }, (_, i) => `RCP-00000${i + 1}`));
      for (const [i, d] of drafts.entries()) expect((await find(b, d.id))?.receiptNumber).to.equal(numbers[i]);
      expect(await find(b, rolledBack.id)).to.equal(undefined);
      const recorded = (await p.outbox.claim({ now: at(86_400_000), leaseUntil: at(86_460_000), limit: 1000 }))
        .map((e) => e.event)
        .filter((e): e is SaleRecorded => e._tag === 'SaleRecorded' && e.businessId === b);
      expect(Object.fromEntries(recorded.map((e) => [e.saleId, e.receiptNumber]))).to.deep.equal(Object.fromEntries(drafts.map((d, i) => [d.id, numbers[i]])));
    });

    it('addNumberedAtCommit inside atomically: what atomically answers carries the number; a second sale in it is numbered at once (docs/adr/0084)', async () => {
      const shop = await seedShop(p.uow);
      const [first, second] = [aSale(shop, shop.product.id, { createdAt: at(1) }), aSale(shop, shop.product.id, { createdAt: at(2) })];
      const answer = await p.uow.atomically(async () =>
        p.uow.run(async (r) => {
          const a = await r.sales.addNumberedAtCommit(first);
          const b = await r.sales.addNumberedAtCommit(second);
          expect(a.committed, 'nothing to await inside atomically').to.equal(undefined);
          await r.events.record(NOW, saleRecorded({ ...first, receiptNumber: a.receiptNumber }));
          return { reply: { data: { receipt_number: a.receiptNumber, note: `sale ${a.receiptNumber}` } }, second: b.receiptNumber, at: NOW };
        }),
      );
      const stored = (await find(shop.business.id, first.id))!.receiptNumber;
      expect(answer.reply).to.deep.equal({ data: { receipt_number: stored, note: `sale ${stored}` } });
      expect(answer.at).to.equal(NOW); // not a plain object: kept as it is
      expect([stored, answer.second].sort()).to.deep.equal(['RCP-000001', 'RCP-000002']);
      expect((await find(shop.business.id, second.id))!.receiptNumber).to.equal(answer.second);
      const event = (await p.outbox.claim({ now: at(86_400_000), leaseUntil: at(86_460_000), limit: 1000 }))
        .map((e) => e.event)
        .find((e): e is SaleRecorded => e._tag === 'SaleRecorded' && e.saleId === first.id);
      expect(event?.receiptNumber).to.equal(stored);
    });

    it('an idempotent answer carrying a number taken with the COMMIT: a claim lost by then leaves no sale (docs/adr/0084)', async () => {
      const shop = await seedShop(p.uow);
      const b = shop.business.id;
      const first = await p.idempotency.claim(b, 'slow-till', 'h', NOW);
      if (first.state !== 'claimed') throw new Error('not claimed');
      const taker = await p.idempotency.claim(b, 'slow-till', 'h', at(31_000)); // the lease (30 s) ran out
      if (taker.state !== 'claimed') throw new Error('not taken over');
      const sale = aSale(shop, shop.product.id);
      const outcome = await p.uow
        .atomically(async () =>
          p.uow.run(async (r) => {
            const n = await r.sales.addNumberedAtCommit(sale);
            // the caller rolls back on false (in memory); SQL writes this answer with the COMMIT and fails it then
            if (!(await p.idempotency.complete(b, 'slow-till', first.token, { status: 201, body: { data: { receipt_number: n.receiptNumber } } }))) throw new Error('refused');
          }),
        )
        .then(
          () => 'committed',
          (e: Error) => (e instanceof IdempotencyClaimLost ? 'lost' : e.message),
        );
      expect(outcome).to.equal(name === 'in-memory' ? 'refused' : 'lost');
      expect(await find(b, sale.id)).to.equal(undefined);
      expect(await p.idempotency.complete(b, 'slow-till', taker.token, { status: 201, body: { by: 'the taker' } })).to.equal(true);
    });

    it('receipt numbers stay sequential and gap-free under concurrent sales, rolled-back ones giving theirs back', async () => {
      const shop = await seedShop(p.uow);
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          p.uow.run(async (r) => {
            const n = await r.sales.add(aSale(shop, shop.product.id, { createdAt: at(i) }));
            return i % 3 === 0 ? rollback(null) : n;
          }),
        ),
      );
      const kept = outcomes.filter((n): n is string => n !== null).sort();
      expect(kept).to.deep.equal(Array.from({ length: 8 }, (_, i) => `RCP-00000${i + 1}`));
      expect((await list(shop.business.id)).items.map((s) => s.receiptNumber).sort()).to.deep.equal(kept);
    });

    it('markVoided saves the void (status, when, why, by whom, refund, what is owed) of the business’s own sale, nothing else', async () => {
      const shop = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const customer = aCustomer(shop.business.id);
      await p.uow.run(async (r) => void (await r.customers.add(customer)));
      const draft = aSale(shop, shop.product.id, { customerId: customer.id, amountPaid: kobo(30_000), note: 'first' });
      const [number] = await addSales([draft]);
      const sale = stored(draft, number!);
      expect(sale).to.deep.include({ balanceDue: 70_000, creditOutstanding: 70_000 });
      await p.uow.run((r) => r.sales.markVoided(voided(sale, { businessId: other.business.id })));
      expect(await find(shop.business.id, sale.id), 'another business voids nothing').to.deep.equal(sale);
      await p.uow.run((r) => r.sales.markVoided(voided(sale, { note: 'tampered', refundAmount: kobo(30_000) })));
      expect(await find(shop.business.id, sale.id)).to.deep.equal(voided(sale, { refundAmount: kobo(30_000) }));
    });

    it('findById forUpdate holds the sale until the transaction ends: a second locker sees the first one’s void', async () => {
      const shop = await seedShop(p.uow);
      const b = shop.business.id;
      const draft = aSale(shop, shop.product.id);
      await addSales([draft]);
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const first = p.uow.run(async (r) => {
        const s = (await r.sales.findById(b, draft.id, { forUpdate: true }))!;
        locked();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await r.sales.markVoided(voided(s, { voidReason: 'first' }));
      });
      const second = isLocked.then(() => p.uow.run(async (r) => (await r.sales.findById(b, draft.id, { forUpdate: true }))!));
      await first;
      expect(await second).to.deep.include({ status: 'VOIDED', voidReason: 'first' });
    });

    it('countSaleInMonth counts one more per business and month; monthlySaleCount reads it without counting', async () => {
      const a = await seedShop(p.uow);
      const z = await seedShop(p.uow);
      const count = (b: string, month: string) => p.uow.run((r) => r.sales.countSaleInMonth(b, month));
      const read = (b: string, month: string) => p.uow.read((r) => r.sales.monthlySaleCount(b, month));
      expect(await read(a.business.id, '2026-11')).to.equal(0);
      expect([await count(a.business.id, '2026-11'), await count(a.business.id, '2026-11')]).to.deep.equal([1, 2]);
      expect(await count(a.business.id, '2026-12')).to.equal(1);
      expect(await count(z.business.id, '2026-11')).to.equal(1);
      expect([await read(a.business.id, '2026-11'), await read(a.business.id, '2026-12'), await read(z.business.id, '2026-11')]).to.deep.equal([2, 1, 1]);
      expect(await read(a.business.id, '2027-01')).to.equal(0);
      const concurrent = await Promise.all(Array.from({ length: 10 }, () => count(z.business.id, '2026-11')));
      expect(concurrent.sort((x, y) => x - y)).to.deep.equal([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    });

    it('countCreatedBetween counts the business’s sales, voided too, from `from` up to, not including, `to`; existsForBranch its own branches only', async () => {
      const shop = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const drafts = [aSale(shop, shop.product.id, { createdAt: at(0) }), aSale(shop, shop.product.id, { createdAt: at(10) }), aSale(shop, shop.product.id, { createdAt: at(20) })];
      const numbers = await addSales([...drafts, aSale(other, other.product.id, { createdAt: at(10) })]);
      await p.uow.run((r) => r.sales.markVoided(voided(stored(drafts[1]!, numbers[1]!))));
      const between = (b: string, from: number, to: number) => p.uow.read((r) => r.sales.countCreatedBetween(b, at(from), at(to)));
      expect(await between(shop.business.id, 0, 20)).to.equal(2);
      expect(await between(shop.business.id, 0, 21)).to.equal(3);
      expect(await between(shop.business.id, 1, 20)).to.equal(1);
      expect(await between(shop.business.id, 20, 20)).to.equal(0);
      expect(await between(other.business.id, 0, 21)).to.equal(1);
      const empty = aBranch(shop.business.id);
      await p.uow.run((r) => r.branches.add(empty));
      const exists = (b: string, branchId: string) => p.uow.read((r) => r.sales.existsForBranch(b, branchId));
      expect([await exists(shop.business.id, shop.branch.id), await exists(shop.business.id, empty.id)]).to.deep.equal([true, false]);
      expect(await exists(other.business.id, shop.branch.id), 'another business’s branch').to.equal(false);
    });

    describe('list', () => {
      let shop: Shop;
      let drafts: SaleDraft[];
      const clerk = randomUUID();
      before(async () => {
        shop = await seedShop(p.uow);
        const other = await seedShop(p.uow);
        const branch2 = aBranch(shop.business.id);
        const [c1, c2] = [aCustomer(shop.business.id), aCustomer(shop.business.id)];
        await p.uow.run(async (r) => { await r.branches.add(branch2); await r.customers.add(c1!); await r.customers.add(c2!); });
        const sale = (o: Partial<SaleDraft>) => aSale(shop, shop.product.id, o);
        drafts = [
          sale({ total: kobo(500), createdAt: at(1) }),
          sale({ total: kobo(300), createdAt: at(2), paymentMethod: 'CREDIT', customerId: c1!.id }),
          sale({ total: kobo(500), createdAt: at(3), paymentMethod: 'TRANSFER', branchId: branch2.id, createdBy: clerk }),
          sale({ total: kobo(100), createdAt: at(4), paymentMethod: 'CARD', customerId: c2!.id }),
          sale({ total: kobo(700), createdAt: at(5) }),
        ];
        const numbers = await addSales([...drafts, aSale(other, other.product.id, { createdAt: at(3) })]);
        await p.uow.run((r) => r.sales.markVoided(voided(stored(drafts[3]!, numbers[3]!))));
      });
      const d = (...i: number[]) => i.map((n) => drafts[n]!.id);
      const byTotal = () => [...drafts].sort((x, y) => x.total - y.total || (x.id < y.id ? -1 : 1)).map((s) => s.id);

      it('orders by created_at or total (ties by id) both ways; items carry no lines', async () => {
        const all = await list(shop.business.id);
        expect(ids(all)).to.deep.equal(d(0, 1, 2, 3, 4));
        expect(all.hasNext).to.equal(false);
        for (const s of all.items) expect(s.lines).to.deep.equal([]);
        expect(all.items.map((s) => s.receiptNumber)).to.deep.equal(['RCP-000001', 'RCP-000002', 'RCP-000003', 'RCP-000004', 'RCP-000005']);
        expect(all.items[3]).to.deep.include({ status: 'VOIDED', voidReason: 'wrong item', balanceDue: 0 });
        expect(ids(await list(shop.business.id, {}, { sortDir: 'desc' }))).to.deep.equal(d(4, 3, 2, 1, 0));
        expect(ids(await list(shop.business.id, {}, { sortBy: 'total' }))).to.deep.equal(byTotal());
        expect(ids(await list(shop.business.id, {}, { sortBy: 'total', sortDir: 'desc' }))).to.deep.equal(byTotal().reverse());
      });

      it('filters by payment method, status, customer, seller and branch, together too', async () => {
        const b = shop.business.id;
        expect(ids(await list(b, { paymentMethod: 'CASH' }))).to.deep.equal(d(0, 4));
        expect(ids(await list(b, { status: 'VOIDED' }))).to.deep.equal(d(3));
        expect(ids(await list(b, { status: 'COMPLETED' }))).to.deep.equal(d(0, 1, 2, 4));
        expect(ids(await list(b, { customerId: drafts[1]!.customerId! }))).to.deep.equal(d(1));
        expect(ids(await list(b, { createdBy: clerk }))).to.deep.equal(d(2));
        expect(ids(await list(b, { branchId: drafts[2]!.branchId }))).to.deep.equal(d(2));
        expect(ids(await list(b, { branchId: shop.branch.id, status: 'COMPLETED', paymentMethod: 'CASH' }))).to.deep.equal(d(0, 4));
        expect(ids(await list(b, { customerId: drafts[3]!.customerId!, status: 'COMPLETED' }))).to.deep.equal([]);
      });

      it('pages by keyset, searches receipt numbers (any case), bounds created_at; another business’s sales never appear', async () => {
        const b = shop.business.id;
        for (const sortBy of ['created_at', 'total'] as const) {
          const walked: string[] = [];
          let page = await list(b, {}, { sortBy, limit: 2 });
          for (;;) {
            walked.push(...ids(page));
            if (!page.hasNext) break;
            expect(page.items).to.have.length(2);
            expect(page.next?.id).to.equal(page.items[1]!.id);
            page = await list(b, {}, { sortBy, limit: 2, after: page.next! });
          }
          expect(walked, sortBy).to.deep.equal(sortBy === 'total' ? byTotal() : d(0, 1, 2, 3, 4));
        }
        expect(ids(await list(b, {}, { search: 'rcp-000003' }))).to.deep.equal(d(2));
        expect(ids(await list(b, {}, { search: '00000' }))).to.have.length(5);
        expect(ids(await list(b, {}, { from: at(2), to: at(4) }))).to.deep.equal(d(1, 2));
        expect(ids(await list(b, { paymentMethod: 'CASH' }, { from: at(2) }))).to.deep.equal(d(4));
        expect(ids(await list(b, {}, { search: 'RCP-000006' }))).to.deep.equal([]);
        expect((await list(randomUUID())).items).to.deep.equal([]);
      });
    });

    it('ids are per business: two businesses may each hold a sale under one id, each found with its own lines, voided and counted alone (docs/adr/0039)', async () => {
      const shop = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const id = randomUUID();
      const mine = aSale(shop, shop.product.id, { id, createdAt: at(1), offline: { deviceId: 'till-1', provisionalReceiptNumber: null, clientCreatedAt: null, needsReview: false } });
      const theirs = aSale(other, other.product.id, { id, total: kobo(7_000), createdAt: at(2) });
      expect(await addSales([mine, theirs])).to.deep.equal(['RCP-000001', 'RCP-000001']);
      expect((await find(shop.business.id, id))!.lines.map((l) => [l.productId, l.lineTotal])).to.deep.equal([[shop.product.id, 100_000]]);
      expect((await find(other.business.id, id))!.lines.map((l) => [l.productId, l.lineTotal])).to.deep.equal([[other.product.id, 7_000]]);
      await p.uow.run(async (r) => r.sales.markVoided(voided({ ...theirs, receiptNumber: 'RCP-000001' })));
      expect((await find(shop.business.id, id))!.status).to.equal('COMPLETED');
      expect((await find(other.business.id, id))!.status).to.equal('VOIDED');
      expect(await p.uow.read((r) => r.sales.lastSyncedAt(shop.business.id, 'till-1', at(2)))).to.deep.equal(at(1));
      expect(await p.uow.read((r) => r.sales.lastSyncedAt(shop.business.id, 'till-1', at(1)))).to.equal(null);
      expect(await p.uow.read((r) => r.sales.lastSyncedAt(other.business.id, 'till-1', at(9)))).to.equal(null);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
