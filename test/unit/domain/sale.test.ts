import { expect } from 'chai';
import fc from 'fast-check';
import { kobo, MAX_KOBO, type Kobo } from '../../../domain/money.js';
import { isCreditSale, priceSale, type PricedLineInput } from '../../../domain/sale.js';

const line = (unitPrice: number, quantity: number, discount = 0): PricedLineInput => ({
  productId: 'p',
  name: 'Rice',
  sku: 'RICE',
  quantity,
  unitPrice: kobo(unitPrice),
  discount: kobo(discount),
  costPrice: null,
});
const k = (n: number): Kobo => kobo(n);

/** A line whose discount fits it. */
const aLine = fc
  .record({ unitPrice: fc.nat(1_000_000), quantity: fc.integer({ min: 1, max: 1000 }), share: fc.double({ min: 0, max: 1, noNaN: true }) })
  .map(({ unitPrice, quantity, share }) => line(unitPrice, quantity, Math.floor(unitPrice * quantity * share)));

describe('priceSale (domain/sale.ts)', () => {
  it('line total = unit price x quantity - line discount; total = subtotal - sale discount; paid in full by default', () => {
    const r = priceSale([line(150_000, 2, 10_000), line(50_000, 1)], k(5_000), 'CASH', undefined);
    expect(r).to.deep.equal({
      ok: true,
      value: {
        lines: [
          { ...line(150_000, 2, 10_000), lineTotal: 290_000 },
          { ...line(50_000, 1), lineTotal: 50_000 },
        ],
        subtotal: 340_000,
        discount: 5_000,
        lineDiscountTotal: 10_000,
        total: 335_000,
        amountPaid: 335_000,
        amountTendered: null,
        changeDue: null,
        balanceDue: 0,
      },
    });
  });

  it('CREDIT defaults to nothing paid; cash tendered defaults the amount paid to the smaller of it and the total', () => {
    const credit = priceSale([line(1000, 1)], k(0), 'CREDIT', undefined);
    expect(credit.ok && credit.value).to.include({ amountPaid: 0, balanceDue: 1000 });
    const change = priceSale([line(1000, 1)], k(0), 'CASH', undefined, k(5000));
    expect(change.ok && change.value).to.include({ amountPaid: 1000, amountTendered: 5000, changeDue: 4000, balanceDue: 0 });
    const short = priceSale([line(1000, 1)], k(0), 'CASH', undefined, k(400));
    expect(short.ok && short.value).to.include({ amountPaid: 400, changeDue: 0, balanceDue: 600 });
  });

  it('refuses a discount larger than its line or the sale, paying more than the total, tendering less than is paid, and a sale past the maximum', () => {
    expect(priceSale([line(100, 1), line(100, 2, 201)], k(0), 'CASH', undefined)).to.deep.equal({ ok: false, failure: { _tag: 'LineDiscountTooLarge', index: 1 } });
    expect(priceSale([line(100, 1)], k(101), 'CASH', undefined)).to.deep.equal({ ok: false, failure: { _tag: 'SaleDiscountTooLarge' } });
    expect(priceSale([line(100, 1)], k(0), 'CASH', k(101))).to.deep.equal({ ok: false, failure: { _tag: 'AmountPaidExceedsTotal' } });
    expect(priceSale([line(100, 1)], k(0), 'CASH', k(100), k(99))).to.deep.equal({ ok: false, failure: { _tag: 'AmountTenderedTooSmall', amountPaid: 100 } });
    expect(priceSale([line(MAX_KOBO, 2)], k(0), 'CASH', undefined)).to.deep.equal({ ok: false, failure: { _tag: 'AmountTooLarge' } });
    expect(priceSale([line(MAX_KOBO, 1), line(1, 1)], k(0), 'CASH', undefined)).to.deep.equal({ ok: false, failure: { _tag: 'AmountTooLarge' } });
  });

  it('for any cart it prices: the sums hold in whole kobo, nothing paid exceeds the total, and change is what tendered exceeds paid', () => {
    fc.assert(
      fc.property(
        fc.array(aLine, { minLength: 1, maxLength: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('CASH', 'TRANSFER', 'CARD', 'CREDIT' as const),
        fc.option(fc.nat(20_000_000_000), { nil: undefined }),
        (lines, discountShare, method, tendered) => {
          const subtotal = lines.reduce((s, l) => s + l.unitPrice * l.quantity - l.discount, 0);
          const r = priceSale(lines, k(Math.floor(subtotal * discountShare)), method, undefined, tendered === undefined ? undefined : k(tendered));
          if (!r.ok) return false; // every generated cart is valid
          const v = r.value;
          return (
            v.lines.every((l) => Number.isSafeInteger(l.lineTotal) && l.lineTotal === l.unitPrice * l.quantity - l.discount && l.lineTotal >= 0) &&
            v.subtotal === subtotal &&
            v.total === v.subtotal - v.discount &&
            v.total >= 0 &&
            v.lineDiscountTotal === lines.reduce((s, l) => s + l.discount, 0) &&
            v.amountPaid >= 0 &&
            v.amountPaid <= v.total &&
            v.balanceDue === v.total - v.amountPaid &&
            (tendered === undefined ? v.changeDue === null : v.changeDue === tendered - v.amountPaid && v.changeDue >= 0) &&
            isCreditSale(method, v.balanceDue) === (method === 'CREDIT' || v.balanceDue > 0)
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an explicit amount paid is kept whatever the method, when it fits the total', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 50 }), fc.double({ min: 0, max: 1, noNaN: true }), (price, qty, share) => {
        const total = price * qty;
        const paid = Math.floor(total * share);
        const r = priceSale([line(price, qty)], k(0), 'CREDIT', k(paid));
        return r.ok && r.value.amountPaid === paid && r.value.balanceDue === total - paid;
      }),
    );
  });
});
