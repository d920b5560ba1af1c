import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { createCustomer } from '../../application/customers/manage-customers.js';
import { createPartner } from '../../application/partners/api-keys.js';
import { joinPartnerNetwork } from '../../application/partners/network.js';
import { createProduct } from '../../application/products/manage-products.js';
import { recordReturn, type ReturnCommand } from '../../application/returns/record-return.js';
import { recordSale, type SaleCommand } from '../../application/sales/record-sale.js';
import { kobo } from '../../domain/money.js';
import type { Actor } from '../../domain/roles.js';
import type { Persistence } from '../../bootstrap/persistence.js';
import { testClock } from './test-app.js';

/** Naira as kobo. */
const N = (naira: number) => kobo(Math.round(naira * 100));
const right = <A>(e: E.Either<unknown, A>): A => {
  if (E.isLeft(e)) throw new Error(`fixture step failed: ${JSON.stringify(e.left)}`);
  return e.right;
};

/**
 * The returns fixture (docs/adr/0058), every figure worked out by hand in the tests that use it. Lagos is UTC+1.
 *
 * Products: Rice (Food, 5,000, cost 3,000, 100 in stock); Soap (Toiletries, 500, cost 300, 20); Delivery (a SERVICE,
 * Services, 1,000, no cost). Customer Chika. The business is in a partner's network from the start.
 *
 * 2026-11-20 09:00Z S1 3 Rice + 4 Soap, sale discount 500, CASH: 17,000 - 500 = 16,500 (cost 9,000 + 1,200). The discount on
 *                   the lines (ADR 0053): Rice 441.18 (the leftover kobo: the larger remainder), Soap 58.82; sold for 14,558.82 and 1,941.18.
 * 2026-11-20 10:00Z S2 2 Rice to Chika on CREDIT, 2,000 paid: 10,000, 8,000 owed (cost 6,000)
 * 2026-11-20 11:00Z S3 1 Delivery, TRANSFER: 1,000
 * 2026-11-20 15:00Z R1 S1: 1 Rice back on the shelf, CASH: 14,558.82 / 3 = 4,852.94 (line 5,000; cost 3,000 back)
 * 2026-11-20 16:00Z R2 S1: 2 Soap damaged (not restocked), TRANSFER: floor(194,118 x 2 / 4) = 970.59 (line 1,000; no cost back)
 * 2026-11-21 10:00Z R3 S2: 1 Rice, restocked: 5,000 all taken off Chika's debt (8,000 -> 3,000), refund 0 (CASH)
 * 2026-11-21 11:00Z R4 S1: the last 2 Rice, restocked, POS: 14,558.82 - 4,852.94 = 9,705.88 (line 10,000; cost 6,000 back)
 * 2026-11-21 12:00Z S4 1 Soap to Chika, CASH: 500 (cost 300)
 * 2026-11-21 13:00Z R5 S4: the Soap, restocked, CREDIT_NOTE: 500, which pays Chika's debt on S2 down to 2,500 (cost 300 back)
 * "Now" afterwards: 2026-11-21T18:00:00Z (Lagos day 2026-11-21).
 */
export const buildReturnsFixture = async (p: Persistence, actor: Actor) => {
  const clock = testClock(new Date('2026-11-01T08:00:00Z'));
  const deps = { uow: p.uow, clock, crypto: nodeCrypto(new Uint8Array(32)) };
  const at = (iso: string) => clock.set(new Date(iso));
  const { partner, key: partnerKey } = await createPartner(deps)('Kudi Partners');
  right(await joinPartnerNetwork(deps)(actor, partner.code));
  const product = async (fields: Parameters<ReturnType<typeof createProduct>>[1]) => right(await createProduct(deps)(actor, fields)).id;
  const rice = await product({ name: 'Rice', price: N(5000), costPrice: N(3000), quantity: 100, category: 'Food' });
  const soap = await product({ name: 'Soap', price: N(500), costPrice: N(300), quantity: 20, category: 'Toiletries' });
  const delivery = await product({ name: 'Delivery', price: N(1000), type: 'SERVICE', category: 'Services' });
  const chika = right(await createCustomer(deps)(actor, { name: 'Chika' })).id;
  const sell = async (when: string, cmd: SaleCommand) => {
    at(when);
    return right(await recordSale(deps)(actor, cmd)).sale.id;
  };
  const giveBack = async (when: string, cmd: Omit<ReturnCommand, 'reason'>) => {
    at(when);
    return right(await recordReturn(deps)(actor, { reason: 'customer returned it', ...cmd })).id;
  };
  const s1 = await sell('2026-11-20T09:00:00Z', { items: [{ productId: rice, quantity: 3 }, { productId: soap, quantity: 4 }], discount: N(500), paymentMethod: 'CASH' });
  const s2 = await sell('2026-11-20T10:00:00Z', { items: [{ productId: rice, quantity: 2 }], paymentMethod: 'CREDIT', customerId: chika, amountPaid: N(2000) });
  const s3 = await sell('2026-11-20T11:00:00Z', { items: [{ productId: delivery, quantity: 1 }], paymentMethod: 'TRANSFER' });
  await giveBack('2026-11-20T15:00:00Z', { saleId: s1, items: [{ productId: rice, quantity: 1 }], restock: true, refundMethod: 'CASH' });
  await giveBack('2026-11-20T16:00:00Z', { saleId: s1, items: [{ productId: soap, quantity: 2 }], restock: false, refundMethod: 'TRANSFER' });
  await giveBack('2026-11-21T10:00:00Z', { saleId: s2, items: [{ productId: rice, quantity: 1 }], restock: true, refundMethod: 'CASH' });
  await giveBack('2026-11-21T11:00:00Z', { saleId: s1, items: [{ productId: rice, quantity: 2 }], restock: true, refundMethod: 'POS' });
  const s4 = await sell('2026-11-21T12:00:00Z', { items: [{ productId: soap, quantity: 1 }], paymentMethod: 'CASH', customerId: chika });
  await giveBack('2026-11-21T13:00:00Z', { saleId: s4, items: [{ productId: soap, quantity: 1 }], restock: true, refundMethod: 'CREDIT_NOTE' });
  return { now: new Date('2026-11-21T18:00:00Z'), partner, partnerKey, products: { rice, soap, delivery }, customer: chika, sales: { s1, s2, s3, s4 } };
};
export type ReturnsFixture = Awaited<ReturnType<typeof buildReturnsFixture>>;
