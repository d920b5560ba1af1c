import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { kobo, type Kobo } from '../../../domain/money.js';
import type { Sale, SaleLine } from '../../../domain/sale.js';
import { amountsAsSold } from '../../../domain/sale-allocation.js';
import { checkReturnQuantities, decideReturn, formatReturnNumber, owedAfterCredit, type ReturnFacts, type ReturnPlan, type ReturnRequest } from '../../../domain/sale-return.js';
import { aSale } from '../../support/builders.js';

// Issue 34: a return of part of a sale decided from facts, without adapters (docs/adr/0058, 0059).

const t = { business: { id: 'biz' }, branch: { id: 'branch-1' }, user: { id: 'owner' } };
const line = (productId: string, quantity: number, lineTotal: number, o: Partial<SaleLine> = {}): SaleLine => ({
  productId, name: `name-${productId}`, sku: `SKU-${productId}`, quantity, unitPrice: kobo(Math.ceil(lineTotal / quantity)), discount: kobo(0), lineTotal: kobo(lineTotal), costPrice: null, ...o,
});
const saleOf = (lines: SaleLine[], o: Partial<Sale> = {}): Sale => {
  const subtotal = lines.reduce((n, l) => n + l.lineTotal, 0);
  const discount = o.discount ?? kobo(0);
  return { ...aSale(t, 'x'), receiptNumber: 'RCP-000001', lines, subtotal: kobo(subtotal), total: kobo(subtotal - discount), amountPaid: kobo(subtotal - discount), ...o };
};
const stocked = (...ids: string[]) => ids.map((productId) => ({ productId, reason: 'SALE' as const }));
const facts = (sale: Sale, o: Partial<ReturnFacts> = {}): ReturnFacts => ({ sale, returnedBefore: new Map(), movements: stocked(...new Set(sale.lines.map((l) => l.productId))), ...o });
const cash = (items: ReturnRequest['items'], o: Partial<ReturnRequest> = {}): ReturnRequest => ({ items, restock: true, refundMethod: 'CASH', ...o });
const planOf = (r: E.Either<unknown, ReturnPlan>): ReturnPlan => {
  if (E.isLeft(r)) throw new Error(`refused: ${JSON.stringify(r.left)}`);
  return r.right;
};

