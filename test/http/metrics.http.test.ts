import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { prometheusMetrics, type Metrics } from '../../adapters/metrics/prometheus.js';
import { loadConfig } from '../../bootstrap/config.js';
import { serveMetrics } from '../../bootstrap/metrics.js';
import { aPartner, asPartner } from '../support/partners.js';
import { parsePrometheusText, type Family } from '../support/prometheus-text.js';
import { startServer, stopAllServers } from '../support/server-process.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const scrape = async (url: string): Promise<Map<string, Family>> => {
  const res = await fetch(url);
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
};
const value = (families: Map<string, Family>, sample: string, labels: Record<string, string> = {}): number | undefined =>
  [...families.values()].flatMap((f) => f.samples).find((s) => s.name === sample && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe('metrics (GET /metrics on METRICS_PORT, docs/adr/0065)', function () {
  this.timeout(120_000);

  describe('in the app', () => {
    let app: TestApp;
    let metrics: Metrics;
    let served: { port: number; close(): Promise<void> };
    let url: string;
    before(async () => {
      metrics = prometheusMetrics();
      // a user may make 12 requests a minute here: the 13th is refused
      app = await createTestApp({ metrics, env: { RATE_LIMIT_USER: '12', WEBHOOKS_ALLOW_PRIVATE: 'true' } });
      served = await serveMetrics(metrics, { port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }) });
      url = `http://127.0.0.1:${served.port}/metrics`;
    });
    after(async () => {
      await served.close();
      await app.close();
    });

    it('counts requests by route template and status, never by raw path; shows the pool, queues, outbox, webhooks, refusals and process defaults', async () => {
      const owner = await registerOwner(app);
      const created = await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk', price: 1500, quantity: 10 } });
      expect(created.status, created.text).to.equal(201);
      const id = created.body.data.id as string;
      for (let i = 0; i < 3; i++) expect((await app.request('GET', `/products/${id}`, { token: owner.accessToken })).status).to.equal(200);
      expect((await app.request('GET', '/products/00000000-0000-4000-8000-000000000000', { token: owner.accessToken })).status).to.equal(404);
      expect((await app.request('GET', `/no-such-thing/${id}`)).status).to.equal(404);
      const partner = await aPartner(app);
      expect((await asPartner(app, partner.key, 'POST', '/partner/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['sale.created'] })).status).to.equal(201);
      let refused = 0;
      for (let i = 0; i < 12 && refused === 0; i++) if ((await app.request('GET', '/products', { token: owner.accessToken })).status === 429) refused++;
      expect(refused).to.equal(1);

      const families = await scrape(url);
      expect(families.get('bizops_http_requests_total')?.type).to.equal('counter');
      expect(families.get('bizops_http_request_duration_seconds')?.type).to.equal('histogram');
      expect(value(families, 'bizops_http_requests_total', { method: 'GET', route: '/api/v1/products/:id', status: '200' })).to.equal(3);
      expect(value(families, 'bizops_http_requests_total', { method: 'GET', route: '/api/v1/products/:id', status: '404' })).to.equal(1);
      expect(value(families, 'bizops_http_requests_total', { method: 'POST', route: '/api/v1/products', status: '201' })).to.equal(1);
      expect(value(families, 'bizops_http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).to.equal(1);
      expect(value(families, 'bizops_http_requests_total', { method: 'GET', route: '/api/v1/products', status: '429' })).to.equal(1);
      expect(value(families, 'bizops_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/products/:id', status: '200' })).to.equal(3);
      expect(value(families, 'bizops_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/v1/products/:id', status: '200', le: '+Inf' })).to.equal(3);
      expect(value(families, 'bizops_rate_limit_refusals_total', { kind: 'user' })).to.equal(1);

      expect(value(families, 'bizops_db_pool_connections_in_use')).to.be.a('number');
      expect(value(families, 'bizops_db_pool_waiting')).to.be.within(0, 1000); // a gauge: background work may be waiting on a busy machine
      expect(value(families, 'bizops_db_pool_max')).to.equal(10);
      // a process-wide counter: other test files in this worker process time statements out on purpose (test/contract/statement-timeouts.test.ts counts them)
      expect(value(families, 'bizops_db_statement_timeouts_total')).to.be.at.least(0);
      // the in-process queue (no pg-boss in the test app): its queues are listed, nothing waits
      for (const queue of ['messages', 'notifications', 'scheduled-notifications', 'retention']) {
        expect(value(families, 'bizops_job_queue_waiting', { queue }), queue).to.equal(0);
        expect(value(families, 'bizops_job_queue_dead', { queue }), queue).to.equal(0);
      }
      expect(families.get('bizops_job_failures_total')?.type).to.equal('counter');
      expect(families.get('bizops_jobs_dead_total')?.type).to.equal('counter');
      // the sign-in code's event was delivered at once; the product's events wait for the loop's grace
      expect(value(families, 'bizops_outbox_oldest_undelivered_age_seconds')).to.be.at.least(0);
      expect(value(families, 'bizops_webhook_endpoints', { status: 'ACTIVE' })).to.equal(1);
      expect(value(families, 'bizops_webhook_endpoints', { status: 'FAILING' })).to.equal(0);
      expect(value(families, 'bizops_webhook_endpoints', { status: 'DISABLED' })).to.equal(0);
      expect(value(families, 'bizops_process_cpu_user_seconds_total')).to.be.greaterThan(0);
      expect(value(families, 'bizops_nodejs_heap_size_used_bytes')).to.be.greaterThan(0);

      // no label carries an id, a phone or a business
      for (const s of [...families.values()].flatMap((f) => f.samples)) {
        for (const v of Object.values(s.labels)) {
          expect(v, `${s.name} ${JSON.stringify(s.labels)}`).to.not.match(UUID);
          expect(v, `${s.name} ${JSON.stringify(s.labels)}`).to.not.match(/\+?234\d{6,}/);
        }
      }
    });

    it('shows the age of the oldest undelivered event', async () => {
      const owner = await registerOwner(app);
      // a product's events have no subscriber that waits: they stay in the outbox until the loop's pass
      await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Garri', price: 800, quantity: 5 } });
      app.clock.advance(90_000);
      const age = value(await scrape(url), 'bizops_outbox_oldest_undelivered_age_seconds')!;
      expect(age).to.be.at.least(90);
      await app.dispatcher.runDue();
      while ((await app.dispatcher.runDue()) > 0);
      expect(value(await scrape(url), 'bizops_outbox_oldest_undelivered_age_seconds')).to.equal(0);
    });

    it('counts outbox deliveries that fail, and jobs that fail and die, by queue', async () => {
      app.outbox.failNext(1); // the provider is down for the next message: the sign-in code's delivery is retried
      const res = await app.request('POST', '/auth/register', { body: { phone: '+2348031110001', first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' } });
      expect(res.status, res.text).to.equal(201);
      metrics.jobReport({ kind: 'retry', queue: 'messages', id: 'j1', attempt: 1, error: 'x' });
      metrics.jobReport({ kind: 'dead', queue: 'messages', id: 'j1', attempt: 9, error: 'x' });
      metrics.jobReport({ kind: 'queue_failed', error: 'x' });
      const families = await scrape(url);
      expect(value(families, 'bizops_outbox_delivery_failures_total', { outcome: 'retry' })).to.equal(1);
      expect(value(families, 'bizops_job_failures_total', { queue: 'messages' })).to.equal(2);
      expect(value(families, 'bizops_jobs_dead_total', { queue: 'messages' })).to.equal(1);
      expect(value(families, 'bizops_job_queue_errors_total')).to.equal(1);
    });

    it('answers only GET /metrics on its port', async () => {
      expect((await fetch(`http://127.0.0.1:${served.port}/`)).status).to.equal(404);
      expect((await fetch(url, { method: 'POST' })).status).to.equal(405);
    });

    it('is never on the API’s port', async () => {
      expect((await app.request('GET', '/api/v1/metrics')).status).to.equal(404);
      expect((await fetch(`${app.baseUrl}/metrics`)).status).to.equal(404);
    });
  });

  describe('the server process', () => {
    after(() => stopAllServers());

    it('is off by default: no METRICS_PORT, no listener; set, it serves the scrape', async () => {
      expect(loadConfig({}).METRICS_PORT).to.equal(undefined);
      expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).to.throw(/METRICS_PORT=8080: must differ from PORT/);
      const dataDir = mkdtempSync(join(tmpdir(), 'bizops-metrics-'));
      try {
        const off = await startServer({ DATA_DIR: dataDir });
        const listening = off.lines.find((l) => l.includes('listening'))!;
        expect(listening).to.not.contain('metrics_port');
        off.child.kill('SIGTERM');
        await new Promise((resolve) => off.child.once('exit', resolve));

        const on = await startServer({ DATA_DIR: dataDir, METRICS_PORT: '0' });
        const port = JSON.parse(on.lines.find((l) => l.includes('listening'))!).metrics_port as number;
        expect(port).to.be.a('number').and.not.equal(Number(new URL(on.base).port));
        expect((await fetch(`${on.base}/actuator/health`)).status).to.equal(200);
        // the queue starts once the API answers (docs/adr/0081); its gauges are there from then on
        for (let i = 0; i < 1500 && !on.lines.some((l) => l.includes('job queue started')); i++) await new Promise((r) => setTimeout(r, 20));
        const families = await scrape(`http://127.0.0.1:${port}/metrics`);
        expect(value(families, 'bizops_http_requests_total', { method: 'GET', route: '/api/v1/actuator/health', status: '200' })).to.equal(1);
        // the server's job queue is pg-boss on the embedded database: its queues are counted there
        expect(value(families, 'bizops_job_queue_waiting', { queue: 'messages' })).to.be.a('number');
        expect(value(families, 'bizops_db_pool_max')).to.equal(10);
        expect((await fetch(`${on.base.replace('/api/v1', '')}/metrics`)).status).to.equal(404);
      } finally {
        await stopAllServers();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
