import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork } from '../../../bootstrap/persistence.js';
import { createCustomer } from '../../../application/customers/manage-customers.js';
import { createProduct } from '../../../application/products/manage-products.js';
import { recordSale, type SaleCommand } from '../../../application/sales/record-sale.js';
import { voidSale } from '../../../application/sales/void-sale.js';
import { kobo } from '../../../domain/money.js';
import type { Actor } from '../../../domain/roles.js';
import { aBranch, aBusiness } from '../../support/builders.js';
import { testClock } from '../../support/test-app.js';

// Issue 33: recordSale and voidSale as a library calls them, on the in-memory adapters (docs/adr/0049).

const setup = async (stock: number[] = [10, 10, 10]) => {
  const uow = inMemoryUnitOfWork();
  const deps = { uow, clock: testClock(new Date('2026-11-22T10:00:00.000Z')), crypto: nodeCrypto(new Uint8Array(32)) };
  const business = aBusiness({ plan: 'PRO' });
  const actor: Actor = { userId: randomUUID(), businessId: business.id, roles: ['BUSINESS_OWNER'] };
  await uow.run(async (r) => {
    await r.businesses.add(business);
    await r.branches.add(aBranch(business.id, { isDefault: true }));
  });
  const productIds: string[] = [];
  for (const [n, quantity] of stock.entries()) {
    const p = await createProduct(deps)(actor, { name: `Item ${n}`, price: kobo(1_000 * (n + 1)), quantity });
    if (E.isLeft(p)) throw new Error('setup failed');
    productIds.push(p.right.id);
  }
  const customer = await createCustomer(deps)(actor, { name: 'Ngozi', creditLimit: kobo(5_000) });
  if (E.isLeft(customer)) throw new Error('setup failed');
  const stockOf = () => uow.read(async (r) => Promise.all(productIds.map(async (id) => (await r.products.findById(actor.businessId, id))!.quantity)));
  const balance = () => uow.read(async (r) => (await r.customers.findById(actor.businessId, customer.right.id))!.creditBalance);
  const salesCount = () => uow.read(async (r) => (await r.sales.list(actor.businessId, { sortBy: 'created_at', sortDir: 'desc', limit: 100 }, {})).items.length);
  return { deps, actor, productIds, customerId: customer.right.id, stockOf, balance, salesCount };
};