describe('decideReturn (domain/sale-return.ts)', () => {
  const sale = saleOf([line('a', 3, 300_000), line('b', 3, 99_998), line('svc', 1, 50_000)], { discount: kobo(10_000) });

  it('refuses in order: a voided sale, products the sale did not sell, a credit note without a customer, more than is left', () => {
    const voided = { ...sale, status: 'VOIDED' as const };
    expect(decideReturn(facts(voided), cash([{ productId: 'zzz', quantity: 9 }]))).to.deep.equal(E.left({ _tag: 'SaleAlreadyVoided' }));
    expect(decideReturn(facts(sale), cash([{ productId: 'a', quantity: 1 }, { productId: 'zzz', quantity: 1 }, { productId: 'yyy', quantity: 1 }]))).to.deep.equal(E.left({ _tag: 'ProductNotInSale', indexes: [1, 2] }));
    expect(decideReturn(facts(sale), cash([{ productId: 'a', quantity: 9 }], { refundMethod: 'CREDIT_NOTE' }))).to.deep.equal(E.left({ _tag: 'CreditNoteNeedsCustomer' }));
    expect(decideReturn(facts(sale, { returnedBefore: new Map([[0, 2]]) }), cash([{ productId: 'b', quantity: 1 }, { productId: 'a', quantity: 1 }, { productId: 'a', quantity: 1 }]))).to.deep.equal(
      E.left({ _tag: 'ReturnExceedsSold', index: 1, productId: 'a', name: 'name-a', sold: 3, returned: 2, requested: 2 }),
    );
  });

  it('each line is worth its share of what it was sold for, after the sale discount; the last return takes the remainder', () => {
    // the hand-worked sale of test/http/returns.http.test.ts: sold for 293333, 97776 and 48889
    expect(amountsAsSold(sale.lines.map((l) => l.lineTotal), sale.discount)).to.deep.equal([293_333, 97_776, 48_889]);
    const first = planOf(decideReturn(facts(sale), cash([{ productId: 'a', quantity: 1 }, { productId: 'b', quantity: 1 }])));
    expect(first.lines.map((l) => [l.position, l.quantity, l.amount, l.lineAmount])).to.deep.equal([[0, 1, 97_777, 100_000], [1, 1, 32_592, 33_332]]);
    expect(first).to.include({ amount: 130_369, debtReduced: 0, refundAmount: 130_369, vatAmount: 0 });
    const second = planOf(decideReturn(facts(sale, { returnedBefore: new Map([[0, 1], [1, 1]]) }), cash([{ productId: 'a', quantity: 2 }])));
    expect(second.lines[0]).to.include({ amount: 195_556, lineAmount: 200_000 });
    expect(97_777 + 195_556).to.equal(293_333);
  });

  it('a product on two lines is returned from its first line first; items naming it add up', () => {
    const two = saleOf([line('a', 2, 2_000), line('b', 1, 500), line('a', 3, 2_400)]);
    const plan = planOf(decideReturn(facts(two, { returnedBefore: new Map([[0, 1]]) }), cash([{ productId: 'a', quantity: 2 }, { productId: 'a', quantity: 1 }])));
    expect(plan.lines.map((l) => [l.position, l.quantity, l.amount])).to.deep.equal([[0, 1, 1_000], [2, 2, 1_600]]);
    expect(plan.restocks).to.deep.equal([{ productId: 'a', quantity: 3 }]);
  });

  it('restocks stocked products only (a service took no stock), in product id order; restock false moves nothing and gives no cost back', () => {
    const s = saleOf([line('b', 2, 2_000, { costPrice: kobo(600) }), line('svc', 1, 500, { costPrice: kobo(100) }), line('a', 1, 700, { costPrice: null })]);
    const f = facts(s, { movements: stocked('b', 'a') });
    const all = cash([{ productId: 'svc', quantity: 1 }, { productId: 'b', quantity: 2 }, { productId: 'a', quantity: 1 }]);
    const back = planOf(decideReturn(f, all));
    expect(back.restocks).to.deep.equal([{ productId: 'a', quantity: 1 }, { productId: 'b', quantity: 2 }]);
    expect(back.lines.map((l) => [l.productId, l.costReturned])).to.deep.equal([['b', 1_200], ['svc', 100], ['a', 0]]);
    expect(back.costReturned).to.equal(1_300);
    const damaged = planOf(decideReturn(f, { ...all, restock: false }));
    expect(damaged.restocks).to.deep.equal([]);
    expect(damaged.costReturned).to.equal(0);
    expect(damaged.amount).to.equal(back.amount);
  });

  it('clears what the customer still owes on the sale first; only the rest is refunded', () => {
    const credit = saleOf([line('a', 4, 10_000)], { customerId: 'c', paymentMethod: 'CREDIT', amountPaid: kobo(3_000), balanceDue: kobo(7_000), creditOutstanding: kobo(7_000) });
    expect(planOf(decideReturn(facts(credit), cash([{ productId: 'a', quantity: 2 }])))).to.include({ amount: 5_000, debtReduced: 5_000, refundAmount: 0 });
    const rest = planOf(decideReturn(facts({ ...credit, creditOutstanding: kobo(2_000) }, { returnedBefore: new Map([[0, 2]]) }), cash([{ productId: 'a', quantity: 2 }], { refundMethod: 'CREDIT_NOTE' })));
    expect(rest).to.include({ amount: 5_000, debtReduced: 2_000, refundAmount: 3_000 });
  });

  it('property: however a sale is returned, in however many parts, each line comes back exactly as sold and never more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 9 }), total: fc.integer({ min: 0, max: 1_000_000_000 }) }), { minLength: 1, maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 1_000 }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (ls, discountShare, picks, owedShare) => {
          const lines = ls.map((l, i) => line(`p${i}`, l.quantity, l.total));
          const subtotal = lines.reduce((n, l) => n + l.lineTotal, 0);
          const s = saleOf(lines, { discount: kobo(Math.floor(subtotal * discountShare)), customerId: 'c' });
          let owed: Kobo = kobo(Math.floor(s.total * owedShare));
          const asSold = amountsAsSold(lines.map((l) => l.lineTotal), s.discount);
          const returned = new Map<number, number>();
          const amounts = new Map<number, number>();
          let refunded = 0;
          let cleared = 0;
          for (const pick of picks) {
            const i = pick % lines.length;
            const left = lines[i]!.quantity - (returned.get(i) ?? 0);
            if (left === 0) {
              expect(E.isLeft(decideReturn(facts({ ...s, creditOutstanding: owed }, { returnedBefore: new Map(returned) }), cash([{ productId: `p${i}`, quantity: 1 }])))).to.equal(true);
              continue;
            }
            const quantity = 1 + (pick % left);
            const plan = planOf(decideReturn(facts({ ...s, creditOutstanding: owed }, { returnedBefore: new Map(returned) }), cash([{ productId: `p${i}`, quantity }])));
            expect(plan.amount).to.equal(plan.debtReduced + plan.refundAmount);
            expect(plan.debtReduced).to.be.at.most(owed);
            owed = kobo(owed - plan.debtReduced);
            refunded += plan.refundAmount;
            cleared += plan.debtReduced;
            returned.set(i, (returned.get(i) ?? 0) + quantity);
            amounts.set(i, (amounts.get(i) ?? 0) + plan.amount);
            expect(amounts.get(i)!).to.be.at.most(asSold[i]!);
          }
          // return what is left of every line: each adds up to what it was sold for, exactly
          const rest = lines.flatMap((l, i) => (l.quantity - (returned.get(i) ?? 0) > 0 ? [{ productId: `p${i}`, quantity: l.quantity - (returned.get(i) ?? 0) }] : []));
          if (rest.length > 0) {
            const plan = planOf(decideReturn(facts({ ...s, creditOutstanding: owed }, { returnedBefore: new Map(returned) }), cash(rest)));
            for (const l of plan.lines) amounts.set(l.position, (amounts.get(l.position) ?? 0) + l.amount);
            refunded += plan.refundAmount;
            cleared += plan.debtReduced;
          }
          expect(lines.map((_, i) => amounts.get(i) ?? 0)).to.deep.equal(asSold);
          expect(refunded + cleared).to.equal(s.total);
          expect(cleared).to.equal(Math.floor(s.total * owedShare));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('quantities are whole numbers of at least one; numbers are RTN- and six digits at least', () => {
    expect(checkReturnQuantities({ items: [{ productId: 'a', quantity: 1 }, { productId: 'a', quantity: 0 }, { productId: 'a', quantity: 1.5 }, { productId: 'a', quantity: -1 }] })).to.deep.equal({
      _tag: 'QuantityNotPositive',
      fields: ['items.1.quantity', 'items.2.quantity', 'items.3.quantity'],
    });
    expect(checkReturnQuantities({ items: [{ productId: 'a', quantity: 1 }] })).to.equal(undefined);
    expect([formatReturnNumber(1), formatReturnNumber(1_234_567)]).to.deep.equal(['RTN-000001', 'RTN-1234567']);
  });

  it('a credit note the customer holds pays a credit sale first (docs/adr/0059)', () => {
    expect(owedAfterCredit({ creditBalance: kobo(-2_000) }, kobo(1_500))).to.equal(0);
    expect(owedAfterCredit({ creditBalance: kobo(-500) }, kobo(1_500))).to.equal(1_000);
    expect(owedAfterCredit({ creditBalance: kobo(300) }, kobo(1_500))).to.equal(1_500);
    expect(owedAfterCredit({ creditBalance: kobo(0) }, kobo(0))).to.equal(0);
  });
});
