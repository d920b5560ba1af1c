import { expect } from 'chai';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idempotencyRequestHash } from '../../adapters/http/app.js';
import { openPostgres } from '../../bootstrap/persistence.js';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp, type TestResponse } from '../support/test-app.js';

// Races found by an attack on the running API (issue 21). On PostgreSQL the requests really run at
// once; on the embedded PGlite they are serialised, and the same answers must come out.

type Owner = Awaited<ReturnType<typeof registerOwner>>;

const inviteOwner = async (app: TestApp, owner: Owner, signIn: boolean) => {
  const phone = aPhone();
  const invite = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade', role: 'BUSINESS_OWNER' } });
  expect(invite.status, invite.text).to.equal(201);
  if (!signIn) return { memberId: invite.body.data.id as string, accessToken: '' };
  await app.request('POST', '/auth/login', { body: { phone } });
  const verify = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } });
  expect(verify.status, verify.text).to.equal(200);
  return { memberId: invite.body.data.id as string, accessToken: verify.body.data.access_token as string };
};
/** The caller's own membership id, found in the staff list by their user id. */
const ownMemberId = async (app: TestApp, owner: Owner) => {
  const staff = await app.request('GET', '/businesses/staff?limit=100', { token: owner.accessToken });
  return (staff.body.data.content as { id: string; user_id: string }[]).find((m) => m.user_id === owner.userId)!.id;
};
const businessIdOf = async (app: TestApp, token: string) => (await app.request('GET', '/businesses/me', { token })).body.data.id as string;
const aProduct = async (app: TestApp, owner: Owner, body: Record<string, unknown>) => {
  const res = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk 400g', price: 1500, ...body } });
  expect(res.status, res.text).to.equal(201);
  return res.body.data as { id: string; sku: string; quantity: number };
};
const statusesOf = (responses: TestResponse[]) => responses.map((r) => r.status);
const quantityOf = async (app: TestApp, owner: Owner, id: string) => (await app.request('GET', `/products/${id}`, { token: owner.accessToken })).body.data.quantity as number;
const saleCount = async (app: TestApp, owner: Owner) => (await app.request('GET', '/sales?limit=100', { token: owner.accessToken })).body.data.content.length as number;

/** SQL straight on the app's database (to set up a crash the API cannot produce). */
const sql = async <R = Record<string, unknown>>(app: TestApp, text: string, params: unknown[] = []): Promise<R[]> => {
  const client = new pg.Client({ connectionString: app.databaseUrl! });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as R[];
  } finally {
    await client.end();
  }
};

/**
 * One of two owners' mutual removals went through; the other was refused: 409 LAST_OWNER when both
 * ran at once, or refused at the door (401/403) when it came after the first had committed.
 * Either way the business still has exactly one active owner.
 */
const expectOneOwnerLeft = async (app: TestApp, answers: TestResponse[], owners: { accessToken: string }[], refusals: string[]) => {
  const texts = answers.map((a) => a.text).join('\n');
  expect(answers.filter((a) => a.status === 200), texts).to.have.length(1);
  const refused = answers.find((a) => a.status !== 200)!;
  expect(refusals, texts).to.include(refused.body?.error?.code);
  const survivor = owners[answers.indexOf(refused) === 0 ? 1 : 0]!; // the one whose removal was refused
  const staff = await app.request('GET', '/businesses/staff?status=ACTIVE', { token: survivor.accessToken });
  expect(staff.status, staff.text).to.equal(200);
  expect((staff.body.data.content as { role: string }[]).filter((m) => m.role === 'BUSINESS_OWNER')).to.have.length(1);
};

