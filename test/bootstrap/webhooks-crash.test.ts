import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { freshDatabaseUrl } from '../support/database.js';
import { codeFromLog, exited, post, startServer, entryPoint } from '../support/server-process.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const until = async <A>(what: string, probe: () => A | undefined | false, ms = 60_000): Promise<A> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const found = probe();
    if (found !== undefined && found !== false) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
};

/**
 * Issue 16: webhooks survive a kill -9. Five sales are recorded while the partner's receiver hangs
 * (attempts in flight, events still in the outbox or the queue); the server is killed; after the
 * restart every sale reaches the receiver, signed, and every delivery shows SUCCEEDED.
 */
describe('partner webhooks across a crash (kill -9)', function () {
  this.timeout(240_000);

  it('no sale.created is lost: all five arrive, verified, after the restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bizops-webhooks-crash-'));
    const onServer = Boolean(process.env.TEST_DATABASE_URL);
    const env = {
      DATA_DIR: dataDir, DATABASE_URL: onServer ? await freshDatabaseUrl() : '', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_POLL_MS: '200',
      OUTBOX_POLL_MS: '100', JOBS_POLL_SECONDS: '1', JOBS_RETRY_DELAY_SECONDS: '1', JOBS_EXPIRE_SECONDS: '4', JOBS_MAINTENANCE_SECONDS: '1',
    };
    const made = await promisify(execFile)(process.execPath, [...entryPoint('bootstrap/cli.ts'), 'partner:create', 'Crash Partner'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    const partner = JSON.parse(made.stdout) as { code: string; api_key: string };
    const receiver = await startWebhookReceiver();
    receiver.plan.push(...Array<'hang'>(1000).fill('hang'));
    const first = await startServer(env);
    let second: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const base = first.base;
      const phone = '+2348039990456';
      expect((await post(base, '/auth/register', { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Crash Stores', partner_code: partner.code })).status).to.equal(201);
      const token = (await (await post(base, '/auth/verify-otp', { phone, otp: await codeFromLog(first.lines, phone) })).json()).data.access_token as string;
      const auth = { authorization: `Bearer ${token}` };
      const hook = await (await post(base, '/partner/webhooks', { url: receiver.url, events: ['sale.created'] }, { 'x-api-key': partner.api_key })).json();
      receiver.secrets.push(hook.data.secret);
      const product = (await (await post(base, '/products', { name: 'Rice', price: 100, quantity: 100 }, auth)).json()).data.id as string;
      const sales: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await post(base, '/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH' }, auth);
        expect(res.status).to.equal(201);
        sales.push((await res.json()).data.id);
      }
      await until('an attempt in flight', () => receiver.received.length > 0);
      first.child.kill('SIGKILL');
      await exited(first.child);

      receiver.plan.splice(0); // the receiver is back
      second = await startServer(env);
      const answered = () => new Set(receiver.received.filter((r) => r.answered === 200 && r.verifiedWith.length === 1).map((r) => r.json.data.sale_id as string));
      await until('every sale at the receiver', () => sales.every((s) => answered().has(s)));
      const list = await (await fetch(`${second.base}/partner/webhooks/${hook.data.id}/deliveries`, { headers: { 'x-api-key': partner.api_key } })).json();
      expect(list.data.content.map((d: { status: string }) => d.status)).to.deep.equal(sales.map(() => 'SUCCEEDED'));
    } finally {
      for (const s of [first, second]) if (s && s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
      if (second) expect(await exited(second.child), 'a graceful stop').to.equal(0);
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
