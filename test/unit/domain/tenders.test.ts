import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { kobo, type Kobo } from '../../../domain/money.js';
import { checkSettlement, checkTenders, priceSplitSale, tendersOf, type PricedLineInput, type Tender } from '../../../domain/sale.js';
import { decideSale, type SaleFacts } from '../../../domain/sale-decision.js';

const k = (n: number): Kobo => kobo(n);
const line = (unitPrice: number, quantity = 1): PricedLineInput => ({ productId: 'p', name: 'Rice', sku: 'RICE', quantity, unitPrice: k(unitPrice), discount: k(0), costPrice: null });
const t = (method: Tender['method'], amount: number): Tender => ({ method, amount: k(amount) });

describe('split payments (domain/sale.ts, docs/adr/0055)', () => {
  it('the old shape as tenders: paid by its method (a CREDIT deposit by CASH), then the rest as CREDIT; a sale of 0 is one tender of 0', () => {
    expect(tendersOf('CASH', k(5_000), k(5_000))).to.deep.equal([t('CASH', 5_000)]);
    expect(tendersOf('TRANSFER', k(5_000), k(2_000))).to.deep.equal([t('TRANSFER', 2_000), t('CREDIT', 3_000)]);
    expect(tendersOf('CREDIT', k(5_000), k(0))).to.deep.equal([t('CREDIT', 5_000)]);
    expect(tendersOf('CREDIT', k(5_000), k(1_000))).to.deep.equal([t('CASH', 1_000), t('CREDIT', 4_000)]);
    expect(tendersOf('POS', k(0), k(0))).to.deep.equal([t('POS', 0)]);
    fc.assert(
      fc.property(fc.constantFrom('CASH', 'TRANSFER', 'CARD', 'POS', 'CREDIT' as const), fc.nat(1e9), fc.nat(1e9), (method, a, b) => {
        const [total, paid] = a >= b ? [a, b] : [b, a];
        const tenders = tendersOf(method, k(total), k(paid));
        return tenders.reduce((n, x) => n + x.amount, 0) === total && tenders.filter((x) => x.method !== 'CREDIT').reduce((n, x) => n + x.amount, 0) === paid;
      }),
    );
  });

  it('a settlement is payment_method or payments, not both nor neither; 1 to 4 tenders, each method once; amount_tendered needs a CASH tender', () => {
    expect(checkSettlement({ paymentMethod: 'CASH' })).to.equal(undefined);
    expect(checkSettlement({})).to.deep.include({ field: 'payment_method' });
    expect(checkSettlement({ paymentMethod: 'CASH', payments: [t('CASH', 1)] })).to.deep.include({ field: 'payments' });
    expect(checkSettlement({ payments: [t('CASH', 1)], amountPaid: k(1) })).to.deep.include({ field: 'amount_paid' });
    expect(checkTenders([], undefined)).to.deep.include({ field: 'payments' });
    expect(checkTenders([t('CASH', 1), t('TRANSFER', 1), t('CARD', 1), t('POS', 1), t('CREDIT', 1)], undefined)).to.deep.include({ field: 'payments' });
    expect(checkTenders([t('CASH', 1), t('TRANSFER', 1), t('CASH', 2)], undefined)).to.deep.include({ field: 'payments.2.method' });
    expect(checkTenders([t('TRANSFER', 1)], k(5))).to.deep.include({ field: 'amount_tendered' });
    expect(checkTenders([t('TRANSFER', 1), t('CASH', 4)], k(5))).to.equal(undefined);
  });

  it('tenders add up to the total exactly; the CASH tender takes the cash handed over and gives the change', () => {
    const sale = priceSplitSale([line(300_000), line(200_000)], k(0), [t('CASH', 300_000), t('TRANSFER', 200_000)], k(500_000), null);
    expect(sale.ok && sale.value).to.include({ total: 500_000, amountPaid: 500_000, amountTendered: 500_000, changeDue: 200_000, balanceDue: 0 });
    expect(priceSplitSale([line(300_000)], k(0), [t('CASH', 100_000), t('POS', 100_000)], undefined, null)).to.deep.equal({
      ok: false, failure: { _tag: 'PaymentsDoNotMatchTotal', total: 300_000, paid: 200_000 },
    });
    expect(priceSplitSale([line(300_000)], k(0), [t('CASH', 200_000), t('CARD', 200_000)], undefined, null)).to.deep.equal({
      ok: false, failure: { _tag: 'PaymentsDoNotMatchTotal', total: 300_000, paid: 400_000 },
    });
    expect(priceSplitSale([line(300_000)], k(0), [t('CASH', 200_000), t('CARD', 100_000)], k(150_000), null)).to.deep.equal({
      ok: false, failure: { _tag: 'AmountTenderedTooSmall', amountPaid: 200_000, short: 'cash' },
    });
    // CREDIT is what is left owed
    const credit = priceSplitSale([line(300_000)], k(0), [t('TRANSFER', 100_000), t('CREDIT', 200_000)], undefined, null);
    expect(credit.ok && credit.value).to.include({ amountPaid: 100_000, balanceDue: 200_000, amountTendered: null, changeDue: null });
    // with exclusive VAT the tenders add up to the total VAT included
    const vat = priceSplitSale([line(100_000)], k(0), [t('CASH', 7_500), t('CARD', 100_000)], undefined, { rate: 750, pricesIncludeVat: false });
    expect(vat.ok && vat.value).to.include({ total: 107_500, amountPaid: 107_500 });
  });

  it('decideSale: the first tender names the method; a CREDIT tender needs a customer; the old shape gets its tenders', () => {
    const facts: SaleFacts = {
      branch: { id: 'b', name: 'Main' }, customerKnown: true, provisionalTaken: false,
      products: [{ id: 'p', name: 'Rice', sku: 'RICE', price: k(1_000), costPrice: null, type: 'PRODUCT', archivedAt: null }],
    };
    const items = [{ productId: 'p', quantity: 3 }];
    const split = decideSale(facts, { items, payments: [t('TRANSFER', 1_000), t('CASH', 2_000)] });
    expect(E.isRight(split) && [split.right.paymentMethod, split.right.payments]).to.deep.equal(['TRANSFER', [t('TRANSFER', 1_000), t('CASH', 2_000)]]);
    expect(decideSale(facts, { items, payments: [t('CASH', 1_000), t('CREDIT', 2_000)] })).to.deep.equal(E.left({ _tag: 'CustomerRequired' }));
    const owed = decideSale(facts, { items, payments: [t('CASH', 1_000), t('CREDIT', 2_000)], customerId: 'c' });
    expect(E.isRight(owed) && owed.right.priced).to.include({ amountPaid: 1_000, balanceDue: 2_000 });
    const old = decideSale(facts, { items, paymentMethod: 'CREDIT', amountPaid: k(500), customerId: 'c' });
    expect(E.isRight(old) && old.right.payments).to.deep.equal([t('CASH', 500), t('CREDIT', 2_500)]);
  });
});
