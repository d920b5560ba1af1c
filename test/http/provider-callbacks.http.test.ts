import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { fakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Notifications end to end with the providers configured against local stand-ins: sent through the
// fake Termii and WhatsApp, then their signed delivery reports (the providers' callbacks) make them
// DELIVERED or FAILED; a bad signature changes nothing. docs/adr/0030 ("Provider callbacks").

const TERMII_SECRET = 'termii-secret-key-for-the-test';
const APP_SECRET = 'meta-app-secret-for-the-test';
const VERIFY_TOKEN = 'verify-token-for-the-test';

const termiiSigned = (raw: string, key = TERMII_SECRET) => ({ 'content-type': 'application/json', 'x-termii-signature': createHmac('sha512', key).update(raw).digest('hex') });
const metaSigned = (raw: string, key = APP_SECRET) => ({ 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${createHmac('sha256', key).update(raw).digest('hex')}` });
const statusWebhook = (statuses: unknown[]) =>
  // Meta escapes non-ASCII as \uXXXX: the signature is over these exact bytes, so the test sends them as they are
  JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', statuses } }] }] }).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

for (const persistence of ['postgres', 'memory'] as const) {
  describe(`HTTP provider callbacks: delivery reports end to end (${persistence})`, () => {
    let app: TestApp;
    let termii: FakeProvider;
    let whatsapp: FakeProvider;
    let token: string;
    let customer: { id: string; phone: string };
    let saleId: string;
    before(async () => {
      termii = await fakeProvider();
      whatsapp = await fakeProvider();
      app = await createTestApp({
        persistence,
        configuredMessages: true,
        env: {
          OTP_TEST_MODE: 'true', // the owner signs in with 000000: nothing is sent for it
          TERMII_API_KEY: 'termii-api-key-for-the-test',
          TERMII_SENDER_ID: 'BizOps',
          TERMII_BASE_URL: termii.url,
          TERMII_SECRET_KEY: TERMII_SECRET,
          WHATSAPP_TOKEN: 'whatsapp-token-for-the-test',
          WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
          WHATSAPP_GRAPH_URL: whatsapp.url,
          WHATSAPP_APP_SECRET: APP_SECRET,
          WHATSAPP_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
        },
      });
      const phone = '+2348000000042';
      expect((await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' } })).status).to.equal(201);
      token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: '000000' } })).body.data.access_token;
      const productId = (await app.request('POST', '/products', { token, body: { name: 'Rice 50kg', price: 1500.5, quantity: 100 } })).body.data.id;
      customer = { phone: '+2348031234567', id: '' };
      customer.id = (await app.request('POST', '/customers', { token, body: { name: 'Mama Chioma', phone: customer.phone } })).body.data.id;
      // messages go to the business's own customers only (docs/adr/0040)
      for (const phone of ['+2348031234568', '+2348031234569']) expect((await app.request('POST', '/customers', { token, body: { name: `Customer ${phone}`, phone } })).status).to.equal(201);
      const sale = await app.request('POST', '/sales', { token, body: { items: [{ product_id: productId, quantity: 2 }], payment_method: 'CASH', customer_id: customer.id } });
      expect(sale.status, sale.text).to.equal(201);
      saleId = sale.body.data.id;
      expect(termii.received, 'nothing sent while signing up').to.deep.equal([]);
    });
    after(async () => {
      await app.close();
      await termii.close();
      await whatsapp.close();
    });

    const notification = async (id: string) => (await app.request('GET', `/notifications/${id}`, { token })).body.data;
    /** The notification once the in-process queue has settled it (it runs right after the commit). */
    const settled = async (id: string) => {
      for (let i = 0; i < 100; i++) {
        const n = await notification(id);
        if (n.status !== 'QUEUED') return n;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`notification ${id} is still QUEUED`);
    };
    const sendWhatsAppReceipt = async (wamid: string) => {
      whatsapp.answer({ status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: '2348031234567', wa_id: '2348031234567' }], messages: [{ id: wamid }] } });
      const res = await app.request('POST', '/notifications/whatsapp', { token, body: { customer_id: customer.id, template: 'RECEIPT', sale_id: saleId } });
      expect(res.status, res.text).to.equal(202);
      const n = await settled(res.body.data.id);
      expect(n).to.include({ status: 'SENT', provider_message_id: wamid });
      return n;
    };

    it('an SMS goes through Termii, is SENT with its message_id, and a signed delivery report makes it DELIVERED', async () => {
      termii.answer({ status: 200, body: { code: 'ok', message_id: '3017544054459', message: 'Successfully Sent', balance: 8, user: 'BizOps' } });
      const res = await app.request('POST', '/notifications/sms', { token, body: { to: '+2348031234568', template: 'CUSTOM', message: 'Your order is ready.' } });
      expect(res.status, res.text).to.equal(202);
      const sent = await settled(res.body.data.id);
      expect(sent).to.include({ status: 'SENT', provider_message_id: '3017544054459', text: 'Ada Stores: Your order is ready.' });
      expect(termii.received.at(-1)?.body).to.deep.include({ to: '2348031234568', from: 'BizOps', sms: 'Ada Stores: Your order is ready.', channel: 'generic' });

      const report = JSON.stringify({ type: 'outbound', id: '1a2b3c', message_id: '3017544054459', receiver: '2348031234568', sender: 'BizOps', message: 'Ada Stores: Your order is ready.', sent_at: '2026-11-25 09:15:04', cost: '4.00', status: 'Delivered', channel: 'generic' });
      const forged = await app.request('POST', '/webhooks/termii', { rawBody: report, headers: termiiSigned(report, 'not-the-secret') });
      expect(forged.status).to.equal(401);
      expect(forged.body.error.code).to.equal('WEBHOOK_SIGNATURE_INVALID');
      expect(forged.headers.get('www-authenticate')).to.include('X-Termii-Signature');
      const unsigned = await app.request('POST', '/webhooks/termii', { rawBody: report, headers: { 'content-type': 'application/json' } });
      expect(unsigned.status).to.equal(401);
      // signed over other bytes (the same JSON re-spaced): refused, the signature is over the exact body
      const respaced = await app.request('POST', '/webhooks/termii', { rawBody: JSON.stringify(JSON.parse(report), null, 1), headers: termiiSigned(report) });
      expect(respaced.status).to.equal(401);
      expect((await notification(sent.id)).status, 'nothing changed').to.equal('SENT');

      const ok = await app.request('POST', '/webhooks/termii', { rawBody: report, headers: termiiSigned(report) });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.data).to.deep.equal({ reports: 1, applied: 1 });
      expect(await notification(sent.id)).to.include({ status: 'DELIVERED', failure_reason: null });
    });

    it('a Termii failure report makes a SENT SMS FAILED with its status; an unknown message_id is answered 200 and noted at debug', async () => {
      termii.answer({ status: 200, body: { code: 'ok', message_id: '3017544054460', message: 'Successfully Sent', balance: 7, user: 'BizOps' } });
      const res = await app.request('POST', '/notifications/sms', { token, body: { to: '+2348031234569', template: 'CUSTOM', message: 'Closed on Sunday.' } });
      const sent = await settled(res.body.data.id);
      const failed = JSON.stringify({ type: 'outbound', message_id: '3017544054460', receiver: '2348031234569', status: 'DND Active on Phone Number', channel: 'generic' });
      expect((await app.request('POST', '/webhooks/termii', { rawBody: failed, headers: termiiSigned(failed) })).body.data).to.deep.equal({ reports: 1, applied: 1 });
      expect(await notification(sent.id)).to.include({ status: 'FAILED', failure_reason: 'DND Active on Phone Number' });

      const unknown = JSON.stringify({ type: 'outbound', message_id: '9999999999999', status: 'Delivered' });
      const answer = await app.request('POST', '/webhooks/termii', { rawBody: unknown, headers: termiiSigned(unknown) });
      expect(answer.status).to.equal(200);
      expect(answer.body.data).to.deep.equal({ reports: 1, applied: 0 });
      const noted = app.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.provider_message_id === '9999999999999');
      expect(noted).to.include({ level: 20, provider: 'termii', msg: 'delivery report for no SENT notification' });
      const notJson = '{"message_id": ';
      expect((await app.request('POST', '/webhooks/termii', { rawBody: notJson, headers: termiiSigned(notJson) })).body.error.code).to.equal('MALFORMED_JSON');
    });

    it('a WhatsApp receipt goes as its template with the sale’s params; a signed "delivered" status makes it DELIVERED', async () => {
      const n = await sendWhatsAppReceipt('wamid.HBgNMjM0ODAzMTIzNDU2NxUCABEYEjQ3');
      const request = whatsapp.received.at(-1)!;
      expect(request.path).to.equal('/v23.0/106540352242922/messages');
      expect(request.headers.authorization).to.equal('Bearer whatsapp-token-for-the-test');
      const template = (request.body as { template: { name: string; language: unknown; components: { parameters: { text: string }[] }[] } }).template;
      expect(template).to.deep.include({ name: 'receipt', language: { code: 'en' } });
      const params = template.components[0]!.parameters.map((p) => p.text);
      expect(params).to.have.length(6);
      expect(params[0]).to.equal('Ada Stores');
      expect(params.slice(3)).to.deep.equal(['₦3,001.00', '₦3,001.00', '₦0.00']);
      expect(n.text).to.include(params[1]); // the receipt number

      const body = statusWebhook([{ id: n.provider_message_id, status: 'delivered', timestamp: '1764062104', recipient_id: '2348031234567' }]);
      const forged = await app.request('POST', '/webhooks/whatsapp', { rawBody: body, headers: metaSigned(body, 'another-app') });
      expect(forged.status).to.equal(401);
      expect(forged.body.error.code).to.equal('WEBHOOK_SIGNATURE_INVALID');
      const bare = await app.request('POST', '/webhooks/whatsapp', { rawBody: body, headers: { ...metaSigned(body), 'x-hub-signature-256': metaSigned(body)['x-hub-signature-256'].slice('sha256='.length) } });
      expect(bare.status, 'the sha256= prefix is part of it').to.equal(401);
      expect((await notification(n.id)).status).to.equal('SENT');

      const ok = await app.request('POST', '/webhooks/whatsapp', { rawBody: body, headers: metaSigned(body) });
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.data).to.deep.equal({ reports: 1, applied: 1 });
      expect(await notification(n.id)).to.include({ status: 'DELIVERED' });
    });

    it('several statuses in one webhook: sent changes nothing, read delivers, failed is FAILED with Meta’s reason', async () => {
      const a = await sendWhatsAppReceipt('wamid.A-sent-then-read');
      const b = await sendWhatsAppReceipt('wamid.B-failed');
      const body = statusWebhook([
        { id: a.provider_message_id, status: 'sent', timestamp: '1764062100', recipient_id: '2348031234567' },
        { id: a.provider_message_id, status: 'read', timestamp: '1764062190', recipient_id: '2348031234567' },
        {
          id: b.provider_message_id,
          status: 'failed',
          timestamp: '1764062105',
          recipient_id: '2348031234567',
          errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'The recipient’s phone number is not a WhatsApp number.' } }],
        },
      ]);
      const res = await app.request('POST', '/webhooks/whatsapp', { rawBody: body, headers: metaSigned(body) });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({ reports: 3, applied: 2 });
      expect((await notification(a.id)).status).to.equal('DELIVERED');
      expect(await notification(b.id)).to.include({ status: 'FAILED', failure_reason: '(#131026) Message undeliverable: The recipient’s phone number is not a WhatsApp number.' });
    });

    it('reads at most 64 KB from Termii and no compressed body (its signature is over the bytes sent)', async () => {
      const big = JSON.stringify({ message_id: '1', status: 'Delivered', message: 'x'.repeat(70 * 1024) });
      const tooBig = await app.request('POST', '/webhooks/termii', { rawBody: big, headers: termiiSigned(big) });
      expect(tooBig.status).to.equal(413);
      expect(tooBig.body.error.code).to.equal('PAYLOAD_TOO_LARGE');
      const body = '{"message_id":"1","status":"Delivered"}';
      const zipped = await app.request('POST', '/webhooks/termii', { rawBody: body, headers: { ...termiiSigned(body), 'content-encoding': 'gzip' } });
      expect(zipped.status).to.equal(415);
      const text = await app.request('POST', '/webhooks/termii', { rawBody: body, headers: { ...termiiSigned(body), 'content-type': 'text/plain' } });
      expect(text.status).to.equal(415);
    });

    it('the verification handshake answers hub.challenge as text/plain, only with the verify token', async () => {
      const good = await app.request('GET', `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
      expect(good.status, good.text).to.equal(200);
      expect(good.headers.get('content-type')).to.match(/^text\/plain/);
      expect(good.text).to.equal('1158201444');
      for (const query of [`hub.mode=subscribe&hub.verify_token=wrong-token-here&hub.challenge=1`, `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`, `hub.mode=subscribe&hub.challenge=1`]) {
        const bad = await app.request('GET', `/webhooks/whatsapp?${query}`);
        expect(bad.status, query).to.equal(403);
        expect(bad.body.error.code).to.equal('WEBHOOK_VERIFICATION_FAILED');
      }
    });
  });
}

describe('HTTP provider callbacks without their keys', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp({ persistence: 'memory', env: { TERMII_API_KEY: 'k', TERMII_SENDER_ID: 'BizOps' } })));
  after(async () => app.close());

  it('answer 503 WEBHOOK_NOT_CONFIGURED, naming the variables, even to a signed body', async () => {
    const body = '{"message_id":"1","status":"Delivered"}';
    const termii = await app.request('POST', '/webhooks/termii', { rawBody: body, headers: termiiSigned(body) });
    expect(termii.status).to.equal(503);
    expect(termii.body.error).to.include({ code: 'WEBHOOK_NOT_CONFIGURED' });
    expect(termii.body.message).to.include('TERMII_SECRET_KEY');
    expect((await app.request('POST', '/webhooks/whatsapp', { rawBody: statusWebhook([]), headers: metaSigned(statusWebhook([])) })).body.error.code).to.equal('WEBHOOK_NOT_CONFIGURED');
    expect((await app.request('GET', '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=anything-at-all&hub.challenge=1')).status).to.equal(503);
  });
});
