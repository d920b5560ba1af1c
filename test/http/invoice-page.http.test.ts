import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { fakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 35 part 3: the customer's invoice page, its PDF, share, and Pay now (docs/adr/0075, 0076), over HTTP on the real app.

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Json = Record<string, any>;

const XSS = '<script>alert(1)</script>"\'&';

const setup = (app: () => TestApp) => {
  const req = (...a: Parameters<TestApp['request']>) => app().request(...a);
  /** A business with bank details and a sent invoice of 2 x 1,500.00 + a 500.00 delivery fee, to a customer with phone and e-mail. */
  const sentInvoice = async (owner?: Owner, customerBody: Json = {}) => {
    owner ??= await registerOwner(app());
    const put = await req('PUT', '/businesses/me', { token: owner.accessToken, body: { bank_name: 'GTBank', account_number: '0123456789', account_name: 'Ada Stores Ltd', invoice_footer: 'Thank you!' } });
    expect(put.status, put.text).to.equal(200);
    const customer = await req('POST', '/customers', { token: owner.accessToken, body: { name: 'Zenith Catering', phone: aPhone(), email: `z${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.com`, ...customerBody } });
    expect(customer.status, customer.text).to.equal(201);
    const product = await req('POST', '/products', { token: owner.accessToken, body: { name: 'Peak Milk 400g', price: 1500, quantity: 50 } });
    const d = await req('POST', '/invoices', {
      token: owner.accessToken,
      body: { type: 'INVOICE', customer_id: customer.body.data.id, issue_date: '2026-11-20', payment_terms_days: 14, lines: [{ product_id: product.body.data.id, quantity: 2 }, { description: 'Delivery fee', quantity: 1, unit_price: 500 }], notes: 'Pay within 14 days' },
    });
    expect(d.status, d.text).to.equal(201);
    const sent = await req('POST', `/invoices/${d.body.data.id}/send`, { token: owner.accessToken });
    expect(sent.status, sent.text).to.equal(200);
    const invoice = sent.body.data as Json;
    const path = new URL(invoice.share_url as string).pathname;
    return { owner, invoice, path, token: path.split('/').at(-1)! };
  };
  const html = (path: string) => req('GET', path, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  const json = (path: string) => req('GET', path, { headers: { accept: 'application/json' } });
  return { req, sentInvoice, html, json };
};

describe('HTTP invoice page, PDF, share and Pay now (sandbox gateway)', function () {
  this.timeout(180_000);
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());
  const { req, sentInvoice, html, json } = setup(() => app);

  it('serves the page as HTML (strict CSP, no script, escaped) and the same facts as JSON', async () => {
    const { invoice, path } = await sentInvoice();
    const page = await html(path);
    expect(page.status, page.text).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html; charset=utf-8/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).to.include("default-src 'none'").and.include("style-src 'sha256-").and.not.include('unsafe-inline').and.not.include('script-src');
    expect(page.text).to.include('<meta charset="utf-8">').and.include('name="viewport"').and.not.match(/<script|<img|https?:\/\/(?!checkout)/i);
    for (const s of ['Ada Stores', 'Invoice INV-000001', 'Zenith Catering', 'Peak Milk 400g', 'Delivery fee', '₦3,500.00', 'Due 4 Dec 2026', 'GTBank', '0123456789', 'Ada Stores Ltd', 'Download PDF', 'Pay ₦3,500.00 now', 'Thank you!'])
      expect(page.text).to.include(s);
    expect(page.text).not.to.include('>PAID<');
    const j = await json(path);
    expect(j.status, j.text).to.equal(200);
    expect(j.body.data).to.deep.include({ number: 'INV-000001', status: 'SENT', total: 3500, balance_due: 3500, due_date: '2026-12-04', customer_name: 'Zenith Catering', can_pay_online: true });
    expect(j.body.data.bank).to.deep.equal({ bank_name: 'GTBank', account_number: '0123456789', account_name: 'Ada Stores Ltd' });
    expect(j.body.data.lines.map((l: Json) => [l.description, l.quantity, l.line_total])).to.deep.equal([['Peak Milk 400g', 2, 3000], ['Delivery fee', 1, 500]]);
    expect(j.body.data.pdf_url).to.equal(`${invoice.share_url}/pdf`);
    expect(j.body.data).not.to.have.property('id'); // the page shows no internal ids
  });

  it('escapes every text it shows (XSS)', async () => {
    const owner = await registerOwner(app);
    await req('PUT', '/businesses/me', { token: owner.accessToken, body: { name: `Shop ${XSS}` } });
    const { path } = await sentInvoice(owner, { name: `Cust ${XSS}` });
    const page = await html(path);
    expect(page.status, page.text).to.equal(200);
    expect(page.text).not.to.include('<script>');
    expect(page.text).to.include('Cust &#60;script&#62;alert(1)&#60;/script&#62;&#34;&#39;&#38;');
  });

  it('an unknown token, a draft, a cancelled invoice and a malformed token are 404 in both forms', async () => {
    const { owner, invoice, path } = await sentInvoice();
    for (const p of ['/public/invoices/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/public/invoices/short', '/public/invoices/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/pdf']) {
      expect((await html(p)).status).to.equal(404);
      expect((await json(p)).status).to.equal(404);
    }
    const draft = await req('POST', '/invoices', { token: owner.accessToken, body: { type: 'INVOICE', customer_id: invoice.customer.id, lines: [{ description: 'Catering', quantity: 1, unit_price: 100 }] } });
    expect(draft.status, draft.text).to.equal(201);
    const draftPath = new URL(draft.body.data.share_url as string).pathname;
    expect((await html(draftPath)).status).to.equal(404); // not issued yet
    expect((await json(draftPath)).status).to.equal(404);
    expect((await req('POST', `/invoices/${draft.body.data.id}/share`, { token: owner.accessToken, body: { channel: 'SMS' } })).body.error.code).to.equal('INVOICE_NOT_SHAREABLE');
    const cancelled = await req('POST', `/invoices/${invoice.id}/cancel`, { token: owner.accessToken });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect((await html(path)).status).to.equal(404);
    expect((await json(path)).status).to.equal(404);
    expect((await req('GET', `${path}/pdf`)).status).to.equal(404);
  });

  it('PDF: an A4 PDF through the token and for a member; another business gets 404', async () => {
    const { owner, invoice, path } = await sentInvoice();
    const res = await fetch(`${app.baseUrl}/api/v1${path.replace('/api/v1', '')}/pdf`);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
    expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
    expect(pdf.toString('latin1')).to.include('/MediaBox [0 0 595.28 841.89]'); // A4
    const mine = await fetch(`${app.baseUrl}/api/v1/invoices/${invoice.id}/pdf`, { headers: { authorization: `Bearer ${owner.accessToken}` } });
    expect(mine.status).to.equal(200);
    expect(mine.headers.get('content-disposition')).to.equal('attachment; filename="INV-000001.pdf"');
    expect(Buffer.from(await mine.arrayBuffer()).subarray(0, 5).toString()).to.equal('%PDF-');
    const stranger = await registerOwner(app);
    expect((await req('GET', `/invoices/${invoice.id}/pdf`, { token: stranger.accessToken })).status).to.equal(404);
    expect((await req('POST', `/invoices/${invoice.id}/share`, { token: stranger.accessToken, body: { channel: 'SMS' } })).status).to.equal(404);
  });

  it('share: 202, the link through the queue; a repeat within the window queues nothing; no contact is 422; bad channel 400', async () => {
    const { owner, invoice } = await sentInvoice(undefined, { email: null });
    const first = await req('POST', `/invoices/${invoice.id}/share`, { token: owner.accessToken, body: { channel: 'WHATSAPP' } });
    expect(first.status, first.text).to.equal(202);
    expect(first.body.data).to.include({ queued: true, share_url: invoice.share_url });
    const again = await req('POST', `/invoices/${invoice.id}/share`, { token: owner.accessToken, body: { channel: 'WHATSAPP' } });
    expect(again.status).to.equal(202);
    expect(again.body.data.queued).to.equal(false);
    await app.dispatcher.runDue();
    const sent = app.outbox.sent.filter((m) => m.to === first.body.data.to && m.text.includes(invoice.share_url));
    expect(sent).to.have.length(1);
    expect(sent[0]!.text).to.include('Invoice INV-000001 for ₦3,500.00, due 4 Dec 2026');
    const email = await req('POST', `/invoices/${invoice.id}/share`, { token: owner.accessToken, body: { channel: 'EMAIL' } });
    expect(email.status).to.equal(422);
    expect(email.body.error.code).to.equal('CUSTOMER_HAS_NO_CONTACT');
    expect((await req('POST', `/invoices/${invoice.id}/share`, { token: owner.accessToken, body: { channel: 'FAX' } })).status).to.equal(400);
  });

  it('Pay now through the sandbox: 303 to the checkout, pay, back on the page: PAID, one ONLINE payment however often it is reloaded', async () => {
    const { owner, invoice, path } = await sentInvoice();
    const start = await fetch(`${app.baseUrl}${path}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(start.status).to.equal(303);
    const checkout = start.headers.get('location')!;
    expect(checkout).to.match(/\/api\/v1\/sandbox\/checkout\//);
    const paid = await fetch(`${app.baseUrl}${new URL(checkout).pathname}/pay`, { method: 'POST' }); // PUBLIC_BASE_URL is not the test server's
    const back = /url=([^"]+)"/.exec(await paid.text())![1]!.replaceAll('&#38;', '&');
    expect(back.startsWith(invoice.share_url)).to.equal(true);
    for (let n = 0; n < 3; n++) {
      const page = await html(new URL(back).pathname + new URL(back).search);
      expect(page.status, page.text).to.equal(200);
      expect(page.text).to.include('>PAID<').and.not.include('Pay ₦');
    }
    const got = (await req('GET', `/invoices/${invoice.id}`, { token: owner.accessToken })).body.data;
    expect(got).to.include({ status: 'PAID', amount_paid: 3500, balance_due: 0 });
    expect(got.payments.map((p: Json) => [p.method, p.amount])).to.deep.equal([['ONLINE', 3500]]);
    // nothing left to pay: the form sends the payer back to the page
    const late = await fetch(`${app.baseUrl}${path}/pay`, { method: 'POST', redirect: 'manual' });
    expect(late.status).to.equal(303);
    expect(late.headers.get('location')).to.equal(invoice.share_url);
  });
});

const SECRET = 'sk_test_0123456789abcdef0123456789abcdef01234567';
const sign = (raw: string) => createHmac('sha512', SECRET).update(raw).digest('hex');
const transaction = (reference: string, amount: number) => ({
  id: 4099260516, status: 'success', reference, amount, currency: 'NGN', paid_at: '2026-11-21T12:05:00.000Z', created_at: '2026-11-21T12:04:00.000Z', channel: 'card', gateway_response: 'Successful',
  customer: { email: 'z@example.com' },
});

describe('HTTP invoice Pay now through Paystack (a fake)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let paystack: FakeProvider;
  before(async () => {
    paystack = await fakeProvider();
    app = await createTestApp({ env: { PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_BASE_URL: paystack.url, PAYSTACK_TIMEOUT_MS: '500' } });
  });
  after(async () => {
    await app.close();
    await paystack.close();
  });
  const { req, sentInvoice, html } = setup(() => app);
  const webhook = (raw: string) => req('POST', '/payments/paystack/webhook', { rawBody: raw, headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(raw) } });
  const startCheckout = async (path: string) => {
    paystack.answer({ status: 200, body: { status: true, message: 'Authorization URL created', data: { authorization_url: 'https://checkout.paystack.com/abc123', access_code: 'abc123', reference: 'x' } } });
    const start = await fetch(`${app.baseUrl}${path}/pay`, { method: 'POST', redirect: 'manual' });
    expect(start.status).to.equal(303);
    expect(start.headers.get('location')).to.equal('https://checkout.paystack.com/abc123');
    const sent = paystack.received.at(-1)!.body as Json;
    expect(Number(sent.amount)).to.equal(350_000);
    return sent.reference as string;
  };

  it('the webhook records the payment once; a replay and a later verify change nothing', async () => {
    const { owner, invoice, path } = await sentInvoice();
    const reference = await startCheckout(path);
    expect(reference).to.match(/^IVP-[0-9a-f]{64}-[0-9A-Za-z]{8}$/);
    const raw = JSON.stringify({ event: 'charge.success', data: transaction(reference, 350_000) });
    const first = await webhook(raw);
    expect(first.status, first.text).to.equal(200);
    expect(first.body.data.outcome).to.equal('paid');
    expect((await webhook(raw)).body.data.outcome).to.equal('already');
    paystack.answer({ status: 200, body: { status: true, message: 'Verification successful', data: transaction(reference, 350_000) } });
    const page = await html(`${path}?trxref=${reference}&reference=${reference}`);
    expect(page.text).to.include('>PAID<');
    const got = (await req('GET', `/invoices/${invoice.id}`, { token: owner.accessToken })).body.data;
    expect(got.payments.map((p: Json) => [p.method, p.amount, p.reference])).to.deep.equal([['ONLINE', 3500, reference]]);
  });

  it('verify on return records it once; the webhook after it changes nothing; a wrong amount is refused', async () => {
    const { owner, invoice, path } = await sentInvoice();
    // a part payment by hand first: the online checkout is for the balance left
    await req('POST', `/invoices/${invoice.id}/payments`, { token: owner.accessToken, body: { amount: 1000, method: 'CASH' } });
    paystack.answer({ status: 200, body: { status: true, message: 'ok', data: { authorization_url: 'https://checkout.paystack.com/abc123', access_code: 'abc123', reference: 'x' } } });
    await fetch(`${app.baseUrl}${path}/pay`, { method: 'POST', redirect: 'manual' });
    const sent = paystack.received.at(-1)!.body as Json;
    expect(Number(sent.amount)).to.equal(250_000);
    const reference = sent.reference as string;
    paystack.answer({ status: 200, body: { status: true, message: 'Verification successful', data: transaction(reference, 250_000) } });
    const page = await html(`${path}?trxref=${reference}&reference=${reference}`);
    expect(page.text).to.include('>PAID<');
    expect((await webhook(JSON.stringify({ event: 'charge.success', data: transaction(reference, 250_000) }))).body.data.outcome).to.equal('already');
    const got = (await req('GET', `/invoices/${invoice.id}`, { token: owner.accessToken })).body.data;
    expect(got).to.include({ status: 'PAID', amount_paid: 3500 });
    expect(got.payments.map((p: Json) => p.method)).to.have.members(['CASH', 'ONLINE']);

    const other = await sentInvoice();
    const ref2 = await startCheckout(other.path);
    expect((await webhook(JSON.stringify({ event: 'charge.success', data: transaction(ref2, 999_999_00) }))).body.data.outcome).to.equal('refused');
    expect((await req('GET', `/invoices/${other.invoice.id}`, { token: other.owner.accessToken })).body.data.status).to.equal('SENT');
  });
});
