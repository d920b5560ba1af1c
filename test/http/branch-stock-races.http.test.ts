import { expect } from 'chai';
import fc from 'fast-check';
import { createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 17's races (docs/adr/0032): many simultaneous HTTP requests. On PostgreSQL they run at once;
// on PGlite they are serialised, and the same promises hold.

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Row = { reason: string; branch_id: string; quantity_change: number; quantity_before: number; quantity_after: number };

describe('HTTP races: stock per branch', function () {
  this.timeout(180_000);
  let app: TestApp;
  let owner: Owner;
  let main: string;
  let lekki: string;
  let ikeja: string;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    await putOnPlan(app, owner, 'PRO'); // past the Free plan's 50 sales a month
    const branches = (await app.request('GET', '/businesses/me/branches', { token: owner.accessToken })).body.data.content as { id: string; is_default: boolean }[];
    main = branches.find((b) => b.is_default)!.id;
    lekki = (await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Lekki' } })).body.data.id as string;
    ikeja = (await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Ikeja' } })).body.data.id as string;
  });
  after(async () => app.close());

  /** A product with `stock` units per branch, put there by transfers from the default branch. */
  const productWith = async (stock: Record<string, number>) => {
    const total = Object.values(stock).reduce((a, b) => a + b, 0);
    const created = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk', price: 1500, quantity: total } });
    const id = created.body.data.id as string;
    for (const [branch, quantity] of Object.entries(stock)) {
      if (branch === main || quantity === 0) continue;
      const moved = await app.request('POST', '/products/stock-transfers', {
        token: owner.accessToken,
        body: { from_branch_id: main, to_branch_id: branch, items: [{ product_id: id, quantity }] },
      });
      expect(moved.status, moved.text).to.equal(201);
    }
    return id;
  };
  const sell = (id: string, branch: string, quantity = 1) =>
    app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', branch_id: branch, items: [{ product_id: id, quantity }] } });
  const stockOf = async (id: string) => {
    const p = (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data as { quantity: number; stock: { branch_id: string; quantity: number }[] };
    return { total: p.quantity, byBranch: Object.fromEntries(p.stock.map((s) => [s.branch_id, s.quantity])) as Record<string, number> };
  };
  const ledger = async (id: string): Promise<Row[]> => {
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await app.request('GET', `/products/stock-adjustments?product_id=${id}&sort_dir=asc&limit=100${cursor ? `&cursor=${cursor}` : ''}`, { token: owner.accessToken })).body.data;
      rows.push(...page.content);
      cursor = page.cursor;
    } while (cursor);
    return rows;
  };
  /** Every branch's stock is what its ledger rows sum to, each branch's rows chain, and the total is the sum of the branches. */
  const expectLedgerExplains = async (id: string) => {
    const { total, byBranch } = await stockOf(id);
    const rows = await ledger(id);
    for (const [branch, held] of Object.entries(byBranch)) {
      const mine = rows.filter((r) => r.branch_id === branch);
      expect(mine.reduce((sum, r) => sum + r.quantity_change, 0), `ledger of branch ${branch}`).to.equal(held);
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.quantity_before, `chain of branch ${branch}, row ${i}`).to.equal(mine[i - 1]!.quantity_after);
    }
    expect(Object.values(byBranch).reduce((a, b) => a + b, 0)).to.equal(total);
    expect(rows.reduce((sum, r) => sum + r.quantity_change, 0)).to.equal(total);
    return { total, byBranch };
  };

  it('25 simultaneous sales of a branch\'s last 10 units sell exactly 10 there, and take nothing from the other branch', async () => {
    const id = await productWith({ [main]: 50, [lekki]: 10 });
    const answers = await Promise.all(Array.from({ length: 25 }, () => sell(id, lekki)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).to.have.length(10);
    expect(statuses.filter((s) => s === 409)).to.have.length(15);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body.error.code).to.equal('INSUFFICIENT_STOCK');
      expect(refused.body.error.detail).to.equal('Not enough Peak Milk at Lekki: 0 available there, 1 wanted.');
    }
    // receipts stay gap-free
    const receipts = answers.filter((a) => a.status === 201).map((a) => Number(String(a.body.data.receipt_number).slice(4))).sort((a, b) => a - b);
    for (let i = 1; i < receipts.length; i++) expect(receipts[i]).to.equal(receipts[i - 1]! + 1);
    expect(await expectLedgerExplains(id)).to.deep.equal({ total: 50, byBranch: { [main]: 50, [lekki]: 0, [ikeja]: 0 } });
  });

  it('two branches selling the same product at once never take each other\'s stock', async () => {
    const id = await productWith({ [main]: 12, [lekki]: 12 });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => sell(id, i % 2 === 0 ? main : lekki)));
    const sold = (branch: string) => answers.filter((a) => a.status === 201 && a.body.data.branch_id === branch).length;
    expect([sold(main), sold(lekki)]).to.deep.equal([12, 12]);
    expect(answers.filter((a) => a.status !== 201).every((a) => a.status === 409)).to.equal(true);
    expect(await expectLedgerExplains(id)).to.deep.equal({ total: 0, byBranch: { [main]: 0, [lekki]: 0, [ikeja]: 0 } });
  });

  it('archiving a branch while stock is transferred into it: the transfer first makes it 409 BRANCH_HAS_STOCK, else the transfer is 422', async () => {
    const id = await productWith({ [main]: 100 });
    const businessId = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
    for (let round = 0; round < 10; round++) {
      const stall = (await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: `Stall ${round}` } })).body.data.id as string;
      const [moved, deleted] = await Promise.all([
        app.request('POST', '/products/stock-transfers', { token: owner.accessToken, body: { from_branch_id: main, to_branch_id: stall, items: [{ product_id: id, quantity: 1 }] } }),
        app.request('DELETE', `/businesses/${businessId}/branches/${stall}`, { token: owner.accessToken }),
      ]);
      if (moved.status === 201) expect([deleted.status, deleted.body.error?.code], deleted.text).to.deep.equal([409, 'BRANCH_HAS_STOCK']);
      else {
        expect([moved.status, moved.body.error.code], moved.text).to.deep.equal([422, 'UNKNOWN_BRANCH']);
        expect(deleted.status, deleted.text).to.equal(200);
      }
    }
    await expectLedgerExplains(id);
  });

  it('property: transfers racing sales and adjustments never lose or create a unit (the branches always sum to the ledger)', async () => {
    const branch = fc.constantFrom('main', 'lekki', 'ikeja');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('sale' as const), at: branch, quantity: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('transfer' as const), from: branch, to: branch, quantity: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant('restock' as const), at: branch, quantity: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }), async (ops, atLekki, atIkeja) => {
        const ids = { main, lekki, ikeja };
        const id = await productWith({ [main]: 8, [lekki]: atLekki, [ikeja]: atIkeja });
        const answers = await Promise.all(
          ops.map((o) =>
            o.kind === 'sale'
              ? sell(id, ids[o.at], o.quantity)
              : o.kind === 'restock'
                ? app.request('POST', '/products/stock-adjustment', { token: owner.accessToken, body: { product_id: id, quantity_change: o.quantity, reason: 'RESTOCK', branch_id: ids[o.at] } })
                : app.request('POST', '/products/stock-transfers', {
                    token: owner.accessToken,
                    body: { from_branch_id: ids[o.from], to_branch_id: ids[o.to], items: [{ product_id: id, quantity: o.quantity }] },
                  }),
          ),
        );
        // each answer is a success or a refusal for want of stock (or the same branch twice), never a fault
        for (const [i, a] of answers.entries()) {
          const o = ops[i]!;
          const allowed = o.kind === 'transfer' && o.from === o.to ? [400] : o.kind === 'restock' ? [201] : [201, 409];
          const fault = a.status === 500 ? app.logLines.filter((l) => l.includes('"level":50')).slice(-1)[0] : '';
          expect(allowed, `${JSON.stringify(o)}: ${a.status} ${a.text} ${fault}`).to.include(a.status);
        }
        const soldUnits = ops.reduce((sum, o, i) => sum + (o.kind === 'sale' && answers[i]!.status === 201 ? o.quantity : 0), 0);
        const restocked = ops.reduce((sum, o) => sum + (o.kind === 'restock' ? o.quantity : 0), 0);
        const { total } = await expectLedgerExplains(id);
        expect(total).to.equal(8 + atLekki + atIkeja + restocked - soldUnits);
      }),
      { numRuns: 12 },
    );
  });
});
