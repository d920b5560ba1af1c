import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryOutbox } from '../../../adapters/persistence/in-memory/outbox.in-memory.js';
import { createDispatcher } from '../../../application/events/dispatcher.js';
import { notifyOnEvents, runDueNotifications } from '../../../application/notifications/automatic-notifications.js';
import { deliverNotifications, recordDeliveryReport } from '../../../application/notifications/deliver-notifications.js';
import { getNotification, getNotificationPreferences, updateNotificationPreferences } from '../../../application/notifications/manage-notifications.js';
import { sendNotification, type SendCommand } from '../../../application/notifications/send-notification.js';
import { FIRST_ATTEMPT_GRACE_MS } from '../../../application/ports/outbox.js';
import { MessageRejected } from '../../../application/ports/message-sender.js';
import { inMemoryUnitOfWork } from '../../../bootstrap/persistence.js';
import { stockChanged, saleRecorded } from '../../../domain/events.js';
import { kobo } from '../../../domain/money.js';
import type { Actor } from '../../../domain/roles.js';
import { aCustomer, aSale, seedShop } from '../../support/builders.js';
import { recordingOutbox, testClock } from '../../support/test-app.js';

const right = <A>(r: E.Either<unknown, A>): A => {
  if (E.isLeft(r)) throw new Error(`expected a success, got ${JSON.stringify(r.left)}`);
  return r.right;
};
const left = (r: E.Either<unknown, unknown>) => (E.isLeft(r) ? r.left : expect.fail(`expected a failure, got ${JSON.stringify(r)}`));
const DAY = 86_400_000;

/**
 * A shop (owner, product) on the in-memory adapters, with its outbox dispatcher delivering to the
 * notification subscribers; the clock starts on 2026-11-22 at 12:00 Lagos (11:00 UTC).
 */
const setup = async (at = '2026-11-22T11:00:00.000Z') => {
  const uow = inMemoryUnitOfWork();
  const clock = testClock(new Date(at));
  const crypto = nodeCrypto(new Uint8Array(32));
  const messages = recordingOutbox();
  const deps = { uow, clock, crypto };
  const shop = await seedShop(uow, { business: { name: 'Ada Stores' } });
  const staff: Actor = { userId: randomUUID(), businessId: shop.business.id, roles: ['STAFF'] };
  const debtor = aCustomer(shop.business.id, { name: 'Mama Chioma', creditBalance: kobo(150_050) });
  const debt = aSale(shop, shop.product.id, { customerId: debtor.id, paymentMethod: 'CREDIT', total: kobo(150_050), createdAt: new Date(clock.now().getTime() - 10 * DAY) });
  // Since fix31-sms a `to` must be a customer's or a member's number of the business: the numbers the
  // tests text by hand are the shop's regulars (a stranger's number is RecipientNotAllowed, checked below).
  const regulars = ['+2348031234567', '+2348031234568', '+2348031234569'].map((phone, i) => aCustomer(shop.business.id, { name: `Regular ${i + 1}`, phone }));
  await uow.run(async (r) => {
    await r.customers.add(debtor);
    await r.sales.add(debt);
    for (const c of regulars) await r.customers.add(c);
  });
  const dispatcher = createDispatcher({ outbox: inMemoryOutbox(uow), clock, subscribers: [deliverNotifications({ uow, messages, clock }), notifyOnEvents(deps)] }, { maxAttempts: 3 });
  /** Runs the outbox as the queue would, past the first attempt's grace, until nothing is due. */
  const drain = async () => {
    for (let i = 0; i < 5; i++) {
      clock.advance(FIRST_ATTEMPT_GRACE_MS + 60_000);
      await dispatcher.runDue();
    }
  };
  const send = (actor: Actor, cmd: SendCommand, channel: 'SMS' | 'WHATSAPP' = 'SMS') => sendNotification(deps)(actor, channel, cmd);
  const prefs = updateNotificationPreferences(deps);
  return { uow, clock, deps, messages, shop, owner: shop.actor, staff, debtor, debt, dispatcher, drain, send, prefs };
};

