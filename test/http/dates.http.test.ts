import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 32: dates that are not on the calendar are 400 (not 500, not moved to another day), and the
// date-times other languages write (6 or 9 fraction digits, offsets) are taken (docs/adr/0047).

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Res = { status: number; text: string; body: { error?: { code: string; errors?: { field: string; message: string }[] } } };

const expect400 = (res: Res, field: string) => {
  expect(res.status, res.text).to.equal(400);
  expect(res.body.error?.code, res.text).to.equal('VALIDATION_FAILED');
  expect(res.body.error?.errors?.map((e) => e.field), res.text).to.include(field);
};

describe('HTTP dates: real calendar dates only, RFC 3339 date-times of any precision', () => {
  let app: TestApp;
  let owner: Owner;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
  });
  after(async () => app.close());

  const get = (path: string) => app.request('GET', path, { token: owner.accessToken });
  const post = (o: Owner, path: string, body: object) => app.request('POST', path, { token: o.accessToken, body });

  it('a day that is not on the calendar is 400 VALIDATION_FAILED on every route that takes a day, never 500', async () => {
    const bad = ['2026-13-01', '2026-00-10', '2026-12-32', '2026-02-29', '2026-04-31', '2026-13-45'];
    const routes = ['/expenses/summary', '/expenses', '/sales', '/products', '/customers', '/reports/dashboard', '/reports/sales/export'];
    for (const path of routes) {
      for (const day of bad) {
        for (const param of ['start_date', 'end_date']) expect400(await get(`${path}?${param}=${day}`), param);
      }
    }
    // a date-time on a day that is not on the calendar, on a list (which takes both)
    expect400(await get('/sales?start_date=2026-02-30T10:00:00Z'), 'start_date');
    expect400(await get('/expenses?end_date=2026-11-28T24:00:00Z'), 'end_date');
    // the real days next to them still answer
    expect((await get('/expenses/summary?start_date=2024-02-29&end_date=2026-12-31')).status).to.equal(200);
    expect((await get('/sales?start_date=2026-11-28T10:00:00.123456Z&end_date=2026-11-28T12:00:00.123456789%2B01:00')).status).to.equal(200);
  });

  it('an expense spent on a day that is not on the calendar is 400, not another day', async () => {
    const category = ((await get('/expenses/categories')).body.data.content as { id: string }[])[0]!.id;
    expect400(await post(owner, '/expenses', { category_id: category, amount: 100, spent_on: '2026-02-30' }), 'spent_on');
  });

  it('client_created_at on an impossible day is 400 on POST /customers and a rejected operation in a sync batch', async () => {
    expect400(await post(owner, '/customers', { id: randomUUID(), client_created_at: '2026-02-30T10:00:00.000Z', name: 'Feb', phone: aPhone() }), 'client_created_at');
    const res = await post(owner, '/sync/batch', {
      device_id: 'till-dates',
      operations: [{ op_id: randomUUID(), type: 'customer.create', payload: { id: randomUUID(), client_created_at: '2026-02-30T10:00:00.000Z', name: 'Feb', phone: aPhone() } }],
    });
    expect(res.status, res.text).to.equal(200);
    const [result] = res.body.data.results;
    expect(result.status).to.equal('rejected');
    expect(result.http_status).to.equal(400);
    expect(result.error.code).to.equal('VALIDATION_FAILED');
    expect(result.error.errors.map((e: { field: string }) => e.field)).to.include('client_created_at');
  });

  it('the OpenAPI document states client_created_at\'s format and its 2000-2099 bound', async () => {
    const doc = (await app.request('GET', '/api/v1/api-docs')).body;
    const schema = doc.components.schemas.CreateCustomerRequest.properties.client_created_at;
    expect(schema.description).to.contain('2000-01-01T00:00:00Z').and.contain('2100-01-01T00:00:00Z').and.contain('9 fraction');
    expect(schema.pattern).to.match(/^\^20/);
    for (const ok of ['2026-11-28T10:00:00.123456Z', '2026-11-28T10:00:00.123456789+01:00']) expect(new RegExp(schema.pattern).test(ok), ok).to.equal(true);
    expect(new RegExp(schema.pattern).test('1999-12-31T23:59:59Z')).to.equal(false);
  });

  it('client_created_at with 6 or 9 fraction digits and an offset is taken, cut (not rounded) to the millisecond', async () => {
    // the business exists from 09:55 UTC; the till's times below are after that and before now
    app.clock.set(new Date('2026-11-20T09:55:00.000Z'));
    const till = await registerOwner(app);
    app.clock.set(new Date('2026-11-20T10:03:00.000Z'));
    const pid = (await post(till, '/products', { name: 'Peak Milk', price: 1500, quantity: 10 })).body.data.id as string;
    const customer = await post(till, '/customers', { id: randomUUID(), client_created_at: '2026-11-20T10:00:00.123456Z', name: 'Python till', phone: aPhone() });
    expect(customer.status, customer.text).to.equal(201);
    const sale = (clientCreatedAt: string) => ({
      op_id: randomUUID(),
      type: 'sale.create',
      payload: { id: randomUUID(), client_created_at: clientCreatedAt, payment_method: 'CASH', items: [{ product_id: pid, quantity: 1 }] },
    });
    const res = await post(till, '/sync/batch', {
      device_id: 'till-java',
      operations: [sale('2026-11-20T10:00:00.123456Z'), sale('2026-11-20T11:01:00.987654321+01:00'), sale('2026-11-20T10:02:59.9999Z')],
    });
    expect(res.status, res.text).to.equal(200);
    const results = res.body.data.results as { status: string; data: { client_created_at: string } }[];
    expect(results.map((r) => r.status), res.text).to.deep.equal(['applied', 'applied', 'applied']);
    expect(results.map((r) => r.data.client_created_at)).to.deep.equal(['2026-11-20T10:00:00.123Z', '2026-11-20T10:01:00.987Z', '2026-11-20T10:02:59.999Z']);
  });
});
