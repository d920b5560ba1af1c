import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 31: the Free plan's month cap is not bypassed through offline sync. A synced sale counts in the
// month it is recorded in, and the time its device claims is bounded: not before the business, not before
// the device's previous sync, not beyond 5 minutes ahead (docs/adr/0039).

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Result = { op_id: string; status: string; http_status: number; data?: any; error?: any };

describe('HTTP offline sync: the plan month and the claimed time of a synced sale', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());
  let was: Date;
  beforeEach(() => {
    was = app.clock.now();
    app.clock.set(new Date('2026-11-20T10:00:00.000Z')); // 11:00 in Lagos, mid-month
  });
  afterEach(() => app.clock.set(was));

  const post = (owner: Owner, path: string, body: object) => app.request('POST', path, { token: owner.accessToken, body });
  const get = async (owner: Owner, path: string) => {
    const res = await app.request('GET', path, { token: owner.accessToken });
    expect(res.status, res.text).to.equal(200);
    return res.body.data;
  };
  const sync = async (owner: Owner, payloads: Record<string, unknown>[], device_id = 'till-1') => {
    const res = await post(owner, '/sync/batch', { device_id, operations: payloads.map((payload) => ({ op_id: randomUUID(), type: 'sale.create', payload })) });
    expect(res.status, res.text).to.equal(200);
    return res.body.data.results as Result[];
  };
  const shop = async () => {
    const owner = await registerOwner(app);
    const pid = (await post(owner, '/products', { name: 'Golden Penny Semovita 1kg', price: 1500, quantity: 1000 })).body.data.id as string;
    const sale = (at: string) => ({ id: randomUUID(), client_created_at: at, payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] });
    return { owner, pid, sale };
  };
  /** One client_created_at a month from January 2018: 100 of them reach April 2026. */
  const monthly = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2018, i, 15, 9)).toISOString());
  const usage = async (owner: Owner) => (await get(owner, '/businesses/me')).plan_usage as { sales_this_month: number; sales_remaining: number };
  const salesToday = async (owner: Owner) => ((await get(owner, '/reports/daily-summary')) as { sales: { count: number } }).sales.count;

  it('50 sales, a 402, then 100 back-dated sales synced one a month from 2018: each is refused 402 PLAN_LIMIT_EXCEEDED; usage and the daily summary agree', async () => {
    const { owner, pid, sale } = await shop();
    for (let i = 0; i < 50; i += 1) {
      const res = await post(owner, '/sales', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] });
      expect(res.status, res.text).to.equal(201);
    }
    const refused = await post(owner, '/sales', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] });
    expect([refused.status, refused.body.error.code]).to.deep.equal([402, 'PLAN_LIMIT_EXCEEDED']);

    const results = await sync(owner, monthly(100).map(sale));
    expect(results).to.have.length(100);
    for (const r of results) expect([r.status, r.http_status, r.error?.code]).to.deep.equal(['rejected', 402, 'PLAN_LIMIT_EXCEEDED']);
    expect(await usage(owner)).to.include({ sales_this_month: 50, sales_remaining: 0 });
    expect(await salesToday(owner)).to.equal(50);
    expect((await get(owner, '/sales?limit=1')).content).to.have.length(1);
  });

  it('a batch that crosses the cap: the back-dated sales up to it are applied in this month, those past it refused; usage and the daily summary agree', async () => {
    const { owner, pid, sale } = await shop();
    for (let i = 0; i < 45; i += 1) expect((await post(owner, '/sales', { payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] })).status).to.equal(201);
    const results = await sync(owner, monthly(10).map(sale));
    expect(results.map((r) => r.status)).to.deep.equal([...Array(5).fill('applied'), ...Array(5).fill('rejected')]);
    expect(results.slice(5).map((r) => r.error.code)).to.deep.equal(Array(5).fill('PLAN_LIMIT_EXCEEDED'));
    expect(await usage(owner)).to.include({ sales_this_month: 50, sales_remaining: 0 });
    expect(await salesToday(owner)).to.equal(50);
    // no earlier month counts them: the next Lagos month starts afresh at 0 and a synced sale counts there
    app.clock.set(new Date('2026-12-01T09:00:00.000Z'));
    expect(await usage(owner)).to.include({ sales_this_month: 0 });
    const [december] = await sync(owner, [sale('2026-11-25T09:00:00.000Z')], 'till-2');
    expect(december!.status).to.equal('applied');
    expect(await usage(owner)).to.include({ sales_this_month: 1 });
  });

  it('a sale claimed before the business existed is kept at the business\'s creation (sync and POST /sales alike)', async () => {
    const { owner, sale } = await shop();
    const [synced] = await sync(owner, [sale('2019-03-01T08:00:00.000Z')]);
    expect(synced!.status, JSON.stringify(synced)).to.equal('applied');
    expect(synced!.data.client_created_at).to.equal('2026-11-20T10:00:00.000Z'); // the business was created at the clock's now
    const online = await post(owner, '/sales', sale('2019-03-01T08:00:00.000Z'));
    expect(online.status, online.text).to.equal(201);
    expect(online.body.data.created_at).to.equal('2026-11-20T10:00:00.000Z');
    expect(await usage(owner)).to.include({ sales_this_month: 2 });
  });

  it('a sale claimed in the future: up to 5 minutes ahead is kept (clock skew), further is now', async () => {
    const { owner, sale } = await shop();
    app.clock.advance(3_600_000);
    const [skewed, ahead] = await sync(owner, [sale('2026-11-20T11:04:00.000Z'), sale('2027-01-01T00:00:00.000Z')]);
    expect([skewed!.status, skewed!.data.client_created_at]).to.deep.equal(['applied', '2026-11-20T11:04:00.000Z']);
    expect([ahead!.status, ahead!.data.client_created_at]).to.deep.equal(['applied', '2026-11-20T11:00:00.000Z']);
  });

  it("a sale claimed before its device's previous sync is kept at that sync; batches of one sync and other devices are not held to it", async () => {
    const { owner, sale } = await shop();
    app.clock.set(new Date('2026-11-20T12:00:00.000Z'));
    const [first] = await sync(owner, [sale('2026-11-20T11:30:00.000Z')]);
    expect(first!.data.client_created_at).to.equal('2026-11-20T11:30:00.000Z');
    // the same sync's next batch (a queue of more than 100) may carry older sales
    app.clock.advance(60_000);
    const [chunk] = await sync(owner, [sale('2026-11-20T11:00:00.000Z')]);
    expect(chunk!.data.client_created_at).to.equal('2026-11-20T11:00:00.000Z');
    // two hours later: a sale the device says it made before its previous sync
    app.clock.set(new Date('2026-11-20T14:00:00.000Z'));
    const [late] = await sync(owner, [sale('2026-11-20T10:30:00.000Z')]);
    expect([late!.status, late!.data.client_created_at]).to.deep.equal(['applied', '2026-11-20T12:01:00.000Z']);
    const [other] = await sync(owner, [sale('2026-11-20T10:30:00.000Z')], 'till-2');
    expect(other!.data.client_created_at).to.equal('2026-11-20T10:30:00.000Z');
  });

  it('the OpenAPI document says how a synced sale counts and how its claimed time is bounded', () => {
    const doc = app.openApi as { paths: Record<string, Record<string, { description: string }>>; components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> } };
    const batch = doc.paths['/sync/batch']!.post!.description;
    for (const words of ['synced in', 'PLAN_LIMIT_EXCEEDED', 'previous sync', '5 minutes', 'nearest bound']) expect(batch).to.include(words);
    const claimed = doc.components.schemas.SaleRequest!.properties.client_created_at!.description!;
    for (const words of ['before the business was created', "device's previous sync", '5 minutes']) expect(claimed).to.include(words);
  });
});
