import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { freshDatabaseUrl } from '../support/database.js';
import { codeFromLog, exited, post, startServer } from '../support/server-process.js';

/**
 * Issue 21: 40 POST /sales with Idempotency-Keys, the process killed (SIGKILL) mid-burst, restarted,
 * and every request sent again with its key. A sale that committed replays (its answer committed with
 * it); one that did not runs now, once the short lease of its dead claim has run out. Nothing is sold
 * twice and no key stays "in progress".
 */
describe('idempotency keys across a crash (kill -9 mid-burst)', function () {
  this.timeout(180_000);

  it('every key answers after the restart: committed sales replay, the others run once; exactly 40 sales', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-crash-'));
    // On PostgreSQL when the suite runs on one (CI), else on the embedded default in a data directory.
    const env = { DATA_DIR: dataDir, IDEMPOTENCY_LEASE_MS: '1000', DATABASE_URL: process.env.TEST_DATABASE_URL ? await freshDatabaseUrl() : '' };
    const first = await startServer(env);
    const phone = '+2348039990077';
    expect((await post(first.base, '/auth/register', { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Crash Stores' })).status).to.equal(201);
    const verify = await post(first.base, '/auth/verify-otp', { phone, otp: await codeFromLog(first.lines, phone) });
    const token = ((await verify.json()) as { data: { access_token: string } }).data.access_token;
    const auth = { authorization: `Bearer ${token}` };
    const product = await post(first.base, '/products', { name: 'Milo 500g', price: 2500, quantity: 1000 }, auth);
    const productId = ((await product.json()) as { data: { id: string } }).data.id;
    const sale = { payment_method: 'CASH', items: [{ product_id: productId, quantity: 1 }] };

    const answered: number[] = [];
    const burst = Array.from({ length: 40 }, (_, i) =>
      post(first.base, '/sales', sale, { ...auth, 'idempotency-key': `crash-${i}` }).then(
        (r) => (answered.push(i), r.status),
        () => 'cut',
      ),
    );
    while (answered.length < 5) await new Promise((r) => setTimeout(r, 2));
    first.child.kill('SIGKILL');
    await exited(first.child);
    const outcomes = await Promise.all(burst);
    expect(outcomes.filter((o) => o === 'cut').length, 'some requests were cut by the kill').to.be.greaterThan(0);

    const second = await startServer(env);
    try {
      await new Promise((r) => setTimeout(r, 1100)); // the dead claims' lease runs out
      const again = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const res = await post(second.base, '/sales', sale, { ...auth, 'idempotency-key': `crash-${i}` });
          return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', body: (await res.json()) as { data?: { id: string } } };
        }),
      );
      expect(again.map((a) => a.status), JSON.stringify(again.filter((a) => a.status !== 201))).to.deep.equal(Array(40).fill(201));
      // every request answered before the kill replays now
      for (const [i, o] of outcomes.entries()) if (o === 201) expect(again[i]!.replayed, `key ${i} was answered before the kill`).to.equal(true);
      expect(new Set(again.map((a) => a.body.data!.id)).size).to.equal(40);
      const list = await fetch(`${second.base}/sales?limit=100`, { headers: auth });
      expect(((await list.json()) as { data: { content: unknown[] } }).data.content).to.have.length(40);
      const left = await fetch(`${second.base}/products/${productId}`, { headers: auth });
      expect(((await left.json()) as { data: { quantity: number } }).data.quantity).to.equal(960);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
