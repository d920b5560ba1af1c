import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork, type AppRepositories } from '../../../bootstrap/persistence.js';
import { EXPORT_BATCH, exportProducts } from '../../../application/products/export-products.js';
import { IMPORT_CHUNK_ROWS, importProducts, nextChunkRows, type ImportRow } from '../../../application/products/import-products.js';
import { createProduct } from '../../../application/products/manage-products.js';
import type { UnitOfWork } from '../../../application/ports/unit-of-work.js';
import { kobo } from '../../../domain/money.js';
import type { Actor } from '../../../domain/roles.js';
import { testClock } from '../../support/test-app.js';
import { seedTenant } from '../../support/builders.js';

/** The product use cases on the in-memory adapters, the way compose.ts wires them. */
const setup = async () => {
  const uow = inMemoryUnitOfWork();
  const tenant = await seedTenant(uow);
  let reads = 0;
  const counting: UnitOfWork<AppRepositories> = { run: (w) => uow.run(w), read: (w) => ((reads += 1), uow.read(w)), readInTurn: (w) => ((reads += 1), uow.readInTurn(w)), atomically: (w) => uow.atomically(w), giveWay: (ms) => uow.giveWay(ms) };
  const deps = { uow: counting, clock: testClock(new Date('2026-11-22T23:30:00.000Z')), crypto: nodeCrypto(new Uint8Array(32)) };
  const actor: Actor = tenant.actor;
  const all = async () => {
    const out = [];
    for await (const p of exportProducts(deps)(actor).products) out.push(p);
    return out;
  };
  const ledger = () => uow.read((r) => r.stockLedger.list(actor.businessId, { sortBy: 'created_at', sortDir: 'asc', limit: 1000 }, {}));
  return { deps, actor, all, ledger, reads: () => reads };
};

const naira = (n: number) => kobo(Math.round(n * 100));

