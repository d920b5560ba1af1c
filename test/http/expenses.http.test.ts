import { expect } from 'chai';
import { DEFAULT_EXPENSE_CATEGORIES } from '../../domain/expense.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

type Owner = Awaited<ReturnType<typeof registerOwner>>;

/** Invites a STAFF member and signs them in. */
const inviteStaff = async (app: TestApp, owner: Owner) => {
  const phone = aPhone();
  const invite = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade', role: 'STAFF' } });
  expect(invite.status, invite.text).to.equal(201);
  await app.request('POST', '/auth/login', { body: { phone } });
  const signIn = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
  return { userId: invite.body.data.user_id as string, accessToken: signIn.body.data.access_token as string };
};

describe('HTTP expenses', function () {
  this.timeout(120_000);
  let app: TestApp;
  let owner: Owner;
  let categories: Record<string, string>;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    app.clock.set(new Date('2026-11-22T10:00:00.000Z')); // 11:00 on 22 November in Lagos
    const list = await app.request('GET', '/expenses/categories?limit=100', { token: owner.accessToken });
    categories = Object.fromEntries((list.body.data.content as { id: string; name: string }[]).map((c) => [c.name, c.id]));
  });
  after(async () => app.close());

  const post = (body: Record<string, unknown>, token = owner.accessToken, headers: Record<string, string> = {}) =>
    app.request('POST', '/expenses', { token, body: { category_id: categories.Rent, amount: 1500, description: 'Shop rent', payment_method: 'TRANSFER', ...body }, headers });
  const record = async (body: Record<string, unknown>, token = owner.accessToken) => {
    const res = await post(body, token);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; spent_on: string; amount: number };
  };
  const get = (path: string, token = owner.accessToken) => app.request('GET', path, { token });

  it('a new business has the default categories; GET lists them by name with sort_by=name', async () => {
    const res = await get('/expenses/categories?sort_by=name&sort_dir=asc&limit=100');
    expect(res.status).to.equal(200);
    expect(res.body.data.content.map((c: { name: string }) => c.name)).to.deep.equal([...DEFAULT_EXPENSE_CATEGORIES].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(res.body.data.content.every((c: { is_default: boolean }) => c.is_default)).to.equal(true);
  });

  it('POST /expenses: 201 with the expense; today in Lagos by default; the caller\'s branch; read back by GET', async () => {
    const e = await record({ amount: 2500.75, vendor: 'Mr Ade', reference: 'INV-7' });
    expect(e).to.include({ amount: 2500.75, spent_on: '2026-11-22', category: 'Rent', category_id: categories.Rent, vendor: 'Mr Ade', reference: 'INV-7', payment_method: 'TRANSFER', created_by: owner.userId });
    const me = await get('/businesses/me/branches');
    expect((e as unknown as { branch_id: string }).branch_id).to.equal(me.body.data.content[0].id);
    expect((await get(`/expenses/${e.id}`)).body.data).to.deep.equal(e);
  });

  it('amounts: 0 and -1 are 422 AMOUNT_MUST_BE_POSITIVE; a fraction of a kobo, a huge amount, a string are 400', async () => {
    for (const amount of [0, -1]) {
      const res = await post({ amount });
      expect(res.status, `${amount}`).to.equal(422);
      expect(res.body.error.code).to.equal('AMOUNT_MUST_BE_POSITIVE');
      expect(res.body.error.errors).to.deep.equal([{ field: 'amount', message: 'must be more than zero' }]);
    }
    for (const amount of [0.001, 1.005, 1e13, 2 ** 53, '100']) expect((await post({ amount })).status, `${amount}`).to.equal(400);
    expect((await post({ amount: 1_000_000_000_000 })).status).to.equal(201);
  });

  it('spent_on: after today in Lagos is 422 SPENT_ON_IN_FUTURE (at 23:30 UTC the Lagos day is already tomorrow); not a date is 400', async () => {
    const future = await post({ spent_on: '2026-11-23' });
    expect(future.status).to.equal(422);
    expect(future.body.error.code).to.equal('SPENT_ON_IN_FUTURE');
    expect(future.body.error.errors[0].field).to.equal('spent_on');
    for (const spent_on of ['2026-02-30', '22/11/2026', '2026-11-22T10:00:00Z', '0000-01-01', 20261122]) expect((await post({ spent_on })).status, `${spent_on}`).to.equal(400);
    app.clock.set(new Date('2026-11-22T23:30:00.000Z'));
    try {
      expect((await record({ spent_on: '2026-11-23' })).spent_on).to.equal('2026-11-23');
      expect((await record({})).spent_on).to.equal('2026-11-23');
    } finally {
      app.clock.set(new Date('2026-11-22T10:00:00.000Z'));
    }
  });

  it('unknown category 422 UNKNOWN_CATEGORY; unknown branch 422 UNKNOWN_BRANCH; NUL in text, unknown fields, missing fields 400', async () => {
    const unknown = '5b0e6f0c-1f43-4a8e-9d9c-0c3c1c1f2a11';
    const cat = await post({ category_id: unknown });
    expect([cat.status, cat.body.error.code]).to.deep.equal([422, 'UNKNOWN_CATEGORY']);
    const branch = await post({ branch_id: unknown });
    expect([branch.status, branch.body.error.code]).to.deep.equal([422, 'UNKNOWN_BRANCH']);
    expect((await post({ description: 'a\u0000b' })).status).to.equal(400);
    expect((await post({ vendor: '\u0000' })).status).to.equal(400);
    expect((await post({ reference: 'x\u0000' })).status).to.equal(400);
    expect((await post({ created_by: owner.userId })).status).to.equal(400);
    expect((await post({ payment_method: 'CREDIT' })).status).to.equal(400);
    expect((await app.request('POST', '/expenses', { token: owner.accessToken, body: { amount: 5 } })).status).to.equal(400);
    expect((await post({ category_id: 'not-a-uuid' })).status).to.equal(400);
  });

  it('Idempotency-Key: the same body replays the first answer (one expense); another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = `exp-${Date.now()}`;
    const body = { amount: 777.77, description: 'Idempotent diesel', category_id: categories['Fuel and generator'] };
    const first = await post(body, owner.accessToken, { 'Idempotency-Key': key });
    const again = await post(body, owner.accessToken, { 'Idempotency-Key': key });
    expect(first.status).to.equal(201);
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.data).to.deep.equal(first.body.data);
    const reused = await post({ ...body, amount: 1 }, owner.accessToken, { 'Idempotency-Key': key });
    expect([reused.status, reused.body.error.code]).to.deep.equal([422, 'IDEMPOTENCY_KEY_REUSED']);
    const found = await get('/expenses?search=Idempotent%20diesel');
    expect(found.body.data.content).to.have.length(1);
  });

  it('STAFF record and read their own only; another member\'s is 404; PUT and DELETE are 403; the summary counts their own', async () => {
    const staff = await inviteStaff(app, owner);
    const mine = await record({ amount: 10, description: 'Staff transport' }, staff.accessToken);
    const owners = await record({ amount: 20, description: 'Owner transport' });
    expect((await get(`/expenses/${mine.id}`, staff.accessToken)).status).to.equal(200);
    const other = await get(`/expenses/${owners.id}`, staff.accessToken);
    expect([other.status, other.body.error.code]).to.deep.equal([404, 'RESOURCE_NOT_FOUND']);
    const list = await get('/expenses?limit=100', staff.accessToken);
    expect(list.body.data.content.map((e: { id: string }) => e.id)).to.deep.equal([mine.id]);
    expect((await get(`/expenses?created_by=${owner.userId}`, staff.accessToken)).body.data.content).to.deep.equal([]);
    for (const [method, body] of [['PUT', { amount: 5 }], ['DELETE', undefined]] as const) {
      const res = await app.request(method, `/expenses/${mine.id}`, { token: staff.accessToken, ...(body ? { body } : {}) });
      expect([res.status, res.body.error.code]).to.deep.equal([403, 'INSUFFICIENT_ROLE']);
    }
    const summary = await get('/expenses/summary', staff.accessToken);
    expect(summary.body.data).to.deep.include({ total: 10, count: 1 });
    const forbidden = await app.request('POST', '/expenses/categories', { token: staff.accessToken, body: { name: 'Staff made' } });
    expect(forbidden.status).to.equal(403);
    expect((await get('/expenses/categories', staff.accessToken)).status).to.equal(200);
  });

  it('PUT changes the fields given under the same rules; DELETE is soft: then 404, out of lists and the summary', async () => {
    const e = await record({ amount: 300, description: 'To change', vendor: 'V' });
    const changed = await app.request('PUT', `/expenses/${e.id}`, { token: owner.accessToken, body: { amount: 350.5, vendor: null, category_id: categories.Marketing, spent_on: '2026-11-01' } });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body.data).to.include({ amount: 350.5, vendor: null, category: 'Marketing', spent_on: '2026-11-01', description: 'To change' });
    expect((await app.request('PUT', `/expenses/${e.id}`, { token: owner.accessToken, body: { amount: 0 } })).body.error.code).to.equal('AMOUNT_MUST_BE_POSITIVE');
    expect((await app.request('PUT', `/expenses/${e.id}`, { token: owner.accessToken, body: { spent_on: '2026-12-01' } })).body.error.code).to.equal('SPENT_ON_IN_FUTURE');
    expect((await app.request('PUT', `/expenses/${e.id}`, { token: owner.accessToken, body: { id: e.id } })).status).to.equal(400);
    const before = (await get('/expenses/summary?start_date=2026-11-01&end_date=2026-11-01')).body.data;
    expect(before).to.deep.include({ total: 350.5, count: 1 });
    const del = await app.request('DELETE', `/expenses/${e.id}`, { token: owner.accessToken });
    expect(del.status).to.equal(200);
    expect(del.body.data).to.deep.equal({ id: e.id, deleted_at: '2026-11-22T10:00:00.000Z' });
    expect((await get(`/expenses/${e.id}`)).status).to.equal(404);
    expect((await app.request('DELETE', `/expenses/${e.id}`, { token: owner.accessToken })).status).to.equal(404);
    expect((await app.request('PUT', `/expenses/${e.id}`, { token: owner.accessToken, body: { amount: 1 } })).status).to.equal(404);
    expect((await get('/expenses/summary?start_date=2026-11-01&end_date=2026-11-01')).body.data).to.deep.include({ total: 0, count: 0, groups: [] });
    expect((await get('/expenses?limit=100')).body.data.content.map((x: { id: string }) => x.id)).to.not.include(e.id);
    expect((await get('/expenses/not-a-uuid')).status).to.equal(404);
  });

  it('a category deleted while expenses are recorded under it: each answer is 201, 422 UNKNOWN_CATEGORY, 200 or 409 CATEGORY_IN_USE, never 500', async () => {
    const temp = (await app.request('POST', '/expenses/categories', { token: owner.accessToken, body: { name: 'Race' } })).body.data.id as string;
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => post({ category_id: temp, amount: 1 })),
      app.request('DELETE', `/expenses/categories/${temp}`, { token: owner.accessToken }),
    ]);
    const deleted = answers[6]!;
    const recorded = answers.slice(0, 6).filter((a) => a.status === 201).length;
    for (const a of answers.slice(0, 6)) expect([201, 422], a.text).to.include(a.status);
    if (deleted.status === 200) expect(recorded).to.equal(0);
    else expect([deleted.status, deleted.body.error.code, recorded > 0]).to.deep.equal([409, 'CATEGORY_IN_USE', true]);
  });

  it('a branch with expenses is archived, not erased, when deleted; an archived branch is 422 UNKNOWN_BRANCH for a new expense', async () => {
    const branch = (await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: 'Kiosk' } })).body.data.id as string;
    expect((await record({ branch_id: branch }) as unknown as { branch_id: string }).branch_id).to.equal(branch);
    const businessId = (await get('/businesses/me')).body.data.id as string;
    const del = await app.request('DELETE', `/businesses/${businessId}/branches/${branch}`, { token: owner.accessToken });
    expect([del.status, del.body.data.archived]).to.deep.equal([200, true]);
    const refused = await post({ branch_id: branch });
    expect([refused.status, refused.body.error.code]).to.deep.equal([422, 'UNKNOWN_BRANCH']);
    expect((await get(`/expenses?branch_id=${branch}`)).body.data.content).to.have.length(1);
  });
});
