import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { inProcessJobQueue } from '../../adapters/jobs/in-process.job-queue.js';
import { pgBossJobQueue } from '../../adapters/jobs/pg-boss.job-queue.js';
import { currentTraceparent } from '../../adapters/tracing/trace-context.js';
import type { JobQueue } from '../../application/ports/job-queue.js';
import { FIRST_ATTEMPT_GRACE_MS } from '../../application/ports/outbox.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE}-00f067aa0ba902b7-01`;
const OUR_SPAN = new RegExp(`^00-${TRACE}-(?!00f067aa0ba902b7)[0-9a-f]{16}-01$`);

const lines = (app: TestApp) => app.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);

for (const persistence of ['postgres', 'memory'] as const)
  describe(`W3C traceparent (${persistence}, docs/adr/0066): into the request's log lines, its jobs and its partners' webhook POSTs`, function () {
    this.timeout(120_000);
    let app: TestApp;
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
    let partnerCode: string;

    before(async () => {
      // messages as configured (none): written to the log as `outgoing message` lines by the messages job
      app = await createTestApp({ persistence, configuredMessages: true, env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' } });
      receiver = await startWebhookReceiver();
      const partner = await aPartner(app);
      partnerCode = partner.code;
      const hook = await asPartner(app, partner.key, 'POST', '/partner/webhooks', { url: receiver.url, events: ['sale.created'] });
      expect(hook.status, hook.text).to.equal(201);
      receiver.secrets.push(hook.body.data.secret as string);
    });
    // the app's clock at the real time: receivers refuse a timestamp more than 5 minutes off
    beforeEach(() => app.clock.set(new Date()));
    after(async () => {
      await app.close();
      await receiver.close();
    });

    const signUp = async (headers: Record<string, string>) => {
      const phone = aPhone();
      const reg = await app.request('POST', '/auth/register', { headers, body: { phone, first_name: 'Ify', last_name: 'Okoro', business_name: 'Ify Stores', partner_code: partnerCode } });
      expect(reg.status, reg.text).to.equal(201);
      const sent = lines(app).find((l) => l.msg === 'outgoing message' && l.to === phone)!;
      const otp = /code is (\d{6})/.exec(String(sent.text))![1]!;
      const token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp } })).body.data.access_token as string;
      return { phone, token, sent };
    };

    it('a valid traceparent: the request line and the job that sent its code say trace_id; the sale’s webhook POST carries the trace', async () => {
      const { phone, token, sent } = await signUp({ traceparent: TRACEPARENT, 'x-request-id': 'reg-traced' });
      const request = lines(app).find((l) => l.msg === 'request' && l.req_id === 'reg-traced')!;
      expect(request).to.include({ trace_id: TRACE, route: '/api/v1/auth/register', status: 201 });
      // the code went out in the messages job the request's event became: in its trace
      expect(sent.trace_id).to.equal(TRACE);
      expect(sent.to).to.equal(phone);

      const product = (await app.request('POST', '/products', { token, body: { name: 'Garri', price: 100, quantity: 50 } })).body.data.id as string;
      const sale = await app.request('POST', '/sales', { token, headers: { traceparent: TRACEPARENT, 'x-request-id': 'sale-traced' }, body: { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH' } });
      expect(sale.status, sale.text).to.equal(201);
      await app.runWebhookDeliveries();
      const posted = receiver.received.find((r) => r.json.type === 'sale.created' && r.json.data.sale_id === sale.body.data.id)!;
      expect(posted, 'the sale.created POST').to.not.equal(undefined);
      expect(posted.verifiedWith).to.have.length(1);
      // the caller's trace id and flags; the parent is this service's span, not the caller's
      expect(posted.headers.traceparent).to.match(OUR_SPAN);
      const attempted = lines(app).find((l) => l.msg === 'webhook delivery attempted' && l.message_id === posted.json.id)!;
      expect(attempted).to.include({ trace_id: TRACE, status: 200 });
      expect(lines(app).find((l) => l.msg === 'request' && l.req_id === 'sale-traced')).to.include({ trace_id: TRACE });
    });

    it('events left to the outbox loop (after the grace) still run their jobs in the request’s trace', async () => {
      const { token } = await signUp({});
      // a product's events have no subscriber the request waits for: the loop relays them later
      const made = await app.request('POST', '/products', { token, headers: { traceparent: TRACEPARENT }, body: { name: 'Rice', price: 100, quantity: 1, low_stock_threshold: 5 } });
      expect(made.status, made.text).to.equal(201);
      app.clock.advance(FIRST_ATTEMPT_GRACE_MS + 1_000);
      const before = app.logLines.length;
      while ((await app.dispatcher.runDue()) > 0);
      // whatever the loop's jobs wrote meanwhile (none need write) is in the trace; the rows keep it (checked on SQL below)
      for (const l of app.logLines.slice(before).map((x) => JSON.parse(x) as Record<string, unknown>)) if (l.component !== 'outbox') expect(l.trace_id, JSON.stringify(l)).to.equal(TRACE);
      if (persistence === 'postgres') {
        const pg = (await import('pg')).default;
        const client = new pg.Client({ connectionString: app.databaseUrl! });
        await client.connect();
        try {
          const { rows } = await client.query(`select traceparent from outbox where type = 'StockChanged' order by occurred_at desc limit 1`);
          expect(rows[0]?.traceparent).to.match(OUR_SPAN);
        } finally {
          await client.end();
        }
      }
    });

    it('an invalid or missing traceparent is ignored: no trace_id, no header on the POST', async () => {
      const invalid = [
        '00-00000000000000000000000000000000-00f067aa0ba902b7-01', // all-zero trace id
        '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', // uppercase
        'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', // version ff
        '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', // all-zero parent
        '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra', // version 00 with more
        'garbage',
      ];
      for (const [i, traceparent] of invalid.entries()) {
        const res = await app.request('GET', '/actuator/health', { headers: { traceparent, 'x-request-id': `bad-${i}` } });
        expect(res.status).to.equal(200);
        expect(lines(app).find((l) => l.msg === 'request' && l.req_id === `bad-${i}`)).to.not.have.property('trace_id');
      }
      const { token } = await signUp({ 'x-request-id': 'untraced' });
      expect(lines(app).find((l) => l.req_id === 'untraced')).to.not.have.property('trace_id');
      const product = (await app.request('POST', '/products', { token, body: { name: 'Beans', price: 100, quantity: 5 } })).body.data.id as string;
      const sale = await app.request('POST', '/sales', { token, headers: { traceparent: invalid[0]! }, body: { items: [{ product_id: product, quantity: 1 }], payment_method: 'CASH' } });
      expect(sale.status, sale.text).to.equal(201);
      await app.runWebhookDeliveries();
      const posted = receiver.received.find((r) => r.json.type === 'sale.created' && r.json.data.sale_id === sale.body.data.id)!;
      expect(posted).to.not.equal(undefined);
      expect(posted.headers).to.not.have.property('traceparent');
    });
  });

describe('job queues run a job in the trace its data names (docs/adr/0066)', function () {
  this.timeout(60_000);
  const seen = (queue: JobQueue, name: string) => {
    const found: (string | undefined)[] = [];
    queue.define({ queue: name, retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 10, handle: async () => void found.push(currentTraceparent()) });
    return found;
  };

  it('in process', async () => {
    const queue = inProcessJobQueue();
    const found = seen(queue, 'trace-probe');
    await queue.enqueue('trace-probe', [{ id: randomUUID(), data: { traceparent: TRACEPARENT } }, { id: randomUUID(), data: {} }]);
    expect(found).to.deep.equal([TRACEPARENT, undefined]);
  });

  it('on pg-boss', async () => {
    const queue = pgBossJobQueue({ connectionString: await freshDatabaseUrl(), poolMax: 2, pollingIntervalSeconds: 1, concurrency: 1, maintenanceIntervalSeconds: 60, stopTimeoutMs: 1_000 });
    const found = seen(queue, 'trace-probe');
    await queue.start({ workers: true });
    try {
      await queue.enqueue('trace-probe', [{ id: randomUUID(), data: { traceparent: TRACEPARENT } }]);
      for (let i = 0; i < 200 && found.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(found).to.deep.equal([TRACEPARENT]);
    } finally {
      await queue.stop();
    }
  });
});
