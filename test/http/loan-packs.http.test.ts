import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { PDFParse } from 'pdf-parse';
import { setPlan } from '../../application/operator/plans.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import type { Plan } from '../../domain/plan.js';
import { freshDatabaseUrl } from '../support/database.js';
import { ownerWithReportsFixture, type ReportsFixture } from '../support/reports-fixture.js';
import { createTestApp, testClock, type TestApp } from '../support/test-app.js';

// The whole loan pack flow over HTTP with the sandbox gateway (nothing configured), on the hand-worked
// reports fixture (test/support/reports-fixture.ts; "now" is 2026-11-21 12:00Z): create, checkout, pay
// on the sandbox page, verify, download (JSON and PDF), and the lender's public check of the hash.

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const suite = (name: string, open: () => Promise<Persistence>) =>
  describe(`HTTP loan packs with the sandbox gateway: ${name}`, function () {
    this.timeout(60_000);
    let app: TestApp;
    let p: Persistence;
    let token: string;
    let businessId: string;
    let phone: string;
    let f: ReportsFixture;
    before(async () => {
      p = await open();
      app = await createTestApp({ persistence: p });
      const made = await ownerWithReportsFixture(app, p);
      ({ token, businessId, f } = made);
      phone = made.owner.to;
    });
    after(async () => app.close());
    const plan = async (to: Plan) => void (await setPlan({ uow: p.uow, clock: testClock() })(businessId, to));
    const download = async (reference: string, accept?: string) => {
      const res = await fetch(`${app.baseUrl}/api/v1/reports/loan-pack/${reference}/download`, { headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) } });
      return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const sandboxPath = (url: string) => new URL(url).pathname;

    let pack: { reference: string; sha256: string };

    it('a FREE business: the pack is PENDING_PAYMENT at the configured price, and its download is 402 until paid', async () => {
      const res = await app.request('POST', '/reports/loan-pack', { token, body: { purpose: 'Restock', lender_name: 'LAPO Microfinance Bank' } });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({
        status: 'PENDING_PAYMENT', months: 6, period_start: '2026-06-01', period_end: '2026-11-21', price: 5000, currency: 'NGN',
        purpose: 'Restock', lender_name: 'LAPO Microfinance Bank', paid_at: null, checkout: null,
      });
      expect(res.body.data.reference).to.match(/^LP-20261121-[A-HJ-NP-Z2-9]{6}$/);
      expect(res.body.data.created_at).to.equal('2026-11-21T12:00:00.000Z');
      pack = res.body.data;
      const gated = await app.request('GET', `/reports/loan-pack/${pack.reference}/download`, { token });
      expect(gated.status, gated.text).to.equal(402);
      expect(gated.body.error).to.include({ code: 'LOAN_PACK_PAYMENT_REQUIRED', status: 402 });
      expect(gated.body.error.detail).to.include('₦5000.00');
    });

    it('months 12 and bad bodies: 12 months back from the current one; anything else is 400', async () => {
      const res = await app.request('POST', '/reports/loan-pack', { token, body: { months: 12 } });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({ months: 12, period_start: '2025-12-01', period_end: '2026-11-21' });
      for (const body of [{ months: 3 }, { months: '6' }, { lender_name: '' }, { purpose: 'x'.repeat(501) }, { colour: 'red' }]) {
        const bad = await app.request('POST', '/reports/loan-pack', { token, body });
        expect(bad.status, JSON.stringify(body)).to.equal(400);
        expect(bad.body.error.code).to.equal('VALIDATION_FAILED');
      }
    });

    it('checkout: an e-mail is needed when the owner and the business have none; then the sandbox page, the same on every call', async () => {
      const none = await app.request('POST', `/reports/loan-pack/${pack.reference}/checkout`, { token, body: {} });
      expect(none.status, none.text).to.equal(422);
      expect(none.body.error.code).to.equal('PAYER_EMAIL_REQUIRED');
      expect(none.body.error.errors).to.deep.equal([{ field: 'email', message: 'is required when neither the owner nor the business has an e-mail' }]);
      const body = { email: 'ada@example.com', callback_url: 'https://app.example.com/paid' };
      const res = await app.request('POST', `/reports/loan-pack/${pack.reference}/checkout`, { token, body, headers: { 'idempotency-key': 'checkout-1' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({ reference: pack.reference, amount: 5000 });
      expect(res.body.data.authorization_url).to.match(/^http:\/\/localhost:8080\/api\/v1\/sandbox\/checkout\/[A-Za-z0-9_-]+$/);
      const replay = await app.request('POST', `/reports/loan-pack/${pack.reference}/checkout`, { token, body, headers: { 'idempotency-key': 'checkout-1' } });
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      const again = await app.request('POST', `/reports/loan-pack/${pack.reference}/checkout`, { token, body: {} });
      expect(again.body.data).to.deep.equal(res.body.data);
      expect((await app.request('GET', `/reports/loan-pack/${pack.reference}`, { token })).body.data.checkout).to.deep.equal({
        authorization_url: res.body.data.authorization_url, access_code: res.body.data.access_code,
      });
    });

    it('verify before paying, and after Cancel: still PENDING_PAYMENT, with the gateway\'s word', async () => {
      const before = await app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference: pack.reference } });
      expect(before.status, before.text).to.equal(200);
      expect(before.body.data).to.include({ status: 'PENDING_PAYMENT', payment_status: 'abandoned', paid_at: null });
      const url = (await app.request('GET', `/reports/loan-pack/${pack.reference}`, { token })).body.data.checkout.authorization_url as string;
      const cancelled = await app.request('POST', `/api${sandboxPath(url).slice(4)}/cancel`);
      expect(cancelled.status, cancelled.text).to.equal(200);
      expect(cancelled.text).to.include('Payment cancelled (sandbox).');
      const after = await app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference: pack.reference } });
      expect(after.body.data).to.include({ status: 'PENDING_PAYMENT', payment_status: 'failed' });
      expect((await app.request('GET', `/reports/loan-pack/${pack.reference}/download`, { token })).status).to.equal(402);
    });

    it('a forged or altered access_code (reference, amount, e-mail) opens no page and pays nothing: 404', async () => {
      const url = (await app.request('GET', `/reports/loan-pack/${pack.reference}`, { token })).body.data.checkout.authorization_url as string;
      const real = sandboxPath(url).split('/').pop()!;
      const json = (v: unknown[]) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const forged = json([pack.reference, 500_000, 'me@example.com', null]);
      const altered = json([pack.reference, 1, 'me@example.com', null]) + real.slice(-22);
      for (const code of [forged, altered, real.slice(0, -1), real.slice(-22)]) {
        const seen = await app.request('GET', `/sandbox/checkout/${code}`);
        expect(seen.status, seen.text).to.equal(404);
        expect(seen.body.error.code).to.equal('RESOURCE_NOT_FOUND');
        expect((await app.request('POST', `/sandbox/checkout/${code}/pay`)).status).to.equal(404);
      }
      const verified = await app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference: pack.reference } });
      expect(verified.body.data).to.include({ status: 'PENDING_PAYMENT' });
      expect((await app.request('GET', sandboxPath(url))).status).to.equal(200);
    });

    it('the sandbox page says it is a sandbox; Pay sends the payer back to the callback; verify makes the pack READY once', async () => {
      const url = (await app.request('GET', `/reports/loan-pack/${pack.reference}`, { token })).body.data.checkout.authorization_url as string;
      const page = await app.request('GET', sandboxPath(url));
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(page.text).to.include('<meta charset="utf-8">').and.include('SANDBOX').and.include('No money moves').and.include(pack.reference).and.include('₦5,000.00');
      expect(page.text).to.include('>Pay ₦5,000.00</button>').and.include('>Cancel</button>');
      const paid = await app.request('POST', `${sandboxPath(url)}/pay`);
      expect(paid.text).to.include('Payment complete (sandbox).');
      expect(paid.text).to.include(`content="2;url=https://app.example.com/paid?trxref=${pack.reference}&#38;reference=${pack.reference}"`);
      const verified = await Promise.all([1, 2, 3].map(() => app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference: pack.reference } })));
      for (const v of verified) {
        expect(v.status, v.text).to.equal(200);
        expect(v.body.data).to.include({ status: 'READY', payment_status: 'success', paid_at: '2026-11-21T12:00:00.000Z' });
      }
      const payment = await p.uow.read((r) => r.loanPacks.paymentOf(businessId, pack.reference));
      expect(payment).to.include({ gateway: 'sandbox', amount: 500_000, currency: 'NGN', source: 'verify' });
      const checkout = await app.request('POST', `/reports/loan-pack/${pack.reference}/checkout`, { token, body: {} });
      expect(checkout.status).to.equal(409);
      expect(checkout.body.error.code).to.equal('NO_PAYMENT_DUE');
      expect((await app.request('GET', sandboxPath(url))).text).to.include('already complete');
    });

    it('download: the JSON is exactly the bytes hashed, with the figures of the books', async () => {
      const json = await download(pack.reference, 'application/json');
      expect(json.status).to.equal(200);
      expect(json.type).to.equal('application/json; charset=utf-8');
      expect(json.disposition).to.equal(`attachment; filename="${pack.reference}.json"`);
      expect(sha256(json.bytes)).to.equal(pack.sha256);
      const text = json.bytes.toString('utf8');
      const d = JSON.parse(text);
      expect(text.replace(/"(?:[^"\\]|\\.)*"/g, '""')).to.not.match(/\s/); // no whitespace (keys already sorted: see the unit test)
      // money is naira written with exactly 2 decimals, in keys without _kobo, like every other body (ADR 0046)
      expect(text).to.not.contain('_kobo');
      expect(text).to.contain('"totals":{"average_sale":6400.00,"cash_in":31500.00,');
      expect(text).to.contain('"aging":{"days_0_30":500.00,"days_31_60":0.00,');
      for (const m of text.matchAll(/"(revenue|cost_of_goods|gross_profit|expenses|net_profit|average_sale|cash_in|cash_out|net_cash_flow|credit_collected|outstanding|collected_in_period|value_at_cost|value_at_price)":(-?[0-9.]+)/g)) {
        expect(m[2], m[0]).to.match(/^-?\d+\.\d{2}$/);
      }
      expect(d).to.include({ format: 'bizops-loan-pack/2', reference: pack.reference, currency: 'NGN', months: 6, period_start: '2026-06-01', period_end: '2026-11-21' });
      expect(d.business).to.deep.include({ name: 'Ada Stores', owner_name: 'Ada Obi', verified_phone: phone, branches: ['Main branch'] });
      expect(d.monthly.map((m: { month: string }) => m.month)).to.deep.equal(['2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']);
      expect(d.monthly[4]).to.deep.include({ revenue: 5_000, cost_of_goods: 3_000, gross_profit: 2_000, expenses: 0, net_profit: 2_000, sales_count: 1, average_sale: 5_000, cash_in: 5_000, cash_out: 0, days_with_sales: 1, days_covered: 31 });
      // November: 11,000 + 1,000 + 10,000 + 5,000; cost 6,900 + 0 + 6,000 + 3,500; expenses 3,000 + 700 + 1,200 (the deleted 9,999 left out)
      expect(d.monthly[5]).to.deep.include({
        revenue: 27_000, cost_of_goods: 16_400, gross_profit: 10_600, expenses: 4_900, net_profit: 5_700, sales_count: 4,
        average_sale: 6_750, transfer_share_pct: '3.70', card_share_pct: '0.00', void_rate_pct: '20.00', days_with_sales: 2, days_covered: 21,
        // in: paid at the till 11,000 + 1,000 + 4,000 + 5,000 and collected 2,500 + 3,000; out: the expenses
        cash_in: 26_500, cash_out: 4_900, net_cash_flow: 21_600, credit_collected: 5_500,
      });
      expect(d.totals).to.deep.equal({
        revenue: 32_000, cost_of_goods: 19_400, gross_profit: 12_600, expenses: 4_900, net_profit: 7_700, sales_count: 5,
        average_sale: 6_400, cash_in: 31_500, cash_out: 4_900, net_cash_flow: 26_600,
      });
      expect(d.credit).to.deep.equal({
        as_of: '2026-11-21', outstanding: 500, customers_owing: 1, collected_in_period: 5_500,
        aging: { days_0_30: 500, days_31_60: 0, days_61_90: 0, days_over_90: 0 },
      });
      expect(d.data_quality).to.deep.equal({ transfer_share_pct: '3.13', card_share_pct: '0.00', void_rate_pct: '16.67', days_with_sales: 3, days_in_period: 174 });
      const inventory = (await app.request('GET', '/reports/inventory', { token })).body.data.total;
      expect(d.stock).to.deep.equal({ as_of: '2026-11-21', products: inventory.products, units: inventory.units, value_at_cost: inventory.stock_value_at_cost, value_at_price: inventory.stock_value_at_price });
    });

    it('download: the PDF parses, shows the figures, the reference and the hash of its JSON', async () => {
      for (const accept of [undefined, 'application/pdf']) {
        const pdf = await download(pack.reference, accept);
        expect(pdf.status).to.equal(200);
        expect(pdf.type).to.equal('application/pdf');
        expect(pdf.disposition).to.equal(`attachment; filename="${pack.reference}.pdf"`);
        const parser = new PDFParse({ data: pdf.bytes });
        const text = (await parser.getText()).text;
        await parser.destroy();
        for (const s of ['Ada Stores', 'Ada Obi', phone, 'LAPO Microfinance Bank', pack.reference, pack.sha256, '₦32,000.00', '₦27,000.00', '₦7,700.00', '₦12,600.00', '₦500.00', '3.70', '20.00', `/api/v1/loan-packs/verify/${pack.reference}?hash=${pack.sha256}`]) {
          expect(text.replace(/\s+/g, ''), s).to.include(s.replace(/\s+/g, ''));
        }
      }
    });

    it('the lender checks the hash at the public URL: no token; a wrong hash and an unknown reference are the same 404', async () => {
      const ok = await app.request('GET', `/loan-packs/verify/${pack.reference}?hash=${pack.sha256.toUpperCase()}`);
      expect(ok.status, ok.text).to.equal(200);
      expect(ok.body.data).to.deep.equal({
        valid: true, reference: pack.reference, business_name: 'Ada Stores', months: 6, period_start: '2026-06-01', period_end: '2026-11-21', created_at: '2026-11-21T12:00:00.000Z',
        sha256: pack.sha256, totals: { revenue: 32000, gross_profit: 12600, expenses: 4900, net_profit: 7700, sales_count: 5, net_cash_flow: 26600 },
      });
      const wrong = await app.request('GET', `/loan-packs/verify/${pack.reference}?hash=${'0'.repeat(64)}`);
      const unknown = await app.request('GET', `/loan-packs/verify/LP-20261121-ZZZZZZ?hash=${pack.sha256}`);
      const malformed = await app.request('GET', `/loan-packs/verify/LP-1?hash=${pack.sha256}`);
      for (const r of [wrong, unknown, malformed]) {
        expect(r.status).to.equal(404);
        expect(r.body.error.code).to.equal('RESOURCE_NOT_FOUND');
      }
      expect(wrong.body.error.detail).to.equal(unknown.body.error.detail);
      expect((await app.request('GET', `/loan-packs/verify/${pack.reference}?hash=abc`)).status).to.equal(400);
      expect(ok.headers.get('ratelimit-limit')).to.equal('100000');
    });

    it("a pack's figures do not move when a sale is made after it; a new pack has them", async () => {
      const before = await download(pack.reference, 'application/json');
      app.clock.set(new Date('2026-11-21T13:00:00Z'));
      const sale = await app.request('POST', '/sales', { token, body: { items: [{ product_id: f.products.soap, quantity: 2 }], payment_method: 'CARD' } });
      expect(sale.status, sale.text).to.equal(201);
      const after = await download(pack.reference, 'application/json');
      expect(after.bytes.equals(before.bytes)).to.equal(true);
      expect((await app.request('GET', `/loan-packs/verify/${pack.reference}?hash=${pack.sha256}`)).body.data.totals.revenue).to.equal(32000);
      await plan('BUSINESS');
      const fresh = await app.request('POST', '/reports/loan-pack', { token, body: {} });
      expect(fresh.body.data).to.include({ status: 'READY', price: 0 });
      const d = JSON.parse((await download(fresh.body.data.reference, 'application/json')).bytes.toString('utf8'));
      expect(d.totals.revenue).to.equal(33_000);
      expect(d.monthly[5].card_share_pct).to.equal('3.57');
      expect(fresh.body.data.sha256).to.not.equal(pack.sha256);
    });

    it('BUSINESS: packs are READY at 0, nothing to pay or verify; the list helper pages newest first', async () => {
      app.clock.set(new Date('2026-11-21T14:00:00Z'));
      const res = await app.request('POST', '/reports/loan-pack', { token, body: { months: 12 } });
      expect(res.body.data).to.include({ status: 'READY', price: 0 });
      const checkout = await app.request('POST', `/reports/loan-pack/${res.body.data.reference}/checkout`, { token, body: {} });
      expect(checkout.status).to.equal(409);
      expect(checkout.body.error.code).to.equal('NO_PAYMENT_DUE');
      expect((await app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference: res.body.data.reference } })).body.error.code).to.equal('NO_PAYMENT_DUE');
      expect((await download(res.body.data.reference)).status).to.equal(200);
      const page = await app.request('GET', '/reports/loan-pack?limit=2', { token });
      expect(page.status, page.text).to.equal(200);
      expect(page.body.data.content.map((x: { reference: string }) => x.reference)[0]).to.equal(res.body.data.reference);
      expect(page.body.data.has_next).to.equal(true);
      const rest = await app.request('GET', `/reports/loan-pack?limit=100&cursor=${page.body.data.cursor}`, { token });
      expect(rest.body.data.content).to.have.length(2); // four packs in all
      expect((await app.request('GET', '/reports/loan-pack/LP-20261121-ZZZZZZ', { token })).status).to.equal(404);
      expect((await app.request('POST', '/reports/loan-pack/payment/verify', { token, body: { reference: 'nope' } })).status).to.equal(400);
    });

    it('webhooks are refused without a Paystack key: nothing is authentic', async () => {
      const res = await app.request('POST', '/payments/paystack/webhook', { rawBody: '{"event":"charge.success"}', headers: { 'content-type': 'application/json', 'x-paystack-signature': 'ab' } });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('WEBHOOK_SIGNATURE_INVALID');
    });
  });

suite('test database', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 10, log: () => undefined }));
suite('in-memory', async () => inMemory());
