import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { createCustomer } from '../../application/customers/manage-customers.js';
import { recordCreditPayment } from '../../application/customers/credit.js';
import { archiveProduct, createProduct, updateProduct } from '../../application/products/manage-products.js';
import { recordSale, type SaleCommand } from '../../application/sales/record-sale.js';
import { voidSale } from '../../application/sales/void-sale.js';
import { kobo } from '../../domain/money.js';
import { defaultExpenseCategories, type Expense, type ExpensePaymentMethod } from '../../domain/expense.js';
import type { Actor } from '../../domain/roles.js';
import type { Persistence } from '../../bootstrap/persistence.js';
import { registerOwner, testClock, type TestApp } from './test-app.js';

/** Naira as kobo. */
const N = (naira: number) => kobo(Math.round(naira * 100));
const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(`fixture step failed: ${JSON.stringify(e.left)}`);
  return e.right;
};

/**
 * The reports fixture, every figure worked out by hand in the tests that use it. Lagos is UTC+1.
 *
 * Products: Rice 5kg (Food, price 5,000, cost 3,000 then 3,500, 100 in stock, low at 10); Soap (Toiletries, 500, cost 300,
 * 20, low at 5); Sugar (Food, 800, cost 600, 3, low at 5: low stock); Milk (no category, 400, cost 250, 0, low at 2: low
 * and out of stock); Delivery (a SERVICE, 1,000, no cost); Old stock (archived, 7 at 100 / cost 50: in no report).
 *
 * 2026-10-15 10:00Z  S0 1 Rice, CASH: 5,000 (cost 3,000)
 * 2026-11-20 09:00Z  S1 2 Rice (line discount 200) + 3 Soap, sale discount 300, CASH: 9,800 + 1,500 - 300 = 11,000 (cost 6,000 + 900)
 * 2026-11-20 10:00Z  S2 1 Delivery, TRANSFER: 1,000 (cost 0)
 * 2026-11-20 11:00Z  S3 1 Rice, CASH: 5,000, voided at 12:00Z
 * 2026-11-20 13:00Z  S4 2 Rice to Chika on CREDIT, 4,000 paid down: 10,000, 6,000 owed (cost 6,000)
 * 2026-11-20 14:00Z  Rice's cost price becomes 3,500
 * 2026-11-20 15:00Z  Chika pays 2,500 CASH
 * 2026-11-20 23:30Z  S5 1 Rice, CASH: 5,000 (cost 3,500): 00:30 on 2026-11-21 in Lagos
 * 2026-11-21 10:00Z  Chika pays 3,000 TRANSFER (500 still owed)
 * Expenses: 2026-11-20 Rent 3,000 CASH, Transport 700 TRANSFER, and a deleted 9,999 CASH; 2026-11-21 Fuel and generator
 * 1,200 CASH (recorded at 23:30Z on the 20th, which is the 21st in Lagos).
 * "Now" afterwards: 2026-11-21T12:00:00Z (Lagos day 2026-11-21).
 */