describe('product import and export use cases (in memory)', () => {
  it('creates new skus, updates known ones ignoring case, leaves equal rows alone and reports invalid rows by row and field', async () => {
    const { deps, actor, all, ledger } = await setup();
    const rice = await createProduct(deps)(actor, { name: 'Rice 5kg', sku: 'RICE-5', price: naira(9500), quantity: 10 });
    const beans = await createProduct(deps)(actor, { name: 'Beans', sku: 'BEANS', price: naira(1200), quantity: 3, category: 'Grains' });
    if (E.isLeft(rice) || E.isLeft(beans)) throw new Error('setup failed');

    const rows: ImportRow[] = [
      { row: 2, fields: { sku: 'rice-5', name: 'Rice 5kg', price: naira(9800), quantity: 25 } }, // price and quantity change
      { row: 3, fields: { sku: 'beans', name: 'Beans', price: naira(1200), quantity: 3, category: 'Grains' } }, // nothing changes
      { row: 4, fields: { sku: 'OIL-1', name: 'Palm oil 1L', price: naira(1500.5), quantity: 7, costPrice: null } }, // new
      { row: 5, fields: { sku: 'GARRI', price: naira(800) } }, // new, no name
      { row: 6, fields: { sku: 'SALT', name: 'Salt', price: naira(-5) } }, // negative price
      { row: 7, fields: { sku: 'Oil-1', name: 'Again', price: naira(1) } }, // repeats row 4's sku
      { row: 8, fields: { sku: 'SUGAR', name: 'Sugar' } }, // its price cell could not be read
      { row: 9, fields: { sku: 'sugar', name: 'Sugar', price: naira(700) } }, // repeats row 8, which was invalid
      { row: 10, fields: { name: 'Plantain chips', price: naira(300) } }, // no sku: generated
      { row: 11, fields: { sku: 'HAIRCUT', name: 'Haircut', price: naira(2000), type: 'SERVICE', quantity: 4 } }, // a service keeps no stock
    ];
    const report = await importProducts(deps)(actor, {
      rows,
      decodeErrors: [{ row: 8, field: 'price', message: 'must have at most 2 decimals' }],
      dryRun: false,
    });

    expect(report).to.deep.equal({
      dryRun: false,
      created: 2,
      updated: 1,
      unchanged: 1,
      errors: [
        { row: 5, field: 'name', message: 'is required for a new product' },
        { row: 6, field: 'price', message: 'must not be negative' },
        { row: 7, field: 'sku', message: 'appears more than once in the file (first on row 4)' },
        { row: 8, field: 'price', message: 'must have at most 2 decimals' },
        { row: 9, field: 'sku', message: 'appears more than once in the file (first on row 8)' },
        { row: 11, field: 'quantity', message: 'a service keeps no stock' },
      ],
    });
    const products = await all();
    expect(products.map((p) => p.sku)).to.have.length(4);
    const updated = products.find((p) => p.id === rice.right.id)!;
    expect(updated).to.include({ sku: 'RICE-5', price: 980_000, quantity: 25 }); // the stored sku keeps its spelling
    expect(products.find((p) => p.sku === 'OIL-1')).to.include({ price: 150_050, quantity: 7, name: 'Palm oil 1L' });
    expect(products.find((p) => p.name === 'Plantain chips')!.sku).to.match(/^PLAN-[0-9A-F]{8}$/);

    const imports = (await ledger()).items.filter((m) => m.reason === 'IMPORT');
    expect(imports.map((m) => [m.quantityBefore, m.quantityAfter]).sort()).to.deep.equal([[0, 7], [10, 25]]);
    expect(imports.every((m) => m.createdBy === actor.userId)).to.equal(true);
  });

  it('a dry run reports exactly what the real run then does, and writes nothing', async () => {
    const { deps, actor, all, ledger } = await setup();
    await createProduct(deps)(actor, { name: 'Rice', sku: 'RICE', price: naira(100), quantity: 1 });
    const command = {
      rows: [
        { row: 2, fields: { sku: 'rice', quantity: 9 } },
        { row: 3, fields: { sku: 'NEW', name: 'New', price: naira(5) } },
        { row: 4, fields: { sku: 'new', name: 'Dup', price: naira(5) } },
      ],
      decodeErrors: [],
    };
    const before = { products: await all(), ledger: (await ledger()).items };

    const dry = await importProducts(deps)(actor, { ...command, dryRun: true });
    expect(dry).to.deep.equal({
      dryRun: true,
      created: 1,
      updated: 1,
      unchanged: 0,
      errors: [{ row: 4, field: 'sku', message: 'appears more than once in the file (first on row 3)' }],
    });
    expect(await all()).to.deep.equal(before.products);
    expect((await ledger()).items).to.deep.equal(before.ledger);

    const real = await importProducts(deps)(actor, { ...command, dryRun: false });
    expect(real).to.deep.equal({ ...dry, dryRun: false });
    expect((await all()).find((p) => p.sku === 'RICE')!.quantity).to.equal(9);
  });

  it('a stock-take file (sku and quantity only) moves quantities and nothing else', async () => {
    const { deps, actor, all } = await setup();
    await createProduct(deps)(actor, { name: 'Rice', sku: 'RICE', price: naira(100), quantity: 1, category: 'Grains' });
    const report = await importProducts(deps)(actor, { rows: [{ row: 2, fields: { sku: 'RICE', quantity: 40 } }], decodeErrors: [], dryRun: false });
    expect(report).to.include({ updated: 1, created: 0 });
    expect((await all())[0]).to.include({ name: 'Rice', price: 10_000, quantity: 40, category: 'Grains' });
  });

  it('writes in chunks, giving way between them: time-sized where transactions hold each other up, 200 rows where they run side by side (ADR 0041)', async () => {
    for (const oneAtATime of [false, true]) {
      const { deps, actor } = await setup();
      const sizes: number[] = [];
      let gaveWay = 0;
      const uow: UnitOfWork<AppRepositories> = {
        ...deps.uow,
        run: (work) =>
          deps.uow.run((r) => {
            const products = Object.create(r.products) as typeof r.products;
            Object.defineProperty(products, 'lockBySkus', { value: (b: string, skus: readonly string[]) => (sizes.push(skus.length), r.products.lockBySkus(b, skus)) });
            const repos = Object.create(r) as typeof r;
            Object.defineProperty(repos, 'products', { value: products });
            return work(repos);
          }),
        giveWay: async () => ((gaveWay += 1), oneAtATime),
      };
      const rows: ImportRow[] = Array.from({ length: 450 }, (_, i) => ({ row: i + 2, fields: { sku: `C-${i}`, name: `Item ${i}`, price: kobo(100) } }));
      const report = await importProducts({ ...deps, uow })(actor, { rows, decodeErrors: [], dryRun: false });
      expect(report.created).to.equal(450);
      expect(sizes.reduce((a, b) => a + b, 0)).to.equal(450);
      expect(gaveWay, 'between every two chunks').to.equal(sizes.length - 1);
      expect(sizes[0]).to.equal(IMPORT_CHUNK_ROWS.first);
      if (!oneAtATime) expect(sizes).to.deep.equal([20, 200, 200, 30]);
      else sizes.slice(1, -1).forEach((n, i) => expect(n).to.be.within(Math.max(IMPORT_CHUNK_ROWS.min, Math.ceil(sizes[i]! / 2)), Math.min(IMPORT_CHUNK_ROWS.max, sizes[i]! * 2)));
    }
    // ~100 ms at the last chunk's rate, within the bounds, at most doubling or halving
    expect(nextChunkRows(20, 50)).to.equal(40);
    expect(nextChunkRows(20, 100)).to.equal(20);
    expect(nextChunkRows(40, 400)).to.equal(20);
    expect(nextChunkRows(10, 1000)).to.equal(IMPORT_CHUNK_ROWS.min);
    expect(nextChunkRows(400, 1)).to.equal(IMPORT_CHUNK_ROWS.max);
  });

  it('export reads every product in batches of EXPORT_BATCH, and names the Lagos day', async () => {
    const { deps, actor, reads } = await setup();
    const n = EXPORT_BATCH * 2 + 7;
    const rows = Array.from({ length: n }, (_, i) => ({ row: i + 2, fields: { sku: `SKU-${i}`, name: `Item ${i}`, price: naira(i) } }));
    expect((await importProducts(deps)(actor, { rows, decodeErrors: [], dryRun: false })).created).to.equal(n);

    const before = reads();
    const exported = exportProducts(deps)(actor);
    expect(exported.lagosDay).to.equal('2026-11-23'); // 23:30 UTC is already the next day in Lagos
    const seen = new Set<string>();
    for await (const p of exported.products) seen.add(p.sku);
    expect(seen.size).to.equal(n);
    expect(reads() - before).to.equal(3);
  });
});
