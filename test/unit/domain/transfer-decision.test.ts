import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { checkTransfer, decideTransfer, transferShortage, type TransferFacts, type TransferPlan, type TransferRequest } from '../../../domain/transfer-decision.js';

// Issue 33: a transfer's rules, decided from facts without adapters (docs/adr/0049).

const main = { id: 'main', name: 'Main' };
const lekki = { id: 'lekki', name: 'Lekki' };
const product = (id: string, type: 'PRODUCT' | 'SERVICE' = 'PRODUCT') => ({ id, name: `name-${id}`, type });
const facts = (o: Partial<TransferFacts> = {}): TransferFacts => ({ from: main, to: lekki, products: [product('a'), product('b'), product('svc', 'SERVICE')], ...o });
const request = (items: TransferRequest['items']): TransferRequest => ({ fromBranchId: 'main', toBranchId: 'lekki', items });
const planOf = (r: E.Either<unknown, TransferPlan>): TransferPlan => {
  if (E.isLeft(r)) throw new Error(`refused: ${JSON.stringify(r.left)}`);
  return r.right;
};

describe('decideTransfer (domain/transfer-decision.ts)', () => {
  it('the same branch twice is refused by the request alone', () => {
    expect(checkTransfer({ fromBranchId: 'x', toBranchId: 'x', items: [] })).to.deep.equal({ _tag: 'SameBranch' });
    expect(checkTransfer(request([]))).to.equal(undefined);
  });

  it('refuses in order: unknown source, unknown destination, unknown products, services', () => {
    const items = [{ productId: 'svc', quantity: 1 }, { productId: 'x', quantity: 1 }];
    const table: [string, TransferFacts, TransferRequest, unknown][] = [
      ['source first, whatever else is wrong', facts({ from: undefined, to: undefined, products: [] }), request(items), { _tag: 'UnknownBranch', branchId: 'main', field: 'from_branch_id' }],
      ['then the destination', facts({ to: undefined, products: [] }), request(items), { _tag: 'UnknownBranch', branchId: 'lekki', field: 'to_branch_id' }],
      ['every unknown product', facts(), request([...items, { productId: 'y', quantity: 1 }]), { _tag: 'UnknownProducts', indexes: [1, 2] }],
      ['every service', facts(), request([{ productId: 'svc', quantity: 1 }, { productId: 'a', quantity: 1 }, { productId: 'svc', quantity: 2 }]), { _tag: 'ServiceItems', indexes: [0, 2] }],
    ];
    for (const [name, f, cmd, failure] of table) expect(decideTransfer(f, cmd), name).to.deep.equal(E.left(failure));
  });

  it('lines naming one product move as one, in product id order; a refusal names the first item and the source', () => {
    const plan = planOf(decideTransfer(facts(), request([{ productId: 'b', quantity: 2 }, { productId: 'a', quantity: 1 }, { productId: 'b', quantity: 5 }])));
    expect(plan).to.deep.equal({
      from: main,
      to: lekki,
      lines: [
        { productId: 'a', name: 'name-a', index: 1, quantity: 1 },
        { productId: 'b', name: 'name-b', index: 0, quantity: 7 },
      ],
    });
    expect(transferShortage(plan, 1, 3)).to.deep.equal({ _tag: 'InsufficientStock', productId: 'b', name: 'name-b', index: 0, available: 3, requested: 7, branchId: 'main', branchName: 'Main' });
  });

  it('property: a plan moves exactly what the request asks of each product, each product once', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ productId: fc.constantFrom('a', 'b', 'c'), quantity: fc.integer({ min: 1, max: 1_000_000 }) }), { minLength: 1, maxLength: 8 }), (items) => {
        const plan = planOf(decideTransfer(facts({ products: [product('a'), product('b'), product('c')] }), request(items)));
        const ids = plan.lines.map((l) => l.productId);
        expect(ids).to.deep.equal([...new Set(ids)].sort());
        for (const id of ['a', 'b', 'c']) {
          expect(plan.lines.find((l) => l.productId === id)?.quantity ?? 0).to.equal(items.filter((i) => i.productId === id).reduce((n, i) => n + i.quantity, 0));
        }
      }),
    );
  });
});
