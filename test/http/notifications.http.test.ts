import { expect } from 'chai';
import { FIRST_ATTEMPT_GRACE_MS } from '../../application/ports/outbox.js';
import { aPhone, createTestApp, putOnPlan, registerOwner, type TestApp } from '../support/test-app.js';

// Notifications through the real app: 202 and the message sent right after, the fields each template
// needs (400), the rules (422), roles (403), Idempotency-Key, the list, preferences, and what the
// preferences make the app send on its own (receipts, low-stock alerts, daily summaries, reminders).

describe('HTTP notifications', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof registerOwner>>;
  let staffToken: string;
  let debtor: { id: string; phone: string };
  let creditSale: string;
  let productId: string;
  before(async () => {
    app = await createTestApp();
    owner = await registerOwner(app);
    const staffPhone = aPhone();
    await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone: staffPhone, first_name: 'Bola', last_name: 'Ade' } });
    await app.request('POST', '/auth/login', { body: { phone: staffPhone } });
    staffToken = (await app.request('POST', '/auth/verify-otp', { body: { phone: staffPhone, otp: app.outbox.lastCode(staffPhone) } })).body.data.access_token;
    productId = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Rice 50kg', price: 1500.5, quantity: 100 } })).body.data.id;
    const phone = aPhone();
    debtor = { id: (await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Mama Chioma', phone } })).body.data.id, phone };
    const sale = await app.request('POST', '/sales', { token: owner.accessToken, body: { items: [{ product_id: productId, quantity: 1 }], payment_method: 'CREDIT', customer_id: debtor.id } });
    expect(sale.status, sale.text).to.equal(201);
    creditSale = sale.body.data.id;
  });
  after(async () => app.close());

  /** The outbox's due work, as the queue runs it once the grace of a request's first attempt is over. */
  const drain = async () => {
    for (let i = 0; i < 3; i++) {
      app.clock.advance(FIRST_ATTEMPT_GRACE_MS + 1_000);
      await app.dispatcher.runDue();
    }
  };
  const post = (channel: 'sms' | 'whatsapp', body: unknown, token = owner.accessToken, headers: Record<string, string> = {}) =>
    app.request('POST', `/notifications/${channel}`, { token, body, headers });
  /** The phone of a new customer of the owner's business (messages go to customers and staff only). */
  const aCustomerPhone = async (token = owner.accessToken) => {
    const phone = aPhone();
    expect((await app.request('POST', '/customers', { token, body: { name: 'Tolu', phone } })).status).to.equal(201);
    return phone;
  };

  it('answers 202 QUEUED and sends it right after the commit; GET shows it SENT with its attempts and text', async () => {
    const res = await post('whatsapp', { customer_id: debtor.id, template: 'CREDIT_REMINDER' });
    expect(res.status, res.text).to.equal(202);
    expect(res.body.data).to.include({ channel: 'WHATSAPP', to: debtor.phone, template: 'CREDIT_REMINDER', status: 'QUEUED', customer_id: debtor.id });
    const sent = app.outbox.sent.filter((m) => m.to === debtor.phone);
    expect(sent).to.have.length(1);
    expect(sent[0]).to.deep.include({ channel: 'whatsapp', purpose: 'CREDIT_REMINDER' });
    expect(sent[0]!.text).to.match(/^Hello Mama Chioma, a reminder from Ada Stores: you owe ₦1,500.50 as of \d+ [A-Z][a-z]{2} \d{4}\. Thank you\.$/);
    const got = await app.request('GET', `/notifications/${res.body.data.id}`, { token: staffToken });
    expect(got.body.data).to.include({ status: 'SENT', attempts: 1, text: sent[0]!.text, failure_reason: null });
  });

  it('refuses a malformed request with 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ customer_id: debtor.id, to: aPhone(), template: 'CREDIT_REMINDER' }, 'customer_id'],
      [{ template: 'CUSTOM', message: 'hi' }, 'customer_id'],
      [{ to: aPhone(), template: 'CUSTOM' }, 'message'],
      [{ to: aPhone(), template: 'CUSTOM', message: 'x'.repeat(481) }, 'message'],
      [{ to: aPhone(), template: 'RECEIPT' }, 'sale_id'],
      [{ to: aPhone(), template: 'CREDIT_REMINDER' }, 'customer_id'],
      [{ to: aPhone(), template: 'RECEIPT', sale_id: creditSale, message: 'hi' }, 'message'],
      [{ to: '12345', template: 'CUSTOM', message: 'hi' }, 'to'],
      [{ to: aPhone(), template: 'PROMO', message: 'hi' }, 'template'],
      [{ to: aPhone(), template: 'CUSTOM', message: 'hi', channel: 'SMS' }, 'channel'],
    ];
    for (const [body, field] of cases) {
      const res = await post('sms', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_FAILED');
      expect(res.body.error.errors.map((e: { field: string }) => e.field), JSON.stringify(body)).to.include(field);
    }
    expect((await post('sms', { to: await aCustomerPhone(), template: 'CUSTOM', message: 'x'.repeat(480) })).status).to.equal(202);
  });

  it('answers the business rules with 422 and their codes; CUSTOM from STAFF is 403', async () => {
    const optedOut = await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Emeka', phone: aPhone(), notifications_opt_out: true } });
    expect(optedOut.body.data.notifications_opt_out).to.equal(true);
    const noPhone = (await app.request('POST', '/customers', { token: owner.accessToken, body: { name: 'Ngozi' } })).body.data.id;
    const unknown = '0b7e9a52-4f3c-4d8e-9a61-2f5b8c1d7e40';
    const cases: [unknown, number, string, string?][] = [
      [{ customer_id: optedOut.body.data.id, template: 'CUSTOM', message: 'hi' }, 422, 'CUSTOMER_OPTED_OUT'],
      [{ to: optedOut.body.data.phone, template: 'CUSTOM', message: 'hi' }, 422, 'CUSTOMER_OPTED_OUT'],
      [{ customer_id: noPhone, template: 'RECEIPT', sale_id: creditSale }, 422, 'CUSTOMER_HAS_NO_PHONE'],
      [{ customer_id: unknown, template: 'RECEIPT', sale_id: creditSale }, 422, 'UNKNOWN_CUSTOMER'],
      [{ to: debtor.phone, template: 'RECEIPT', sale_id: unknown }, 422, 'UNKNOWN_SALE'],
      [{ to: aPhone(), template: 'CUSTOM', message: 'hi' }, 403, 'INSUFFICIENT_ROLE', staffToken],
    ];
    for (const [body, status, code, token] of cases) {
      const res = await post('sms', body, token);
      expect(res.status, `${code}: ${res.text}`).to.equal(status);
      expect(res.body.error.code).to.equal(code);
    }
    // receipts still go to an opted-out customer; opting back in lets reminders through
    expect((await post('sms', { customer_id: optedOut.body.data.id, template: 'RECEIPT', sale_id: creditSale })).status).to.equal(202);
    const back = await app.request('PUT', `/customers/${optedOut.body.data.id}`, { token: owner.accessToken, body: { notifications_opt_out: false } });
    expect(back.body.data.notifications_opt_out).to.equal(false);
    expect((await post('sms', { customer_id: optedOut.body.data.id, template: 'CUSTOM', message: 'Welcome back' })).status).to.equal(202);
  });

  it('honours Idempotency-Key: the same request replays the first answer and queues nothing more', async () => {
    const body = { to: await aCustomerPhone(), template: 'CUSTOM', message: 'New stock of rice' };
    const first = await post('sms', body, owner.accessToken, { 'Idempotency-Key': 'notify-1' });
    const again = await post('sms', body, owner.accessToken, { 'Idempotency-Key': 'notify-1' });
    expect(again.status).to.equal(202);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.data.id).to.equal(first.body.data.id);
    expect(app.outbox.sent.filter((m) => m.to === body.to)).to.have.length(1);
    expect((await post('sms', { ...body, message: 'other' }, owner.accessToken, { 'Idempotency-Key': 'notify-1' })).body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
  });

  it('lists newest first with the channel, status and customer filters', async () => {
    const list = async (q: string) => (await app.request('GET', `/notifications${q}`, { token: owner.accessToken })).body.data.content as { id: string; channel: string; created_at: string; customer_id: string | null }[];
    const all = await list('?limit=100');
    expect(all.length).to.be.greaterThan(3);
    expect(all.map((n) => n.created_at)).to.deep.equal([...all.map((n) => n.created_at)].sort().reverse());
    expect((await list('?channel=WHATSAPP')).every((n) => n.channel === 'WHATSAPP')).to.equal(true);
    expect((await list(`?customer_id=${debtor.id}`)).map((n) => n.customer_id)).to.deep.equal([debtor.id]);
    expect(await list('?status=FAILED')).to.deep.equal([]);
    expect((await app.request('GET', '/notifications?status=LOST', { token: owner.accessToken })).status).to.equal(400);
    expect((await app.request('GET', '/notifications/0b7e9a52-4f3c-4d8e-9a61-2f5b8c1d7e40', { token: owner.accessToken })).status).to.equal(404);
    // another business sees none of them
    const other = await registerOwner(app);
    expect((await app.request('GET', `/notifications/${all[0]!.id}`, { token: other.accessToken })).body.error.code).to.equal('RESOURCE_NOT_FOUND');
    expect((await app.request('GET', '/notifications', { token: other.accessToken })).body.data.content).to.deep.equal([]);
    expect((await post('sms', { customer_id: debtor.id, template: 'CREDIT_REMINDER' }, other.accessToken)).body.error.code).to.equal('UNKNOWN_CUSTOMER');
    expect((await post('sms', { to: other.to, template: 'RECEIPT', sale_id: creditSale }, other.accessToken)).body.error.code).to.equal('UNKNOWN_SALE');
  });

  it('GET and PUT preferences (owner only): defaults off, partial changes, bounded values', async () => {
    const got = await app.request('GET', '/notifications/preferences', { token: owner.accessToken });
    expect(got.body.data).to.deep.equal({
      low_stock_alerts: { enabled: false, channel: 'SMS' },
      daily_summary: { enabled: false, time: '20:00', channel: 'SMS' },
      credit_reminders: { enabled: false, days_overdue: 7, repeat_every_days: 7, channel: 'SMS' },
      receipt_channel: 'NONE',
      audit_alerts: { enabled: false, channel: 'SMS', sale_voided_over: null, sale_discounted_over: null, stock_adjusted_over: null },
      invoice_reminders: { before_due: false, overdue: false, channel: 'SMS' },
    });
    const put = await app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: { daily_summary: { time: '21:15' }, credit_reminders: { days_overdue: 365 } } });
    expect(put.status, put.text).to.equal(200);
    expect(put.body.data.daily_summary).to.deep.equal({ enabled: false, time: '21:15', channel: 'SMS' });
    expect(put.body.data.credit_reminders.days_overdue).to.equal(365);
    for (const body of [{ credit_reminders: { days_overdue: 0 } }, { credit_reminders: { repeat_every_days: 366 } }, { daily_summary: { time: '24:00' } }, { receipt_channel: 'PUSH' }, { push: { enabled: true } }, { low_stock_alerts: { enabled: 'yes' } }]) {
      const res = await app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
    expect((await app.request('GET', '/notifications/preferences', { token: staffToken })).status).to.equal(403);
  });

  it('sends on its own what the preferences ask: a receipt after a sale, one low-stock alert, the daily summary', async () => {
    await drain(); // the sales made before these preferences are past
    await app.request('PUT', '/notifications/preferences', {
      token: owner.accessToken,
      body: { receipt_channel: 'SMS', low_stock_alerts: { enabled: true, channel: 'SMS' }, daily_summary: { enabled: true, time: '00:00', channel: 'WHATSAPP' } },
    });
    const low = (await app.request('POST', '/products', { token: owner.accessToken, body: { name: 'Palm oil 5L', price: 9000, quantity: 3, low_stock_threshold: 1 } })).body.data.id;
    const sell = () => app.request('POST', '/sales', { token: staffToken, body: { items: [{ product_id: low, quantity: 1 }], payment_method: 'CASH', customer_id: debtor.id } });
    const before = app.outbox.sent.length;
    expect((await sell()).status).to.equal(201); // 2 left: above the threshold
    expect((await sell()).status).to.equal(201); // 1 left: at it
    expect((await sell()).status).to.equal(201); // 0 left: already alerted
    await drain();
    const news = app.outbox.sent.slice(before);
    expect(news.filter((m) => m.purpose === 'RECEIPT' && m.to === debtor.phone)).to.have.length(3);
    const alerts = news.filter((m) => m.purpose === 'LOW_STOCK');
    expect(alerts.map((m) => [m.to, m.text])).to.deep.equal([[owner.to, 'Ada Stores: Palm oil 5L is low, 0 left (alert at 1). Restock soon.']]);

    // two workers at the same minute: one summary
    const ran = await Promise.all([app.runScheduledNotifications(app.clock.now()), app.runScheduledNotifications(app.clock.now())]);
    expect(ran.map((r) => r.dailySummaries).sort()).to.deep.equal([0, 1]);
    expect((await app.runScheduledNotifications(app.clock.now())).dailySummaries).to.equal(0);
    const summary = app.outbox.sent.find((m) => m.purpose === 'DAILY_SUMMARY');
    expect(summary).to.deep.include({ channel: 'whatsapp', to: owner.to });
    expect(summary!.text).to.match(/^Ada Stores, \d+ [A-Z][a-z]{2} \d{4}: \d+ sales ₦[\d,]+\.\d{2}, expenses ₦0\.00, credit collected ₦0\.00, cash expected ₦[\d,]+\.\d{2}\.$/);

    // credit reminders: the debtor's credit sale is a day old, and they were reminded by hand in the first test
    await app.request('PUT', '/notifications/preferences', { token: owner.accessToken, body: { credit_reminders: { enabled: true, days_overdue: 7, repeat_every_days: 7 } } });
    const reminders = () => app.outbox.sent.filter((m) => m.purpose === 'CREDIT_REMINDER' && m.to === debtor.phone).length;
    const handSent = reminders();
    const day = 86_400_000;
    expect((await app.runScheduledNotifications(new Date(app.clock.now().getTime() + 6 * day))).creditReminders).to.equal(0); // neither overdue nor 7 days since the last
    const at = new Date(app.clock.now().getTime() + 8 * day);
    const twice = await Promise.all([app.runScheduledNotifications(at), app.runScheduledNotifications(at)]);
    expect(twice.map((r) => r.creditReminders).sort()).to.deep.equal([0, 1]);
    await drain();
    expect(reminders()).to.equal(handSent + 1);
    const listed = await app.request('GET', '/notifications?status=SENT&limit=100', { token: owner.accessToken });
    expect(listed.body.data.content.map((n: { template: string }) => n.template)).to.include.members(['RECEIPT', 'LOW_STOCK', 'DAILY_SUMMARY', 'CREDIT_REMINDER']);
  });
});

