import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork } from '../../../bootstrap/persistence.js';
import { recordCreditPayment } from '../../../application/customers/credit.js';
import { createCustomer } from '../../../application/customers/manage-customers.js';
import { createProduct } from '../../../application/products/manage-products.js';
import { recordReturn, type ReturnCommand } from '../../../application/returns/record-return.js';
import { recordSale } from '../../../application/sales/record-sale.js';
import { voidSale } from '../../../application/sales/void-sale.js';
import { kobo } from '../../../domain/money.js';
import type { Actor } from '../../../domain/roles.js';
import type { RefundMethod } from '../../../domain/sale-return.js';
import { aBranch, aBusiness } from '../../support/builders.js';
import { testClock } from '../../support/test-app.js';

// Issue 34: recordReturn as a library calls it, on the in-memory adapters (docs/adr/0058, 0059).

const setup = async () => {
  const uow = inMemoryUnitOfWork();
  const deps = { uow, clock: testClock(new Date('2026-11-22T10:00:00.000Z')), crypto: nodeCrypto(new Uint8Array(32)) };
  const business = aBusiness({ plan: 'PRO' });
  const branch = aBranch(business.id, { isDefault: true });
  const actor: Actor = { userId: randomUUID(), businessId: business.id, roles: ['BUSINESS_OWNER'] };
  await uow.run(async (r) => {
    await r.businesses.add(business);
    await r.branches.add(branch);
  });
  const p = await createProduct(deps)(actor, { name: 'Garri', price: kobo(1_000), quantity: 1_000 });
  const c = await createCustomer(deps)(actor, { name: 'Ngozi' });
  if (E.isLeft(p) || E.isLeft(c)) throw new Error('setup failed');
  const customerId = c.right.id;
  const productId = p.right.id;
  const state = () =>
    uow.read(async (r) => {
      const customer = (await r.customers.findById(actor.businessId, customerId))!;
      const debts = await r.credit.openDebts(actor.businessId, customerId);
      const entries = (await r.credit.list(actor.businessId, customerId, { sortBy: 'created_at', sortDir: 'asc', limit: 100 })).items;
      const stock = (await r.products.findById(actor.businessId, productId))!.quantity;
      return { balance: customer.creditBalance, owed: debts.reduce((n, d) => n + d.outstanding, 0), ledger: entries.reduce((n, e) => n + e.amount, 0), stock };
    });
  return { deps, actor, branch, productId, customerId, state };
};

