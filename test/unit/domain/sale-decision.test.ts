import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { kobo, MAX_KOBO } from '../../../domain/money.js';
import type { StockMovement } from '../../../domain/product.js';
import type { Sale } from '../../../domain/sale.js';
import {
  checkSaleCredit,
  decideSale,
  decideVoid,
  offlineShortfalls,
  saleShortage,
  type SaleFacts,
  type SalePlan,
  type SaleProduct,
  type SaleRequest,
} from '../../../domain/sale-decision.js';
import { aSale } from '../../support/builders.js';

// Issue 33: the sale's and the void's rules, decided from facts without adapters (docs/adr/0049).

const product = (id: string, o: Partial<SaleProduct> = {}): SaleProduct => ({ id, name: `name-${id}`, sku: `SKU-${id}`, price: kobo(1_000), costPrice: null, type: 'PRODUCT', archivedAt: null, ...o });
const branch = { id: 'branch-1', name: 'Main' };
const facts = (o: Partial<SaleFacts> = {}): SaleFacts => ({ branch, customerKnown: true, provisionalTaken: false, products: [product('a'), product('b'), product('svc', { type: 'SERVICE' })], ...o });
const cash = (items: SaleRequest['items'], o: Partial<SaleRequest> = {}): SaleRequest => ({ items, paymentMethod: 'CASH', ...o });
const planOf = (r: E.Either<unknown, SalePlan>): SalePlan => {
  if (E.isLeft(r)) throw new Error(`refused: ${JSON.stringify(r.left)}`);
  return r.right;
};

