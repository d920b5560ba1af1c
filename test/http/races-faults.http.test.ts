import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgres } from '../../bootstrap/persistence.js';
import { createTestApp, putOnPlan, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

// More of issue 21's races (docs/adr/0012, 0017): faults injected where the API cannot produce them,
// the unit of work's deadlock retry, and the business-wide cap on outstanding credit.

type Owner = Awaited<ReturnType<typeof registerOwner>>;

const businessIdOf = async (app: TestApp, token: string) => (await app.request('GET', '/businesses/me', { token })).body.data.id as string;
const aProduct = async (app: TestApp, owner: Owner, body: Record<string, unknown>) => {
  const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk 400g', price: 1500, ...body } });
  expect(res.status, res.text).to.equal(201);
  return res.body.data as { id: string; sku: string; quantity: number };
};
const quantityOf = async (app: TestApp, owner: Owner, id: string) => (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data.quantity as number;
const saleCount = async (app: TestApp, owner: Owner) => (await app.request('GET', '/sales?limit=100', { token: owner.accessToken })).body.data.content.length as number;

/** SQL straight on the app's database (to inject a fault the API cannot produce). */
const sql = async (app: TestApp, text: string, params: unknown[] = []) => {
  const client = new pg.Client({ connectionString: app.databaseUrl! });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
};

describe('HTTP races: faults injected, deadlock retry, business-wide credit cap', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  describe('an idempotent request and its stored answer commit together', () => {
    it('the sale and its stored answer commit together: a failure storing the answer leaves no sale, and the retry sells once', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const product = await aProduct(app, owner, { quantity: 10 });
      const body = { payment_method: 'CASH', items: [{ product_id: product.id, quantity: 3 }] };
      const headers = { 'idempotency-key': 'atomic-1' };
      // the process "dies" just as the answer is stored: storing it fails
      await sql(app, `create or replace function fail_storing_answer() returns trigger language plpgsql as $$
        begin raise exception 'simulated crash while storing the answer'; end $$`);
      await sql(app, `create trigger fail_storing_answer before update of response_status on idempotency_keys
        for each row when (new.response_status is not null) execute function fail_storing_answer()`);
      try {
        const failed = await app.request('POST', '/sales', { token: owner.accessToken, body, headers });
        expect(failed.status, failed.text).to.equal(500);
        expect(await quantityOf(app, owner, product.id), 'no stock taken without a stored answer').to.equal(10);
        expect(await saleCount(app, owner)).to.equal(0);
      } finally {
        await sql(app, 'drop trigger fail_storing_answer on idempotency_keys');
      }
      const retry = await app.request('POST', '/sales', { token: owner.accessToken, body, headers });
      expect(retry.status, retry.text).to.equal(201);
      const replay = await app.request('POST', '/sales', { token: owner.accessToken, body, headers });
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(await quantityOf(app, owner, product.id)).to.equal(7);
      expect(await saleCount(app, owner)).to.equal(1);
    });

    it('the same holds for a credit payment and a stock adjustment (every idempotent route)', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const product = await aProduct(app, owner, { quantity: 10 });
      const customer = await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Chidi' } });
      expect(customer.status, customer.text).to.equal(201);
      const customerId = customer.body.data.id as string;
      const sale = await app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CREDIT', customer_id: customerId, items: [{ product_id: product.id, quantity: 1 }] } });
      expect(sale.status, sale.text).to.equal(201);
      await sql(app, `create or replace function fail_storing_answer() returns trigger language plpgsql as $$
        begin raise exception 'simulated crash while storing the answer'; end $$`);
      await sql(app, `create trigger fail_storing_answer before update of response_status on idempotency_keys
        for each row when (new.response_status is not null) execute function fail_storing_answer()`);
      try {
        const pay = await app.request('POST', `/customers/${customerId}/credit/payment`, { token: owner.accessToken, body: { amount: 500, payment_method: 'CASH' }, headers: { 'idempotency-key': 'pay-1' } });
        expect(pay.status, pay.text).to.equal(500);
        const adjust = await app.request('POST', '/products/stock-adjustment', { token: owner.accessToken, body: { product_id: product.id, quantity_change: 5, reason: 'RESTOCK' }, headers: { 'idempotency-key': 'adj-1' } });
        expect(adjust.status, adjust.text).to.equal(500);
      } finally {
        await sql(app, 'drop trigger fail_storing_answer on idempotency_keys');
      }
      expect((await app.request('GET', `/customers/${customerId}/credit`, { token: owner.accessToken })).body.data.balance).to.equal(1500);
      expect(await quantityOf(app, owner, product.id)).to.equal(9);
    });
  });

  describe('deadlocks', () => {
    it('a transaction chosen as a deadlock victim runs once more (unit of work)', async () => {
      const owner = await registerOwner(app);
      const businessId = await businessIdOf(app, owner.accessToken);
      const a = await aProduct(app, owner, { quantity: 100 });
      const b = await aProduct(app, owner, { quantity: 100 });
      const dataDir = mkdtempSync(join(tmpdir(), 'races-'));
      const persistence = await openPostgres({ databaseUrl: app.databaseUrl!, dataDir, poolMax: 4, log: () => undefined });
      try {
        // Two transactions take the same two rows in opposite order; each waits (at most 1 s) until
        // the other holds its first row, so on PostgreSQL they deadlock. On PGlite they run one after the other.
        let holding = 0;
        let attempts = 0;
        const bothHolding = async () => {
          holding += 1;
          for (let waited = 0; holding < 2 && waited < 1000; waited += 10) await new Promise((r) => setTimeout(r, 10));
        };
        const move = (first: string, second: string) =>
          persistence.uow.run(async (r) => {
            attempts += 1;
            const main = (await r.branches.findDefault(businessId)).id;
            await r.products.changeQuantity(businessId, first, main, -1, new Date());
            await bothHolding();
            await r.products.changeQuantity(businessId, second, main, -1, new Date());
            return 'done';
          });
        expect(await Promise.all([move(a.id, b.id), move(b.id, a.id)])).to.deep.equal(['done', 'done']);
        expect(await quantityOf(app, owner, a.id)).to.equal(98);
        expect(await quantityOf(app, owner, b.id)).to.equal(98);
        if (process.env.TEST_DATABASE_URL) expect(attempts, 'a victim ran again').to.be.at.least(3);

        // a second deadlock in a row is not hidden: the fault reaches the caller
        let tries = 0;
        const failure = await persistence.uow
          .run(async () => {
            tries += 1;
            throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
          })
          .catch((e: unknown) => e);
        expect((failure as Error).message).to.equal('deadlock detected');
        expect(tries).to.equal(2);
      } finally {
        await persistence.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });

  describe('outstanding credit of the whole business', () => {
    it('the customers together owe at most 2^53 kobo: the credit sale past it is 422, and the aging totals stay exact', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const MAX_NAIRA = 1_000_000_000_000;
      const crown = await aProduct(app, owner, { name: 'Crown', price: MAX_NAIRA, quantity: 1000 });
      const newCustomer = async (name: string) => (await app.request('POST', '/customers', { token: owner.accessToken, body: { name } })).body.data.id as string;
      const onCredit = (customerId: string) =>
        app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CREDIT', customer_id: customerId, items: [{ product_id: crown.id, quantity: 1 }] } });
      // 2^53 kobo is 90.07 customers owing the maximum each: of 91, in batches at once, exactly one is refused
      const customers = await Promise.all(Array.from({ length: 91 }, (_, i) => newCustomer(`Customer ${i}`)));
      const answers: TestResponse[] = [];
      for (let i = 0; i < customers.length; i += 10) answers.push(...(await Promise.all(customers.slice(i, i + 10).map(onCredit))));
      expect(answers.filter((a) => a.status === 201)).to.have.length(90);
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused.map((a) => a.body?.error?.code), refused.map((a) => a.text).join('\n')).to.deep.equal(['CREDIT_BALANCE_LIMIT_EXCEEDED']);
      const aging = await app.request('GET', '/credit/aging-report?limit=100', { token: owner.accessToken });
      expect(aging.status, aging.text).to.equal(200);
      expect(aging.body.data.totals.total).to.equal(90 * MAX_NAIRA);
      expect(Number.isSafeInteger(aging.body.data.totals.total * 100)).to.equal(true);
    });
  });
});
