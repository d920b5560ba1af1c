import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { nodeCrypto } from '../../adapters/crypto/node-crypto.js';
import { FIRST_ATTEMPT_GRACE_MS } from '../../application/ports/outbox.js';
import type { JobDeps } from '../../bootstrap/jobs.js';
import { invoicesModule } from '../../bootstrap/modules/invoices.js';
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

describe('HTTP invoice reminders: the day before the due date, the first day overdue, once each', function () {
  this.timeout(180_000);
  let app: TestApp;
  let owner: Owner;
  before(async () => {
    app = await createTestApp();
    app.clock.set(new Date('2026-12-01T09:00:00Z'));
    owner = await registerOwner(app);
  });
  after(async () => app.close());

  const post = (path: string, body?: Json) => app.request('POST', path, { token: owner.accessToken, body });
  const ok = async (p: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const res = await p;
    expect(res.status, res.text).to.equal(status);
    return res.body.data as Json;
  };
  /** The invoices manifest's periodic task, as the job queue runs it at `minute`; answers the messages it sent once delivered. */
  const runAt = async (iso: string) => {
    app.clock.set(new Date(iso));
    const before = app.outbox.sent.length;
    const [task] = invoicesModule.periodicTasks!({ uow: app.persistence.uow, clock: app.clock, crypto: nodeCrypto(randomBytes(32)) } as unknown as JobDeps, { retryLimit: 0, retryDelaySeconds: 1 });
    expect(task!.name).to.equal('invoice-reminders');
    // two workers at the same minute: each reminder still goes once
    await Promise.all([task!.run(app.clock.now()), task!.run(app.clock.now())]);
    app.clock.advance(FIRST_ATTEMPT_GRACE_MS + 1_000);
    await app.dispatcher.runDue();
    return app.outbox.sent.slice(before);
  };
  const invoice = async (customerId: string, extra: Json = {}) => {
    const d = await ok(post('/invoices', { type: 'INVOICE', customer_id: customerId, issue_date: '2026-12-01', payment_terms_days: 9, lines: [{ description: 'Catering, 40 guests', quantity: 1, unit_price: 120_000.5 }], ...extra }), 201);
    return ok(post(`/invoices/${d.id}/send`));
  };

  it('the switches are off until the owner turns them on; bad values are 400', async () => {
    const prefs = await ok(app.request('GET', '/notifications/preferences', { token: owner.accessToken }));
    expect(prefs.invoice_reminders).to.deep.equal({ before_due: false, overdue: false, channel: 'SMS' });
    for (const bad of [{ before_due: 'yes' }, { overdue: 1 }, { channel: 'PIGEON' }]) {
      const res = await app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: { invoice_reminders: bad } });
      expect(res.status, JSON.stringify(bad)).to.equal(400);
    }
    const customer = (await ok(post('/customers', { name: 'Early Bird Ltd', phone: aPhone() }), 201)).id as string;
    await invoice(customer);
    expect(await runAt('2026-12-09T10:00:00Z')).to.deep.equal([]); // due tomorrow, but reminders are off
    const on = await ok(app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: { invoice_reminders: { before_due: true, overdue: true } } }));
    expect(on.invoice_reminders).to.deep.equal({ before_due: true, overdue: true, channel: 'SMS' });
    expect(on.audit_alerts.enabled).to.equal(false); // the rest stays
  });

  it('one SMS the day before (from 09:00 Lagos), one on the first day overdue, never again; not for proformas, paid, cancelled or opted-out', async () => {
    app.clock.set(new Date('2026-12-02T09:00:00Z'));
    const phone = aPhone();
    const zenith = (await ok(post('/customers', { name: 'Zenith Catering', phone }), 201)).id as string;
    const optedOut = (await ok(post('/customers', { name: 'Quiet Ltd', phone: aPhone(), notifications_opt_out: true }), 201)).id as string;
    const due = await invoice(zenith, { issue_date: '2026-12-02' }); // due 2026-12-11
    await ok(post(`/invoices/${due.id}/payments`, { amount: 20_000, method: 'TRANSFER' }), 201);
    const paid = await invoice(zenith, { issue_date: '2026-12-02' });
    await ok(post(`/invoices/${paid.id}/payments`, { amount: 120_000.5, method: 'CASH' }), 201);
    const cancelled = await invoice(zenith, { issue_date: '2026-12-02' });
    await ok(post(`/invoices/${cancelled.id}/cancel`));
    await invoice(zenith, { type: 'PROFORMA', issue_date: '2026-12-02' });
    await invoice(optedOut, { issue_date: '2026-12-02' });
    const later = await invoice(zenith, { issue_date: '2026-12-03' }); // due a day later

    expect(await runAt('2026-12-10T07:59:00Z')).to.deep.equal([]); // 08:59 in Lagos: not yet
    const dayBefore = await runAt('2026-12-10T08:00:00Z');
    expect(dayBefore.map((m) => [m.channel, m.to, m.purpose])).to.deep.equal([['sms', phone, 'INVOICE_REMINDER']]);
    expect(dayBefore[0]!.text).to.equal(`Ada Stores: Hello Zenith Catering, invoice ${due.number} is due tomorrow, 11 Dec 2026: ₦100,000.50 to pay. Thank you.`);
    expect(await runAt('2026-12-10T15:00:00Z')).to.deep.equal([]); // once
    // the due day: nothing for it; the later invoice's day-before, and the first test's invoice (due 10 Dec, no reminder the day before: they were off) overdue
    const dueDay = await runAt('2026-12-11T09:00:00Z');
    expect(dueDay.map((m) => m.text).sort()).to.deep.equal([
      'Ada Stores: Hello Early Bird Ltd, invoice INV-000001 was due on 10 Dec 2026: ₦120,000.50 is still owed. Please pay. Thank you.',
      `Ada Stores: Hello Zenith Catering, invoice ${later.number} is due tomorrow, 12 Dec 2026: ₦120,000.50 to pay. Thank you.`,
    ]);
    const overdue = await runAt('2026-12-12T09:00:00Z');
    expect(overdue.map((m) => m.text)).to.deep.equal([`Ada Stores: Hello Zenith Catering, invoice ${due.number} was due on 11 Dec 2026: ₦100,000.50 is still owed. Please pay. Thank you.`]);
    expect((await runAt('2026-12-13T09:00:00Z')).map((m) => m.text)).to.deep.equal([`Ada Stores: Hello Zenith Catering, invoice ${later.number} was due on 12 Dec 2026: ₦120,000.50 is still owed. Please pay. Thank you.`]);
    expect(await runAt('2026-12-14T09:00:00Z')).to.deep.equal([]); // not repeated (ADR 0077)
    const listed = await ok(app.request('GET', `/notifications?customer_id=${zenith}`, { token: owner.accessToken }));
    expect(listed.content.filter((n: Json) => n.template === 'INVOICE_REMINDER')).to.have.length(4);
    expect(listed.content.every((n: Json) => n.status === 'SENT')).to.equal(true);
  });

  it('another business with reminders on does not remind this one\'s customers, and each business\'s channel is its own', async () => {
    app.clock.set(new Date('2026-12-20T09:00:00Z'));
    const other = await registerOwner(app, { email: `o${Date.now()}@example.com` });
    await ok(app.request('PUT', '/notifications/preferences', { token: other.accessToken, body: { invoice_reminders: { before_due: true, channel: 'EMAIL' } } }));
    const c = (await ok(app.request('POST', '/customers', { token: other.accessToken, body: { name: 'Mail Only', email: 'mail.only@example.com' } }), 201)).id as string;
    const d = await ok(app.request('POST', '/invoices', { token: other.accessToken, body: { type: 'INVOICE', customer_id: c, issue_date: '2026-12-20', payment_terms_days: 2, lines: [{ description: 'Print job', quantity: 1, unit_price: 5000 }] } }), 201);
    await ok(app.request('POST', `/invoices/${d.id}/send`, { token: other.accessToken }));
    const sent = await runAt('2026-12-21T09:00:00Z');
    expect(sent.map((m) => [m.channel, m.to, m.subject])).to.deep.equal([['email', 'mail.only@example.com', 'Ada Stores: invoice reminder']]);
  });
});
