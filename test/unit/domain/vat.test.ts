import { expect } from 'chai';
import fc from 'fast-check';
import { kobo, MAX_KOBO, type Kobo } from '../../../domain/money.js';
import { amountsAsSold } from '../../../domain/sale-allocation.js';
import { netOfVat, priceSale, tendersOf, vatBreakdown, type PricedLineInput, type Sale } from '../../../domain/sale.js';
import { decideReturn } from '../../../domain/sale-return.js';
import * as E from 'fp-ts/lib/Either.js';
import {
  basisPointsToPercent, checkVatSettings, isVatMonth, lineCharge, lineNet, monthDays, percentToBasisPoints, TIN_PATTERN, vatFilingDueDate, vatOfLines, vatOn,
} from '../../../domain/vat.js';

const k = (n: number): Kobo => kobo(n);
const line = (unitPrice: number, quantity: number, discount = 0, vatRate?: number): PricedLineInput => ({
  productId: 'p', name: 'Rice', sku: 'RICE', quantity, unitPrice: k(unitPrice), discount: k(discount), costPrice: null, ...(vatRate === undefined ? {} : { vatRate }),
});

describe('VAT (domain/vat.ts, docs/adr/0054)', () => {
  it('vatOn: inclusive = amount x r / (10000 + r), exclusive = amount x r / 10000, half up to the kobo', () => {
    // 7.5 %: 10,750.00 inclusive holds 750.00; 10,000.00 exclusive adds 750.00
    expect(vatOn(k(1_075_000), 750, true)).to.equal(75_000);
    expect(vatOn(k(1_000_000), 750, false)).to.equal(75_000);
    // 9,000.00 inclusive: 900000 x 750 / 10750 = 62790.69... -> 62791
    expect(vatOn(k(900_000), 750, true)).to.equal(62_791);
    // half up at exactly .5: 2 kobo x 7.5 % = 0.15 -> 0; 20 kobo -> 1.5 -> 2 (exclusive); 10750 x 750 / 10750 = 750 exactly
    expect(vatOn(k(2), 750, false)).to.equal(0);
    expect(vatOn(k(20), 750, false)).to.equal(2);
    expect(vatOn(k(6), 2500, false)).to.equal(2); // 1.5 -> 2
    expect(vatOn(k(14), 2500, false)).to.equal(4); // 3.5 -> 4
    expect(vatOn(k(10_750), 750, true)).to.equal(750);
    // 0 rate (exempt), 0 amount, 100 %
    expect(vatOn(k(123_456), 0, true)).to.equal(0);
    expect(vatOn(k(0), 750, false)).to.equal(0);
    expect(vatOn(k(1_000), 10_000, true)).to.equal(500);
    expect(vatOn(k(MAX_KOBO), 10_000, false)).to.equal(MAX_KOBO);
    expect(() => vatOn(k(1), 10_001, true)).to.throw(RangeError);
    expect(() => vatOn(-1 as Kobo, 750, true)).to.throw(RangeError);
  });

  it('a line charges its amount as sold (inclusive) or that plus its VAT (exclusive); its net is the charge less the VAT', () => {
    expect([lineCharge(k(1_000), k(70), true), lineNet(k(1_000), k(70), true)]).to.deep.equal([1_000, 930]);
    expect([lineCharge(k(1_000), k(75), false), lineNet(k(1_000), k(75), false)]).to.deep.equal([1_075, 1_000]);
  });

  it('rates: a percentage with at most 2 decimals from 0 to 100 is basis points, exactly; anything else is not a rate', () => {
    expect([7.5, 0, 100, 0.01, 12.34, 5].map(percentToBasisPoints)).to.deep.equal([750, 0, 10_000, 1, 1234, 500]);
    for (const bad of [-1, 100.01, 7.555, 0.001, 1e300, Number.NaN, Infinity, 2 ** 53]) expect(percentToBasisPoints(bad), String(bad)).to.equal(undefined);
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000 }), (bp) => percentToBasisPoints(basisPointsToPercent(bp)) === bp));
  });

  it('a TIN is 12345678-0001 (FIRS) or 1234567890 (JTB); registering needs one', () => {
    for (const ok of ['12345678-0001', '1234567890']) expect(TIN_PATTERN.test(ok), ok).to.equal(true);
    for (const bad of ['1234567-0001', '123456789', '12345678901', '12345678_0001', 'ABCDEFGH-0001', '']) expect(TIN_PATTERN.test(bad), bad).to.equal(false);
    expect(checkVatSettings({ vatRegistered: true, tin: null })).to.deep.equal({ _tag: 'TinRequired' });
    expect(checkVatSettings({ vatRegistered: true, tin: '1234567890' })).to.equal(undefined);
    expect(checkVatSettings({ vatRegistered: false, tin: null })).to.equal(undefined);
  });

  it('a month is due on the 21st of the next; its days are its first to its last', () => {
    expect(vatFilingDueDate('2026-11')).to.equal('2026-12-21');
    expect(vatFilingDueDate('2026-12')).to.equal('2027-01-21');
    expect(monthDays('2028-02')).to.deep.equal({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthDays('2026-11')).to.deep.equal({ from: '2026-11-01', to: '2026-11-30' });
    expect(['2026-11', '0001-01', '9999-12'].every(isVatMonth)).to.equal(true);
    expect(['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', '0000-01'].some(isVatMonth)).to.equal(false);
  });

  it('a three-line sale with a sale discount, inclusive prices: by hand, to the kobo', () => {
    // lines 3 x 1,500.00 - 100.00 = 4,400.00; 2 x 2,150.00 = 4,300.00; 1 x 800.00 (exempt) = 800.00; subtotal 9,500.00; sale discount 950.00
    const priced = priceSale([line(150_000, 3, 10_000, 750), line(215_000, 2, 0, 750), line(80_000, 1, 0, 0)], k(95_000), 'CASH', undefined, undefined, { rate: 750, pricesIncludeVat: true });
    expect(priced.ok).to.equal(true);
    if (!priced.ok) return;
    const v = priced.value;
    // the discount falls on the lines by their totals: 44,000 / 43,000 / 8,000 kobo exactly
    expect(amountsAsSold(v.lines.map((l) => l.lineTotal), v.discount)).to.deep.equal([396_000, 387_000, 72_000]);
    // VAT in the prices: 396000 x 750 / 10750 = 27627.9 -> 27628; 387000 -> 27000 exactly; exempt 0
    expect(v.lines.map((l) => l.vat)).to.deep.equal([
      { rate: 750, amount: 27_628, net: 368_372 },
      { rate: 750, amount: 27_000, net: 360_000 },
      { rate: 0, amount: 0, net: 72_000 },
    ]);
    expect(v.vat).to.deep.equal({ pricesIncludeVat: true, total: 54_628 });
    expect([v.subtotal, v.discount, v.total, netOfVat(v)]).to.deep.equal([950_000, 95_000, 855_000, 800_372]);
    expect(vatBreakdown(v)).to.deep.equal([{ rate: 750, net: 728_372, vat: 54_628 }, { rate: 0, net: 72_000, vat: 0 }]);
  });

  it('the same sale, exclusive prices: the VAT is added, the total grows by it', () => {
    const priced = priceSale([line(150_000, 3, 10_000, 750), line(215_000, 2, 0, 750), line(80_000, 1, 0, 0)], k(95_000), 'CASH', undefined, undefined, { rate: 750, pricesIncludeVat: false });
    if (!priced.ok) throw new Error('refused');
    const v = priced.value;
    // 396000 x 7.5 % = 29700; 387000 x 7.5 % = 29025; exempt 0
    expect(v.lines.map((l) => l.vat)).to.deep.equal([
      { rate: 750, amount: 29_700, net: 396_000 },
      { rate: 750, amount: 29_025, net: 387_000 },
      { rate: 0, amount: 0, net: 72_000 },
    ]);
    expect(v.vat).to.deep.equal({ pricesIncludeVat: false, total: 58_725 });
    expect([v.subtotal, v.total, netOfVat(v), v.amountPaid, v.balanceDue]).to.deep.equal([950_000, 913_725, 855_000, 913_725, 0]);
  });

  it('without a VAT mode a sale is priced as before: no VAT anywhere', () => {
    const priced = priceSale([line(150_000, 3, 10_000)], k(5_000), 'CASH', undefined);
    if (!priced.ok) throw new Error('refused');
    expect(priced.value.vat).to.equal(undefined);
    expect(priced.value.lines[0]!.vat).to.equal(undefined);
    expect(vatBreakdown(priced.value)).to.deep.equal([]);
  });

  it('exclusive VAT that takes the total past the maximum is refused', () => {
    expect(priceSale([line(MAX_KOBO, 1, 0, 750)], k(0), 'CASH', undefined, undefined, { rate: 750, pricesIncludeVat: false })).to.deep.equal({ ok: false, failure: { _tag: 'AmountTooLarge' } });
    expect(priceSale([line(MAX_KOBO, 1, 0, 750)], k(0), 'CASH', undefined, undefined, { rate: 750, pricesIncludeVat: true }).ok).to.equal(true);
  });

  const aLine = fc
    .record({ unitPrice: fc.nat(2_000_000), quantity: fc.integer({ min: 1, max: 500 }), share: fc.double({ min: 0, max: 1, noNaN: true }), rate: fc.oneof(fc.constant(0), fc.constant(750), fc.integer({ min: 0, max: 10_000 })) })
    .map(({ unitPrice, quantity, share, rate }) => line(unitPrice, quantity, Math.floor(unitPrice * quantity * share), rate));
  const aSale = fc.record({ lines: fc.array(aLine, { minLength: 1, maxLength: 8 }), discountShare: fc.double({ min: 0, max: 1, noNaN: true }), inclusive: fc.boolean() });

  it('property: the lines\' VAT adds up to the sale\'s; subtotal (net) + vat_total = total; each line nets its charge; in both modes', () => {
    fc.assert(
      fc.property(aSale, ({ lines, discountShare, inclusive }) => {
        const sum = lines.reduce((n, l) => n + l.unitPrice * l.quantity - l.discount, 0);
        const discount = k(Math.floor(sum * discountShare));
        const priced = priceSale(lines, discount, 'CASH', undefined, undefined, { rate: 750, pricesIncludeVat: inclusive });
        if (!priced.ok) return priced.failure._tag === 'AmountTooLarge';
        const v = priced.value;
        const vats = v.lines.map((l) => l.vat!.amount);
        const nets = v.lines.map((l) => l.vat!.net);
        const sold = amountsAsSold(v.lines.map((l) => l.lineTotal), v.discount);
        const bands = vatBreakdown(v);
        return (
          vats.reduce((n, x) => n + x, 0) === v.vat!.total &&
          netOfVat(v) + v.vat!.total === v.total &&
          nets.reduce((n, x) => n + x, 0) === netOfVat(v) &&
          v.lines.every((l, i) => l.vat!.amount === vatOn(sold[i]!, l.vat!.rate, inclusive) && l.vat!.net + l.vat!.amount === lineCharge(sold[i]!, l.vat!.amount, inclusive)) &&
          v.total === (inclusive ? v.subtotal - v.discount : v.subtotal - v.discount + v.vat!.total) &&
          bands.reduce((n, b) => n + b.net + b.vat, 0) === v.total &&
          v.lines.every((l) => l.vat!.amount >= 0 && l.vat!.net >= 0)
        );
      }),
      { numRuns: 500 },
    );
  });

  it('property: vatOfLines is vatOn per line, summed', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(MAX_KOBO), fc.integer({ min: 0, max: 10_000 })), { minLength: 0, maxLength: 10 }), fc.boolean(), (xs, inclusive) => {
        const r = vatOfLines(xs.map(([a]) => k(a)), xs.map(([, rate]) => rate), inclusive);
        return r.lines.every((v, i) => v === vatOn(k(xs[i]![0]), xs[i]![1], inclusive)) && r.total === r.lines.reduce((n, v) => n + v, 0);
      }),
    );
  });

  it('property: half up is the nearest kobo (a VAT is never more than half a kobo from the exact value)', () => {
    fc.assert(
      fc.property(fc.nat(MAX_KOBO), fc.integer({ min: 0, max: 10_000 }), fc.boolean(), (a, rate, inclusive) => {
        const vat = BigInt(vatOn(k(a), rate, inclusive));
        const num = BigInt(a) * BigInt(rate);
        const den = inclusive ? 10_000n + BigInt(rate) : 10_000n;
        // |vat - num/den| <= 1/2, and exactly 1/2 rounds up
        const diff = 2n * (vat * den - num);
        return diff <= den && diff > -den;
      }),
    );
  });

  it('property: a VAT sale\'s line returned in any parts hands back exactly what it charged and exactly its VAT (docs/adr/0054, 0058)', () => {
    fc.assert(
      fc.property(aSale, fc.nat(7), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }), ({ lines, discountShare, inclusive }, pick, parts) => {
        const sum = lines.reduce((n, l) => n + l.unitPrice * l.quantity - l.discount, 0);
        const priced = priceSale(lines, k(Math.floor(sum * discountShare)), 'CASH', undefined, undefined, { rate: 750, pricesIncludeVat: inclusive });
        if (!priced.ok) return true;
        const v = priced.value;
        const sale: Sale = {
          ...v, id: 's', businessId: 'b', branchId: 'br', receiptNumber: 'RCP-000001', customerId: null, paymentMethod: 'CASH', payments: tendersOf('CASH', v.total, v.amountPaid),
          status: 'COMPLETED', note: null, createdBy: 'u', createdAt: new Date(0), voidedAt: null, voidReason: null, voidedBy: null, creditOutstanding: k(0), refundAmount: null,
          lines: v.lines.map((l, i) => ({ ...l, productId: `p${i}` })),
        };
        const at = pick % sale.lines.length;
        const line = sale.lines[at]!;
        const charged = amountsAsSold(sale.lines.map((l) => l.lineTotal), sale.discount)[at]! + (inclusive ? 0 : line.vat!.amount);
        let returned = 0;
        let amount = 0;
        let vat = 0;
        for (const part of parts) {
          const quantity = Math.min(part, line.quantity - returned);
          if (quantity === 0) break;
          const r = decideReturn({ sale, returnedBefore: new Map([[at, returned]]), movements: [] }, { items: [{ productId: line.productId, quantity }], restock: false, refundMethod: 'CASH' });
          if (E.isLeft(r)) return false;
          amount += r.right.amount;
          vat += r.right.vatAmount;
          if (r.right.vatAmount > r.right.amount) return false;
          returned += quantity;
        }
        // never more than the line charged; exactly it once every unit is back
        if (amount > charged || vat > line.vat!.amount) return false;
        if (returned < line.quantity) {
          const rest = decideReturn({ sale, returnedBefore: new Map([[at, returned]]), movements: [] }, { items: [{ productId: line.productId, quantity: line.quantity - returned }], restock: false, refundMethod: 'CASH' });
          if (E.isLeft(rest)) return false;
          amount += rest.right.amount;
          vat += rest.right.vatAmount;
        }
        return amount === charged && vat === line.vat!.amount;
      }),
      { numRuns: 300 },
    );
  });
});
