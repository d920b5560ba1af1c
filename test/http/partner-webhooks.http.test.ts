import { expect } from 'chai';
import { FIRST_ATTEMPT_GRACE_MS } from '../../application/ports/outbox.js';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

for (const persistence of ['postgres', 'memory'] as const)
  describe(`HTTP partner webhooks (${persistence}): signed deliveries, retries, order, rotation, redelivery, isolation`, function () {
    this.timeout(180_000);
    let app: TestApp;
    let a: Awaited<ReturnType<typeof aPartner>>;
    let b: Awaited<ReturnType<typeof aPartner>>;
    let ra: Receiver;
    let rb: Receiver;
    let hookA: { id: string; secret: string };
    let hookB: { id: string; secret: string };
    let m1: { token: string; id: string; product: string };

    /** The outbox's due work, as the queue runs it once a request's grace is over, and the deliveries due, as the woken loop sends them. */
    const drain = async () => {
      for (let i = 0; i < 2; i++) {
        app.clock.advance(FIRST_ATTEMPT_GRACE_MS + 1_000);
        await app.dispatcher.runDue();
        await app.runWebhookDeliveries();
      }
    };
    /** The app's clock back to the real time (receivers refuse timestamps more than 5 minutes off). */
    const realTime = () => app.clock.set(new Date());
    const hook = async (key: string, url: string, events = ['merchant.joined', 'merchant.left', 'sale.created', 'sale.voided', 'credit.payment_received', 'loan_pack.paid']) => {
      const res = await asPartner(app, key, 'POST', '/partner/webhooks', { url, events, description: 'Test receiver' });
      expect(res.status, res.text).to.equal(201);
      return res.body.data as { id: string; secret: string };
    };
    const open = async (code?: string) => {
      const phone = aPhone();
      await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ify', last_name: 'Okoro', business_name: 'Ify Stores', ...(code ? { partner_code: code } : {}) } });
      const token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
      const id = (await app.request('GET', '/businesses/me', { token })).body.data.id as string;
      const product = (await app.request('POST', '/products', { token, body: { name: 'Garri', price: 100, quantity: 10_000 } })).body.data.id as string;
      return { token, id, product };
    };
    const sell = async (m: { token: string; product: string }, extra: Record<string, unknown> = {}) => {
      const res = await app.request('POST', '/sales', { token: m.token, body: { items: [{ product_id: m.product, quantity: 1 }], payment_method: 'CASH', ...extra } });
      expect(res.status, res.text).to.equal(201);
      return res.body.data as { id: string; receipt_number: string };
    };
    const deliveries = async (key: string, endpointId: string) => {
      const res = await asPartner(app, key, 'GET', `/partner/webhooks/${endpointId}/deliveries?limit=100`);
      expect(res.status, res.text).to.equal(200);
      return res.body.data.content as { id: string; event: string; status: string; attempts: number; response_code: number | null; last_error: string | null; message_id: string; duration_ms: number | null }[];
    };

    before(async () => {
      app = await createTestApp({ persistence, env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '300' } });
      ra = await startWebhookReceiver();
      rb = await startWebhookReceiver();
      a = await aPartner(app, 'Partner A');
      b = await aPartner(app, 'Partner B');
      hookA = await hook(a.key, ra.url);
      hookB = await hook(b.key, rb.url);
      ra.secrets.push(hookA.secret);
      rb.secrets.push(hookB.secret);
    });
    beforeEach(() => realTime());
    after(async () => {
      await app.close();
      await ra.close();
      await rb.close();
    });

    it('POST makes an endpoint with a whsec_ secret shown once; GET, list and PUT never show it; bad bodies are 400', async () => {
      expect(hookA.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const got = await asPartner(app, a.key, 'GET', `/partner/webhooks/${hookA.id}`);
      expect(got.body.data).to.include({ id: hookA.id, url: ra.url, status: 'ACTIVE', description: 'Test receiver' });
      expect(got.text).to.not.contain(hookA.secret);
      expect((await asPartner(app, a.key, 'GET', '/partner/webhooks')).body.data.content.map((e: { id: string }) => e.id)).to.deep.equal([hookA.id]);
      for (const body of [{ url: ra.url, events: [] }, { url: ra.url, events: ['sale.deleted'] }, { url: 'not a url', events: ['sale.created'] }, { url: ra.url, events: ['sale.created'], secret: 'x' }]) {
        expect((await asPartner(app, a.key, 'POST', '/partner/webhooks', body)).status, JSON.stringify(body)).to.equal(400);
      }
    });

    it('events reach only the partner whose network holds the merchant, signed (verified with standardwebhooks)', async () => {
      m1 = await open(a.code);
      await drain();
      const joined = ra.of('merchant.joined');
      expect(joined).to.have.length(1);
      expect(joined[0]!.verifiedWith).to.deep.equal([hookA.secret]);
      expect(joined[0]!.json).to.deep.include({ type: 'merchant.joined', partner_id: a.id });
      expect(joined[0]!.json.data).to.deep.include({ merchant_id: m1.id, merchant_name: 'Ify Stores' });
      expect(joined[0]!.headers['webhook-id']).to.equal(joined[0]!.json.id);
      realTime();
      const sale = await sell(m1);
      await drain();
      const created = ra.of('sale.created');
      expect(created).to.have.length(1);
      expect(created[0]!.json.data).to.deep.equal({ merchant_id: m1.id, merchant_name: 'Ify Stores', sale_id: sale.id, receipt_number: sale.receipt_number, total: 100, amount_paid: 100, payment_method: 'CASH', payments: [{ method: 'CASH', amount: 100 }], created_at: created[0]!.json.timestamp });
      expect(rb.received).to.deep.equal([]); // B hears nothing of A's merchant
      const list = await deliveries(a.key, hookA.id);
      expect(list.map((d) => [d.event, d.status, d.attempts, d.response_code])).to.deep.equal([
        ['sale.created', 'SUCCEEDED', 1, 200],
        ['merchant.joined', 'SUCCEEDED', 1, 200],
      ]);
      expect(list[0]!.duration_ms).to.be.a('number');
    });

    it('another partner\'s endpoint and deliveries are 404 on every route', async () => {
      const delivery = (await deliveries(a.key, hookA.id))[0]!;
      for (const [method, path, body] of [
        ['GET', `/partner/webhooks/${hookA.id}`, undefined],
        ['PUT', `/partner/webhooks/${hookA.id}`, { description: 'mine' }],
        ['DELETE', `/partner/webhooks/${hookA.id}`, undefined],
        ['POST', `/partner/webhooks/${hookA.id}/rotate-secret`, undefined],
        ['POST', `/partner/webhooks/${hookA.id}/test`, undefined],
        ['GET', `/partner/webhooks/${hookA.id}/deliveries`, undefined],
        ['POST', `/partner/webhooks/deliveries/${delivery.id}/redeliver`, undefined],
      ] as const) {
        const res = await asPartner(app, b.key, method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      }
      expect((await asPartner(app, b.key, 'GET', '/partner/webhooks')).body.data.content.map((e: { id: string }) => e.id)).to.deep.equal([hookB.id]);
      const reader = (await asPartner(app, a.key, 'POST', '/partner/api-keys', { name: 'Reader', scopes: ['merchants:read'] })).body.data.key as string;
      expect((await asPartner(app, reader, 'GET', '/partner/webhooks')).body.error.code).to.equal('INSUFFICIENT_SCOPE');
      expect(rb.received).to.deep.equal([]);
    });

    it('a 500 is retried after a minute; a timeout too; the endpoint is FAILING with the reason meanwhile', async () => {
      ra.plan.push(500);
      await sell(m1);
      await drain();
      let [d] = await deliveries(a.key, hookA.id);
      expect(d).to.include({ event: 'sale.created', status: 'PENDING', attempts: 1, response_code: 500, last_error: 'the receiver answered 500' });
      const failing = (await asPartner(app, a.key, 'GET', `/partner/webhooks/${hookA.id}`)).body.data;
      expect(failing).to.include({ status: 'FAILING', last_error: 'the receiver answered 500' });
      app.clock.advance(MINUTE);
      expect(await app.runWebhookDeliveries()).to.equal(1);
      [d] = await deliveries(a.key, hookA.id);
      expect(d).to.include({ status: 'SUCCEEDED', attempts: 2, response_code: 200, last_error: null });
      expect((await asPartner(app, a.key, 'GET', `/partner/webhooks/${hookA.id}`)).body.data).to.include({ status: 'ACTIVE', last_error: null, failing_since: null });

      realTime();
      ra.plan.push('hang');
      await sell(m1);
      await drain();
      [d] = await deliveries(a.key, hookA.id);
      expect(d).to.include({ status: 'PENDING', attempts: 1, response_code: null, last_error: 'timed out' });
      app.clock.advance(MINUTE);
      await app.runWebhookDeliveries();
      [d] = await deliveries(a.key, hookA.id);
      expect(d).to.include({ status: 'SUCCEEDED', attempts: 2 });
      expect(ra.of('sale.created').slice(-2).map((r) => r.answered)).to.deep.equal(['hung', 200]);
    });

    it('deliveries go out in order per endpoint: a later event waits behind a failed one', async () => {
      ra.plan.push(500);
      const first = await sell(m1);
      await drain();
      const before = ra.of('sale.created').length;
      const second = await sell(m1);
      await drain();
      expect(ra.of('sale.created').length, 'the second waits').to.equal(before);
      expect((await deliveries(a.key, hookA.id)).slice(0, 2).map((d) => [d.status, d.attempts])).to.deep.equal([
        ['PENDING', 0],
        ['PENDING', 1],
      ]);
      app.clock.advance(MINUTE);
      await app.runWebhookDeliveries();
      const got = ra.of('sale.created').slice(before - 1).map((r) => [r.json.data.sale_id, r.answered]);
      expect(got).to.deep.equal([
        [first.id, 500],
        [first.id, 200],
        [second.id, 200],
      ]);
    });

    it('rotation: for 24 hours both signatures are sent (old and new secret each verify), then only the new one', async () => {
      const res = await asPartner(app, a.key, 'POST', `/partner/webhooks/${hookA.id}/rotate-secret`);
      expect(res.status).to.equal(200);
      const fresh = res.body.data.secret as string;
      expect(fresh).to.match(/^whsec_/).and.not.equal(hookA.secret);
      ra.secrets.push(fresh);
      const test = await asPartner(app, a.key, 'POST', `/partner/webhooks/${hookA.id}/test`);
      expect(test.status, test.text).to.equal(200);
      expect(test.body.data).to.include({ event: 'webhook.test', status: 'SUCCEEDED', attempts: 1 });
      const got = ra.of('webhook.test').at(-1)!;
      expect(got.verifiedWith).to.have.members([hookA.secret, fresh]);
      expect(String(got.headers['webhook-signature']).split(' ')).to.have.length(2);
      app.clock.advance(24 * HOUR + 1);
      ra.plan.push(200); // a day ahead of the receiver's clock: taken without verifying, only the header is looked at
      await asPartner(app, a.key, 'POST', `/partner/webhooks/${hookA.id}/test`);
      expect(String(ra.of('webhook.test').at(-1)!.headers['webhook-signature']).split(' ')).to.have.length(1);
      ra.secrets.splice(0, ra.secrets.length, fresh);
      hookA.secret = fresh;
    });

    it('a stale (replayed) timestamp is refused by the receiver; redelivery sends the same webhook-id and body again', async () => {
      app.clock.set(new Date(Date.now() - 10 * MINUTE));
      const stale = await asPartner(app, a.key, 'POST', `/partner/webhooks/${hookA.id}/test`);
      expect(stale.body.data).to.include({ status: 'PENDING', response_code: 400 });
      expect(ra.received.at(-1)!.refusals.join(' ')).to.match(/timestamp/i);
      realTime();
      const retried = await asPartner(app, a.key, 'POST', `/partner/webhooks/deliveries/${stale.body.data.id}/redeliver`);
      expect(retried.status, retried.text).to.equal(200);
      // in order: the stale one is retried first (now with a fresh timestamp), then the redelivery
      expect(retried.body.data).to.include({ status: 'SUCCEEDED', message_id: stale.body.data.message_id });
      const [last, previous] = [ra.received.at(-1)!, ra.received.at(-2)!];
      expect(last.headers['webhook-id']).to.equal(stale.body.data.message_id);
      expect(last.body).to.equal(previous.body);
      expect(last.verifiedWith).to.deep.equal([hookA.secret]);
    });

    it('merchant.left goes to the partner it left; its later sales go to no one', async () => {
      const m2 = await open(a.code);
      await drain();
      realTime();
      expect((await app.request('DELETE', '/businesses/me/partner', { token: m2.token })).status).to.equal(200);
      await drain();
      expect(ra.of('merchant.left').map((r) => r.json.data.merchant_id)).to.deep.equal([m2.id]);
      realTime();
      const before = ra.received.length;
      await sell(m2);
      await drain();
      expect(ra.received.length).to.equal(before);
    });

    it('issue 32: events from while the merchant was in the network reach the partner though it left before any dispatcher ran; one after leaving reaches no one', async () => {
      const m3 = await open(a.code);
      await drain();
      realTime();
      const before = ra.received.length;
      const kept = await sell(m3);
      expect((await app.request('POST', `/sales/${kept.id}/void`, { token: m3.token, body: { reason: 'returned' } })).status).to.equal(200);
      const customer = (await app.request('POST', '/customers', { token: m3.token, body: { name: 'Ada' } })).body.data.id as string;
      await sell(m3, { payment_method: 'CREDIT', customer_id: customer });
      expect((await app.request('POST', `/customers/${customer}/credit/payment`, { token: m3.token, body: { amount: 40, payment_method: 'CASH' } })).status).to.equal(201);
      expect((await app.request('DELETE', '/businesses/me/partner', { token: m3.token })).status).to.equal(200);
      const after = await sell(m3); // out of the network: no one hears of it
      await drain();
      const got = ra.received.slice(before).filter((r) => r.json.data.merchant_id === m3.id);
      expect(got.map((r) => r.json.type)).to.deep.equal(['sale.created', 'sale.voided', 'sale.created', 'credit.payment_received', 'merchant.left']);
      expect(got.every((r) => r.answered === 200 && r.verifiedWith.length === 1)).to.equal(true);
      expect(got.map((r) => r.json.data.sale_id)).to.not.include(after.id);
      const listed = (await deliveries(a.key, hookA.id)).filter((d) => got.some((r) => r.json.id === d.message_id));
      expect(listed.map((d) => [d.event, d.status])).to.have.deep.members([
        ['sale.created', 'SUCCEEDED'],
        ['sale.voided', 'SUCCEEDED'],
        ['sale.created', 'SUCCEEDED'],
        ['credit.payment_received', 'SUCCEEDED'],
        ['merchant.left', 'SUCCEEDED'],
      ]);
    });

    it('sale.voided and credit.payment_received', async () => {
      const customer = (await app.request('POST', '/customers', { token: m1.token, body: { name: 'Ada' } })).body.data.id as string;
      const credit = await sell(m1, { payment_method: 'CREDIT', customer_id: customer });
      expect((await app.request('POST', `/customers/${customer}/credit/payment`, { token: m1.token, body: { amount: 40, payment_method: 'CASH' } })).status).to.equal(201);
      expect((await app.request('POST', `/sales/${credit.id}/void`, { token: m1.token, body: { reason: 'returned' } })).status).to.equal(200);
      await drain();
      expect(ra.of('credit.payment_received').at(-1)!.json.data).to.deep.include({ merchant_id: m1.id, amount: 40, payment_method: 'CASH' });
      expect(ra.of('credit.payment_received').at(-1)!.body).to.contain('"amount":40.00,'); // money with 2 decimals in every body (ADR 0046)
      expect(ra.of('sale.voided').at(-1)!.body).to.match(/"refund_amount":\d+\.\d{2}[,}]/);
      expect(ra.of('sale.voided').at(-1)!.json.data).to.deep.include({ merchant_id: m1.id, sale_id: credit.id });
      for (const r of ra.received.slice(-2)) expect(r.verifiedWith).to.deep.equal([hookA.secret]);
    });

    it('loan_pack.paid when a pack\'s payment is recorded', async () => {
      const pack = await app.request('POST', '/reports/loan-pack', { token: m1.token, body: { months: 6 } });
      expect(pack.status, pack.text).to.equal(201);
      const reference = pack.body.data.reference as string;
      const checkout = await app.request('POST', `/reports/loan-pack/${reference}/checkout`, { token: m1.token, body: { email: 'ify@example.com' } });
      expect(checkout.status, checkout.text).to.be.within(200, 201);
      expect((await app.request('POST', `${new URL(checkout.body.data.authorization_url).pathname}/pay`)).status).to.equal(200);
      const verified = await app.request('POST', '/reports/loan-pack/payment/verify', { token: m1.token, body: { reference } });
      expect(verified.body.data.status).to.equal('READY');
      await drain();
      const paid = ra.of('loan_pack.paid');
      expect(paid).to.have.length(1);
      expect(paid[0]!.json.data).to.deep.include({ merchant_id: m1.id, reference, amount: 5000 });
      expect(paid[0]!.verifiedWith).to.deep.equal([hookA.secret]);
    });

    it('failing for a day disables the endpoint (no new deliveries; the partner sees why); an update re-enables it; after 72 h a delivery has FAILED', async () => {
      ra.plan.push(...Array<number>(40).fill(503));
      await sell(m1);
      await drain();
      for (let i = 0; i < 12 && (await asPartner(app, a.key, 'GET', `/partner/webhooks/${hookA.id}`)).body.data.status !== 'DISABLED'; i++) {
        app.clock.advance(6 * HOUR);
        await app.runWebhookDeliveries();
      }
      const disabled = (await asPartner(app, a.key, 'GET', `/partner/webhooks/${hookA.id}`)).body.data;
      expect(disabled).to.include({ status: 'DISABLED', last_error: 'the receiver answered 503' });
      const attempts = ra.received.length;
      await sell(m1);
      await drain();
      app.clock.advance(6 * HOUR);
      await app.runWebhookDeliveries();
      expect(ra.received.length).to.equal(attempts); // nothing is sent to a disabled endpoint
      app.clock.advance(3 * 24 * HOUR);
      ra.plan.splice(0, ra.plan.length, 503);
      const enabled = await asPartner(app, a.key, 'PUT', `/partner/webhooks/${hookA.id}`, { description: 'fixed' });
      expect(enabled.status).to.equal(200);
      expect(enabled.body.data).to.include({ status: 'ACTIVE', description: 'fixed' });
      const list = await deliveries(a.key, hookA.id);
      expect(list.find((d) => d.status === 'FAILED')).to.include({ event: 'sale.created', response_code: 503 });
    });

    it('DELETE removes the endpoint; nothing more is sent to it', async () => {
      expect((await asPartner(app, b.key, 'DELETE', `/partner/webhooks/${hookB.id}`)).status).to.equal(200);
      expect((await asPartner(app, b.key, 'GET', `/partner/webhooks/${hookB.id}`)).status).to.equal(404);
      await open(b.code);
      await drain();
      expect(rb.received).to.deep.equal([]);
    });
  });
