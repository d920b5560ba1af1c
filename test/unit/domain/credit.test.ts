import { expect } from 'chai';
import fc from 'fast-check';
import { allocateOldestFirst, exceedsCreditLimit, type OpenDebt } from '../../../domain/credit.js';
import { kobo } from '../../../domain/money.js';

const debt = (saleId: string, outstanding: number): OpenDebt => ({ saleId, outstanding: kobo(outstanding), createdAt: new Date(0) });

describe('credit (domain/credit.ts)', () => {
  it('a payment settles the oldest debt first, then the next', () => {
    const debts = [debt('a', 300), debt('b', 500), debt('c', 200)];
    expect(allocateOldestFirst(debts, kobo(600))).to.deep.equal([
      { saleId: 'a', amount: 300 },
      { saleId: 'b', amount: 300 },
    ]);
    expect(allocateOldestFirst(debts, kobo(1000))).to.deep.equal([
      { saleId: 'a', amount: 300 },
      { saleId: 'b', amount: 500 },
      { saleId: 'c', amount: 200 },
    ]);
  });

  it('skips debts already settled and allocates nothing for nothing', () => {
    expect(allocateOldestFirst([debt('a', 0), debt('b', 50)], kobo(20))).to.deep.equal([{ saleId: 'b', amount: 20 }]);
    expect(allocateOldestFirst([debt('a', 10)], kobo(0))).to.deep.equal([]);
  });

  it('for any debts and payment: allocates min(payment, owed), never more than a debt, in the debts order, each part positive', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000_000), { maxLength: 20 }), fc.nat(30_000_000), (owed, payment) => {
        const debts = owed.map((o, i) => debt(`s${i}`, o));
        const out = allocateOldestFirst(debts, kobo(payment));
        const total = out.reduce((s, a) => s + a.amount, 0);
        const owedTotal = owed.reduce((s, o) => s + o, 0);
        const order = out.map((a) => Number(a.saleId.slice(1)));
        return (
          total === Math.min(payment, owedTotal) &&
          out.every((a) => a.amount > 0 && a.amount <= debts[Number(a.saleId.slice(1))]!.outstanding) &&
          order.every((n, i) => i === 0 || n > order[i - 1]!) &&
          // only the last debt touched may be part-paid: every earlier one is settled in full
          out.slice(0, -1).every((a) => a.amount === debts[Number(a.saleId.slice(1))]!.outstanding)
        );
      }),
    );
  });

  it('a credit limit is checked only when the customer has one', () => {
    expect(exceedsCreditLimit(kobo(100), null, kobo(10 ** 9))).to.equal(false);
    expect(exceedsCreditLimit(kobo(100), kobo(150), kobo(50))).to.equal(false);
    expect(exceedsCreditLimit(kobo(100), kobo(150), kobo(51))).to.equal(true);
  });
});
