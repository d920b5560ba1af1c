import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { fakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Loan packs paid through Paystack, against a local fake Paystack that answers as Paystack's API
// reference shows (POST /transaction/initialize, GET /transaction/verify/:reference, the charge.success
// webhook signed with HMAC-SHA512 of the raw body).

const SECRET = 'sk_test_0123456789abcdef0123456789abcdef01234567';
const sign = (raw: string, key = SECRET) => createHmac('sha512', key).update(raw).digest('hex');

const initialized = (reference: string) => ({
  status: 200,
  body: { status: true, message: 'Authorization URL created', data: { authorization_url: 'https://checkout.paystack.com/0peioxfhpn', access_code: '0peioxfhpn', reference } },
});
const transaction = (reference: string, status: string, amount: number, currency = 'NGN') => ({
  id: 4099260516, domain: 'test', status, reference, receipt_number: null, amount, message: null,
  gateway_response: status === 'success' ? 'Successful' : 'Declined', paid_at: status === 'success' ? '2026-11-21T12:05:00.000Z' : null,
  created_at: '2026-11-21T12:04:00.000Z', channel: 'card', currency, ip_address: '197.210.54.33', metadata: '', fees: 17500,
  customer: { id: 181873746, first_name: null, last_name: null, email: 'ada@example.com', customer_code: 'CUS_1rkzaqsv4rrhqo6', phone: null },
});
const verified = (reference: string, status: string, amount: number, currency?: string) => ({
  status: 200, body: { status: true, message: 'Verification successful', data: transaction(reference, status, amount, currency) },
});
const chargeSuccess = (reference: string, amount = 500_000) => JSON.stringify({ event: 'charge.success', data: transaction(reference, 'success', amount) });

const suite = (name: string, open: () => Promise<{ p: Persistence; url?: string }>) =>
  describe(`HTTP loan packs through Paystack (a fake): ${name}`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let p: Persistence;
    let paystack: FakeProvider;
    let token: string;
    let businessId: string;
    let url: string | undefined;
    let ownerEmail: string;
    before(async () => {
      paystack = await fakeProvider();
      ({ p, url } = await open());
      app = await createTestApp({ persistence: p, env: { PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_BASE_URL: paystack.url, PAYSTACK_TIMEOUT_MS: '500', LOAN_PACK_PRICE_NGN: '5000' } });
      const owner = await registerOwner(app, { email: `ada.${Date.now()}@example.com` });
      token = owner.accessToken;
      ownerEmail = owner.to;
      businessId = (await app.request('GET', '/businesses/me', { token })).body.data.id;
    });
    after(async () => {
      await app.close();
      await paystack.close();
    });
    const newPack = async () => (await app.request('POST', '/reports/loan-pack', { token, body: {} })).body.data.reference as string;
    const verify = (reference: string) => app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference } });
    const webhook = (raw: string, signature = sign(raw)) =>
      app.request('POST', '/payments/paystack/webhook', { rawBody: raw, headers: { 'content-type': 'application/json', 'x-paystack-signature': signature } });
    const status = async (reference: string) => (await app.request('GET', `/reports/loan-pack/${reference}`, { token })).body.data.status as string;
    const payment = (reference: string) => p.uow.read((r) => r.loanPacks.paymentOf(businessId, reference));

    it("initialize: the secret key as Bearer, amount in kobo, the pack's reference, the owner's e-mail and the callback", async () => {
      const reference = await newPack();
      paystack.answer(initialized(reference));
      const res = await app.request('POST', `/reports/loan-pack/${reference}/checkout`, { token, body: { callback_url: 'https://app.example.com/paid' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({ authorization_url: 'https://checkout.paystack.com/0peioxfhpn', access_code: '0peioxfhpn', reference, amount: 5000 });
      const [req] = paystack.received;
      expect(req).to.deep.include({ method: 'POST', path: '/transaction/initialize' });
      expect(req!.headers.authorization).to.equal(`Bearer ${SECRET}`);
      expect(req!.body).to.deep.equal({ email: ownerEmail, amount: '500000', currency: 'NGN', reference, callback_url: 'https://app.example.com/paid' });
      // a second checkout answers the same, without asking Paystack again
      const again = await app.request('POST', `/reports/loan-pack/${reference}/checkout`, { token, body: {} });
      expect(again.body.data).to.deep.equal(res.body.data);
      expect(paystack.received).to.have.length(1);
    });

    it('verify: success of the price makes the pack READY; failed leaves it waiting; an unknown reference is abandoned', async () => {
      const reference = await newPack();
      paystack.answer({ status: 400, body: { status: false, message: 'Transaction reference not found' } });
      expect((await verify(reference)).body.data).to.include({ status: 'PENDING_PAYMENT', payment_status: 'abandoned' });
      paystack.answer(verified(reference, 'failed', 500_000));
      expect((await verify(reference)).body.data).to.include({ status: 'PENDING_PAYMENT', payment_status: 'failed' });
      expect(paystack.received.at(-1)).to.deep.include({ method: 'GET', path: `/transaction/verify/${reference}` });
      expect(paystack.received.at(-1)!.headers.authorization).to.equal(`Bearer ${SECRET}`);
      paystack.answer(verified(reference, 'success', 500_000));
      const ok = await verify(reference);
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.data).to.include({ status: 'READY', payment_status: 'success', paid_at: '2026-11-21T12:05:00.000Z' });
      expect(await payment(reference)).to.include({ gateway: 'paystack', amount: 500_000, source: 'verify' });
      const asked = paystack.received.length;
      expect((await verify(reference)).body.data.status).to.equal('READY');
      expect(paystack.received).to.have.length(asked); // a paid pack needs no second question
    });

    it('verify: a success of the wrong amount or currency is refused, logged, and leaves the pack waiting', async () => {
      const reference = await newPack();
      paystack.answer(verified(reference, 'success', 100));
      const res = await verify(reference);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.error.code).to.equal('PAYMENT_AMOUNT_MISMATCH');
      paystack.answer(verified(reference, 'success', 500_000, 'USD'));
      expect((await verify(reference)).body.error.code).to.equal('PAYMENT_AMOUNT_MISMATCH');
      expect(await status(reference)).to.equal('PENDING_PAYMENT');
      expect(await payment(reference)).to.equal(undefined);
      const logged = app.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'loan pack payment refused: wrong amount or currency' && l.reference === reference);
      expect(logged.map((l) => [l.expected, l.paid, l.currency])).to.deep.equal([[500_000, 100, 'NGN'], [500_000, 500_000, 'USD']]);
      expect(JSON.stringify(logged)).to.not.include(SECRET);
    });

    it('Paystack down or failing: 503 PAYMENT_GATEWAY_UNAVAILABLE, nothing changes', async () => {
      const reference = await newPack();
      paystack.answer({ status: 500, body: { status: false, message: 'Internal error' } });
      const res = await app.request('POST', `/reports/loan-pack/${reference}/checkout`, { token, body: {} });
      expect(res.status, res.text).to.equal(503);
      expect(res.body.error.code).to.equal('PAYMENT_GATEWAY_UNAVAILABLE');
      expect(res.headers.get('retry-after')).to.equal('30');
      paystack.answer('hang');
      expect((await verify(reference)).body.error.code).to.equal('PAYMENT_GATEWAY_UNAVAILABLE');
      expect(await status(reference)).to.equal('PENDING_PAYMENT');
    });

    it('webhook: a good signature pays; a bad one is 401 and changes nothing; a replay changes nothing', async () => {
      const reference = await newPack();
      const raw = chargeSuccess(reference);
      const bad = await webhook(raw, sign(raw, 'sk_test_another_key_altogether_0000'));
      expect(bad.status).to.equal(401);
      expect(bad.body.error.code).to.equal('WEBHOOK_SIGNATURE_INVALID');
      expect((await webhook(raw.replace('500000', '500001'), sign(raw))).status).to.equal(401); // the body was altered after signing
      expect((await webhook(raw, '')).status).to.equal(401);
      expect(await status(reference)).to.equal('PENDING_PAYMENT');
      const good = await webhook(raw);
      expect(good.status, good.text).to.equal(200);
      expect(good.body.data).to.deep.equal({ received: true, outcome: 'paid' });
      expect(await status(reference)).to.equal('READY');
      const replay = await webhook(raw);
      expect(replay.body.data).to.deep.equal({ received: true, outcome: 'already' });
      expect(await payment(reference)).to.include({ source: 'webhook', amount: 500_000 });
      // other events and references are acknowledged and ignored
      const other = JSON.stringify({ event: 'transfer.success', data: { reference } });
      expect((await webhook(other)).body.data.outcome).to.equal('ignored');
      expect((await webhook(chargeSuccess('LP-20200101-AAAAAA'))).body.data.outcome).to.equal('ignored');
      // a signed success of the wrong amount is refused like a verify
      const wrong = await newPack();
      expect((await webhook(chargeSuccess(wrong, 100))).body.data.outcome).to.equal('wrong_amount');
      expect(await status(wrong)).to.equal('PENDING_PAYMENT');
    });

    it('three verifies and the webhook at once: one transition, one payment row', async () => {
      const reference = await newPack();
      paystack.answer(verified(reference, 'success', 500_000), verified(reference, 'success', 500_000), verified(reference, 'success', 500_000));
      const results = await Promise.all([verify(reference), verify(reference), webhook(chargeSuccess(reference)), verify(reference)]);
      for (const r of results) expect(r.status, r.text).to.equal(200);
      for (const r of [results[0], results[1], results[3]]) expect(r!.body.data.status).to.equal('READY');
      expect(await payment(reference)).to.include({ amount: 500_000 });
      if (url) {
        // the table itself: one row for the pack (the unique index would refuse a second, but no call even tried)
        const pg = (await import('pg')).default;
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const { rows } = await client.query('select count(*)::int as n from loan_pack_payments y join loan_packs p on p.id = y.loan_pack_id where p.reference = $1', [reference]);
          expect(rows[0].n).to.equal(1);
        } finally {
          await client.end();
        }
      }
      const settled = app.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'loan pack paid' && l.reference === reference);
      expect(settled, 'one transition logged').to.have.length(1);
    });
  });

suite('test database', async () => {
  const url = await freshDatabaseUrl();
  return { p: await openPostgres({ databaseUrl: url, dataDir: '/tmp', poolMax: 10, log: () => undefined }), url };
});
suite('in-memory', async () => ({ p: inMemory() }));
