import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 18, slice 3: an offline sale that finds too little stock is kept, flagged and reviewed (docs/adr/0034).

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Result = { op_id: string; status: string; http_status: number; data?: any; error?: any };

describe('HTTP offline sync: oversells, conflicts, provisional numbers, the plan month', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  const post = (owner: Owner, path: string, body: object) => app.request('POST', path, { token: owner.accessToken, body });
  const get = async (owner: Owner, path: string) => {
    const res = await app.request('GET', path, { token: owner.accessToken });
    expect(res.status, res.text).to.equal(200);
    return res.body.data;
  };
  const sync = async (owner: Owner, payloads: Record<string, unknown>[], device_id = 'till-1') => {
    const res = await post(owner, '/sync/batch', { device_id, operations: payloads.map((payload) => ({ op_id: randomUUID(), type: 'sale.create', payload })) });
    expect(res.status, res.text + app.logLines.filter((l) => l.includes('"level":50')).join('\n')).to.equal(200);
    return res.body.data.results as Result[];
  };
  const product = async (owner: Owner, quantity: number) => (await post(owner, '/products', { name: 'Golden Penny Semovita 1kg', price: 1500, quantity })).body.data.id as string;

  it('an offline sale of the last unit racing an online one: the offline one is always kept; when the online one came first it is flagged, stock -1, its conflict listed', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 1);
    const madeAt = app.clock.now().toISOString(); // after the business was created, not ahead of the server (docs/adr/0039)
    const offline = { id: randomUUID(), client_created_at: madeAt, provisional_receipt_number: 'TILL1-000007', payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] };
    const [online, [synced]] = await Promise.all([post(owner, '/sales', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] }), sync(owner, [offline])]);
    // whichever came first, the online sale never oversells: it is refused when the offline one took the unit
    const onlineKept = online.status === 201;
    expect(synced!.status, JSON.stringify(synced)).to.equal('applied');
    if (!onlineKept) {
      expect(online.body.error.code).to.equal('INSUFFICIENT_STOCK');
      await post(owner, '/sales', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] }); // still refused
    }
    const stock = (await get(owner, `/products/${pid}`)).quantity;
    expect(stock).to.equal(onlineKept ? -1 : 0);
    expect(synced!.data).to.deep.include({ needs_review: onlineKept, provisional_receipt_number: 'TILL1-000007', device_id: 'till-1', client_created_at: madeAt });
    expect((await get(owner, '/sync/conflicts?status=OPEN')).content).to.have.length(onlineKept ? 1 : 0);
  });

  it('the synced sale that finds no stock: accepted, stock below zero, flagged; online still refuses; corrected or voided on review', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 1);
    const online = await post(owner, '/sales', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] });
    expect(online.status, online.text).to.equal(201);
    const [synced] = await sync(owner, [{ id: randomUUID(), provisional_receipt_number: 'TILL1-000008', payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] }]);
    expect([synced!.status, synced!.http_status]).to.deep.equal(['applied', 201]);
    expect(synced!.data.needs_review).to.equal(true);
    expect((await get(owner, `/products/${pid}`)).quantity).to.equal(-1);
    // online sales keep refusing to oversell
    expect((await post(owner, '/sales', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] })).body.error.code).to.equal('INSUFFICIENT_STOCK');
    // both numbers find the sale
    expect(await get(owner, '/sales/receipts/TILL1-000008')).to.deep.include({ sale_id: synced!.data.id, provisional_receipt_number: 'TILL1-000008' });
    expect((await get(owner, `/sales/receipts/${synced!.data.receipt_number}`)).sale_id).to.equal(synced!.data.id);
    expect((await get(owner, '/sales?search=till1-000008')).content.map((s: { id: string }) => s.id)).to.deep.equal([synced!.data.id]);

    const conflicts = await get(owner, '/sync/conflicts?status=OPEN');
    expect(conflicts.content).to.have.length(1);
    const conflict = conflicts.content[0];
    expect(conflict).to.deep.include({ sale_id: synced!.data.id, product_id: pid, requested: 1, available: 0, shortfall: 1, status: 'OPEN', provisional_receipt_number: 'TILL1-000008' });
    const staffLike = await post(owner, `/sync/conflicts/${conflict.id}/resolve`, { resolution: 'VOID', quantity_change: 1 });
    expect(staffLike.status).to.equal(400);
    const resolved = await post(owner, `/sync/conflicts/${conflict.id}/resolve`, { resolution: 'STOCK_CORRECTION', quantity_change: 1, note: 'found one behind the counter' });
    expect(resolved.status, resolved.text).to.equal(200);
    expect(resolved.body.data).to.deep.include({ status: 'RESOLVED', resolution: 'STOCK_CORRECTION', quantity_change: 1 });
    expect((await get(owner, `/products/${pid}`)).quantity).to.equal(0);
    expect((await get(owner, `/sales/${synced!.data.id}`)).needs_review).to.equal(false);
    expect((await post(owner, `/sync/conflicts/${conflict.id}/resolve`, { resolution: 'VOID' })).body.error.code).to.equal('CONFLICT_ALREADY_RESOLVED');
    expect((await get(owner, '/sync/conflicts?status=OPEN')).content).to.have.length(0);

    // a second oversell, voided on review: its stock comes back and the sale is VOIDED
    const [again] = await sync(owner, [{ id: randomUUID(), payment_method: 'CASH', items: [{ product_id: pid, quantity: 2 }] }]);
    expect((await get(owner, `/products/${pid}`)).quantity).to.equal(-2);
    const open = (await get(owner, '/sync/conflicts?status=OPEN')).content[0];
    expect(open).to.deep.include({ requested: 2, available: 0, shortfall: 2 });
    const voided = await post(owner, `/sync/conflicts/${open.id}/resolve`, { resolution: 'VOID' });
    expect(voided.body.data).to.deep.include({ status: 'RESOLVED', resolution: 'VOID' });
    expect(await get(owner, `/sales/${again!.data.id}`)).to.deep.include({ status: 'VOIDED', needs_review: false });
    expect((await get(owner, `/products/${pid}`)).quantity).to.equal(0);
    // the ledger still sums to the stock
    const rows = (await get(owner, `/products/stock-adjustments?product_id=${pid}&limit=100`)).content as { quantity_change: number }[];
    expect(rows.reduce((n, r) => n + r.quantity_change, 0)).to.equal(0);
  });

  it('provisional numbers are the business\'s own (409 when taken) and only through the batch (400 on POST /sales)', async () => {
    const owner = await registerOwner(app);
    const pid = await product(owner, 10);
    const sale = { payment_method: 'CASH', provisional_receipt_number: 'TILL2-000001', items: [{ product_id: pid, quantity: 1 }] };
    expect((await post(owner, '/sales', sale)).status).to.equal(400);
    const [first, second] = await sync(owner, [sale, sale]);
    expect(first!.status).to.equal('applied');
    expect([second!.status, second!.error.code]).to.deep.equal(['rejected', 'PROVISIONAL_RECEIPT_NUMBER_TAKEN']);
  });

  it('offline sales count toward the Free month they are recorded in, whatever month their device claims: the excess of a batch is 402 per operation', async () => {
    const was = app.clock.now();
    app.clock.set(new Date('2026-11-25T10:00:00Z'));
    try {
      const owner = await registerOwner(app);
      const pid = await product(owner, 1000);
      const sale = (at: string) => ({ id: randomUUID(), client_created_at: at, payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] });
      const results = await sync(owner, Array.from({ length: 52 }, () => sale('2026-11-25T09:00:00Z')));
      expect(results.filter((r) => r.status === 'applied')).to.have.length(50);
      expect(results.slice(50).map((r) => [r.status, r.http_status, r.error.code])).to.deep.equal([
        ['rejected', 402, 'PLAN_LIMIT_EXCEEDED'],
        ['rejected', 402, 'PLAN_LIMIT_EXCEEDED'],
      ]);
      // a sale claimed in a closed month (October) counts in November's, which is full (docs/adr/0039)
      const october = await sync(owner, [sale('2026-10-31T22:30:00Z'), sale('2026-12-02T09:00:00Z')]);
      expect(october.map((r) => [r.status, r.error?.code])).to.deep.equal([['rejected', 'PLAN_LIMIT_EXCEEDED'], ['rejected', 'PLAN_LIMIT_EXCEEDED']]);
    } finally {
      app.clock.set(was);
    }
  });
});
