import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Business } from '../../domain/business.js';
import { kobo, MAX_KOBO } from '../../domain/money.js';
import { MAX_STOCK, type MovementReason, type Product, type StockMovement } from '../../domain/product.js';
import type { PageRequest } from '../../application/ports/list.js';
import type { MovementSort, ProductFilter, ProductSort } from '../../application/products/ports.js';
import type { UnitOfWork } from '../../application/ports/unit-of-work.js';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../../application/ports/idempotency-store.js';
import { inMemory, openPostgres, type Persistence, type AppRepositories } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aBranch, aBusiness, aProduct, NOW } from '../support/builders.js';

// The products contract: ProductRepository, StockLedger and IdempotencyStore keep the same promises on
// every adapter. Names and categories that take part in an ordering assertion are lowercase ASCII
// (or compared case-insensitively), where every PostgreSQL collation and JavaScript agree.

const now = NOW;
const at = (ms: number) => new Date(now.getTime() + ms);
const DAY_MS = 24 * 3_600_000;
const LEASE_MS = 30_000;


/** Each seeded business's default branch (stock lives per branch). */
const branches = new Map<string, string>();
const branchOf = (businessId: string): string => branches.get(businessId)!;

const aMovement = (p: Product, o: Partial<StockMovement> = {}): StockMovement => ({
  id: randomUUID(),
  businessId: p.businessId,
  productId: p.id,
  branchId: branchOf(p.businessId),
  quantityChange: 5,
  quantityBefore: 0,
  quantityAfter: 5,
  reason: 'RESTOCK',
  note: null,
  unitCost: null,
  createdBy: null,
  createdAt: now,
  ...o,
});

/** A committed business with its default branch (the foreign keys of products, their stock and the ledger). */
const seedBusiness = async (uow: UnitOfWork<AppRepositories>): Promise<string> => {
  const b = aBusiness();
  const main = aBranch(b.id, { isDefault: true });
  await uow.run(async (r) => {
    await r.businesses.add(b);
    await r.branches.add(main);
  });
  branches.set(b.id, main.id);
  return b.id;
};

/** Products added in one transaction; a product with a quantity gets it through changeQuantity. */
const addProducts = async (uow: UnitOfWork<AppRepositories>, products: Product[]) => {
  await uow.run(async (r) => {
    for (const p of products) {
      expect(await r.products.add({ ...p, quantity: 0 })).to.equal('added');
      if (p.quantity !== 0) expect(await r.products.changeQuantity(p.businessId, p.id, branchOf(p.businessId), p.quantity, p.updatedAt)).to.deep.include({ ok: true });
    }
  });
  return products;
};