// Issue 31: a FREE business texted 60 strangers a phishing link at the platform's cost (docs/adr/0040).
describe('HTTP notifications: who may be texted, links, and the daily caps', () => {
  let app: TestApp;
  before(async () => {
    app = await createTestApp();
  });
  after(async () => app.close());

  const post = (channel: 'sms' | 'whatsapp', token: string, body: unknown) => app.request('POST', `/notifications/${channel}`, { token, body });
  const newCustomer = async (token: string) => {
    const phone = aPhone();
    expect((await app.request('POST', '/customers', { token, body: { name: 'Tolu', phone } })).status).to.equal(201);
    return phone;
  };
  const invite = (token: string) => app.request('POST', '/staff/invite', { token, body: { phone: aPhone(), first_name: 'Bola', last_name: 'Ade' } });

  it("refuses a number that is neither a customer's nor a staff member's (422 RECIPIENT_NOT_ALLOWED, nothing sent); a customer's and a member's go", async () => {
    const owner = await registerOwner(app);
    const stranger = aPhone();
    for (const channel of ['sms', 'whatsapp'] as const) {
      for (const body of [
        { to: stranger, template: 'CUSTOM', message: 'Your account is locked. Call us.' },
        { to: stranger, template: 'RECEIPT', sale_id: '0b7e9a52-4f3c-4d8e-9a61-2f5b8c1d7e40' },
      ]) {
        const res = await post(channel, owner.accessToken, body);
        expect(res.status, res.text).to.equal(422);
        expect(res.body.error.code).to.equal('RECIPIENT_NOT_ALLOWED');
        expect(res.body.error.errors).to.deep.equal([{ field: 'to', message: 'is not a customer or staff member of this business' }]);
      }
    }
    expect(app.outbox.sent.filter((m) => m.to === stranger)).to.deep.equal([]);
    const customer = await newCustomer(owner.accessToken);
    expect((await post('sms', owner.accessToken, { to: customer, template: 'CUSTOM', message: 'Your order is ready.' })).status).to.equal(202);
    expect(app.outbox.sent.filter((m) => m.to === customer)).to.have.length(1);
    const staff = await invite(owner.accessToken);
    expect(staff.status, staff.text).to.equal(201);
    expect((await post('whatsapp', owner.accessToken, { to: staff.body.data.phone, template: 'CUSTOM', message: 'Open at 8 tomorrow.' })).status).to.equal(202);
    // another business's customer is a stranger here
    const other = await registerOwner(app);
    expect((await post('sms', other.accessToken, { to: customer, template: 'CUSTOM', message: 'Hello' })).body.error.code).to.equal('RECIPIENT_NOT_ALLOWED');
  });

  it('refuses links in a CUSTOM message on FREE (402 FEATURE_NOT_AVAILABLE) and accepts them on BUSINESS', async () => {
    const owner = await registerOwner(app);
    const customer = await newCustomer(owner.accessToken);
    const links = ['Your account is locked. Visit http://evil.example', 'See https://shop.example/sale', 'Go to www.example.com', 'Go to evil.example/x', 'Pay at evil.com today'];
    for (const message of links) {
      const res = await post('sms', owner.accessToken, { to: customer, template: 'CUSTOM', message });
      expect(res.status, message).to.equal(402);
      expect(res.body.error.code).to.equal('FEATURE_NOT_AVAILABLE');
      expect(res.body.error.errors).to.deep.equal([{ field: 'message', message: 'contains a link' }]);
    }
    expect(app.outbox.sent.filter((m) => m.to === customer)).to.deep.equal([]);
    expect((await post('sms', owner.accessToken, { to: customer, template: 'CUSTOM', message: 'You owe ₦1,500.50. Thanks. See you.' })).status).to.equal(202);
    await putOnPlan(app, owner, 'BUSINESS');
    for (const message of links) expect((await post('whatsapp', owner.accessToken, { to: customer, template: 'CUSTOM', message })).status, message).to.equal(202);
  });

  it("caps a FREE business's messages a Lagos day (20, then 402 PLAN_LIMIT_EXCEEDED, nothing queued); refusals do not count; the next day sends again", async () => {
    const owner = await registerOwner(app);
    const customer = await newCustomer(owner.accessToken);
    expect((await post('sms', owner.accessToken, { to: aPhone(), template: 'CUSTOM', message: 'hi' })).status).to.equal(422); // not counted
    for (let i = 0; i < 20; i++) expect((await post(i % 2 ? 'sms' : 'whatsapp', owner.accessToken, { to: customer, template: 'CUSTOM', message: `Message ${i}` })).status).to.equal(202);
    const over = await post('sms', owner.accessToken, { to: customer, template: 'CUSTOM', message: 'One more' });
    expect(over.status, over.text).to.equal(402);
    expect(over.body.error.code).to.equal('PLAN_LIMIT_EXCEEDED');
    expect(over.body.error.detail).to.include('20 messages a day');
    const listed = await app.request('GET', '/notifications?limit=100', { token: owner.accessToken });
    expect(listed.body.data.content).to.have.length(20);
    app.clock.advance(24 * 3_600_000);
    expect((await post('sms', owner.accessToken, { to: customer, template: 'CUSTOM', message: 'A new day' })).status).to.equal(202);
  });

  it('caps staff invitations a Lagos day (FREE: 20, then 402 PLAN_LIMIT_EXCEEDED, no invitation sent)', async () => {
    const owner = await registerOwner(app);
    for (let i = 0; i < 20; i++) expect((await invite(owner.accessToken)).status).to.equal(201);
    const sentBefore = app.outbox.sent.length;
    const over = await invite(owner.accessToken);
    expect(over.status, over.text).to.equal(402);
    expect(over.body.error.code).to.equal('PLAN_LIMIT_EXCEEDED');
    expect(over.body.error.detail).to.include('20 staff invitations a day');
    expect(app.outbox.sent.length).to.equal(sentBefore);
    expect((await app.request('GET', '/businesses/staff?limit=100', { token: owner.accessToken })).body.data.content).to.have.length(21); // the owner and 20 invited
  });

  it('holds the cap under simultaneous requests: 20 at once with 5 left, exactly 5 accepted', async () => {
    const owner = await registerOwner(app);
    const customer = await newCustomer(owner.accessToken);
    for (let i = 0; i < 15; i++) expect((await post('sms', owner.accessToken, { to: customer, template: 'CUSTOM', message: `Message ${i}` })).status).to.equal(202);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post('sms', owner.accessToken, { to: customer, template: 'CUSTOM', message: `At once ${i}` })));
    expect(answers.filter((a) => a.status === 202)).to.have.length(5);
    expect(answers.filter((a) => a.status === 402 && a.body.error.code === 'PLAN_LIMIT_EXCEEDED')).to.have.length(15);
    expect((await app.request('GET', '/notifications?limit=100', { token: owner.accessToken })).body.data.content).to.have.length(20);
  });
});
