import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { startCluster, type Cluster } from '../../bootstrap/cluster.js';
import { freshDatabaseUrl } from '../support/database.js';

// Issue 20: two instances behind HAProxy on one PostgreSQL and one Redis (bootstrap/cluster.ts, the
// same code as `npm run cluster`). Runs only where HAProxy, a PostgreSQL server and Redis are; else pending.

const why = [
  spawnSync('haproxy', ['-v']).status === 0 ? undefined : 'HAProxy is not installed (apt-get install haproxy)',
  process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is not set (the instances share a PostgreSQL server, not the embedded PGlite)',
  process.env.TEST_REDIS_URL ? undefined : 'TEST_REDIS_URL is not set (no Redis answers; .ci/run sets it when one does)',
].filter(Boolean);

/** Test-mode identities (OTP_TEST_IDENTIFIERS' default *@example.com) sign in with 000000; new ones each run, as Redis keeps counters. */
const testEmail = () => `${randomUUID()}@example.com`;
const SALES = 40;

if (why.length > 0) {
  describe('several instances behind HAProxy (npm run cluster)', () => {
    it(`sales, sign-in and rate limits through HAProxy (pending: ${why.join('; ')})`);
  });
} else {
  describe('several instances behind HAProxy (npm run cluster)', function () {
    this.timeout(180_000);
    let cluster: Cluster;
    let db: pg.Client;
    let owner: string;
    let businessId: string;
    let productId: string;

    const call = async (base: string, method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
    };
    const signIn = async (email: string, login = false) => {
      if (login) expect((await call(cluster.url, 'POST', '/auth/login', { email })).status).to.equal(200);
      const verify = await call(cluster.url, 'POST', '/auth/verify-otp', { email, otp: '000000' });
      expect(verify.status, verify.text).to.equal(200);
      return verify.body.data.access_token as string;
    };
    const sell = (base: string, quantity: number, headers: Record<string, string> = {}) =>
      call(base, 'POST', '/sales', { payment_method: 'CASH', items: [{ product_id: productId, quantity }] }, owner, headers);
    const one = async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows[0] as T;

    before(async () => {
      const url = await freshDatabaseUrl();
      const { privateKey } = generateKeyPairSync('ed25519');
      cluster = await startCluster({
        instances: 2,
        port: 0,
        env: {
          DATABASE_URL: url,
          REDIS_URL: process.env.TEST_REDIS_URL,
          JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          OTP_SECRET: randomBytes(32).toString('base64'),
          OTP_TEST_MODE: 'true',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_USER: '100000',
          RATE_LIMIT_AUTH_PER_IP: '100000',
          RATE_LIMIT_AUTH_PER_IDENTIFIER: '10',
        },
      });
      db = new pg.Client({ connectionString: url });
      await db.connect();
      const email = testEmail();
      const reg = await call(cluster.url, 'POST', '/auth/register', { email, first_name: 'Ada', last_name: 'Obi', business_name: `Ada ${randomUUID().slice(0, 8)}` });
      expect(reg.status, reg.text).to.equal(201);
      owner = await signIn(email);
      businessId = (await call(cluster.url, 'GET', '/businesses/me', undefined, owner)).body.data.id;
      await db.query(`update businesses set plan = 'PRO' where id = $1`, [businessId]); // past the Free plan's 50 sales
      const product = await call(cluster.url, 'POST', '/products', { name: 'Peak Milk', price: 1500, quantity: 100_000 }, owner);
      expect(product.status, product.text).to.equal(201);
      productId = product.body.data.id;
    });
    after(async () => {
      await db?.end();
      await cluster?.stop();
    });

    it('parallel sales over both instances: none lost, none doubled, receipts without gaps, stock exact', async () => {
      const [before0, before1] = await cluster.served();
      const answers = await Promise.all(Array.from({ length: SALES }, (_, i) => sell(cluster.url, 1 + (i % 3))));
      expect(answers.map((a) => a.status)).to.deep.equal(answers.map(() => 201));
      const [after0, after1] = await cluster.served();
      expect(after0! - before0!, 'instance 0 took sales').to.be.greaterThan(SALES / 4);
      expect(after1! - before1!, 'instance 1 took sales').to.be.greaterThan(SALES / 4);
      const ids = new Set(answers.map((a) => a.body.data.id));
      expect(ids.size).to.equal(SALES);
      const receipts = answers.map((a) => Number(/^RCP-(\d+)$/.exec(a.body.data.receipt_number)![1])).sort((x, y) => x - y);
      expect(receipts).to.deep.equal(Array.from({ length: SALES }, (_, i) => i + 1));
      const sold = answers.reduce((n, _, i) => n + 1 + (i % 3), 0);
      expect(Number((await one<{ n: string }>('select count(*) as n from sales where business_id = $1', [businessId])).n)).to.equal(SALES);
      expect((await one<{ quantity: number }>('select quantity from products where id = $1', [productId])).quantity).to.equal(100_000 - sold);
    });

    it('one Idempotency-Key sent to both instances at once has one effect', async () => {
      const salesBefore = Number((await one<{ n: string }>('select count(*) as n from sales where business_id = $1', [businessId])).n);
      const key = randomUUID();
      const [a, b] = await Promise.all(cluster.instanceUrls.map((base) => sell(base, 2, { 'Idempotency-Key': key })));
      const answers = [a!, b!];
      const created = answers.filter((r) => r.status === 201);
      expect(created.length, answers.map((r) => r.text).join('\n')).to.be.at.least(1);
      expect(new Set(created.map((r) => r.body.data.id)).size).to.equal(1);
      for (const r of answers.filter((r) => r.status !== 201)) expect(r.body.error.code, r.text).to.equal('IDEMPOTENCY_IN_PROGRESS');
      expect(Number((await one<{ n: string }>('select count(*) as n from sales where business_id = $1', [businessId])).n)).to.equal(salesBefore + 1);
    });

    it('rate limits are counted across instances', async () => {
      const email = testEmail();
      const answers: { status: number; body: { error?: { code: string } } }[] = [];
      // verify-otp with a wrong code, alternately on each instance: 10 a minute per e-mail in all.
      for (let i = 0; i < 14; i++) answers.push(await call(cluster.instanceUrls[i % 2]!, 'POST', '/auth/verify-otp', { email, otp: '123456' }));
      expect(answers.slice(0, 10).map((a) => a.status)).to.not.include(429);
      expect(answers.slice(10).map((a) => [a.status, a.body.error?.code])).to.deep.equal(Array(4).fill([429, 'RATE_LIMITED']));
    });

    it('a member deactivated on instance A is refused on instance B at the next request', async () => {
      const email = testEmail();
      const invite = await call(cluster.instanceUrls[0]!, 'POST', '/staff/invite', { email, first_name: 'Bola', last_name: 'Ade' }, owner);
      expect(invite.status, invite.text).to.equal(201);
      const staff = await signIn(email, true);
      expect((await call(cluster.instanceUrls[1]!, 'GET', '/businesses/me', undefined, staff)).status).to.equal(200);
      expect((await call(cluster.instanceUrls[0]!, 'DELETE', `/staff/${invite.body.data.id}`, undefined, owner)).status).to.equal(200);
      const refused = await call(cluster.instanceUrls[1]!, 'GET', '/businesses/me', undefined, staff);
      expect(refused.status, refused.text).to.equal(401);
      expect(refused.body.error.code).to.equal('ACCOUNT_DEACTIVATED');
    });

    it('a rolling restart under load: no 5xx, no connection error, no half-written sale', async () => {
      const salesBefore = Number((await one<{ n: string }>('select count(*) as n from sales where business_id = $1', [businessId])).n);
      const stockBefore = (await one<{ quantity: number }>('select quantity from products where id = $1', [productId])).quantity;
      const statuses = new Map<number, number>();
      const errors: string[] = [];
      let created = 0;
      let sold = 0;
      let running = true;
      const worker = async () => {
        while (running) {
          try {
            const r = await sell(cluster.url, 1);
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            if (r.status === 201) (created += 1), (sold += 1);
          } catch (e) {
            errors.push(String((e as Error).cause ?? e));
          }
        }
      };
      const load = Array.from({ length: 6 }, worker);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await cluster.restart(0);
      await cluster.restart(1);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      running = false;
      await Promise.all(load);
      expect(errors, 'connection errors at the client').to.deep.equal([]);
      expect([...statuses.keys()], JSON.stringify([...statuses])).to.deep.equal([201]);
      expect(created).to.be.greaterThan(20);
      expect(Number((await one<{ n: string }>('select count(*) as n from sales where business_id = $1', [businessId])).n)).to.equal(salesBefore + created);
      expect(Number((await one<{ n: string }>('select count(*) as n from sales s where business_id = $1 and not exists (select 1 from sale_items i where i.sale_id = s.id)', [businessId])).n)).to.equal(0);
      expect((await one<{ quantity: number }>('select quantity from products where id = $1', [productId])).quantity).to.equal(stockBefore - sold);
    });
  });
}