const productPage = (o: Partial<PageRequest<ProductSort>> = {}): PageRequest<ProductSort> => ({ sortBy: 'created_at', sortDir: 'asc', limit: 100, ...o });
const movementPage = (o: Partial<PageRequest<MovementSort>> = {}): PageRequest<MovementSort> => ({ sortBy: 'created_at', sortDir: 'asc', limit: 100, ...o });

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`products contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const list = (businessId: string, filter: ProductFilter = {}, page: Partial<PageRequest<ProductSort>> = {}) =>
      p.uow.read((r) => r.products.list(businessId, productPage(page), filter));
    const names = async (businessId: string, filter: ProductFilter = {}, page: Partial<PageRequest<ProductSort>> = {}) =>
      (await list(businessId, filter, page)).items.map((x) => x.name);
    const find = (businessId: string, id: string) => p.uow.read((r) => r.products.findById(businessId, id));

    describe('ProductRepository', () => {
      it('adds a product and finds it by id and by sku in any case, every field intact', async () => {
        const businessId = await seedBusiness(p.uow);
        const full = aProduct(businessId, {
          name: 'Golden Penny Semovita 1kg',
          sku: 'Semo-1KG',
          price: kobo(MAX_KOBO),
          costPrice: kobo(150_050),
          category: 'Grains',
          lowStockThreshold: 4,
          barcode: '6151234567890',
          unit: 'bag',
          createdAt: at(1),
          updatedAt: at(2),
        });
        const bare = aProduct(businessId, { type: 'SERVICE', price: kobo(0) });
        await addProducts(p.uow, [full, bare]);

        expect(await find(businessId, full.id)).to.deep.equal(full);
        expect(await find(businessId, bare.id)).to.deep.equal(bare);
        expect(await p.uow.read((r) => r.products.findBySku(businessId, 'semo-1kg'))).to.deep.equal(full);
        expect(await p.uow.read((r) => r.products.findBySku(businessId, 'SEMO-1KG'))).to.deep.equal(full);
        expect(await p.uow.read((r) => r.products.findBySku(businessId, 'semo'))).to.equal(undefined);
        expect(await find(businessId, randomUUID())).to.equal(undefined);
        // inside a transaction the same
        expect(await p.uow.run((r) => r.products.findBySku(businessId, 'sEmO-1kG'))).to.deep.equal(full);
      });

      it("refuses a duplicate sku ignoring case ('duplicate_sku'), and the transaction stays usable", async () => {
        const businessId = await seedBusiness(p.uow);
        const [a] = await addProducts(p.uow, [aProduct(businessId, { sku: 'RICE-5KG' })]);
        const later = aProduct(businessId, { name: 'after the refusal' });
        const twin = aProduct(businessId, { sku: 'x-1' });
        await p.uow.run(async (r) => {
          expect(await r.products.add(aProduct(businessId, { sku: 'rice-5kg' }))).to.equal('duplicate_sku');
          // the same transaction goes on and commits
          expect(await r.products.add(later)).to.equal('added');
          expect(await r.products.changeQuantity(businessId, later.id, branchOf(businessId), 7, at(5))).to.deep.equal({ ok: true, before: 0, after: 7, total: 7 });
          await r.stockLedger.add(aMovement(later, { quantityChange: 7, quantityBefore: 0, quantityAfter: 7, reason: 'INITIAL' }));
          // a duplicate of a product added earlier in the same transaction
          expect(await r.products.add(twin)).to.equal('added');
          expect(await r.products.add(aProduct(businessId, { sku: 'X-1' }))).to.equal('duplicate_sku');
        });
        expect((await find(businessId, later.id))?.quantity).to.equal(7);
        expect(await find(businessId, twin.id)).to.deep.equal(twin);
        expect((await p.uow.read((r) => r.products.findBySku(businessId, 'RICE-5KG')))?.id).to.equal(a!.id);
        expect((await list(businessId)).items).to.have.length(3);
        expect((await p.uow.read((r) => r.stockLedger.list(businessId, movementPage(), {}))).items).to.have.length(1);
      });

      it("save: a duplicate sku is refused ('duplicate_sku') and a later write in the same transaction still commits", async () => {
        const businessId = await seedBusiness(p.uow);
        const [a, b] = await addProducts(p.uow, [aProduct(businessId, { sku: 'A-1', name: 'alpha' }), aProduct(businessId, { sku: 'B-1', name: 'beta' })]);
        await p.uow.run(async (r) => {
          expect(await r.products.save({ ...b!, sku: 'a-1', name: 'stolen' })).to.equal('duplicate_sku');
          // writes after the refusal: a quantity change, a ledger row and another save
          expect(await r.products.changeQuantity(businessId, a!.id, branchOf(businessId), 3, at(10))).to.deep.equal({ ok: true, before: 0, after: 3, total: 3 });
          await r.stockLedger.add(aMovement(a!, { quantityChange: 3, quantityBefore: 0, quantityAfter: 3, createdAt: at(10) }));
          expect(await r.products.save({ ...b!, name: 'beta renamed', updatedAt: at(11) })).to.equal('saved');
          // a second refusal in the same transaction, then one more write
          expect(await r.products.save({ ...a!, sku: 'B-1' })).to.equal('duplicate_sku');
          expect(await r.products.changeQuantity(businessId, a!.id, branchOf(businessId), 1, at(12))).to.deep.equal({ ok: true, before: 3, after: 4, total: 4 });
        });
        const savedB = (await find(businessId, b!.id))!;
        expect(savedB).to.deep.include({ sku: 'B-1', name: 'beta renamed' });
        expect(savedB.updatedAt).to.deep.equal(at(11));
        expect((await find(businessId, a!.id))).to.deep.include({ sku: 'A-1', quantity: 4 });
        expect((await p.uow.read((r) => r.stockLedger.list(businessId, movementPage(), { productId: a!.id }))).items).to.have.length(1);
        // the own sku in another case is no clash
        expect(await p.uow.run((r) => r.products.save({ ...savedB, sku: 'b-1' }))).to.equal('saved');
        expect((await find(businessId, b!.id))?.sku).to.equal('b-1');
      });

      it('save writes every field but the quantity; null clears optional fields', async () => {
        const businessId = await seedBusiness(p.uow);
        const [x] = await addProducts(p.uow, [
          aProduct(businessId, { quantity: 5, costPrice: kobo(100), category: 'a', lowStockThreshold: 1, barcode: '1', unit: 'kg' }),
        ]);
        const stored = (await find(businessId, x!.id))!;
        const changed: Product = {
          ...stored,
          name: 'renamed',
          sku: 'NEW-SKU',
          price: kobo(123),
          costPrice: null,
          quantity: 99,
          category: null,
          lowStockThreshold: null,
          barcode: null,
          unit: null,
          updatedAt: at(60_000),
        };
        expect(await p.uow.run((r) => r.products.save(changed))).to.equal('saved');
        expect(await find(businessId, x!.id)).to.deep.equal({ ...changed, quantity: 5 });
      });

      it("tenancy: another business's product is invisible and untouchable; another business may reuse a sku", async () => {
        const mine = await seedBusiness(p.uow);
        const theirs = await seedBusiness(p.uow);
        const [x] = await addProducts(p.uow, [aProduct(mine, { sku: 'SHARED-1', quantity: 4, category: 'mine' })]);
        expect(await find(theirs, x!.id)).to.equal(undefined);
        expect(await p.uow.read((r) => r.products.findBySku(theirs, 'shared-1'))).to.equal(undefined);
        expect(await p.uow.run((r) => r.products.changeQuantity(theirs, x!.id, branchOf(theirs), -1, at(1)))).to.equal(undefined);
        expect(await p.uow.run((r) => r.products.save({ ...x!, businessId: theirs, name: 'hijacked' }))).to.equal('saved');
        expect(await find(mine, x!.id)).to.deep.include({ name: x!.name, quantity: 4 });
        expect((await list(theirs)).items).to.deep.equal([]);
        expect(await p.uow.read((r) => r.products.categories(theirs))).to.deep.equal([]);

        const reused = aProduct(theirs, { sku: 'shared-1' });
        expect(await p.uow.run((r) => r.products.add(reused))).to.equal('added');
        expect((await p.uow.read((r) => r.products.findBySku(theirs, 'SHARED-1')))?.id).to.equal(reused.id);
        expect((await p.uow.read((r) => r.products.findBySku(mine, 'SHARED-1')))?.id).to.equal(x!.id);
      });

      it('changeQuantity stays between 0 and MAX_STOCK and answers before/after, or what is available and why', async () => {
        const businessId = await seedBusiness(p.uow);
        const [x] = await addProducts(p.uow, [aProduct(businessId)]);
        const change = (n: number, t = 1) => p.uow.run((r) => r.products.changeQuantity(businessId, x!.id, branchOf(businessId), n, at(t)));
        expect(await change(10)).to.deep.equal({ ok: true, before: 0, after: 10, total: 10 });
        expect(await change(-4)).to.deep.equal({ ok: true, before: 10, after: 6, total: 6 });
        expect(await change(-7)).to.deep.equal({ ok: false, available: 6, reason: 'INSUFFICIENT' });
        expect((await find(businessId, x!.id))?.quantity).to.equal(6);
        expect(await change(-6, 500)).to.deep.equal({ ok: true, before: 6, after: 0, total: 0 });
        const emptied = (await find(businessId, x!.id))!;
        expect(emptied.quantity).to.equal(0);
        expect(emptied.updatedAt).to.deep.equal(at(500));
        expect(await change(-1)).to.deep.equal({ ok: false, available: 0, reason: 'INSUFFICIENT' });
        expect(await change(MAX_STOCK + 1)).to.deep.equal({ ok: false, available: 0, reason: 'LIMIT' });
        expect(await change(MAX_STOCK)).to.deep.include({ ok: true, after: MAX_STOCK });
        expect(await change(1)).to.deep.equal({ ok: false, available: MAX_STOCK, reason: 'LIMIT' });
        expect(await p.uow.run((r) => r.products.changeQuantity(businessId, randomUUID(), branchOf(businessId), 1, now))).to.equal(undefined);
      });

      it('changeQuantity: 20 concurrent takes of 1 from 15 -> exactly 15 succeed, each with its own before/after', async () => {
        const businessId = await seedBusiness(p.uow);
        const [x] = await addProducts(p.uow, [aProduct(businessId, { quantity: 15 })]);
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => p.uow.run((r) => r.products.changeQuantity(businessId, x!.id, branchOf(businessId), -1, at(i)))),
        );
        const ok = results.filter((r) => r?.ok) as { ok: true; before: number; after: number }[];
        expect(ok).to.have.length(15);
        expect(results.filter((r) => r && !r.ok)).to.deep.equal(Array.from({ length: 5 }, () => ({ ok: false, available: 0, reason: 'INSUFFICIENT' })));
        expect(ok.map((r) => r.after).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i));
        for (const r of ok) expect(r.before).to.equal(r.after + 1);
        expect((await find(businessId, x!.id))?.quantity).to.equal(0);
        const more = await Promise.all(Array.from({ length: 20 }, () => p.uow.run((r) => r.products.changeQuantity(businessId, x!.id, branchOf(businessId), 1, now))));
        expect(more.map((r) => (r?.ok ? r.after : -1)).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
        expect((await find(businessId, x!.id))?.quantity).to.equal(20);
      });

      describe('list and categories', () => {
        let biz: string;
        let other: string;
        before(async () => {
          biz = await seedBusiness(p.uow);
          other = await seedBusiness(p.uow);
          await addProducts(p.uow, [
            aProduct(biz, { name: 'rice', sku: 'RC-01', category: 'Grains', quantity: 3, lowStockThreshold: 5, price: kobo(400), createdAt: at(1), updatedAt: at(50) }),
            aProduct(biz, { name: 'beans', sku: 'BN-01', category: 'grains', quantity: 10, lowStockThreshold: 5, price: kobo(100), createdAt: at(2), updatedAt: at(40) }),
            aProduct(biz, { name: 'haircut', sku: 'SV-01', category: 'Services', type: 'SERVICE', lowStockThreshold: 0, price: kobo(300), createdAt: at(3), updatedAt: at(30) }),
            aProduct(biz, { name: 'soap', sku: 'SP-01', price: kobo(200), quantity: 0, barcode: '6151234567890', createdAt: at(4), updatedAt: at(20) }),
            aProduct(biz, { name: 'oil', sku: 'OL-50%', category: 'GRAINS', quantity: 5, lowStockThreshold: 5, price: kobo(500), createdAt: at(5), updatedAt: at(10) }),
            aProduct(other, { name: 'rival rice', category: 'grains', quantity: 0, lowStockThreshold: 9 }),
          ]);
        });

        it('filters by category ignoring case, by type and by low stock (at or below the threshold, products only)', async () => {
          expect(await names(biz, { category: 'GRAINS' })).to.deep.equal(['rice', 'beans', 'oil']);
          expect(await names(biz, { category: 'services' })).to.deep.equal(['haircut']);
          expect(await names(biz, { category: 'grain' })).to.deep.equal([]);
          expect(await names(biz, { type: 'SERVICE' })).to.deep.equal(['haircut']);
          expect(await names(biz, { type: 'PRODUCT' })).to.deep.equal(['rice', 'beans', 'soap', 'oil']);
          expect(await names(biz, { lowStock: true })).to.deep.equal(['rice', 'oil']);
          expect(await names(biz, { lowStock: false })).to.have.length(5);
          expect(await names(biz, { category: 'grains', lowStock: true, type: 'PRODUCT' })).to.deep.equal(['rice', 'oil']);
          expect(await names(biz, { category: 'grains', type: 'SERVICE' })).to.deep.equal([]);
        });

        it('searches name, sku, category and barcode ignoring case; % is literal', async () => {
          expect(await names(biz, {}, { search: 'RIC' })).to.deep.equal(['rice']);
          expect(await names(biz, {}, { search: 'bn-0' })).to.deep.equal(['beans']);
          expect(await names(biz, {}, { search: 'servic' })).to.deep.equal(['haircut']);
          expect(await names(biz, {}, { search: '5123456' })).to.deep.equal(['soap']);
          expect(await names(biz, {}, { search: 'grains' })).to.deep.equal(['rice', 'beans', 'oil']);
          expect(await names(biz, {}, { search: '50%' })).to.deep.equal(['oil']);
          expect(await names(biz, {}, { search: '%' })).to.deep.equal(['oil']);
          expect(await names(biz, {}, { search: '_' })).to.deep.equal([]);
          expect(await names(biz, { lowStock: true }, { search: 'oil' })).to.deep.equal(['oil']);
          expect(await names(other, {}, { search: 'rice' })).to.deep.equal(['rival rice']);
        });

        it('sorts by name, price, quantity, created_at and updated_at in both directions', async () => {
          expect(await names(biz, {}, { sortBy: 'name' })).to.deep.equal(['beans', 'haircut', 'oil', 'rice', 'soap']);
          expect(await names(biz, {}, { sortBy: 'name', sortDir: 'desc' })).to.deep.equal(['soap', 'rice', 'oil', 'haircut', 'beans']);
          expect(await names(biz, {}, { sortBy: 'price' })).to.deep.equal(['beans', 'soap', 'haircut', 'rice', 'oil']);
          expect(await names(biz, {}, { sortBy: 'price', sortDir: 'desc' })).to.deep.equal(['oil', 'rice', 'haircut', 'soap', 'beans']);
          const byQuantity = await list(biz, {}, { sortBy: 'quantity' });
          expect(byQuantity.items.map((x) => x.quantity)).to.deep.equal([0, 0, 3, 5, 10]);
          expect(await names(biz, {}, { sortBy: 'created_at', sortDir: 'desc' })).to.deep.equal(['oil', 'soap', 'haircut', 'beans', 'rice']);
          const byUpdated = await list(biz, {}, { sortBy: 'updated_at' });
          expect(byUpdated.items.map((x) => x.updatedAt.getTime())).to.deep.equal([...byUpdated.items.map((x) => x.updatedAt.getTime())].sort((a, b) => a - b));
          expect(byUpdated.items.map((x) => x.name)).to.deep.equal(['oil', 'soap', 'haircut', 'beans', 'rice']);
          // pages of 2 by price: every product once
          const first = await list(biz, {}, { sortBy: 'price', limit: 2 });
          expect(first.hasNext).to.equal(true);
          const second = await list(biz, {}, { sortBy: 'price', limit: 2, after: first.next! });
          const third = await list(biz, {}, { sortBy: 'price', limit: 2, after: second.next! });
          expect([...first.items, ...second.items, ...third.items].map((x) => x.name)).to.deep.equal(['beans', 'soap', 'haircut', 'rice', 'oil']);
          expect(third.hasNext).to.equal(false);
        });

        it('categories: grouped ignoring case, with counts, ordered by name; no category is not a category', async () => {
          const cats = await p.uow.read((r) => r.products.categories(biz));
          expect(cats.map((c) => [c.name.toLowerCase(), c.productCount])).to.deep.equal([
            ['grains', 3],
            ['services', 1],
          ]);
          expect(['Grains', 'grains', 'GRAINS']).to.include(cats[0]!.name);
          expect(cats[1]!.name).to.equal('Services');
          expect(await p.uow.read((r) => r.products.categories(other))).to.deep.equal([{ name: 'grains', productCount: 1 }]);
        });
      });
      it('search follows a product\'s name, sku, category and barcode as they are saved, and its stock moves leave it as it was', async () => {
        const businessId = await seedBusiness(p.uow);
        const [kettle] = await addProducts(p.uow, [aProduct(businessId, { name: 'kettle', sku: 'KT-01', category: 'Kitchen', quantity: 4, createdAt: at(1) })]);
        const renamed = { ...kettle!, name: 'jug', sku: 'JG-07', category: 'Home', barcode: '4006381333931', updatedAt: at(20) };
        expect(await p.uow.run((r) => r.products.save(renamed))).to.equal('saved');
        for (const gone of ['kettle', 'KT-01', 'kitchen']) expect(await names(businessId, {}, { search: gone })).to.deep.equal([]);
        for (const found of ['jug', 'jg-07', 'home', '4006381']) expect(await names(businessId, {}, { search: found })).to.deep.equal(['jug']);
        expect(await p.uow.run((r) => r.products.changeQuantity(businessId, kettle!.id, branchOf(businessId), -3, at(30)))).to.deep.include({ ok: true });
        expect(await names(businessId, {}, { search: 'jug' })).to.deep.equal(['jug']);
        expect(await p.uow.run((r) => r.products.save({ ...renamed, category: null, barcode: null, updatedAt: at(40) }))).to.equal('saved');
        expect(await names(businessId, {}, { search: 'home' })).to.deep.equal([]);
        expect(await names(businessId, {}, { search: 'JG-07' })).to.deep.equal(['jug']);
      });
      it('sorts by quantity and updated_at follow every stock move and save, page by page, one business only', async () => {
        const businessId = await seedBusiness(p.uow);
        const otherId = await seedBusiness(p.uow);
        const [a, b, c] = await addProducts(p.uow, [
          aProduct(businessId, { name: 'a', quantity: 1, createdAt: at(1), updatedAt: at(1) }),
          aProduct(businessId, { name: 'b', quantity: 2, createdAt: at(2), updatedAt: at(2) }),
          aProduct(businessId, { name: 'c', quantity: 3, createdAt: at(3), updatedAt: at(3) }),
        ]);
        await addProducts(p.uow, [aProduct(otherId, { name: 'x', quantity: 2, createdAt: at(4), updatedAt: at(4) })]);
        await p.uow.run(async (r) => {
          expect(await r.products.changeQuantity(businessId, a!.id, branchOf(businessId), 9, at(10))).to.deep.include({ ok: true, total: 10 });
          expect(await r.products.changeQuantities(businessId, branchOf(businessId), [{ productId: b!.id, change: -2 }, { productId: c!.id, change: 1 }], at(11))).to.have.length(2);
          expect(await r.products.changeQuantity(businessId, c!.id, branchOf(businessId), 1, at(12))).to.deep.include({ ok: true, total: 5 });
        });
        expect(await names(businessId, {}, { sortBy: 'quantity' })).to.deep.equal(['b', 'c', 'a']);
        expect(await names(businessId, {}, { sortBy: 'quantity', sortDir: 'desc' })).to.deep.equal(['a', 'c', 'b']);
        expect(await names(businessId, {}, { sortBy: 'updated_at', sortDir: 'desc' })).to.deep.equal(['c', 'b', 'a']);
        expect(await p.uow.run((r) => r.products.save({ ...a!, name: 'a2', updatedAt: at(20) }))).to.equal('saved');
        expect(await names(businessId, {}, { sortBy: 'updated_at', sortDir: 'desc' })).to.deep.equal(['a2', 'c', 'b']);
        const seen: string[] = [];
        let after: PageRequest<ProductSort>['after'];
        do {
          const got = await list(businessId, {}, { sortBy: 'quantity', sortDir: 'desc', limit: 1, ...(after ? { after } : {}) });
          seen.push(...got.items.map((x) => `${x.name}:${x.quantity}`));
          after = got.next;
        } while (after);
        expect(seen).to.deep.equal(['a2:10', 'c:5', 'b:0']);
        expect(await names(businessId, { lowStock: false }, { sortBy: 'quantity', search: 'a2' })).to.deep.equal(['a2']);
        expect(await names(otherId, {}, { sortBy: 'quantity' })).to.deep.equal(['x']);
      });
      it('archived products: archivedAt saved and read back; left out of lists and categories unless archived is asked for', async () => {
        const businessId = await seedBusiness(p.uow);
        const active = aProduct(businessId, { name: 'active', category: 'Kept', createdAt: at(1) });
        const old = aProduct(businessId, { name: 'old', category: 'Gone', createdAt: at(2) });
        await addProducts(p.uow, [active, old]);
        const archived = { ...old, archivedAt: at(10), updatedAt: at(10) };
        expect(await p.uow.run((r) => r.products.save(archived))).to.equal('saved');
        expect(await find(businessId, old.id)).to.deep.equal(archived);
        expect(await names(businessId)).to.deep.equal(['active']);
        expect(await names(businessId, {}, { search: 'old' })).to.deep.equal([]);
        expect(await names(businessId, { archived: true })).to.deep.equal(['old']);
        expect((await p.uow.read((r) => r.products.categories(businessId))).map((c) => c.name)).to.deep.equal(['Kept']);
        expect(await p.uow.read((r) => r.products.findBySku(businessId, old.sku))).to.deep.equal(archived); // the sku stays taken
        expect(await p.uow.run((r) => r.products.save({ ...archived, archivedAt: null }))).to.equal('saved');
        expect(await names(businessId)).to.deep.equal(['active', 'old']);
      });
    });

    describe('StockLedger', () => {
      it('adds rows and finds them by id within the business only', async () => {
        const businessId = await seedBusiness(p.uow);
        const other = await seedBusiness(p.uow);
        const [x] = await addProducts(p.uow, [aProduct(businessId)]);
        const userId = randomUUID();
        const m = aMovement(x!, { quantityChange: -2, quantityBefore: 9, quantityAfter: 7, reason: 'DAMAGE', note: 'rats ate ₦ worth', unitCost: kobo(150_050), createdBy: userId, createdAt: at(7) });
        const bare = aMovement(x!, { reason: 'INITIAL' });
        await p.uow.run(async (r) => {
          await r.stockLedger.add(bare);
          expect(await r.stockLedger.add(m)).to.deep.equal(m.createdAt);
        });
        // deep.include: adapters may add fields of their own (a sale's id), every field given comes back intact
        expect(await p.uow.read((r) => r.stockLedger.findById(businessId, m.id))).to.deep.include(m);
        expect(await p.uow.read((r) => r.stockLedger.findById(businessId, bare.id))).to.deep.include(bare);
        expect(await p.uow.read((r) => r.stockLedger.findById(other, m.id))).to.equal(undefined);
        expect(await p.uow.read((r) => r.stockLedger.findById(businessId, randomUUID()))).to.equal(undefined);
        expect((await p.uow.read((r) => r.stockLedger.list(other, movementPage(), {}))).items).to.deep.equal([]);
      });

      it('a movement not later than the product’s previous one is recorded 1 ms after it (the ledger reads as a chain)', async () => {
        const businessId = await seedBusiness(p.uow);
        const [x, y] = await addProducts(p.uow, [aProduct(businessId), aProduct(businessId)]);
        const times = await p.uow.run(async (r) => [
          await r.stockLedger.add(aMovement(x!, { createdAt: at(10) })),
          await r.stockLedger.add(aMovement(x!, { createdAt: at(10) })),
          await r.stockLedger.add(aMovement(x!, { createdAt: at(5) })),
          await r.stockLedger.add(aMovement(y!, { createdAt: at(5) })), // another product keeps its own time
        ]);
        expect(times.map((t) => t.getTime() - now.getTime())).to.deep.equal([10, 11, 12, 5]);
      });

      it('a ledger row written in a transaction that rolls back is gone with it', async () => {
        const businessId = await seedBusiness(p.uow);
        const [x] = await addProducts(p.uow, [aProduct(businessId)]);
        const m = aMovement(x!);
        await p.uow
          .run(async (r) => {
            await r.products.changeQuantity(businessId, x!.id, branchOf(businessId), 5, now);
            await r.stockLedger.add(m);
            throw new Error('fault after the write');
          })
          .catch(() => undefined);
        expect(await p.uow.read((r) => r.stockLedger.findById(businessId, m.id))).to.equal(undefined);
        expect((await find(businessId, x!.id))?.quantity).to.equal(0);
      });

      it('lists by created_at in both directions, filtered by product and reason', async () => {
        const businessId = await seedBusiness(p.uow);
        const [a, b] = await addProducts(p.uow, [aProduct(businessId), aProduct(businessId)]);
        const rows: [Product, MovementReason, number][] = [
          [a!, 'RESTOCK', 1],
          [a!, 'DAMAGE', 2],
          [b!, 'RESTOCK', 3],
          [a!, 'CORRECTION', 4],
          [b!, 'SALE', 5],
        ];
        const movements = rows.map(([prod, reason, t]) => aMovement(prod, { reason, createdAt: at(t), note: `${reason.toLowerCase()} ${t}` }));
        await p.uow.run(async (r) => {
          for (const m of movements) await r.stockLedger.add(m);
        });
        const ids = async (filter: { productId?: string; reason?: MovementReason }, o: Partial<PageRequest<MovementSort>> = {}) =>
          (await p.uow.read((r) => r.stockLedger.list(businessId, movementPage(o), filter))).items.map((m) => movements.findIndex((x) => x.id === m.id));
        expect(await ids({})).to.deep.equal([0, 1, 2, 3, 4]);
        expect(await ids({}, { sortDir: 'desc' })).to.deep.equal([4, 3, 2, 1, 0]);
        expect(await ids({ productId: a!.id })).to.deep.equal([0, 1, 3]);
        expect(await ids({ reason: 'RESTOCK' })).to.deep.equal([0, 2]);
        expect(await ids({ productId: b!.id, reason: 'RESTOCK' })).to.deep.equal([2]);
        expect(await ids({ productId: b!.id, reason: 'DAMAGE' })).to.deep.equal([]);
        expect(await ids({ productId: randomUUID() })).to.deep.equal([]);
        const page = await p.uow.read((r) => r.stockLedger.list(businessId, movementPage({ limit: 2 }), { productId: a!.id }));
        expect(page.hasNext).to.equal(true);
        const rest = await p.uow.read((r) => r.stockLedger.list(businessId, movementPage({ limit: 2, after: page.next! }), { productId: a!.id }));
        expect([...page.items, ...rest.items].map((m) => m.reason)).to.deep.equal(['RESTOCK', 'DAMAGE', 'CORRECTION']);
        expect(rest.hasNext).to.equal(false);
      });
    });

    describe('IdempotencyStore', () => {
      /** The store, remembering each key's claim token, so the tests read as claim / complete / release. */
      const remembering = (store: IdempotencyStore) => {
        const tokens = new Map<string, string>();
        return {
          claim: async (b: string, k: string, h: string, t: Date) => {
            const c = await store.claim(b, k, h, t);
            if (c.state === 'claimed') tokens.set(`${b}\n${k}`, c.token);
            return withoutToken(c);
          },
          complete: (b: string, k: string, r: StoredResponse) => store.complete(b, k, tokens.get(`${b}\n${k}`) ?? randomUUID(), r),
          release: (b: string, k: string) => store.release(b, k, tokens.get(`${b}\n${k}`) ?? randomUUID()),
        };
      };
      const withoutToken = (c: IdempotencyClaim) => (c.state === 'claimed' ? { state: c.state } : c);

      const body = { success: true, message: 'Stock adjusted', data: { id: randomUUID(), unit_cost: 1500.5, note: 'naira ₦ "quoted"', nested: [1, null, { a: 0.1 }] }, timestamp: now.toISOString() };

      it('claim -> in progress -> complete -> replay; another request body -> mismatch', async () => {
        const b = randomUUID();
        const s = remembering(p.idempotency);
        expect(await s.claim(b, 'k-1', 'hash-a', now)).to.deep.equal({ state: 'claimed' });
        expect(await s.claim(b, 'k-1', 'hash-a', at(1))).to.deep.equal({ state: 'in_progress' });
        expect(await s.claim(b, 'k-1', 'hash-b', at(1))).to.deep.equal({ state: 'mismatch' });
        await s.complete(b, 'k-1', { status: 201, body });
        expect(await s.claim(b, 'k-1', 'hash-a', at(2))).to.deep.equal({ state: 'replay', response: { status: 201, body } });
        expect(await s.claim(b, 'k-1', 'hash-a', at(3))).to.deep.equal({ state: 'replay', response: { status: 201, body } });
        expect(await s.claim(b, 'k-1', 'hash-b', at(3))).to.deep.equal({ state: 'mismatch' });
        // a stored 4xx answer is replayed like any other
        expect(await s.claim(b, 'k-409', 'h', now)).to.deep.equal({ state: 'claimed' });
        await s.complete(b, 'k-409', { status: 409, body: { success: false, error: { code: 'INSUFFICIENT_STOCK' } } });
        expect(await s.claim(b, 'k-409', 'h', at(1))).to.deep.equal({ state: 'replay', response: { status: 409, body: { success: false, error: { code: 'INSUFFICIENT_STOCK' } } } });
      });

      it('keys are scoped per business', async () => {
        const a = randomUUID();
        const b = randomUUID();
        const s = remembering(p.idempotency);
        expect(await s.claim(a, 'shared', 'hash-a', now)).to.deep.equal({ state: 'claimed' });
        expect(await s.claim(b, 'shared', 'hash-b', now)).to.deep.equal({ state: 'claimed' });
        await s.complete(a, 'shared', { status: 201, body: { who: 'a' } });
        expect(await s.claim(b, 'shared', 'hash-b', at(1))).to.deep.equal({ state: 'in_progress' });
        await s.release(b, 'shared');
        expect(await s.claim(a, 'shared', 'hash-a', at(1))).to.deep.equal({ state: 'replay', response: { status: 201, body: { who: 'a' } } });
        expect(await s.claim(b, 'shared', 'hash-a', at(2))).to.deep.equal({ state: 'claimed' });
      });

      it('release frees a key still in progress, never a completed one', async () => {
        const b = randomUUID();
        const s = remembering(p.idempotency);
        expect(await s.claim(b, 'k', 'h1', now)).to.deep.equal({ state: 'claimed' });
        await s.release(b, 'k');
        expect(await s.claim(b, 'k', 'h2', at(1))).to.deep.equal({ state: 'claimed' });
        await s.complete(b, 'k', { status: 201, body: { n: 2 } });
        await s.release(b, 'k');
        expect(await s.claim(b, 'k', 'h2', at(2))).to.deep.equal({ state: 'replay', response: { status: 201, body: { n: 2 } } });
        await s.release(b, 'never-claimed'); // no error
      });

      it('a key is kept 24 hours, then forgotten (completed or not)', async () => {
        const b = randomUUID();
        const s = remembering(p.idempotency);
        expect(await s.claim(b, 'done', 'h', now)).to.deep.equal({ state: 'claimed' });
        await s.complete(b, 'done', { status: 201, body: { first: true } });
        expect(await s.claim(b, 'done', 'h', at(DAY_MS - 1))).to.deep.equal({ state: 'replay', response: { status: 201, body: { first: true } } });
        expect(await s.claim(b, 'done', 'other', at(DAY_MS - 1))).to.deep.equal({ state: 'mismatch' });
        expect(await s.claim(b, 'done', 'other', at(DAY_MS + 1))).to.deep.equal({ state: 'claimed' });
        expect(await s.claim(b, 'done', 'other', at(DAY_MS + 2))).to.deep.equal({ state: 'in_progress' });

        expect(await s.claim(b, 'stuck', 'h', now)).to.deep.equal({ state: 'claimed' });
        expect(await s.claim(b, 'stuck', 'h', at(LEASE_MS - 1))).to.deep.equal({ state: 'in_progress' });
        expect(await s.claim(b, 'stuck', 'h', at(DAY_MS + 1))).to.deep.equal({ state: 'claimed' });
      });

      it('concurrent claims of one key: exactly one is claimed, the others see it in progress', async () => {
        const b = randomUUID();
        const claims = await Promise.all(Array.from({ length: 12 }, () => p.idempotency.claim(b, 'race', 'h', now).then(withoutToken)));
        expect(claims.filter((c) => c.state === 'claimed')).to.have.length(1);
        expect(claims.filter((c) => c.state === 'in_progress')).to.have.length(11);
      });

      it('keys up to 255 characters of any text are kept apart', async () => {
        const b = randomUUID();
        const long = 'k'.repeat(255);
        expect(await remembering(p.idempotency).claim(b, long, 'h', now)).to.deep.equal({ state: 'claimed' });
        expect(await remembering(p.idempotency).claim(b, `${'k'.repeat(254)}K`, 'h', now)).to.deep.equal({ state: 'claimed' });
        expect(await remembering(p.idempotency).claim(b, 'ключ-₦-🔑', 'h', now)).to.deep.equal({ state: 'claimed' });
        expect(await remembering(p.idempotency).claim(b, 'ключ-₦-🔑', 'h', now)).to.deep.equal({ state: 'in_progress' });
      });

      it('a claim never answered (its process died) is taken over once its lease has run out; the old owner cannot complete it', async () => {
        const b = randomUUID();
        const first = await p.idempotency.claim(b, 'crashed', 'h', now);
        if (first.state !== 'claimed') throw new Error('not claimed');
        expect(await p.idempotency.claim(b, 'crashed', 'h', at(LEASE_MS - 1))).to.deep.equal({ state: 'in_progress' });
        expect(await p.idempotency.claim(b, 'crashed', 'other', at(LEASE_MS + 1))).to.deep.equal({ state: 'mismatch' });
        const second = await p.idempotency.claim(b, 'crashed', 'h', at(LEASE_MS + 1));
        if (second.state !== 'claimed') throw new Error(`not taken over: ${second.state}`);
        expect(await p.idempotency.complete(b, 'crashed', first.token, { status: 201, body: { by: 'first' } })).to.equal(false);
        await p.idempotency.release(b, 'crashed', first.token); // not the owner: nothing happens
        expect(await p.idempotency.complete(b, 'crashed', second.token, { status: 201, body: { by: 'second' } })).to.equal(true);
        expect(await p.idempotency.claim(b, 'crashed', 'h', at(LEASE_MS * 5))).to.deep.equal({ state: 'replay', response: { status: 201, body: { by: 'second' } } });
      });

      it('a key claimed inside uow.atomically is forgotten when it rolls back, and kept with its answer when it commits (ADR 0083)', async () => {
        const businessId = await seedBusiness(p.uow);
        await p.uow
          .atomically(async () => {
            const c = await p.idempotency.claim(businessId, 'sync:till:1', 'h', now);
            expect(c.state).to.equal('claimed');
            throw new Error('the operation is refused');
          })
          .catch((e: Error) => expect(e.message).to.equal('the operation is refused'));
        // nothing to release: the claim went with the rollback
        const again = await p.uow.atomically(async () => {
          const c = await p.idempotency.claim(businessId, 'sync:till:1', 'h', at(1));
          if (c.state !== 'claimed') throw new Error(`not claimed again: ${c.state}`);
          expect(await p.idempotency.complete(businessId, 'sync:till:1', c.token, { status: 201, body: { n: 1 } })).to.equal(true);
          return c.state;
        });
        expect(again).to.equal('claimed');
        expect(await p.idempotency.claim(businessId, 'sync:till:1', 'h', at(2))).to.deep.equal({ state: 'replay', response: { status: 201, body: { n: 1 } } });
      });

      it('inside uow.atomically the answer commits with the work, or neither does', async () => {
        const businessId = await seedBusiness(p.uow);
        const rolledBack = await p.idempotency.claim(businessId, 'atomic-1', 'h', now);
        if (rolledBack.state !== 'claimed') throw new Error('not claimed');
        const lost = aProduct(businessId, { sku: 'ATOMIC-LOST' });
        await p.uow
          .atomically(async () => {
            await p.uow.run(async (r) => void (await r.products.add(lost)));
            expect(await p.idempotency.complete(businessId, 'atomic-1', rolledBack.token, { status: 201, body: { id: lost.id } })).to.equal(true);
            throw new Error('the process dies before the commit');
          })
          .catch((e: Error) => expect(e.message).to.equal('the process dies before the commit'));
        expect(await p.uow.read((r) => r.products.findById(businessId, lost.id))).to.equal(undefined);
        expect(await p.idempotency.claim(businessId, 'atomic-1', 'h', at(1))).to.deep.equal({ state: 'in_progress' });

        const kept = aProduct(businessId, { sku: 'ATOMIC-KEPT' });
        const claim = await p.idempotency.claim(businessId, 'atomic-2', 'h', now);
        if (claim.state !== 'claimed') throw new Error('not claimed');
        await p.uow.atomically(async () => {
          await p.uow.run(async (r) => void (await r.products.add(kept)));
          // read-your-writes inside the transaction
          expect((await p.uow.read((r) => r.products.findById(businessId, kept.id)))?.sku).to.equal('ATOMIC-KEPT');
          await p.idempotency.complete(businessId, 'atomic-2', claim.token, { status: 201, body: { id: kept.id } });
        });
        expect((await p.uow.read((r) => r.products.findById(businessId, kept.id)))?.id).to.equal(kept.id);
        expect(await p.idempotency.claim(businessId, 'atomic-2', 'h', at(1))).to.deep.equal({ state: 'replay', response: { status: 201, body: { id: kept.id } } });
      });
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () =>
  openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }),
);
