import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { freshDatabaseUrl } from '../support/database.js';
import { codeFromLog, exited, post, startServer, entryPoint } from '../support/server-process.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const until = async <A>(what: string, probe: () => A | undefined | false, ms = 60_000): Promise<A> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const found = probe();
    if (found !== undefined && found !== false) return found;
  }
  throw new Error(`timed out waiting for ${what}`);
};

/**
 * Issue 32, on the real server with its default poll settings (OUTBOX_POLL_MS, WEBHOOK_POLL_MS,
 * JOBS_POLL_SECONDS unset): a merchant's burst of events reaches a slow receiver one at a time, in
 * the order the events happened, and an event is at the receiver within a second of its commit.
 */
describe('partner webhooks on the server: in order, one at a time, within a second (issue 32)', function () {
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'bizops-webhooks-order-'));
  let env: Record<string, string>;
  let partner: { code: string; api_key: string };
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let server: Awaited<ReturnType<typeof startServer>>;
  let auth: Record<string, string>;
  let product: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}${path}`, { method, headers: { 'content-type': 'application/json', ...auth }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const json = res.headers.get('content-type')?.includes('json') ? await res.json() : undefined;
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).to.be.within(200, 201);
    return json.data;
  };
  const sell = (extra: Record<string, unknown> = {}) => call('POST', '/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH', ...extra }) as Promise<{ id: string }>;

  before(async () => {
    const onServer = Boolean(process.env.TEST_DATABASE_URL);
    env = { DATA_DIR: dataDir, DATABASE_URL: onServer ? await freshDatabaseUrl() : '', WEBHOOKS_ALLOW_PRIVATE: 'true' };
    const made = await promisify(execFile)(process.execPath, [...entryPoint('bootstrap/cli.ts'), 'partner:create', 'Order Partner'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    partner = JSON.parse(made.stdout);
    receiver = await startWebhookReceiver();
    server = await startServer(env);
    const phone = '+2348039990457';
    expect((await post(server.base, '/auth/register', { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Order Stores' })).status).to.equal(201);
    auth = { authorization: `Bearer ${(await (await post(server.base, '/auth/verify-otp', { phone, otp: await codeFromLog(server.lines, phone) })).json()).data.access_token}` };
    const events = ['merchant.joined', 'merchant.left', 'sale.created', 'sale.voided', 'credit.payment_received', 'loan_pack.paid'];
    const hook = await (await post(server.base, '/partner/webhooks', { url: receiver.url, events }, { 'x-api-key': partner.api_key })).json();
    receiver.secrets.push(hook.data.secret);
    product = (await call('POST', '/products', { name: 'Rice', price: 100, quantity: 100 })).id;
  });
  after(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
    if (server) expect(await exited(server.child), 'a graceful stop').to.equal(0);
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a burst (join, two sales, a void of the first, a credit payment, a loan pack paid) reaches a slow receiver in the order it happened, one request at a time', async () => {
    receiver.slow.ms = 400; // were two sent at once, the later could overtake the earlier
    await call('POST', '/businesses/me/partner', { partner_code: partner.code });
    const first = await sell();
    const customer = (await call('POST', '/customers', { name: 'Ada' })).id as string;
    const second = await sell({ payment_method: 'CREDIT', customer_id: customer });
    await call('POST', `/sales/${first.id}/void`, { reason: 'returned' });
    await call('POST', `/customers/${customer}/credit/payment`, { amount: 40, payment_method: 'CASH' });
    const pack = await call('POST', '/reports/loan-pack', { months: 6 });
    const checkout = await call('POST', `/reports/loan-pack/${pack.reference}/checkout`, { email: 'ada@example.com' });
    expect((await fetch(`${new URL(server.base).origin}${new URL(checkout.authorization_url).pathname}/pay`, { method: 'POST' })).status).to.equal(200);
    expect((await call('POST', '/reports/loan-pack/payment/verify', { reference: pack.reference })).status).to.equal('READY');

    await until('six deliveries', () => receiver.received.filter((r) => r.answered === 200).length >= 6, 30_000);
    const got = receiver.received.map((r) => [r.json.type, r.json.data.sale_id ?? r.json.data.reference ?? null]);
    expect(got).to.deep.equal([
      ['merchant.joined', null],
      ['sale.created', first.id],
      ['sale.created', second.id],
      ['sale.voided', first.id],
      ['credit.payment_received', null],
      ['loan_pack.paid', pack.reference],
    ]);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).to.equal(true);
    expect(receiver.concurrency.max, 'one request at a time to an endpoint').to.equal(1);
  });

  it('an event is at the receiver within a second of its commit (no 5 s outbox grace, no poll to wait for)', async () => {
    receiver.slow.ms = 0;
    await until('the burst answered', () => receiver.concurrency.now === 0);
    const lags: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = receiver.received.length;
      const sent = Date.now(); // before the commit: the lag measured is at least the real one
      const sale = await sell();
      const arrived = await until('the sale at the receiver', () => receiver.received.slice(before).find((r) => r.json.data.sale_id === sale.id), 15_000);
      lags.push(arrived.at - sent);
    }
    expect(Math.max(...lags), `lags ${lags.join(', ')} ms`).to.be.below(1_000);
  });
});

/** `npm run worker`, as a child process; resolves once it has started. */
const startWorker = async (env: Record<string, string>) => {
  const child = spawn(process.execPath, entryPoint('bootstrap/worker.ts'), { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  child.stdout!.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
  await until('the worker started', () => lines.some((l) => l.includes('worker started')) || child.exitCode !== null);
  expect(child.exitCode, lines.join('\n')).to.equal(null);
  return { child, lines };
};

/**
 * Issue 32 across processes (PostgreSQL only: the embedded database belongs to one process): the
 * server only commits (WORKERS=off) and two `npm run worker` processes run the webhook loop. The
 * server's commit reaches them as a notice (LISTEN/NOTIFY), not at their next poll; the two take
 * an endpoint's deliveries one at a time, in order.
 */
describe('partner webhooks with the workers in two other processes (PostgreSQL): in order, one at a time, within a second (issue 32)', function () {
  if (!process.env.TEST_DATABASE_URL) {
    // Reported as pending with the reason, never dropped from the counts.
    it('two worker processes deliver in order, within a second (pending: the embedded database belongs to one process; needs TEST_DATABASE_URL)');
    return;
  }
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'bizops-webhooks-split-'));
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const workers: Awaited<ReturnType<typeof startWorker>>[] = [];
  let auth: Record<string, string>;
  let product: string;
  let partner: { code: string; api_key: string };

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server!.base}${path}`, { method, headers: { 'content-type': 'application/json', ...auth }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const json = await res.json();
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).to.be.within(200, 201);
    return json.data;
  };
  const sell = () => call('POST', '/sales', { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH' }) as Promise<{ id: string }>;

  before(async function () {
    const env = { DATA_DIR: dataDir, DATABASE_URL: await freshDatabaseUrl(), WEBHOOKS_ALLOW_PRIVATE: 'true' };
    const made = await promisify(execFile)(process.execPath, [...entryPoint('bootstrap/cli.ts'), 'partner:create', 'Split Partner'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
    partner = JSON.parse(made.stdout);
    receiver = await startWebhookReceiver();
    server = await startServer({ ...env, WORKERS: 'off' });
    workers.push(await startWorker(env), await startWorker(env));
    const phone = '+2348039990458';
    expect((await post(server.base, '/auth/register', { phone, first_name: 'Bo', last_name: 'Obi', business_name: 'Split Stores' })).status).to.equal(201);
    // the sign-in code goes out through a worker: read it from the workers' log
    const otp = await Promise.any(workers.map((w) => codeFromLog(w.lines, phone)));
    auth = { authorization: `Bearer ${(await (await post(server.base, '/auth/verify-otp', { phone, otp })).json()).data.access_token}` };
    const hook = await (await post(server.base, '/partner/webhooks', { url: receiver.url, events: ['merchant.joined', 'sale.created', 'sale.voided'] }, { 'x-api-key': partner.api_key })).json();
    receiver.secrets.push(hook.data.secret);
    product = (await call('POST', '/products', { name: 'Beans', price: 100, quantity: 100 })).id;
  });
  after(async () => {
    for (const p of [server, ...workers]) if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    for (const p of [server, ...workers]) if (p) expect(await exited(p.child), 'a graceful stop').to.equal(0);
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a burst reaches a slow receiver in the order it happened, one request at a time, though two processes deliver', async () => {
    receiver.slow.ms = 300;
    await call('POST', '/businesses/me/partner', { partner_code: partner.code });
    const sales = [await sell(), await sell(), await sell()];
    await call('POST', `/sales/${sales[0]!.id}/void`, { reason: 'returned' });
    const last = await sell();
    await until('six deliveries', () => receiver.received.filter((r) => r.answered === 200).length >= 6, 30_000);
    expect(receiver.received.map((r) => [r.json.type, r.json.data.sale_id ?? null])).to.deep.equal([
      ['merchant.joined', null],
      ...sales.map((s) => ['sale.created', s.id]),
      ['sale.voided', sales[0]!.id],
      ['sale.created', last.id],
    ]);
    expect(receiver.concurrency.max, 'one request at a time to an endpoint').to.equal(1);
  });

  it('an event committed by the server is at the receiver within a second (the workers hear the commit)', async () => {
    receiver.slow.ms = 0;
    await until('the burst answered', () => receiver.concurrency.now === 0);
    const lags: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = receiver.received.length;
      const sent = Date.now();
      const sale = await sell();
      const arrived = await until('the sale at the receiver', () => receiver.received.slice(before).find((r) => r.json.data.sale_id === sale.id), 15_000);
      lags.push(arrived.at - sent);
    }
    expect(Math.max(...lags), `lags ${lags.join(', ')} ms`).to.be.below(1_000);
  });
});
