import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork } from '../../../bootstrap/persistence.js';
import { recordCreditEntry } from '../../../application/customers/credit-entry.js';
import { createCustomer } from '../../../application/customers/manage-customers.js';
import { createProduct } from '../../../application/products/manage-products.js';
import { moveStock } from '../../../application/products/move-stock.js';
import { kobo } from '../../../domain/money.js';
import { MAX_STOCK } from '../../../domain/product.js';
import type { Actor } from '../../../domain/roles.js';
import { testClock } from '../../support/test-app.js';
import { seedTenant } from '../../support/builders.js';

/** The one stock move and the one credit entry every use case goes through (in memory). */
const setup = async () => {
  const uow = inMemoryUnitOfWork();
  const deps = { uow, clock: testClock(new Date('2026-11-22T10:00:00.000Z')), crypto: nodeCrypto(new Uint8Array(32)) };
  const tenant = await seedTenant(uow);
  const actor: Actor = tenant.actor;
  const branchId = tenant.branch.id;
  const rows = () => uow.read((r) => r.stockLedger.list(actor.businessId, { sortBy: 'created_at', sortDir: 'asc', limit: 100 }, {}));
  return { uow, deps, actor, rows, branchId };
};

describe('moveStock and recordCreditEntry (in memory)', () => {
  it('moveStock changes the quantity and writes exactly one ledger row; a refused move writes nothing; an unknown product is undefined', async () => {
    const { uow, deps, actor, rows, branchId } = await setup();
    const p = await createProduct(deps)(actor, { name: 'Rice', price: kobo(100), quantity: 5 });
    if (E.isLeft(p)) throw new Error('setup failed');
    const at = deps.clock.now();
    const moved = await uow.run((r) => moveStock(deps, r, actor, { productId: p.right.id, branchId, change: -2, reason: 'DAMAGE', at, note: 'wet' }));
    expect(moved?.ok && moved.movement).to.include({ quantityChange: -2, quantityBefore: 5, quantityAfter: 3, reason: 'DAMAGE', note: 'wet', unitCost: null, createdBy: actor.userId });
    expect(await uow.run((r) => moveStock(deps, r, actor, { productId: p.right.id, branchId, change: -4, reason: 'LOSS', at }))).to.deep.equal({ ok: false, available: 3, reason: 'INSUFFICIENT' });
    expect(await uow.run((r) => moveStock(deps, r, actor, { productId: p.right.id, branchId, change: MAX_STOCK, reason: 'RESTOCK', at }))).to.deep.equal({ ok: false, available: 3, reason: 'LIMIT' });
    expect(await uow.run((r) => moveStock(deps, r, actor, { productId: randomUUID(), branchId, change: 1, reason: 'RESTOCK', at }))).to.equal(undefined);
    expect((await rows()).items.map((m) => [m.reason, m.quantityChange])).to.deep.equal([['INITIAL', 5], ['DAMAGE', -2]]);
  });

  it('recordCreditEntry appends the entry with the balance after it and moves the balance by its amount (not at all for 0)', async () => {
    const { uow, deps, actor } = await setup();
    const c = await createCustomer(deps)(actor, { name: 'Ngozi' });
    if (E.isLeft(c)) throw new Error('setup failed');
    const balance = () => uow.read(async (r) => (await r.customers.findById(actor.businessId, c.right.id))!.creditBalance);
    const sale = await uow.run(async (r) => recordCreditEntry(deps, r, actor, { customer: (await r.customers.findById(actor.businessId, c.right.id))!, kind: 'SALE', amount: 700, saleId: randomUUID() }));
    expect(sale).to.include({ kind: 'SALE', amount: 700, balanceAfter: 700, method: null, note: null });
    expect(await balance()).to.equal(700);
    const paid = await uow.run(async (r) => recordCreditEntry(deps, r, actor, { customer: (await r.customers.findById(actor.businessId, c.right.id))!, kind: 'PAYMENT', amount: -300, method: 'CASH' }));
    expect(paid).to.include({ kind: 'PAYMENT', amount: -300, balanceAfter: 400, saleId: null, method: 'CASH' });
    await uow.run(async (r) => recordCreditEntry(deps, r, actor, { customer: (await r.customers.findById(actor.businessId, c.right.id))!, kind: 'SALE', amount: 0, saleId: randomUUID() }));
    expect(await balance()).to.equal(400);
  });
});