describe('notifications use cases (in memory)', () => {
  it('queues a reminder (QUEUED, 202-style), then the outbox sends it once with the text built at sending time', async () => {
    const { send, owner, debtor, drain, messages, deps } = await setup();
    const n = right(await send(owner, { customerId: debtor.id, template: 'CREDIT_REMINDER' }, 'WHATSAPP'));
    expect(n).to.include({ status: 'QUEUED', channel: 'WHATSAPP', to: debtor.phone, template: 'CREDIT_REMINDER', attempts: 0 });
    await drain();
    expect(messages.sent).to.have.length(1);
    expect(messages.sent[0]).to.deep.include({ channel: 'whatsapp', to: debtor.phone, purpose: 'CREDIT_REMINDER', params: ['Mama Chioma', 'Ada Stores', '₦1,500.50', '22 Nov 2026'] });
    expect(messages.sent[0]!.text).to.equal('Hello Mama Chioma, a reminder from Ada Stores: you owe ₦1,500.50 as of 22 Nov 2026. Thank you.');
    const sent = right(await getNotification(deps)(owner, n.id));
    expect(sent).to.include({ status: 'SENT', attempts: 1, text: messages.sent[0]!.text });
  });

  it('roles and rules: CUSTOM is the owner\'s; opted-out customers (and their numbers) get receipts only; unknown ids, no phone, nothing owed', async () => {
    const { send, owner, staff, debtor, debt, uow, shop } = await setup();
    expect(left(await send(staff, { to: '+2348031234567', template: 'CUSTOM', message: 'Sale on Friday' }))).to.deep.equal({ _tag: 'CustomMessageOwnerOnly' });
    expect(right(await send(staff, { customerId: debtor.id, template: 'CREDIT_REMINDER' })).createdBy).to.equal(staff.userId);
    expect(right(await send(staff, { customerId: debtor.id, template: 'RECEIPT', saleId: debt.id })).saleId).to.equal(debt.id);

    const out = aCustomer(shop.business.id, { notificationsOptOut: true, creditBalance: kobo(500) });
    const noPhone = aCustomer(shop.business.id, { phone: null, creditBalance: kobo(500) });
    const paidUp = aCustomer(shop.business.id);
    await uow.run(async (r) => {
      for (const c of [out, noPhone, paidUp]) await r.customers.add(c);
    });
    expect(left(await send(owner, { customerId: out.id, template: 'CREDIT_REMINDER' }))).to.deep.equal({ _tag: 'CustomerOptedOut' });
    expect(left(await send(owner, { customerId: out.id, template: 'CUSTOM', message: 'hi' }))).to.deep.equal({ _tag: 'CustomerOptedOut' });
    expect(left(await send(owner, { to: out.phone!, template: 'CUSTOM', message: 'hi' }))).to.deep.equal({ _tag: 'CustomerOptedOut' });
    expect(right(await send(owner, { customerId: out.id, template: 'RECEIPT', saleId: debt.id })).to).to.equal(out.phone);
    expect(left(await send(owner, { customerId: noPhone.id, template: 'CREDIT_REMINDER' }))).to.deep.equal({ _tag: 'CustomerHasNoPhone' });
    expect(left(await send(owner, { customerId: paidUp.id, template: 'CREDIT_REMINDER' }))).to.deep.equal({ _tag: 'NothingOwed' });
    expect(left(await send(owner, { customerId: randomUUID(), template: 'CREDIT_REMINDER' }))).to.deep.equal({ _tag: 'UnknownCustomer' });
    expect(left(await send(owner, { to: '+2348031234567', template: 'RECEIPT', saleId: randomUUID() }))).to.deep.equal({ _tag: 'UnknownSale' });
    // a number that is nobody's of the business is refused, whatever the template (the platform pays for every message)
    expect(left(await send(owner, { to: '+2348099999999', template: 'CUSTOM', message: 'hi' }))).to.deep.equal({ _tag: 'RecipientNotAllowed' });
    expect(left(await send(owner, { to: '+2348099999999', template: 'RECEIPT', saleId: debt.id }))).to.deep.equal({ _tag: 'RecipientNotAllowed' });
  });

  it('a provider refusal fails it with the reason; an outage is retried, attempts counted, and the last failed attempt gives it up as FAILED', async () => {
    const { send, owner, drain, messages, deps, dispatcher, clock } = await setup();
    const rejected = right(await send(owner, { to: '+2348031234567', template: 'CUSTOM', message: 'Open on Sunday' }));
    const realSend = messages.send;
    messages.send = async () => {
      throw new MessageRejected('number is not on WhatsApp');
    };
    await drain();
    expect(right(await getNotification(deps)(owner, rejected.id))).to.include({ status: 'FAILED', failureReason: 'number is not on WhatsApp', attempts: 1 });

    messages.send = realSend;
    const flaky = right(await send(owner, { to: '+2348031234568', template: 'CUSTOM', message: 'Open on Sunday' }));
    messages.failNext(1);
    clock.advance(FIRST_ATTEMPT_GRACE_MS + 1);
    await dispatcher.runDue();
    expect(right(await getNotification(deps)(owner, flaky.id))).to.include({ status: 'QUEUED', attempts: 1 });
    await drain();
    expect(right(await getNotification(deps)(owner, flaky.id))).to.include({ status: 'SENT', attempts: 2 });
    expect(messages.sent.filter((m) => m.to === '+2348031234568')).to.have.length(1);

    const doomed = right(await send(owner, { to: '+2348031234569', template: 'CUSTOM', message: 'Open on Sunday' }));
    messages.failNext(10);
    await drain(); // maxAttempts is 3 here
    const failed = right(await getNotification(deps)(owner, doomed.id));
    expect(failed).to.include({ status: 'FAILED', attempts: 3 });
    expect(failed.failureReason).to.match(/provider unavailable/);
  });

  it('withdraws a queued reminder whose customer paid up or opted out before it was sent (FAILED with the reason, nothing sent)', async () => {
    const { send, owner, debtor, drain, messages, deps, uow, shop } = await setup();
    const other = aCustomer(shop.business.id, { creditBalance: kobo(1000) });
    await uow.run((r) => r.customers.add(other));
    const paid = right(await send(owner, { customerId: debtor.id, template: 'CREDIT_REMINDER' }));
    const out = right(await send(owner, { customerId: other.id, template: 'CUSTOM', message: 'Hello' }));
    await uow.run(async (r) => {
      await r.customers.setBalance(shop.business.id, debtor.id, kobo(0), new Date());
      await r.customers.save({ ...other, notificationsOptOut: true });
    });
    await drain();
    expect(messages.sent).to.deep.equal([]);
    expect(right(await getNotification(deps)(owner, paid.id))).to.include({ status: 'FAILED', failureReason: 'the customer owed nothing any more when it was to be sent', attempts: 1 });
    expect(right(await getNotification(deps)(owner, out.id))).to.include({ status: 'FAILED', failureReason: 'the customer opted out of reminders and messages before it was sent' });
  });

  it('records delivery reports: SENT becomes DELIVERED, or FAILED with the reason', async () => {
    const { send, owner, drain, messages, deps } = await setup();
    let id = 0;
    messages.send = async (m) => {
      messages.sent.push(m);
      return { providerMessageId: `prov-${++id}` };
    };
    const a = right(await send(owner, { to: '+2348031234567', template: 'CUSTOM', message: 'one' }));
    await drain(); // one at a time: the provider's ids follow the order
    const b = right(await send(owner, { to: '+2348031234568', template: 'CUSTOM', message: 'two' }));
    await drain();
    const report = recordDeliveryReport(deps);
    expect(await report({ providerMessageId: 'prov-1', status: 'DELIVERED' })).to.equal(true);
    expect(await report({ providerMessageId: 'prov-2', status: 'FAILED', reason: 'handset off for 48 h' })).to.equal(true);
    expect(await report({ providerMessageId: 'prov-1', status: 'FAILED' })).to.equal(false);
    expect(await report({ providerMessageId: 'nobody', status: 'DELIVERED' })).to.equal(false);
    expect(right(await getNotification(deps)(owner, a.id))).to.include({ status: 'DELIVERED', providerMessageId: 'prov-1' });
    expect(right(await getNotification(deps)(owner, b.id))).to.include({ status: 'FAILED', failureReason: 'handset off for 48 h' });
  });

  it('preferences: defaults off, changed field by field', async () => {
    const { deps, owner, prefs } = await setup();
    expect(await getNotificationPreferences(deps)(owner)).to.deep.include({ receiptChannel: 'NONE' });
    const changed = right(await prefs(owner, { dailySummary: { enabled: true }, creditReminders: { daysOverdue: 30 }, receiptChannel: 'WHATSAPP' }));
    expect(changed.dailySummary).to.deep.equal({ enabled: true, time: '20:00', channel: 'SMS' });
    expect(changed.creditReminders).to.deep.equal({ enabled: false, daysOverdue: 30, repeatEveryDays: 7, channel: 'SMS' });
    expect(await getNotificationPreferences(deps)(owner)).to.deep.equal(changed);
  });

  it('the daily summary goes to the owner once a day, from its Lagos time on, never twice for two runs', async () => {
    const { deps, owner, prefs, messages, drain, shop, clock } = await setup('2026-11-22T18:00:00.000Z'); // 19:00 Lagos
    const run = runDueNotifications(deps);
    expect(await run(clock.now())).to.deep.equal({ dailySummaries: 0, creditReminders: 0 }); // off
    await prefs(owner, { dailySummary: { enabled: true, time: '19:30', channel: 'SMS' } });
    expect((await run(clock.now())).dailySummaries).to.equal(0); // 19:00 < 19:30
    clock.set(new Date('2026-11-22T18:30:00.000Z'));
    const [first, second] = await Promise.all([run(clock.now()), run(clock.now())]);
    expect(first!.dailySummaries + second!.dailySummaries).to.equal(1);
    await drain();
    const summaries = messages.sent.filter((m) => m.purpose === 'DAILY_SUMMARY');
    expect(summaries).to.have.length(1);
    expect(summaries[0]).to.deep.include({ to: shop.user.phone, channel: 'sms' });
    expect(summaries[0]!.text).to.equal('Ada Stores, 22 Nov 2026: 0 sales ₦0.00, expenses ₦0.00, credit collected ₦0.00, cash expected ₦0.00.');
    expect((await run(new Date('2026-11-22T22:00:00.000Z'))).dailySummaries).to.equal(0); // later that day
    expect((await run(new Date('2026-11-23T18:29:00.000Z'))).dailySummaries).to.equal(0); // next day, 19:29
    expect((await run(new Date('2026-11-23T18:30:00.000Z'))).dailySummaries).to.equal(1);
  });

  it('credit reminders: to customers owing longer than days_overdue, at most every repeat_every_days, never to the opted out', async () => {
    const { deps, owner, prefs, messages, drain, shop, uow, debtor, clock } = await setup();
    const out = aCustomer(shop.business.id, { notificationsOptOut: true, creditBalance: kobo(1000) });
    const fresh = aCustomer(shop.business.id, { creditBalance: kobo(2000) });
    await uow.run(async (r) => {
      await r.customers.add(out);
      await r.customers.add(fresh);
      await r.sales.add(aSale(shop, shop.product.id, { customerId: out.id, paymentMethod: 'CREDIT', total: kobo(1000), createdAt: new Date(clock.now().getTime() - 30 * DAY) }));
      await r.sales.add(aSale(shop, shop.product.id, { customerId: fresh.id, paymentMethod: 'CREDIT', total: kobo(2000), createdAt: new Date(clock.now().getTime() - 2 * DAY) }));
    });
    const run = runDueNotifications(deps);
    expect((await run(clock.now())).creditReminders).to.equal(0); // off
    await prefs(owner, { creditReminders: { enabled: true, daysOverdue: 7, repeatEveryDays: 3 } });
    expect((await run(clock.now())).creditReminders).to.equal(1);
    expect((await run(clock.now())).creditReminders).to.equal(0);
    await drain();
    expect(messages.sent.map((m) => m.to)).to.deep.equal([debtor.phone]);
    expect(messages.sent[0]!.text).to.match(/^Hello Mama Chioma, a reminder from Ada Stores: you owe ₦1,500.50 as of 22 Nov 2026/);
    expect((await run(new Date(clock.now().getTime() + 2 * DAY))).creditReminders).to.equal(0);
    // three days on the debtor is due again, and the newer debt is now 5 days old: still not overdue
    expect((await run(new Date(clock.now().getTime() + 3 * DAY))).creditReminders).to.equal(1);
    expect((await run(new Date(clock.now().getTime() + 6 * DAY))).creditReminders).to.equal(2);
  });

  it('low stock: one alert when a change takes a product to or below its threshold, none again until restocked above it', async () => {
    const { deps, owner, prefs, messages, drain, shop, uow, clock } = await setup();
    await uow.run(async (r) => {
      await r.products.save({ ...shop.product, name: 'Rice 50kg', lowStockThreshold: 5 });
      await r.products.changeQuantity(shop.business.id, shop.product.id, shop.branch.id, 10, clock.now());
    });
    const move = async (change: number) => {
      const q = await uow.run((r) => r.products.changeQuantity(shop.business.id, shop.product.id, shop.branch.id, change, clock.now()));
      if (!q?.ok) throw new Error('the stock did not move');
      const movement = { id: randomUUID(), businessId: shop.business.id, productId: shop.product.id, branchId: shop.branch.id, quantityChange: change, quantityBefore: q.before, quantityAfter: q.after, reason: 'SALE' as const, note: null, unitCost: null, createdBy: owner.userId, createdAt: clock.now() };
      await uow.run((r) => r.events.record(clock.now(), stockChanged(movement, q.total)));
      await drain();
    };
    await move(-6); // 4 left, alerts off: nothing
    expect(messages.sent).to.deep.equal([]);
    await prefs(owner, { lowStockAlerts: { enabled: true, channel: 'WHATSAPP' } });
    await move(-1); // 3 left
    await move(-1); // 2 left: already alerted
    expect(messages.sent).to.have.length(1);
    expect(messages.sent[0]).to.deep.include({ channel: 'whatsapp', to: shop.user.phone, purpose: 'LOW_STOCK', text: 'Ada Stores: Rice 50kg is low, 3 left (alert at 5). Restock soon.' });
    await move(+10); // 12: restocked above
    await move(-7); // 5: at the threshold again
    expect(messages.sent.map((m) => m.text)).to.deep.equal([
      'Ada Stores: Rice 50kg is low, 3 left (alert at 5). Restock soon.',
      'Ada Stores: Rice 50kg is low, 5 left (alert at 5). Restock soon.',
    ]);
  });

  it('a receipt after a sale to a customer with that contact, on the receipt channel; once even when the event is delivered twice', async () => {
    const { prefs, owner, messages, drain, shop, debtor, uow, clock, deps } = await setup();
    const sale = { ...aSale(shop, shop.product.id, { customerId: debtor.id, total: kobo(150_050), createdAt: new Date('2026-11-22T14:04:00.000Z') }), receiptNumber: 'RCP-0042' };
    const event = saleRecorded(sale);
    await uow.run(async (r) => {
      await r.sales.add(sale);
      await r.events.record(clock.now(), event);
    });
    await drain();
    expect(messages.sent).to.deep.equal([]); // receipt_channel NONE
    await prefs(owner, { receiptChannel: 'SMS' });
    const trigger = notifyOnEvents(deps);
    await trigger.handle(event, { id: randomUUID(), occurredAt: clock.now() });
    const again = randomUUID();
    await trigger.handle(event, { id: again, occurredAt: clock.now() });
    await trigger.handle(event, { id: again, occurredAt: clock.now() }); // at least once: the same entry twice
    await drain();
    expect(messages.sent).to.have.length(2);
    const stored = (await uow.read((r) => r.sales.findById(shop.business.id, sale.id)))!;
    expect(messages.sent[0]!.text).to.equal(`Ada Stores: thank you! Receipt ${stored.receiptNumber}, 22 Nov 2026, 15:04. Total ₦1,500.50, paid ₦1,500.50.`);
    await prefs(owner, { receiptChannel: 'EMAIL' }); // the debtor has no e-mail: nothing
    await trigger.handle(event, { id: randomUUID(), occurredAt: clock.now() });
    await drain();
    expect(messages.sent).to.have.length(2);
  });
});
