import { expect } from 'chai';
import { FIRST_ATTEMPT_GRACE_MS } from '../../application/ports/outbox.js';
import { aPartner, asPartner } from '../support/partners.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

// Issue 35 part 4 (docs/adr/0077): an invoice's events through the outbox, its audit entries, partner webhooks.

type Owner = Awaited<ReturnType<typeof registerOwner>>;
type Json = Record<string, any>;

describe('HTTP invoice events: audit entries, partner webhooks', function () {
  this.timeout(180_000);
  let app: TestApp;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  before(async () => {
    app = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1000' } });
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  /** The outbox's due work and the deliveries due, as the queue and the webhook loop run them. */
  const drain = async () => {
    for (let i = 0; i < 2; i++) {
      app.clock.advance(FIRST_ATTEMPT_GRACE_MS + 1_000);
      await app.dispatcher.runDue();
      await app.runWebhookDeliveries();
    }
  };
  const post = (owner: Owner, path: string, body?: Json) => app.request('POST', path, { token: owner.accessToken, body });
  const ok = async (p: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const res = await p;
    expect(res.status, res.text).to.equal(status);
    return res.body.data as Json;
  };
  const customerOf = async (owner: Owner) => (await ok(post(owner, '/customers', { name: 'Zenith Catering Ltd', phone: aPhone(), email: 'accounts@zenith.example' }), 201)).id as string;
  const sentInvoice = async (owner: Owner, customerId: string, extra: Json = {}) => {
    const rice = (await ok(post(owner, '/products', { name: 'Rice 50kg', price: 50_000, quantity: 20 }), 201)).id as string;
    const d = await ok(post(owner, '/invoices', { type: 'INVOICE', customer_id: customerId, lines: [{ product_id: rice, quantity: 2 }, { description: 'Delivery fee', quantity: 1, unit_price: 2500.5 }], ...extra }), 201);
    return ok(post(owner, `/invoices/${d.id}/send`));
  };

  it('sending and cancelling write audit entries with the member who did it; payments write none (ADR 0077)', async () => {
    const owner = await registerOwner(app);
    const customer = await customerOf(owner);
    const sent = await sentInvoice(owner, customer);
    app.clock.advance(1_000);
    const paid = await sentInvoice(owner, customer);
    await ok(post(owner, `/invoices/${paid.id}/payments`, { amount: 1000, method: 'CASH' }), 201);
    app.clock.advance(1_000); // entries at distinct times: the log's order is theirs
    await ok(post(owner, `/invoices/${sent.id}/cancel`));
    const log = await ok(app.request('GET', `/audit-log?subject_type=invoice&sort_dir=asc`, { token: owner.accessToken }));
    const entries = log.content as Json[];
    expect(entries.map((e) => [e.action, e.subject.id, e.subject.label])).to.deep.equal([
      ['invoice.sent', sent.id, 'INV-000001'],
      ['invoice.sent', paid.id, 'INV-000002'],
      ['invoice.cancelled', sent.id, 'INV-000001'],
    ]);
    expect(entries[0]!.actor).to.include({ type: 'USER', user_id: owner.userId, name: 'Ada Obi', role: 'BUSINESS_OWNER' });
    expect(entries[0]!.before).to.deep.equal({ status: 'DRAFT' });
    expect(entries[0]!.after).to.deep.include({ status: 'SENT', number: 'INV-000001', type: 'INVOICE', customer_id: customer, total: 102_500.5, vat_total: 0 });
    expect(entries[2]!.before).to.deep.equal({ status: 'SENT', total: 102_500.5 });
    expect(entries[2]!.after).to.deep.equal({ status: 'CANCELLED' });
    const filtered = await ok(app.request('GET', `/audit-log?action=invoice.cancelled`, { token: owner.accessToken }));
    expect(filtered.content.map((e: Json) => e.subject.id)).to.deep.equal([sent.id]);
    // a refused send (already sent) records nothing
    expect((await post(owner, `/invoices/${paid.id}/send`)).status).to.equal(409);
    expect((await ok(app.request('GET', `/audit-log?subject_type=invoice`, { token: owner.accessToken }))).content).to.have.length(3);
  });

  it('partner webhooks invoice.sent and invoice.paid (only the payment that clears the balance): ids, naira, times, no customer', async () => {
    app.clock.set(new Date()); // the receiver refuses timestamps far from now
    const partner = await aPartner(app, 'Invoice Partner');
    const hook = await ok(asPartner(app, partner.key, 'POST', '/partner/webhooks', { url: receiver.url, events: ['invoice.sent', 'invoice.paid'] }), 201);
    receiver.secrets.push(hook.secret as string);
    const phone = aPhone();
    await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ify', last_name: 'Okoro', business_name: 'Ify Stores', partner_code: partner.code } });
    const token = (await app.request('POST', '/auth/verify-otp', { body: { phone, otp: app.outbox.lastCode(phone) } })).body.data.access_token as string;
    const owner = { accessToken: token } as Owner;
    const merchantId = (await ok(app.request('GET', '/businesses/me', { token }))).id as string;
    const customer = await customerOf(owner);
    const inv = await sentInvoice(owner, customer);
    await ok(post(owner, `/invoices/${inv.id}/payments`, { amount: 100_000, method: 'TRANSFER', reference: 'GTB-1' }), 201);
    await drain();
    expect(receiver.of('invoice.sent')).to.have.length(1);
    expect(receiver.of('invoice.paid')).to.have.length(0); // a part-payment is not "paid"
    const sentHook = receiver.of('invoice.sent')[0]!;
    expect(sentHook.verifiedWith).to.deep.equal([hook.secret]);
    expect(sentHook.json.data).to.deep.include({ merchant_id: merchantId, merchant_name: 'Ify Stores', invoice_id: inv.id, invoice_number: 'INV-000001', type: 'INVOICE', total: 102_500.5, vat_total: 0, issue_date: inv.issue_date, due_date: inv.due_date });
    expect(sentHook.body).to.contain('"total":102500.50,');
    await ok(post(owner, `/invoices/${inv.id}/payments`, { amount: 2500.5, method: 'CASH' }), 201);
    await drain();
    const paid = receiver.of('invoice.paid');
    expect(paid).to.have.length(1);
    expect(paid[0]!.json.data).to.deep.include({ merchant_id: merchantId, invoice_id: inv.id, invoice_number: 'INV-000001', total: 102_500.5, amount_paid: 102_500.5 });
    expect(paid[0]!.json.data.last_payment).to.include({ amount: 2500.5, method: 'CASH' });
    for (const r of [sentHook, paid[0]!]) {
      expect(r.body).to.not.contain('Zenith');
      expect(r.body).to.not.contain(customer);
      expect(r.body).to.not.contain('accounts@zenith');
    }
  });
});
