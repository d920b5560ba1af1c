import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { agingReport, getCreditSummary, listCreditTransactions, recordCreditPayment } from '../../application/customers/credit.js';
import { createCustomer } from '../../application/customers/manage-customers.js';
import { createProduct } from '../../application/products/manage-products.js';
import { recordSale } from '../../application/sales/record-sale.js';
import { voidSale } from '../../application/sales/void-sale.js';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { kobo } from '../../domain/money.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { testClock } from '../support/test-app.js';
import { seedTenant } from '../support/builders.js';

type Op =
  | { kind: 'sale'; quantity: number; paidPercent: number }
  | { kind: 'pay'; percent: number }
  | { kind: 'overpay' }
  | { kind: 'void'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('sale' as const), quantity: fc.integer({ min: 1, max: 20 }), paidPercent: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ kind: fc.constant('pay' as const), percent: fc.integer({ min: 1, max: 100 }) }),
  fc.constant({ kind: 'overpay' as const }),
  fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
);


const property = (name: string, open: () => Promise<Persistence>, numRuns: number) =>
  describe(`credit ledger property (${name})`, () => {
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    it('after any sequence of credit sales, payments, overpayments and voids, the balance is the sum of the ledger and of the open debts', async function () {
      this.timeout(120_000);
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
          const clock = testClock(new Date('2026-11-01T09:00:00.000Z'));
          const deps = { uow: p.uow, clock, crypto: nodeCrypto(new Uint8Array(32)) };
          const { actor } = await seedTenant(p.uow, { business: { plan: 'PRO' }, at: clock.now() });
          const product = await createProduct(deps)(actor, { name: 'Rice', price: kobo(1999), quantity: 1_000_000 });
          const customer = await createCustomer(deps)(actor, { name: 'Customer' });
          if (E.isLeft(product) || E.isLeft(customer)) throw new Error('setup failed');
          const sales: string[] = [];
          for (const o of ops) {
            clock.advance(60_000);
            const before = await getCreditSummary(deps)(actor, customer.right.id);
            const balance = E.isRight(before) ? before.right.balance : 0;
            if (o.kind === 'sale') {
              const total = 1999 * o.quantity;
              const paid = kobo(Math.floor((total * o.paidPercent) / 100));
              const r = await recordSale(deps)(actor, {
                items: [{ productId: product.right.id, quantity: o.quantity }],
                paymentMethod: 'CASH',
                amountPaid: paid,
                customerId: customer.right.id,
              });
              if (E.isLeft(r)) throw new Error(`sale refused: ${r.left._tag}`);
              sales.push(r.right.sale.id);
            } else if (o.kind === 'pay' && balance > 0) {
              const r = await recordCreditPayment(deps)(actor, customer.right.id, { amount: kobo(Math.max(1, Math.floor((balance * o.percent) / 100))), method: 'CASH' });
              if (E.isLeft(r)) throw new Error(`payment refused: ${r.left._tag}`);
            } else if (o.kind === 'overpay') {
              const r = await recordCreditPayment(deps)(actor, customer.right.id, { amount: kobo(balance + 1), method: 'TRANSFER' });
              expect(E.isLeft(r) && r.left._tag).to.equal('Overpayment');
            } else if (o.kind === 'void' && sales.length > 0) {
              await voidSale(deps)(actor, sales[o.pick % sales.length]!, 'property'); // a second void is refused, which is fine
            }
            const summary = await getCreditSummary(deps)(actor, customer.right.id);
            const entries = await listCreditTransactions(deps)(actor, customer.right.id, { sortBy: 'created_at', sortDir: 'desc', limit: 100 });
            const debts = await p.uow.read((r) => r.credit.openDebts(actor.businessId, customer.right.id));
            if (E.isLeft(summary) || E.isLeft(entries)) throw new Error('read failed');
            const ledgerSum = entries.right.items.reduce((n, e) => n + e.amount, 0);
            expect(summary.right.balance).to.equal(ledgerSum);
            expect(summary.right.balance).to.equal(debts.reduce((n, d) => n + d.outstanding, 0));
            expect(summary.right.balance).to.be.at.least(0);
            const newest = entries.right.items[0];
            if (newest) expect(newest.balanceAfter).to.equal(summary.right.balance);
            const aging = await agingReport(deps)(actor, { sortBy: 'total', sortDir: 'desc', limit: 10 });
            expect(aging.totals.total).to.equal(summary.right.balance);
          }
        }),
        { numRuns },
      );
    });
  });

property('in memory', async () => inMemory(), 60);
property('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }), 15);