describe('recordSale and voidSale on the in-memory adapters', () => {
  it('recordSale takes what the cart asks from stock and puts what is owed on the customer', async () => {
    const { deps, actor, productIds: [a, b], customerId, stockOf, balance } = await setup();
    const sold = await recordSale(deps)(actor, { items: [{ productId: b!, quantity: 2 }, { productId: a!, quantity: 1 }, { productId: b!, quantity: 1 }], paymentMethod: 'CASH', customerId, amountPaid: kobo(3_000) });
    if (E.isLeft(sold)) throw new Error(`refused: ${JSON.stringify(sold.left)}`);
    expect(sold.right.sale).to.include({ total: 7_000, amountPaid: 3_000, balanceDue: 4_000, creditOutstanding: 4_000, status: 'COMPLETED' });
    expect(await stockOf()).to.deep.equal([9, 7, 10]);
    expect(await balance()).to.equal(4_000);
  });

  it('recordSale refuses what the facts refuse, and an over-limit or short sale, writing nothing', async () => {
    const { deps, actor, productIds: [a], customerId, stockOf, balance, salesCount } = await setup();
    const sale = (o: Partial<SaleCommand>): SaleCommand => ({ items: [{ productId: a!, quantity: 1 }], paymentMethod: 'CASH', ...o });
    const unknown = randomUUID();
    expect(await recordSale(deps)(actor, sale({ customerId: randomUUID() }))).to.deep.equal(E.left({ _tag: 'UnknownCustomer' }));
    expect(await recordSale(deps)(actor, sale({ items: [{ productId: a!, quantity: 1 }, { productId: unknown, quantity: 1 }] }))).to.deep.equal(E.left({ _tag: 'UnknownProducts', indexes: [1] }));
    expect(await recordSale(deps)(actor, sale({ paymentMethod: 'CREDIT' }))).to.deep.equal(E.left({ _tag: 'CustomerRequired' }));
    expect(await recordSale(deps)(actor, sale({ paymentMethod: 'CREDIT', customerId, items: [{ productId: a!, quantity: 6 }] }))).to.deep.equal(E.left({ _tag: 'CreditLimitExceeded', balance: 0, limit: 5_000 }));
    const short = await recordSale(deps)(actor, sale({ items: [{ productId: a!, quantity: 11 }] }));
    expect(E.isLeft(short) && short.left).to.deep.include({ _tag: 'InsufficientStock', productId: a, index: 0, available: 10, requested: 11 });
    expect(await stockOf()).to.deep.equal([10, 10, 10]);
    expect(await balance()).to.equal(0);
    expect(await salesCount()).to.equal(0);
  });

  it('voidSale gives back exactly what the sale took and reverses what the customer owed; a second void is refused', async () => {
    const { deps, actor, productIds: [a, b], customerId, stockOf, balance } = await setup();
    const sold = await recordSale(deps)(actor, { items: [{ productId: a!, quantity: 3 }, { productId: b!, quantity: 1 }], paymentMethod: 'CREDIT', customerId, amountPaid: kobo(1_000) });
    if (E.isLeft(sold)) throw new Error(`refused: ${JSON.stringify(sold.left)}`);
    expect(await stockOf()).to.deep.equal([7, 9, 10]);
    expect(await balance()).to.equal(4_000);

    const voided = await voidSale(deps)(actor, sold.right.sale.id, 'returned');
    if (E.isLeft(voided)) throw new Error(`refused: ${JSON.stringify(voided.left)}`);
    expect(voided.right).to.include({ status: 'VOIDED', voidReason: 'returned', refundAmount: 1_000, balanceDue: 0, creditOutstanding: 0 });
    expect(await stockOf()).to.deep.equal([10, 10, 10]);
    expect(await balance()).to.equal(0);
    const stored = await deps.uow.read((r) => r.sales.findById(actor.businessId, sold.right.sale.id));
    expect(stored).to.include({ status: 'VOIDED', refundAmount: 1_000 });

    expect(await voidSale(deps)(actor, sold.right.sale.id, 'again')).to.deep.equal(E.left({ _tag: 'SaleAlreadyVoided' }));
    expect(await voidSale(deps)(actor, randomUUID(), 'nothing')).to.deep.equal(E.left({ _tag: 'NotFound' }));
    expect(await stockOf()).to.deep.equal([10, 10, 10]);
  });

  it('property: over any run of sales and voids, stock never goes below zero and is what it started at less what the recorded, unvoided sales took', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('sale' as const), items: fc.array(fc.record({ product: fc.nat(2), quantity: fc.integer({ min: 1, max: 6 }) }), { minLength: 1, maxLength: 4 }) }),
      fc.record({ kind: fc.constant('void' as const), which: fc.nat(20) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const start = [5, 3, 8];
        const { deps, actor, productIds, stockOf } = await setup(start);
        const sales: { id: string; taken: number[]; voided: boolean }[] = [];
        for (const s of steps) {
          if (s.kind === 'sale') {
            const out = await recordSale(deps)(actor, { items: s.items.map((i) => ({ productId: productIds[i.product]!, quantity: i.quantity })), paymentMethod: 'CASH' });
            const taken = [0, 1, 2].map((p) => s.items.filter((i) => i.product === p).reduce((n, i) => n + i.quantity, 0));
            if (E.isRight(out)) sales.push({ id: out.right.sale.id, taken, voided: false });
            else expect(out.left._tag).to.equal('InsufficientStock');
          } else if (sales.length > 0) {
            const sale = sales[s.which % sales.length]!;
            const out = await voidSale(deps)(actor, sale.id, 'x');
            expect(E.isRight(out)).to.equal(!sale.voided);
            sale.voided = true;
          }
          const now = await stockOf();
          const expected = start.map((q, p) => q - sales.filter((x) => !x.voided).reduce((n, x) => n + x.taken[p]!, 0));
          expect(now).to.deep.equal(expected);
          for (const q of now) expect(q).to.be.at.least(0);
        }
      }),
      { numRuns: 40 },
    );
  });
});