describe('decideSale (domain/sale-decision.ts)', () => {
  it('refuses in order: unknown customer, provisional number taken, unknown products, archived products, pricing, customer required', () => {
    const archived = product('old', { archivedAt: new Date('2026-01-01T00:00:00Z') });
    const table: [string, SaleFacts, SaleRequest, unknown][] = [
      ['unknown customer first, whatever else is wrong', facts({ customerKnown: false, provisionalTaken: true }), cash([{ productId: 'nope', quantity: 1 }], { customerId: 'c', offline: { provisionalReceiptNumber: 'TILL1-1' } }), { _tag: 'UnknownCustomer' }],
      ['provisional number taken', facts({ provisionalTaken: true }), cash([{ productId: 'nope', quantity: 1 }], { offline: { provisionalReceiptNumber: 'TILL1-1' } }), { _tag: 'ProvisionalReceiptNumberTaken', number: 'TILL1-1' }],
      ['every unknown item, by index', facts({ products: [product('a'), archived] }), cash([{ productId: 'a', quantity: 1 }, { productId: 'x', quantity: 1 }, { productId: 'old', quantity: 1 }, { productId: 'y', quantity: 1 }]), { _tag: 'UnknownProducts', indexes: [1, 3] }],
      ['every archived item, by index', facts({ products: [product('a'), archived] }), cash([{ productId: 'old', quantity: 1 }, { productId: 'a', quantity: 1 }, { productId: 'old', quantity: 2 }]), { _tag: 'ArchivedProducts', indexes: [0, 2] }],
      ['a line discount past its line', facts(), cash([{ productId: 'a', quantity: 1, discount: kobo(1_001) }]), { _tag: 'LineDiscountTooLarge', index: 0 }],
      ['paying more than the total', facts(), cash([{ productId: 'a', quantity: 1 }], { amountPaid: kobo(1_001) }), { _tag: 'AmountPaidExceedsTotal' }],
      ['CREDIT without a customer', facts(), { items: [{ productId: 'a', quantity: 1 }], paymentMethod: 'CREDIT' }, { _tag: 'CustomerRequired' }],
      ['part paid without a customer', facts(), cash([{ productId: 'a', quantity: 1 }], { amountPaid: kobo(400) }), { _tag: 'CustomerRequired' }],
    ];
    for (const [name, f, cmd, failure] of table) expect(decideSale(f, cmd), name).to.deep.equal(E.left(failure));
  });

  it('a provisional number taken matters only to a sale that carries one', () => {
    expect(E.isRight(decideSale(facts({ provisionalTaken: true }), cash([{ productId: 'a', quantity: 1 }])))).to.equal(true);
  });

  it('plans the takes: lines naming one product added up, in product id order, the first item naming it; a service takes nothing', () => {
    const plan = planOf(
      decideSale(facts(), cash([{ productId: 'b', quantity: 2 }, { productId: 'svc', quantity: 1 }, { productId: 'a', quantity: 1 }, { productId: 'b', quantity: 3, unitPrice: kobo(500) }], { customerId: 'c', offline: { provisionalReceiptNumber: 'TILL1-9' } })),
    );
    expect(plan.takes).to.deep.equal([
      { productId: 'a', name: 'name-a', index: 2, quantity: 1 },
      { productId: 'b', name: 'name-b', index: 0, quantity: 5 },
    ]);
    expect(plan).to.deep.include({ branch, customerId: 'c', provisionalReceiptNumber: 'TILL1-9' });
    expect(plan.priced.lines.map((l) => [l.productId, l.quantity, l.unitPrice])).to.deep.equal([['b', 2, 1_000], ['svc', 1, 1_000], ['a', 1, 1_000], ['b', 3, 500]]);
    expect(plan.priced).to.include({ subtotal: 5_500, total: 5_500, amountPaid: 5_500, balanceDue: 0 });
  });

  /** A cart over products a..e (d and e services), each line with a price, discount and quantity that fit. */
  const catalogue = ['a', 'b', 'c', 'd', 'e'].map((id) => product(id, { type: id >= 'd' ? 'SERVICE' : 'PRODUCT', price: kobo(id.charCodeAt(0) * 100) }));
  const aCart = fc.record({
    items: fc.array(
      fc.record({ productId: fc.constantFrom('a', 'b', 'c', 'd', 'e'), quantity: fc.integer({ min: 1, max: 1_000 }), unitPrice: fc.option(fc.nat(1_000_000), { nil: undefined }) }),
      { minLength: 1, maxLength: 8 },
    ),
    paymentMethod: fc.constantFrom('CASH', 'TRANSFER', 'CARD', 'CREDIT') as fc.Arbitrary<SaleRequest['paymentMethod']>,
    paidShare: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    discountShare: fc.double({ min: 0, max: 1, noNaN: true }),
  });

  it('property: a plan only takes stock, exactly what the cart asks of each stocked product; its totals add up', () => {
    fc.assert(
      fc.property(aCart, ({ items: raw, paymentMethod, paidShare, discountShare }) => {
        const items = raw.map((i) => ({ productId: i.productId, quantity: i.quantity, ...(i.unitPrice !== undefined ? { unitPrice: kobo(i.unitPrice) } : {}) }));
        const gross = items.reduce((n, i) => n + (i.unitPrice ?? catalogue.find((p) => p.id === i.productId)!.price) * i.quantity, 0);
        const discount = kobo(Math.floor(gross * discountShare));
        const amountPaid = paidShare === undefined ? undefined : kobo(Math.floor((gross - discount) * paidShare));
        const plan = planOf(decideSale(facts({ products: catalogue }), { items, paymentMethod, discount, customerId: 'c', ...(amountPaid !== undefined ? { amountPaid } : {}) }));

        for (const t of plan.takes) expect(t.quantity).to.be.greaterThan(0);
        const ids = plan.takes.map((t) => t.productId);
        expect(ids).to.deep.equal([...new Set(ids)].sort());
        for (const p of catalogue) {
          const asked = items.filter((i) => i.productId === p.id).reduce((n, i) => n + i.quantity, 0);
          const taken = plan.takes.find((t) => t.productId === p.id)?.quantity ?? 0;
          expect(taken).to.equal(p.type === 'SERVICE' ? 0 : asked);
        }

        const { priced } = plan;
        expect(priced.lines.map((l) => [l.productId, l.quantity])).to.deep.equal(items.map((i) => [i.productId, i.quantity]));
        expect(priced.subtotal).to.equal(priced.lines.reduce((n, l) => n + l.lineTotal, 0));
        expect(priced.total).to.equal(priced.subtotal - priced.discount);
        expect(priced.amountPaid + priced.balanceDue).to.equal(priced.total);
        expect(priced.balanceDue).to.be.at.least(0);
        for (const n of [priced.subtotal, priced.total, priced.amountPaid, priced.balanceDue]) expect(Number.isSafeInteger(n)).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('checkSaleCredit (domain/sale-decision.ts)', () => {
  const owing = (balanceDue: number): SalePlan => ({ ...planOf(decideSale(facts(), cash([{ productId: 'a', quantity: 1 }]))), priced: { ...planOf(decideSale(facts(), cash([{ productId: 'a', quantity: 1 }]))).priced, balanceDue: kobo(balanceDue) } });
  it('a sale to no customer, or within their limit, passes; past the limit or MAX_KOBO it is refused', () => {
    const table: [string, number, { creditBalance: number; creditLimit: number | null } | undefined, unknown][] = [
      ['no customer', 5_000, undefined, undefined],
      ['up to the limit', 5_000, { creditBalance: 5_000, creditLimit: 10_000 }, undefined],
      ['past the limit', 5_001, { creditBalance: 5_000, creditLimit: 10_000 }, { _tag: 'CreditLimitExceeded', balance: 5_000, limit: 10_000 }],
      ['no limit', 1_000_000, { creditBalance: 5_000, creditLimit: null }, undefined],
      ['paid in full with no credit allowed', 0, { creditBalance: 0, creditLimit: 0 }, undefined],
      ['past MAX_KOBO with no limit', 2, { creditBalance: MAX_KOBO - 1, creditLimit: null }, { _tag: 'CreditBalanceLimitExceeded', balance: MAX_KOBO - 1, scope: 'customer' }],
    ];
    for (const [name, owed, customer, failure] of table) {
      expect(checkSaleCredit(owing(owed), customer && { creditBalance: kobo(customer.creditBalance), creditLimit: customer.creditLimit === null ? null : kobo(customer.creditLimit) }), name).to.deep.equal(failure);
    }
  });
});

describe('saleShortage and offlineShortfalls (domain/sale-decision.ts)', () => {
  it('a refused take names the product, its first item, what the branch holds and what the cart asked', () => {
    const plan = planOf(decideSale(facts(), cash([{ productId: 'b', quantity: 2 }, { productId: 'a', quantity: 1 }, { productId: 'b', quantity: 1 }])));
    expect(saleShortage(plan, 1, 2)).to.deep.equal({ _tag: 'InsufficientStock', productId: 'b', name: 'name-b', index: 0, available: 2, requested: 3, branchId: 'branch-1', branchName: 'Main' });
  });

  it('an offline sale\'s shortfall is the part of its own take below zero', () => {
    const m = (quantityChange: number, quantityAfter: number) => ({ quantityChange, quantityAfter });
    expect(offlineShortfalls([m(-5, 3), m(-5, 0), m(-5, -3), m(-3, -5)]).map((s) => s.shortfall)).to.deep.equal([3, 3]);
  });
});

describe('decideVoid (domain/sale-decision.ts)', () => {
  const t = { business: { id: 'biz' }, branch: { id: 'branch-1' }, user: { id: 'owner' } };
  const sale = (o: Partial<Sale> = {}): Sale => ({ ...aSale(t, 'a'), receiptNumber: 'RCP-000001', ...o });
  const row = (productId: string, branchId: string, quantityChange: number, reason: StockMovement['reason'] = 'SALE') => ({ productId, branchId, quantityChange, reason });
  const at = new Date('2026-11-22T13:00:00.000Z');

  it('a voided sale is refused, whatever its ledger holds', () => {
    expect(decideVoid({ sale: sale({ status: 'VOIDED' }), movements: [], returns: 0 }, { reason: 'x', by: 'u', at })).to.deep.equal(E.left({ _tag: 'SaleAlreadyVoided' }));
    expect(decideVoid({ sale: sale({ status: 'VOIDED' }), movements: [row('a', 'b1', -2)], returns: 0 }, { reason: 'x', by: 'u', at })).to.deep.equal(E.left({ _tag: 'SaleAlreadyVoided' }));
  });

  it('a sale with returns is refused (return the rest instead); a voided one is refused first', () => {
    expect(decideVoid({ sale: sale(), movements: [row('a', 'b1', -2)], returns: 2 }, { reason: 'x', by: 'u', at })).to.deep.equal(E.left({ _tag: 'SaleHasReturns', returns: 2 }));
    expect(decideVoid({ sale: sale({ status: 'VOIDED' }), movements: [], returns: 1 }, { reason: 'x', by: 'u', at })).to.deep.equal(E.left({ _tag: 'SaleAlreadyVoided' }));
  });

  it('gives back what each SALE row took, to its branch, in product id order; the customer\'s debt is reversed and the rest refunded', () => {
    const s = sale({ customerId: 'c', total: kobo(10_000), amountPaid: kobo(4_000), balanceDue: kobo(6_000), creditOutstanding: kobo(2_500) });
    const r = decideVoid({ sale: s, movements: [row('b', 'b1', -3), row('a', 'b2', -1), row('a', 'b1', 4, 'SALE_VOID')], returns: 0 }, { reason: 'returned', by: 'owner', at });
    if (E.isLeft(r)) throw new Error('refused');
    expect(r.right.returns).to.deep.equal([
      { productId: 'a', branchId: 'b2', quantity: 1 },
      { productId: 'b', branchId: 'b1', quantity: 3 },
    ]);
    expect(r.right.owed).to.equal(2_500);
    expect(r.right.voided).to.deep.equal({ ...s, status: 'VOIDED', voidedAt: at, voidReason: 'returned', voidedBy: 'owner', refundAmount: 7_500, balanceDue: 0, creditOutstanding: 0 });
    expect(s.status, 'the sale read is left as it was').to.equal('COMPLETED');
  });

  it('property: a void restores exactly what the sale took, branch by branch; refund and reversed debt add up to the total', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ productId: fc.constantFrom('a', 'b', 'c'), branchId: fc.constantFrom('b1', 'b2'), quantity: fc.integer({ min: 1, max: 1_000_000 }) }), { maxLength: 6 }),
        fc.nat(MAX_KOBO),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (takes, total, owedShare) => {
          const owed = kobo(Math.floor(total * owedShare));
          const s = sale({ total: kobo(total), creditOutstanding: owed, customerId: 'c' });
          const r = decideVoid({ sale: s, movements: takes.map((x) => row(x.productId, x.branchId, -x.quantity)), returns: 0 }, { reason: 'x', by: 'u', at });
          if (E.isLeft(r)) throw new Error('refused');
          const net = new Map<string, number>();
          for (const x of takes) net.set(`${x.productId}/${x.branchId}`, (net.get(`${x.productId}/${x.branchId}`) ?? 0) - x.quantity);
          for (const x of r.right.returns) net.set(`${x.productId}/${x.branchId}`, (net.get(`${x.productId}/${x.branchId}`) ?? 0) + x.quantity);
          expect([...net.values()].every((n) => n === 0)).to.equal(true);
          expect(r.right.returns.every((x) => x.quantity > 0)).to.equal(true);
          expect(r.right.voided.refundAmount! + r.right.owed).to.equal(total);
          expect(r.right.voided.refundAmount).to.be.at.least(0);
          expect(r.right.voided).to.include({ status: 'VOIDED', balanceDue: 0, creditOutstanding: 0 });
        },
      ),
      { numRuns: 300 },
    );
  });
});