export const buildReportsFixture = async (p: Persistence, actor: Actor, branchId: string) => {
  const clock = testClock(new Date('2026-10-01T08:00:00Z'));
  const deps = { uow: p.uow, clock, crypto: nodeCrypto(new Uint8Array(32)) };
  const at = (iso: string) => clock.set(new Date(iso));
  const product = async (fields: Parameters<ReturnType<typeof createProduct>>[1]) => right(await createProduct(deps)(actor, fields)).id;
  const rice = await product({ name: 'Rice 5kg', price: N(5000), costPrice: N(3000), quantity: 100, category: 'Food', lowStockThreshold: 10 });
  const soap = await product({ name: 'Soap', price: N(500), costPrice: N(300), quantity: 20, category: 'Toiletries', lowStockThreshold: 5 });
  const sugar = await product({ name: 'Sugar', price: N(800), costPrice: N(600), quantity: 3, category: 'Food', lowStockThreshold: 5 });
  const milk = await product({ name: 'Milk', price: N(400), costPrice: N(250), quantity: 0, lowStockThreshold: 2 });
  const delivery = await product({ name: 'Delivery', price: N(1000), type: 'SERVICE', category: 'Services' });
  const old = await product({ name: 'Old stock', price: N(100), costPrice: N(50), quantity: 7, category: 'Food', lowStockThreshold: 10 });
  right(await archiveProduct(deps)(actor, old));
  const chika = right(await createCustomer(deps)(actor, { name: 'Chika' })).id;

  const sell = async (when: string, cmd: SaleCommand) => {
    at(when);
    return right(await recordSale(deps)(actor, cmd)).sale.id;
  };
  await sell('2026-10-15T10:00:00Z', { items: [{ productId: rice, quantity: 1 }], paymentMethod: 'CASH' });
  await sell('2026-11-20T09:00:00Z', {
    items: [{ productId: rice, quantity: 2, discount: N(200) }, { productId: soap, quantity: 3 }], discount: N(300), paymentMethod: 'CASH',
  });
  await sell('2026-11-20T10:00:00Z', { items: [{ productId: delivery, quantity: 1 }], paymentMethod: 'TRANSFER' });
  const s3 = await sell('2026-11-20T11:00:00Z', { items: [{ productId: rice, quantity: 1 }], paymentMethod: 'CASH' });
  at('2026-11-20T12:00:00Z');
  right(await voidSale(deps)(actor, s3, 'wrong item'));
  await sell('2026-11-20T13:00:00Z', { items: [{ productId: rice, quantity: 2 }], paymentMethod: 'CREDIT', customerId: chika, amountPaid: N(4000) });
  at('2026-11-20T14:00:00Z');
  right(await updateProduct(deps)(actor, rice, { costPrice: N(3500) }));
  at('2026-11-20T15:00:00Z');
  right(await recordCreditPayment(deps)(actor, chika, { amount: N(2500), method: 'CASH' }));
  await sell('2026-11-20T23:30:00Z', { items: [{ productId: rice, quantity: 1 }], paymentMethod: 'CASH' });
  at('2026-11-21T10:00:00Z');
  right(await recordCreditPayment(deps)(actor, chika, { amount: N(3000), method: 'TRANSFER' }));

  // the categories every business gets at registration (given here when the fixture's business was seeded without them)
  const categories = await p.uow.run(async (r) => {
    const existing = await r.expenseCategories.list(actor.businessId);
    if (existing.length > 0) return existing;
    const defaults = defaultExpenseCategories(actor.businessId, randomUUID, new Date('2026-10-01T08:00:00Z'));
    for (const c of defaults) await r.expenseCategories.add(c);
    return defaults;
  });
  const named = (name: string) => categories.find((c) => c.name === name)!;
  const rent = named('Rent');
  const transport = named('Transport');
  const fuel = named('Fuel and generator');
  const expense = (c: { id: string }, amount: number, paymentMethod: ExpensePaymentMethod, spentOn: string, atIso: string): Expense => ({
    id: randomUUID(), businessId: actor.businessId, branchId, categoryId: c.id, categoryName: '', amount: N(amount), description: 'expense', vendor: null,
    paymentMethod, spentOn, reference: null, createdBy: actor.userId, createdAt: new Date(atIso), updatedAt: new Date(atIso),
  });
  await p.uow.run(async (r) => {
    await r.expenses.add(expense(rent, 3000, 'CASH', '2026-11-20', '2026-11-20T08:00:00Z'));
    await r.expenses.add(expense(transport, 700, 'TRANSFER', '2026-11-20', '2026-11-20T16:00:00Z'));
    const deleted = expense(rent, 9999, 'CASH', '2026-11-20', '2026-11-20T17:00:00Z');
    await r.expenses.add(deleted);
    await r.expenses.softDelete(actor.businessId, deleted.id, actor.userId, new Date('2026-11-20T17:00:00Z'));
    await r.expenses.add(expense(fuel, 1200, 'CASH', '2026-11-21', '2026-11-20T23:30:00Z'));
  });
  return { now: new Date('2026-11-21T12:00:00Z'), products: { rice, soap, sugar, milk, delivery, old }, categories: { rent: rent.id, transport: transport.id, fuel: fuel.id } };
};
export type ReportsFixture = Awaited<ReturnType<typeof buildReportsFixture>>;

/** An owner registered over HTTP, the fixture built in their business, and the app's clock set to the fixture's now. */
export const ownerWithReportsFixture = async (app: TestApp, p: Persistence) => {
  const owner = await registerOwner(app);
  const businessId = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
  const branch = await p.uow.read((r) => r.branches.findDefault(businessId));
  const f = await buildReportsFixture(p, { userId: owner.userId, businessId, roles: ['BUSINESS_OWNER'] }, branch!.id);
  app.clock.set(f.now);
  return { owner, token: owner.accessToken, businessId, f };
};
