import { expect } from 'chai';
import fc from 'fast-check';
import { kobo } from '../../../domain/money.js';
import { allocateSaleDiscount, amountsAsSold, shareOfReturn } from '../../../domain/sale-allocation.js';

describe('a sale discount on its lines and a return\'s share (domain/sale-allocation.ts)', () => {
  it('shares the discount by line total; the leftover kobo go to the largest remainders', () => {
    // 100 off 300 + 300 + 300: 33.33 each, the first line takes the leftover kobo
    expect(allocateSaleDiscount([kobo(300), kobo(300), kobo(300)], kobo(100))).to.deep.equal([34, 33, 33]);
    expect(allocateSaleDiscount([kobo(1000), kobo(3000)], kobo(100))).to.deep.equal([25, 75]);
    expect(amountsAsSold([kobo(1000), kobo(3000)], kobo(100))).to.deep.equal([975, 2925]);
    expect(allocateSaleDiscount([kobo(0), kobo(500)], kobo(500))).to.deep.equal([0, 500]);
    expect(allocateSaleDiscount([kobo(500)], kobo(0))).to.deep.equal([0]);
  });

  it('refuses a discount larger than the lines', () => {
    expect(() => allocateSaleDiscount([kobo(5)], kobo(6))).to.throw(RangeError);
  });

  it('the shares add up to the discount, none beyond its line (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10 ** 12 }), { minLength: 1, maxLength: 20 }), fc.double({ min: 0, max: 1, noNaN: true }), (totals, f) => {
        const sum = totals.reduce((n, t) => n + t, 0);
        const discount = Math.floor(sum * f);
        const shares = allocateSaleDiscount(totals.map(kobo), kobo(discount));
        expect(shares.reduce((n, s) => n + s, 0)).to.equal(discount);
        shares.forEach((s, i) => expect(s).to.be.within(0, totals[i]!));
      }),
    );
  });

  it('a return takes its share counted cumulatively; the last one takes the remainder', () => {
    // 1000 kobo for 3 units, returned 1 then 2: 333 then 667
    expect(shareOfReturn(kobo(1000), 3, 0, 1)).to.equal(333);
    expect(shareOfReturn(kobo(1000), 3, 1, 2)).to.equal(667);
    expect(shareOfReturn(kobo(1000), 3, 0, 3)).to.equal(1000);
    expect(() => shareOfReturn(kobo(1000), 3, 2, 2)).to.throw(RangeError);
  });

  it('returns of a line in any parts add up to the line exactly (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }), (amount, parts) => {
        const sold = parts.reduce((n, p) => n + p, 0);
        let before = 0;
        let refunded = 0;
        for (const p of parts) {
          refunded += shareOfReturn(kobo(amount), sold, before, p);
          before += p;
        }
        expect(refunded).to.equal(amount);
      }),
    );
  });
});