describe('HTTP races (issue 21)', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  describe('the last owner', () => {
    it('two owners removing each other at once: one is refused 409 LAST_OWNER (5 trials)', async () => {
      for (let trial = 0; trial < 5; trial++) {
        const first = await registerOwner(app);
        const second = await inviteOwner(app, first, true);
        const firstId = await ownMemberId(app, first);
        const answers = await Promise.all([
          app.request('DELETE', `/staff/${second.memberId}`, { token: first.accessToken }),
          app.request('DELETE', `/staff/${firstId}`, { token: second.accessToken }),
        ]);
        await expectOneOwnerLeft(app, answers, [first, second], ['LAST_OWNER', 'ACCOUNT_DEACTIVATED']);
      }
    });

    it('two owners demoting each other at once: one is refused 409 LAST_OWNER (5 trials)', async () => {
      for (let trial = 0; trial < 5; trial++) {
        const first = await registerOwner(app);
        const second = await inviteOwner(app, first, true);
        const firstId = await ownMemberId(app, first);
        const answers = await Promise.all([
          app.request('PUT', `/staff/${second.memberId}`, { token: first.accessToken, body: { role: 'STAFF' } }),
          app.request('PUT', `/staff/${firstId}`, { token: second.accessToken, body: { role: 'STAFF' } }),
        ]);
        await expectOneOwnerLeft(app, answers, [first, second], ['LAST_OWNER', 'INSUFFICIENT_ROLE']);
      }
    });

    it('an invited owner who never signed in does not count as the remaining owner', async () => {
      const first = await registerOwner(app);
      const invited = await inviteOwner(app, first, false);
      const demote = await app.request('PUT', `/staff/${await ownMemberId(app, first)}`, { token: first.accessToken, body: { role: 'STAFF' } });
      expect(demote.status, demote.text).to.equal(409);
      expect(demote.body.error.code).to.equal('LAST_OWNER');
      // the invited owner can still be removed: they are not the one keeping the business owned
      expect((await app.request('DELETE', `/staff/${invited.memberId}`, { token: first.accessToken })).status).to.equal(200);
    });
  });

  describe('idempotency keys after a crash', () => {
    it('a claim left unfinished by a dead process answers 409 only for its lease, then a retry runs the sale once', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const businessId = await businessIdOf(app, owner.accessToken);
      const product = await aProduct(app, owner, { quantity: 10 });
      const body = { payment_method: 'CASH', items: [{ product_id: product.id, quantity: 2 }] };
      // what a process killed after claiming the key leaves behind
      await sql(app, 'insert into idempotency_keys (business_id, key, request_hash, created_at, claimed_at, claim_token) values ($1, $2, $3, $4, $4, $5)', [
        businessId, 'crashed-1', idempotencyRequestHash('POST', '/api/v1/sales', body), app.clock.now(), 'dead-process',
      ]);
      const headers = { 'idempotency-key': 'crashed-1' };
      const early = await app.request('POST', '/sales', { token: owner.accessToken, body, headers });
      expect(early.status, early.text).to.equal(409);
      expect(early.body.error.code).to.equal('IDEMPOTENCY_IN_PROGRESS');
      app.clock.advance(app.config.IDEMPOTENCY_LEASE_MS + 1);
      const retry = await app.request('POST', '/sales', { token: owner.accessToken, body, headers });
      expect(retry.status, retry.text).to.equal(201);
      const again = await app.request('POST', '/sales', { token: owner.accessToken, body, headers });
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.data.id).to.equal(retry.body.data.id);
      expect(await quantityOf(app, owner, product.id)).to.equal(8);
      expect(await saleCount(app, owner)).to.equal(1);
    });

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
        const pay = await app.request('POST', `/customers/${customerId}/credit/payment`, { token: owner.accessToken, body: { amount: 500, method: 'CASH' }, headers: { 'idempotency-key': 'pay-1' } });
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
    const importCsv = (owner: Owner, csv: string) =>
      app.request('POST', '/products/import', { token: owner.accessToken, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    const csvOf = (skus: string[], quantity: number) => `sku,name,price,quantity\n${skus.map((sku) => `${sku},Item ${sku},100,${quantity}`).join('\n')}\n`;

    it('two imports of the same skus in opposite order both succeed (5 rounds)', async () => {
      const owner = await registerOwner(app);
      const skus = Array.from({ length: 30 }, (_, i) => `DL-${String(i).padStart(2, '0')}`);
      expect((await importCsv(owner, csvOf(skus, 1))).status).to.equal(200);
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all([importCsv(owner, csvOf(skus, 10 + round)), importCsv(owner, csvOf([...skus].reverse(), 20 + round))]);
        expect(statusesOf(answers), answers.map((a) => a.text).join('\n')).to.deep.equal([200, 200]);
      }
    });

    it('an import racing a 30-line sale of the same products: both succeed (5 rounds)', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const skus = Array.from({ length: 30 }, (_, i) => `DS-${String(i).padStart(2, '0')}`);
      expect((await importCsv(owner, csvOf(skus, 1000))).status).to.equal(200);
      const listed = await app.request('GET', '/products?limit=100&search=DS-', { token: owner.accessToken });
      const ids = (listed.body.data.content as { id: string }[]).map((p) => p.id);
      expect(ids).to.have.length(30);
      for (let round = 0; round < 5; round++) {
        // the file in reverse sku order, the sale in the list's order: different orders on purpose
        const [imported, sale] = await Promise.all([
          importCsv(owner, csvOf([...skus].reverse(), 500 + round)),
          app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', items: ids.map((id) => ({ product_id: id, quantity: 1 })) } }),
        ]);
        expect(imported.status, imported.text).to.equal(200);
        expect(sale.status, sale.text).to.equal(201);
      }
    });

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
            await r.products.changeQuantity(businessId, first, -1, new Date());
            await bothHolding();
            await r.products.changeQuantity(businessId, second, -1, new Date());
            return 'done';
          });
        expect(await Promise.all([move(a.id, b.id), move(b.id, a.id)])).to.deep.equal(['done', 'done']);
        expect(await quantityOf(app, owner, a.id)).to.equal(98);
        expect(await quantityOf(app, owner, b.id)).to.equal(98);
        if (process.env.TEST_DATABASE_URL) expect(attempts, 'one victim ran twice').to.equal(3);

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

  describe('ledgers read as chains under concurrency', () => {
    it('stock ledger: ordered by time, rows of concurrent adjustments and sales chain before[i+1] == after[i]', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const product = await aProduct(app, owner, { quantity: 1000 });
      const other = await aProduct(app, owner, { name: 'Sugar', quantity: 1000 });
      await Promise.all([
        ...Array.from({ length: 20 }, (_, i) =>
          app.request('POST', '/products/stock-adjustment', { token: owner.accessToken, body: { product_id: product.id, quantity_change: i % 2 ? 7 : -3, reason: i % 2 ? 'RESTOCK' : 'DAMAGE' } }),
        ),
        ...Array.from({ length: 10 }, () =>
          app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', items: [{ product_id: other.id, quantity: 1 }, { product_id: product.id, quantity: 2 }] } }),
        ),
      ]);
      const rows: { quantity_before: number; quantity_after: number }[] = [];
      let cursor = '';
      do {
        const page = await app.request('GET', `/products/stock-adjustments?product_id=${product.id}&sort_dir=asc&limit=7${cursor}`, { token: owner.accessToken });
        expect(page.status, page.text).to.equal(200);
        rows.push(...page.body.data.content);
        cursor = page.body.data.cursor ? `&cursor=${page.body.data.cursor}` : '';
      } while (cursor);
      expect(rows).to.have.length(31); // the opening stock, 20 adjustments, 10 sales
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.quantity_before, `row ${i}`).to.equal(rows[i - 1]!.quantity_after);
      expect(rows.at(-1)!.quantity_after).to.equal(await quantityOf(app, owner, product.id));
    });

    it('credit ledger: ordered by time, each balance_after is the previous one plus the amount', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const product = await aProduct(app, owner, { quantity: 1000 });
      const customer = await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Ngozi' } });
      const customerId = customer.body.data.id as string;
      const creditSale = () =>
        app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CREDIT', customer_id: customerId, items: [{ product_id: product.id, quantity: 1 }] } });
      for (let i = 0; i < 5; i++) expect((await creditSale()).status).to.equal(201);
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, creditSale),
        ...Array.from({ length: 5 }, () => app.request('POST', `/customers/${customerId}/credit/payment`, { token: owner.accessToken, body: { amount: 1000, method: 'CASH' } })),
      ]);
      expect(answers.every((a) => a.status === 201), answers.map((a) => a.text).join('\n')).to.equal(true);
      const rows: { amount: number; balance_after: number }[] = [];
      let cursor = '';
      do {
        const page = await app.request('GET', `/customers/${customerId}/transactions?sort_dir=asc&limit=6${cursor}`, { token: owner.accessToken });
        expect(page.status, page.text).to.equal(200);
        rows.push(...page.body.data.content);
        cursor = page.body.data.cursor ? `&cursor=${page.body.data.cursor}` : '';
      } while (cursor);
      expect(rows).to.have.length(20);
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.balance_after, `row ${i}`).to.equal(rows[i - 1]!.balance_after + rows[i]!.amount);
      expect(rows.at(-1)!.balance_after).to.equal(15 * 1500 - 5 * 1000);
    });
  });

  describe('maxima instead of overflows', () => {
    it('stock: past 1,000,000,000 units is 422 STOCK_LIMIT_EXCEEDED (adjustment and void), never "integer out of range"', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const full = await aProduct(app, owner, { quantity: 1_000_000_000 });
      const adjust = await app.request('POST', '/products/stock-adjustment', { token: owner.accessToken, body: { product_id: full.id, quantity_change: 1, reason: 'RESTOCK' } });
      expect(adjust.status, adjust.text).to.equal(422);
      expect(adjust.body.error.code).to.equal('STOCK_LIMIT_EXCEEDED');
      expect(await quantityOf(app, owner, full.id)).to.equal(1_000_000_000);
      // a void returning stock to a product restocked to the maximum meanwhile
      const sale = await app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', items: [{ product_id: full.id, quantity: 5 }] } });
      expect(sale.status, sale.text).to.equal(201);
      expect((await app.request('POST', '/products/stock-adjustment', { token: owner.accessToken, body: { product_id: full.id, quantity_change: 5, reason: 'RESTOCK' } })).status).to.equal(201);
      const voided = await app.request('POST', `/sales/${sale.body.data.id}/void`, { token: owner.accessToken, body: { reason: 'wrong item' } });
      expect(voided.status, voided.text).to.equal(422);
      expect(voided.body.error.code).to.equal('STOCK_LIMIT_EXCEEDED');
      expect((await app.request('GET', `/sales/${sale.body.data.id}`, { token: owner.accessToken })).body.data.status).to.equal('COMPLETED');
    });

    it('credit: a customer owes at most 1,000,000,000,000 naira; the customers together at most 2^53 kobo; the aging report always answers', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const MAX_NAIRA = 1_000_000_000_000;
      const jewel = await aProduct(app, owner, { name: 'Crown', price: MAX_NAIRA, quantity: 1000 });
      const newCustomer = async (name: string) => (await app.request('POST', '/customers', { token: owner.accessToken, body: { name } })).body.data.id as string;
      const onCredit = (customerId: string, productId = jewel.id) =>
        app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CREDIT', customer_id: customerId, items: [{ product_id: productId, quantity: 1 }] } });

      const first = await newCustomer('Big Spender');
      expect((await onCredit(first)).status).to.equal(201);
      const sweets = await aProduct(app, owner, { name: 'Sweets', price: 1, quantity: 1000 });
      const more = await onCredit(first, sweets.id);
      expect(more.status, more.text).to.equal(422);
      expect(more.body.error.code).to.equal('CREDIT_BALANCE_LIMIT_EXCEEDED');

      // 2^53 kobo is 90.07 customers at the maximum: the 91st is refused, whatever the order they come in
      const others = await Promise.all(Array.from({ length: 90 }, (_, i) => newCustomer(`Customer ${i}`)));
      const answers: TestResponse[] = [];
      for (let i = 0; i < others.length; i += 10) answers.push(...(await Promise.all(others.slice(i, i + 10).map((c) => onCredit(c)))));
      expect(answers.filter((a) => a.status === 201)).to.have.length(89);
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused.map((a) => a.body?.error?.code), refused.map((a) => a.text).join('\n')).to.deep.equal(['CREDIT_BALANCE_LIMIT_EXCEEDED']);

      const aging = await app.request('GET', '/credit/aging-report?limit=100', { token: owner.accessToken });
      expect(aging.status, aging.text).to.equal(200);
      expect(aging.body.data.totals.total).to.equal(90 * MAX_NAIRA);
    });
  });

  describe('deleting a branch while it is used', () => {
    it('a sale or an invite racing DELETE of its branch: a clean answer each time, never 500 (10 trials)', async () => {
      const owner = await registerOwner(app);
      await putOnPlan(app, owner, 'PRO');
      const businessId = await businessIdOf(app, owner.accessToken);
      const product = await aProduct(app, owner, { quantity: 1000 });
      const seen = new Set<string>();
      for (let trial = 0; trial < 10; trial++) {
        const branch = await app.request('POST', '/businesses/branches', { token: owner.accessToken, body: { name: `Shop ${trial}` } });
        expect(branch.status, branch.text).to.equal(201);
        const branchId = branch.body.data.id as string;
        const [sale, invite, removed] = await Promise.all([
          app.request('POST', '/sales', { token: owner.accessToken, body: { payment_method: 'CASH', branch_id: branchId, items: [{ product_id: product.id, quantity: 1 }] } }),
          app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone: aPhone(), first_name: 'Ify', last_name: 'Eze', role: 'STAFF', branch_id: branchId } }),
          app.request('DELETE', `/businesses/${businessId}/branches/${branchId}`, { token: owner.accessToken }),
        ]);
        expect(removed.status, removed.text).to.equal(200);
        expect([201, 422], sale.text).to.include(sale.status);
        expect([201, 422], invite.text).to.include(invite.status);
        if (sale.status === 422) expect(sale.body.error.code).to.equal('UNKNOWN_BRANCH');
        if (invite.status === 422) expect(invite.body.error.code).to.equal('UNKNOWN_BRANCH');
        // a branch that got a sale or a member is archived, not erased
        if (sale.status === 201 || invite.status === 201) expect(removed.body.data.archived, removed.text).to.equal(true);
        seen.add(`${sale.status}/${invite.status}`);
      }
      expect(seen.size).to.be.greaterThan(0);
    });
  });
});