describe('recordReturn on the in-memory adapters', () => {
  it('writes the return, its RETURN stock rows and credit entry, and its event; a refusal writes nothing', async () => {
    const { deps, actor, productId, customerId, state } = await setup();
    const sold = await recordSale(deps)(actor, { items: [{ productId, quantity: 5 }], paymentMethod: 'CREDIT', customerId, amountPaid: kobo(1_000) });
    if (E.isLeft(sold)) throw new Error('refused');
    const cmd = (o: Partial<ReturnCommand> = {}): ReturnCommand => ({ saleId: sold.right.sale.id, items: [{ productId, quantity: 2 }], restock: true, refundMethod: 'CASH', reason: 'torn', ...o });
    expect(await recordReturn(deps)(actor, cmd({ items: [{ productId, quantity: 6 }] }))).to.deep.equal(
      E.left({ _tag: 'ReturnExceedsSold', index: 0, productId, name: 'Garri', sold: 5, returned: 0, requested: 6 }),
    );
    expect(await recordReturn(deps)(actor, cmd({ items: [{ productId, quantity: 0 }] }))).to.deep.equal(E.left({ _tag: 'QuantityNotPositive', fields: ['items.0.quantity'] }));
    expect(await recordReturn(deps)(actor, cmd({ saleId: randomUUID() }))).to.deep.equal(E.left({ _tag: 'NotFound' }));
    expect(await state()).to.deep.include({ balance: 4_000, stock: 995 });
    const back = await recordReturn(deps)(actor, cmd());
    if (E.isLeft(back)) throw new Error(`refused: ${JSON.stringify(back.left)}`);
    expect(back.right).to.include({ returnNumber: 'RTN-000001', amount: 2_000, debtReduced: 2_000, refundAmount: 0, receiptNumber: sold.right.sale.receiptNumber });
    expect(await state()).to.deep.equal({ balance: 2_000, owed: 2_000, ledger: 2_000, stock: 997 });
    const events = await deps.uow.read(async (r) => (await r.stockLedger.list(actor.businessId, { sortBy: 'created_at', sortDir: 'desc', limit: 1 }, { reason: 'RETURN' })).items);
    expect(events[0]).to.include({ quantityChange: 2, saleId: sold.right.sale.id, note: 'torn' });
    expect(await voidSale(deps)(actor, sold.right.sale.id, 'x')).to.deep.equal(E.left({ _tag: 'SaleHasReturns', returns: 1 }));
  });

  it('a staff member assigned to another branch is refused (WrongBranch); one of the sale\'s branch is not', async () => {
    const { deps, actor, branch, productId } = await setup();
    const sold = await recordSale(deps)(actor, { items: [{ productId, quantity: 1 }], paymentMethod: 'CASH' });
    if (E.isLeft(sold)) throw new Error('refused');
    const elsewhere: Actor = { userId: randomUUID(), businessId: actor.businessId, roles: ['STAFF'], branchId: randomUUID() };
    const here: Actor = { ...elsewhere, branchId: branch.id };
    const cmd: ReturnCommand = { saleId: sold.right.sale.id, items: [{ productId, quantity: 1 }], restock: true, refundMethod: 'CASH', reason: 'x' };
    expect(await recordReturn(deps)(elsewhere, cmd)).to.deep.equal(E.left({ _tag: 'WrongBranch', branchId: branch.id, assignedBranchId: elsewhere.branchId }));
    expect(E.isRight(await recordReturn(deps)(here, cmd))).to.equal(true);
  });

  it('property: over any run of credit sales, payments and returns (credit notes among them), the balance is the ledger\'s sum, what the open debts add up to while not below zero, and below zero only with no debt open', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('sale' as const), quantity: fc.integer({ min: 1, max: 5 }), paid: fc.integer({ min: 0, max: 5_000 }) }),
      fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 6_000 }) }),
      fc.record({ kind: fc.constant('return' as const), which: fc.nat(20), quantity: fc.integer({ min: 1, max: 5 }), method: fc.constantFrom<RefundMethod>('CASH', 'CREDIT_NOTE', 'POS') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const { deps, actor, productId, customerId, state } = await setup();
        const sales: { id: string; quantity: number; left: number }[] = [];
        for (const s of steps) {
          if (s.kind === 'sale') {
            const out = await recordSale(deps)(actor, { items: [{ productId, quantity: s.quantity }], paymentMethod: 'CREDIT', customerId, amountPaid: kobo(Math.min(s.paid, s.quantity * 1_000)) });
            if (E.isLeft(out)) throw new Error(`refused: ${JSON.stringify(out.left)}`);
            sales.push({ id: out.right.sale.id, quantity: s.quantity, left: s.quantity });
          } else if (s.kind === 'pay') {
            const out = await recordCreditPayment(deps)(actor, customerId, { amount: kobo(s.amount), method: 'CASH' });
            if (E.isLeft(out)) expect(out.left._tag).to.equal('Overpayment');
          } else if (sales.length > 0) {
            const sale = sales[s.which % sales.length]!;
            const out = await recordReturn(deps)(actor, { saleId: sale.id, items: [{ productId, quantity: s.quantity }], restock: true, refundMethod: s.method, reason: 'x' });
            if (E.isRight(out)) sale.left -= s.quantity;
            else expect(out.left).to.deep.include({ _tag: 'ReturnExceedsSold', requested: s.quantity, sold: sale.quantity, returned: sale.quantity - sale.left });
          }
          const now = await state();
          expect(now.balance).to.equal(now.ledger);
          if (now.balance >= 0) expect(now.owed).to.equal(now.balance);
          else expect(now.owed).to.equal(0);
          expect(now.stock).to.equal(1_000 - sales.reduce((n, x) => n + x.left, 0));
        }
      }),
      { numRuns: 60 },
    );
  });
});
