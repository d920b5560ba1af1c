import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork } from '../../../bootstrap/persistence.js';
import { recordCreditPayment } from '../../../application/customers/credit.js';
import { createCustomer, updateCustomer } from '../../../application/customers/manage-customers.js';
import { adjustStock } from '../../../application/products/adjust-stock.js';
import { createProduct } from '../../../application/products/manage-products.js';
import { recordSale, type SaleCommand } from '../../../application/sales/record-sale.js';
import { kobo } from '../../../domain/money.js';
import type { Actor } from '../../../domain/roles.js';
import { aBranch, aBusiness } from '../../support/builders.js';
import { testClock } from '../../support/test-app.js';

/**
 * The money and quantity rules hold for a program that calls the use cases as a library (no HTTP
 * codec in front): on the in-memory adapters, the way compose.ts wires them.
 */
const setup = async () => {
  const uow = inMemoryUnitOfWork();
  const deps = { uow, clock: testClock(new Date('2026-11-22T10:00:00.000Z')), crypto: nodeCrypto(new Uint8Array(32)) };
  const business = aBusiness({ plan: 'PRO' });
  const actor: Actor = { userId: randomUUID(), businessId: business.id, roles: ['BUSINESS_OWNER'] };
  await uow.run(async (r) => {
    await r.businesses.add(business);
    await r.branches.add(aBranch(business.id, { isDefault: true }));
  });
  const product = await createProduct(deps)(actor, { name: 'Rice', price: kobo(100_000), quantity: 10 });
  if (E.isLeft(product)) throw new Error('setup failed');
  const customer = await createCustomer(deps)(actor, { name: 'Ngozi', creditLimit: kobo(500_000) });
  if (E.isLeft(customer)) throw new Error('setup failed');
  const quantityOf = () => uow.read(async (r) => (await r.products.findById(actor.businessId, product.right.id))!.quantity);
  const salesCount = () => uow.read(async (r) => (await r.sales.list(actor.businessId, { sortBy: 'created_at', sortDir: 'desc', limit: 100 }, {})).items.length);
  return { deps, actor, productId: product.right.id, customerId: customer.right.id, quantityOf, salesCount };
};

describe('money and quantity rules on the use cases, called as a library (in memory)', () => {
  it('recordSale refuses a negative discount and a negative amount paid, writing nothing; the same sale without them is recorded', async () => {
    const { deps, actor, productId, quantityOf, salesCount } = await setup();
    const sale: SaleCommand = { items: [{ productId, quantity: 2 }], paymentMethod: 'CASH' };

    expect(await recordSale(deps)(actor, { ...sale, discount: kobo(-500) })).to.deep.equal(E.left({ _tag: 'NegativeAmount', fields: ['discount'] }));
    expect(await recordSale(deps)(actor, { ...sale, amountPaid: kobo(-1) })).to.deep.equal(E.left({ _tag: 'NegativeAmount', fields: ['amountPaid'] }));
    expect(await recordSale(deps)(actor, { ...sale, items: [{ productId, quantity: 1, discount: kobo(-1) }], amountTendered: kobo(-2) })).to.deep.equal(
      E.left({ _tag: 'NegativeAmount', fields: ['amountTendered', 'items.0.discount'] }),
    );
    expect(await recordSale(deps)(actor, { ...sale, items: [{ productId, quantity: 1, unitPrice: kobo(-100) }] })).to.deep.equal(
      E.left({ _tag: 'NegativePrice', fields: ['items.0.unitPrice'] }),
    );
    expect(await recordSale(deps)(actor, { ...sale, items: [{ productId, quantity: 0 }] })).to.deep.equal(E.left({ _tag: 'QuantityNotPositive', fields: ['items.0.quantity'] }));
    expect(await quantityOf()).to.equal(10);
    expect(await salesCount()).to.equal(0);

    const recorded = await recordSale(deps)(actor, { ...sale, discount: kobo(500), amountPaid: kobo(199_500) });
    expect(E.isRight(recorded) && recorded.right.sale).to.include({ total: 199_500, amountPaid: 199_500 });
    expect(await quantityOf()).to.equal(8);
  });

  it('createCustomer and updateCustomer refuse a negative credit limit; 0 (no credit) and null (no limit) are kept', async () => {
    const { deps, actor, customerId } = await setup();
    expect(await createCustomer(deps)(actor, { name: 'Emeka', creditLimit: kobo(-1) })).to.deep.equal(E.left({ _tag: 'NegativeAmount', fields: ['creditLimit'] }));
    expect(await updateCustomer(deps)(actor, customerId, { creditLimit: kobo(-1) })).to.deep.equal(E.left({ _tag: 'NegativeAmount', fields: ['creditLimit'] }));
    const none = await createCustomer(deps)(actor, { name: 'Emeka', creditLimit: kobo(0) });
    expect(E.isRight(none) && none.right.creditLimit).to.equal(0);
    const cleared = await updateCustomer(deps)(actor, customerId, { creditLimit: null });
    expect(E.isRight(cleared) && cleared.right.creditLimit).to.equal(null);
  });

  it('a credit payment is more than zero; an adjustment moves stock by a whole number other than zero at a unit cost not below zero', async () => {
    const { deps, actor, customerId, productId, quantityOf } = await setup();
    expect(await recordCreditPayment(deps)(actor, customerId, { amount: kobo(0), method: 'CASH' })).to.deep.equal(E.left({ _tag: 'AmountNotPositive', field: 'amount' }));
    expect(await recordCreditPayment(deps)(actor, customerId, { amount: kobo(-100), method: 'CASH' })).to.deep.equal(E.left({ _tag: 'AmountNotPositive', field: 'amount' }));
    expect(await adjustStock(deps)(actor, { productId, quantityChange: 3, reason: 'RESTOCK', unitCost: kobo(-1) })).to.deep.equal(
      E.left({ _tag: 'NegativePrice', fields: ['unitCost'] }),
    );
    expect(await adjustStock(deps)(actor, { productId, quantityChange: 0, reason: 'CORRECTION' })).to.deep.equal(E.left({ _tag: 'ZeroQuantityChange', field: 'quantityChange' }));
    expect(await quantityOf()).to.equal(10);
  });
});
