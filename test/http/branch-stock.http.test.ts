import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 17: stock per branch, transfers between branches, staff tied to their branch (docs/adr/0032).

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Stock = { branch_id: string; branch_name: string; quantity: number };

describe('HTTP stock per branch and transfers', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  /** A business with its default branch and a second one, Lekki. */
  const shop = async () => {
    const owner = await registerOwner(app);
    const branches = (await app.request('GET', '/businesses/me/branches', { token: owner.accessToken })).body.data.content as { id: string; is_default: boolean }[];
    const main = branches.find((b) => b.is_default)!.id;
    const lekki = (await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Lekki' } })).body.data.id as string;
    return { owner, main, lekki };
  };
  const product = async (owner: Owner, quantity: number, name = 'Peak Milk') => {
    const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name, price: 1500, quantity } });
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  };
  const transfer = (owner: Owner, from: string, to: string, items: { product_id: string; quantity: number }[], headers: Record<string, string> = {}) =>
    app.request('POST', '/products/stock-transfers', { token: owner.accessToken, body: { from_branch_id: from, to_branch_id: to, items }, headers });
  const stockOf = async (owner: Owner, id: string) => {
    const p = (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data as { quantity: number; stock: Stock[] };
    return { total: p.quantity, byBranch: Object.fromEntries(p.stock.map((s) => [s.branch_id, s.quantity])) as Record<string, number> };
  };
  const sell = (token: string, productId: string, quantity: number, branchId?: string) =>
    app.request('POST', '/sales', { token, body: { payment_method: 'CASH', items: [{ product_id: productId, quantity }], ...(branchId ? { branch_id: branchId } : {}) } });
  const staffAt = async (owner: Owner, branchId: string) => {
    const phone = aPhone();
    const invited = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade', branch_id: branchId } });
    expect(invited.status, invited.text).to.equal(201);
    await app.request('POST', '/auth/login', { body: { phone } });
    const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
    return { memberId: invited.body.data.id as string, token: signIn.body.data.access_token as string };
  };

  it('a product answers its total and each branch; a transfer moves stock with a TRANSFER_OUT and a TRANSFER_IN row', async () => {
    const { owner, main, lekki } = await shop();
    const id = await product(owner, 30);
    const created = (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data;
    expect(created.quantity).to.equal(30);
    expect(created.stock).to.deep.equal([
      { branch_id: main, branch_name: 'Main branch', quantity: 30 },
      { branch_id: lekki, branch_name: 'Lekki', quantity: 0 },
    ]);

    const moved = await transfer(owner, main, lekki, [{ product_id: id, quantity: 12 }]);
    expect(moved.status, moved.text).to.equal(201);
    expect(moved.body.data).to.deep.include({ from_branch_id: main, to_branch_id: lekki, items: [{ product_id: id, quantity: 12 }], note: null });
    expect(await stockOf(owner, id)).to.deep.equal({ total: 30, byBranch: { [main]: 18, [lekki]: 12 } });

    const rows = (await app.request('GET', `/products/stock-adjustments?product_id=${id}&sort_dir=asc`, { token: owner.accessToken })).body.data.content;
    expect(rows.map((r: any) => [r.reason, r.branch_id, r.quantity_change, r.quantity_before, r.quantity_after])).to.deep.equal([
      ['INITIAL', main, 30, 0, 30],
      ['TRANSFER_OUT', main, -12, 30, 18],
      ['TRANSFER_IN', lekki, 12, 0, 12],
    ]);
    expect(rows.slice(1).map((r: any) => r.transfer_id)).to.deep.equal([moved.body.data.id, moved.body.data.id]);
    const atLekki = (await app.request('GET', `/products/stock-adjustments?branch_id=${lekki}`, { token: owner.accessToken })).body.data.content;
    expect(atLekki.map((r: any) => r.reason)).to.deep.equal(['TRANSFER_IN']);

    const one = await app.request('GET', `/products/stock-transfers/${moved.body.data.id}`, { token: owner.accessToken });
    expect(one.body.data).to.deep.equal(moved.body.data);
    const listed = await app.request('GET', `/products/stock-transfers?branch_id=${lekki}`, { token: owner.accessToken });
    expect(listed.body.data.content).to.deep.equal([moved.body.data]);
  });

  it('a transfer short at its source is 409 naming the branch, and nothing moves; bad branches and services are refused', async () => {
    const { owner, main, lekki } = await shop();
    const a = await product(owner, 5, 'Milo');
    const b = await product(owner, 2, 'Bournvita');
    const short = await transfer(owner, main, lekki, [{ product_id: a, quantity: 5 }, { product_id: b, quantity: 3 }]);
    expect(short.status, short.text).to.equal(409);
    expect(short.body.error.code).to.equal('INSUFFICIENT_STOCK');
    expect(short.body.error.detail).to.contain('Main branch').and.contain('2 available');
    expect(short.body.error.errors).to.deep.equal([{ field: 'items.1.quantity', message: `only 2 of Bournvita available at Main branch (branch ${main})` }]);
    expect(await stockOf(owner, a)).to.deep.equal({ total: 5, byBranch: { [main]: 5, [lekki]: 0 } });
    expect((await app.request('GET', '/products/stock-transfers', { token: owner.accessToken })).body.data.content).to.deep.equal([]);

    const same = await transfer(owner, main, main, [{ product_id: a, quantity: 1 }]);
    expect([same.status, same.body.error.code]).to.deep.equal([400, 'VALIDATION_FAILED']);
    const unknown = await transfer(owner, main, '0b7c7d0e-0000-4000-8000-000000000000', [{ product_id: a, quantity: 1 }]);
    expect([unknown.status, unknown.body.error.code, unknown.body.error.errors[0].field]).to.deep.equal([422, 'UNKNOWN_BRANCH', 'to_branch_id']);
    const service = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Delivery', price: 500, type: 'SERVICE' } })).body.data;
    expect(service.stock).to.deep.equal([]);
    const serviceMove = await transfer(owner, main, lekki, [{ product_id: service.id, quantity: 1 }]);
    expect([serviceMove.status, serviceMove.body.error.code]).to.deep.equal([422, 'SERVICE_HAS_NO_STOCK']);
    const zero = await transfer(owner, main, lekki, [{ product_id: a, quantity: 0 }]);
    expect(zero.status).to.equal(400);
  });

  it('a transfer honours Idempotency-Key: the same key moves the stock once', async () => {
    const { owner, main, lekki } = await shop();
    const id = await product(owner, 10);
    const headers = { 'Idempotency-Key': `transfer-${id}` };
    const first = await transfer(owner, main, lekki, [{ product_id: id, quantity: 4 }], headers);
    const again = await transfer(owner, main, lekki, [{ product_id: id, quantity: 4 }], headers);
    expect([first.status, again.status]).to.deep.equal([201, 201]);
    expect(again.body.data.id).to.equal(first.body.data.id);
    expect(await stockOf(owner, id)).to.deep.equal({ total: 10, byBranch: { [main]: 6, [lekki]: 4 } });
  });

  it('a sale takes from its branch: short there is 409 naming the branch even when another has plenty; a void gives back to it', async () => {
    const { owner, main, lekki } = await shop();
    const id = await product(owner, 20);
    expect((await transfer(owner, main, lekki, [{ product_id: id, quantity: 3 }])).status).to.equal(201);
    const short = await sell(owner.accessToken, id, 4, lekki);
    expect(short.status, short.text).to.equal(409);
    expect(short.body.error.code).to.equal('INSUFFICIENT_STOCK');
    expect(short.body.error.detail).to.equal('Not enough Peak Milk at Lekki: 3 available there, 4 wanted.');
    const sold = await sell(owner.accessToken, id, 3, lekki);
    expect(sold.status, sold.text).to.equal(201);
    expect(sold.body.data.branch_id).to.equal(lekki);
    expect(await stockOf(owner, id)).to.deep.equal({ total: 17, byBranch: { [main]: 17, [lekki]: 0 } });
    const voided = await app.request('POST', `/sales/${sold.body.data.id}/void`, { token: owner.accessToken, body: { reason: 'wrong item' } });
    expect(voided.status, voided.text).to.equal(200);
    expect(await stockOf(owner, id)).to.deep.equal({ total: 20, byBranch: { [main]: 17, [lekki]: 3 } });
    // without branch_id the owner sells from their assigned (the default) branch
    expect((await sell(owner.accessToken, id, 1)).body.data.branch_id).to.equal(main);
  });

  it('staff assigned to a branch sell and adjust only there (403 WRONG_BRANCH elsewhere); the owner works in any', async () => {
    const { owner, main, lekki } = await shop();
    const id = await product(owner, 10);
    expect((await transfer(owner, main, lekki, [{ product_id: id, quantity: 5 }])).status).to.equal(201);
    const clerk = await staffAt(owner, lekki);
    const here = await sell(clerk.token, id, 2);
    expect(here.status, here.text).to.equal(201);
    expect(here.body.data.branch_id).to.equal(lekki);
    const there = await sell(clerk.token, id, 1, main);
    expect([there.status, there.body.error.code]).to.deep.equal([403, 'WRONG_BRANCH']);
    const adjustThere = await app.request('POST', '/products/stock-adjustment', { token: clerk.token, body: { product_id: id, quantity_change: -1, reason: 'DAMAGE', branch_id: main } });
    expect([adjustThere.status, adjustThere.body.error.code]).to.deep.equal([403, 'WRONG_BRANCH']);
    const adjustHere = await app.request('POST', '/products/stock-adjustment', { token: clerk.token, body: { product_id: id, quantity_change: -1, reason: 'DAMAGE' } });
    expect([adjustHere.status, adjustHere.body.data.branch_id]).to.deep.equal([201, lekki]);
    expect(await stockOf(owner, id)).to.deep.equal({ total: 7, byBranch: { [main]: 5, [lekki]: 2 } });
    // the owner moves the clerk: from their next request they sell at the default branch
    expect((await app.request('PUT', `/staff/${clerk.memberId}`, { token: owner.accessToken, body: { branch_id: main } })).status).to.equal(200);
    expect((await sell(clerk.token, id, 1)).body.data.branch_id).to.equal(main);
    expect((await sell(owner.accessToken, id, 1, lekki)).status).to.equal(201);
  });

  it('a branch holding stock cannot be archived (409 BRANCH_HAS_STOCK) until it is transferred out', async () => {
    const { owner, main, lekki } = await shop();
    const businessId = (await app.request('GET', '/businesses/me', { token: owner.accessToken })).body.data.id as string;
    const id = await product(owner, 4);
    expect((await transfer(owner, main, lekki, [{ product_id: id, quantity: 4 }])).status).to.equal(201);
    const refused = await app.request('DELETE', `/businesses/${businessId}/branches/${lekki}`, { token: owner.accessToken });
    expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'BRANCH_HAS_STOCK']);
    expect((await transfer(owner, lekki, main, [{ product_id: id, quantity: 4 }])).status).to.equal(201);
    const archived = await app.request('DELETE', `/businesses/${businessId}/branches/${lekki}`, { token: owner.accessToken });
    expect(archived.status, archived.text).to.equal(200);
    expect(archived.body.data.archived).to.equal(true); // its ledger rows keep it as history
    expect(await stockOf(owner, id)).to.deep.equal({ total: 4, byBranch: { [main]: 4 } });
  });

  it('CSV: the branch column sets a branch\'s quantity; export by_branch writes a row per branch that imports back', async () => {
    const { owner, main, lekki } = await shop();
    const csv = 'sku,name,price,quantity,branch\r\nMILK-1,Peak Milk,1500,8,\r\nMILK-1,,,5,lekki\r\nMILK-1,,,1,Ikeja\r\n';
    const imported = await app.request('POST', '/products/import', { token: owner.accessToken, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(imported.status, imported.text).to.equal(200);
    expect(imported.body.data).to.deep.equal({
      dry_run: false,
      created: 1,
      updated: 1,
      unchanged: 0,
      errors: [{ row: 4, field: 'branch', message: 'is not an active branch of the business (its name or id)' }],
    });
    const id = ((await app.request('GET', '/products?search=MILK-1', { token: owner.accessToken })).body.data.content[0] as { id: string }).id;
    expect(await stockOf(owner, id)).to.deep.equal({ total: 13, byBranch: { [main]: 8, [lekki]: 5 } });

    const exported = await app.request('GET', '/products/export?by_branch=true', { token: owner.accessToken });
    const lines = exported.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).to.deep.equal([
      'sku,name,price,cost_price,quantity,category,type,low_stock_threshold,barcode,unit,branch',
      'MILK-1,Peak Milk,1500.00,,8,,PRODUCT,,,,Main branch',
      'MILK-1,Peak Milk,1500.00,,5,,PRODUCT,,,,Lekki',
    ]);
    const total = await app.request('GET', '/products/export', { token: owner.accessToken });
    expect(total.text.replace(/^\uFEFF/, '').trim().split('\r\n')[1]).to.equal('MILK-1,Peak Milk,1500.00,,13,,PRODUCT,,,');
    const again = await app.request('POST', '/products/import', { token: owner.accessToken, rawBody: `${lines.join('\r\n')}\r\n`, headers: { 'content-type': 'text/csv' } });
    expect(again.body.data).to.deep.include({ created: 0, updated: 0, unchanged: 2, errors: [] });
  });
});
