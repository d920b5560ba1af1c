import { expect } from 'chai';
import fc from 'fast-check';
import { checkAmounts, checkPayment, checkPrices, checkQuantities, checkQuantityChange } from '../../../domain/amount-rules.js';
import { checkCreditLimit } from '../../../domain/customer.js';
import { kobo } from '../../../domain/money.js';
import { checkSaleAmounts } from '../../../domain/sale.js';

describe('money and quantity rules (domain/amount-rules.ts)', () => {
  it('prices and amounts: 0 or more; the fields below zero are named in the order given; absent or null values pass', () => {
    expect(checkPrices([['price', 0], ['costPrice', null], ['unitCost', undefined]])).to.equal(undefined);
    expect(checkPrices([['price', -1], ['costPrice', 5], ['unitCost', -2]])).to.deep.equal({ _tag: 'NegativePrice', fields: ['price', 'unitCost'] });
    expect(checkAmounts([['discount', -1]])).to.deep.equal({ _tag: 'NegativeAmount', fields: ['discount'] });
    fc.assert(fc.property(fc.integer(), (n) => (checkAmounts([['x', n]]) === undefined) === n >= 0));
  });

  it('a payment is more than zero', () => {
    expect(checkPayment('amount', 1)).to.equal(undefined);
    expect(checkPayment('amount', 0)).to.deep.equal({ _tag: 'AmountNotPositive', field: 'amount' });
    fc.assert(fc.property(fc.integer(), (n) => (checkPayment('amount', n) === undefined) === n > 0));
  });

  it('quantities sold are whole numbers of at least one; a stock change is a whole number other than zero', () => {
    expect(checkQuantities([['a', 1], ['b', 0], ['c', 1.5], ['d', -2]])).to.deep.equal({ _tag: 'QuantityNotPositive', fields: ['b', 'c', 'd'] });
    expect(checkQuantityChange('change', -3)).to.equal(undefined);
    expect(checkQuantityChange('change', 0)).to.deep.equal({ _tag: 'ZeroQuantityChange', field: 'change' });
    expect(checkQuantityChange('change', 0.5)).to.deep.equal({ _tag: 'ZeroQuantityChange', field: 'change' });
  });

  it('a credit limit is 0 or more, or none', () => {
    expect(checkCreditLimit(null)).to.equal(undefined);
    expect(checkCreditLimit(kobo(0))).to.equal(undefined);
    expect(checkCreditLimit(kobo(-1))).to.deep.equal({ _tag: 'NegativeAmount', fields: ['creditLimit'] });
  });

  it("a sale: a negative unit price first, then negative amounts (paid, tendered, discount, line discounts), then quantities", () => {
    const line = { quantity: 1 };
    expect(checkSaleAmounts({ items: [line] })).to.equal(undefined);
    expect(checkSaleAmounts({ items: [{ quantity: 0, unitPrice: kobo(-1), discount: kobo(-1) }], discount: kobo(-1) })).to.deep.equal({
      _tag: 'NegativePrice',
      fields: ['items.0.unitPrice'],
    });
    expect(
      checkSaleAmounts({ items: [line, { quantity: 0, discount: kobo(-5) }], discount: kobo(-1), amountPaid: kobo(-2), amountTendered: kobo(3) }),
    ).to.deep.equal({ _tag: 'NegativeAmount', fields: ['amountPaid', 'discount', 'items.1.discount'] });
    expect(checkSaleAmounts({ items: [line, { quantity: 0 }] })).to.deep.equal({ _tag: 'QuantityNotPositive', fields: ['items.1.quantity'] });
  });
});
