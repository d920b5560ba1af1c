import { expect } from 'chai';
import { addDays, decidePayment, formatInvoiceNumber, isOverdue, priceInvoice, seriesOf } from '../../../domain/invoice.js';
import { kobo } from '../../../domain/money.js';

// The invoice rules (docs/adr/0072): pricing with the one VAT rule, payments, overdue, numbers.

const products = new Map([
  ['rice', { name: 'Rice', price: kobo(100_000), vatExempt: true }],
  ['paper', { name: 'Paper', price: kobo(333_333), vatExempt: false }],
]);

describe('invoices (domain)', () => {
  it('prices lines: line_total = qty x price - discount; VAT per line, inclusive or added; subtotal = total - VAT', () => {
    const lines = [{ productId: 'paper', quantity: 3 }, { productId: 'rice', quantity: 1, discount: kobo(1) }, { description: 'Delivery', quantity: 1, unitPrice: kobo(50_000) }];
    const incl = priceInvoice(lines, products, { rate: 750, pricesIncludeVat: true });
    if (!incl.ok) throw new Error('refused');
    // 999,999 x 750 / 10,750 = 69,767.37 -> 69,767; delivery 50,000 x 750 / 10,750 = 3,488.37 -> 3,488
    expect(incl.value.lines.map((l) => [l.lineTotal, l.vatRate, l.vatAmount])).to.deep.equal([[999_999, 750, 69_767], [99_999, 0, 0], [50_000, 750, 3_488]]);
    expect(incl.value).to.include({ total: 1_149_998, vatTotal: 73_255, subtotal: 1_076_743, discountTotal: 1 });
    const excl = priceInvoice(lines, products, { rate: 750, pricesIncludeVat: false });
    if (!excl.ok) throw new Error('refused');
    // 999,999 x 0.075 = 74,999.925 -> 75,000; 50,000 x 0.075 = 3,750
    expect(excl.value).to.include({ vatTotal: 78_750, total: 1_149_998 + 78_750, subtotal: 1_149_998 });
    const none = priceInvoice(lines, products, null);
    expect(none.ok && none.value).to.include({ vatTotal: 0, total: 1_149_998, pricesIncludeVat: null });
  });

  it('refuses an unknown product, a discount above the line, an ad-hoc line without a price, a total beyond kobo', () => {
    expect(priceInvoice([{ productId: 'x', quantity: 1 }], products, null)).to.deep.equal({ ok: false, failure: { _tag: 'UnknownInvoiceProduct', indexes: [0] } });
    const over = priceInvoice([{ productId: 'rice', quantity: 1, discount: kobo(100_001) }], products, null);
    expect(!over.ok && over.failure).to.include({ _tag: 'InvoiceAmountsInvalid', field: 'lines.0.discount' });
    const adhoc = priceInvoice([{ description: 'x', quantity: 1 }], products, null);
    expect(!adhoc.ok && adhoc.failure).to.include({ field: 'lines.0.unit_price' });
    const huge = priceInvoice([{ description: 'x', quantity: 1_000_000, unitPrice: kobo(100_000_000_000) }], products, null);
    expect(huge.ok).to.equal(false);
  });

  it('a payment: up to the balance, PAID at exactly it; not on a draft, proforma or cancelled invoice', () => {
    const sent = { status: 'SENT' as const, type: 'INVOICE' as const, total: kobo(1000), amountPaid: kobo(400) };
    expect(decidePayment(sent, kobo(599))).to.deep.equal({ ok: true, status: 'PARTIALLY_PAID' });
    expect(decidePayment(sent, kobo(600))).to.deep.equal({ ok: true, status: 'PAID' });
    expect(decidePayment(sent, kobo(601))).to.deep.equal({ ok: false, failure: { _tag: 'AmountExceedsBalance', balance: 600, amount: 601 } });
    for (const o of [{ status: 'DRAFT' as const }, { status: 'CANCELLED' as const }, { status: 'PAID' as const }, { type: 'PROFORMA' as const }]) {
      const d = decidePayment({ ...sent, ...o }, kobo(1));
      expect(!d.ok && d.failure._tag, JSON.stringify(o)).to.equal('InvoiceNotPayable');
    }
  });

  it('overdue: the due date passed in Lagos with a balance; numbers and due dates', () => {
    const i = { status: 'SENT' as const, dueDate: '2026-11-20', total: kobo(1000), amountPaid: kobo(0) };
    expect(isOverdue(i, new Date('2026-11-20T22:59:59Z'))).to.equal(false); // 23:59 in Lagos
    expect(isOverdue(i, new Date('2026-11-20T23:00:00Z'))).to.equal(true); // the 21st in Lagos
    expect(isOverdue({ ...i, amountPaid: kobo(1000) }, new Date('2026-12-01T00:00:00Z'))).to.equal(false);
    expect(isOverdue({ ...i, status: 'DRAFT' }, new Date('2026-12-01T00:00:00Z'))).to.equal(false);
    expect(addDays('2026-12-25', 14)).to.equal('2027-01-08');
    expect([formatInvoiceNumber(seriesOf('TAX_INVOICE'), 1), formatInvoiceNumber(seriesOf('PROFORMA'), 1234567)]).to.deep.equal(['INV-000001', 'PRF-1234567']);
  });
});
