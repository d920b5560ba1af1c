import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { NotificationFilter, NotificationSort } from '../../application/notifications/ports.js';
import type { PageRequest } from '../../application/ports/list.js';
import { rollback } from '../../application/ports/unit-of-work.js';
import { kobo } from '../../domain/money.js';
import { DEFAULT_PREFERENCES, type Notification, type NotificationPreferences } from '../../domain/notification.js';
import { inMemory, openPostgres, type Persistence } from '../../bootstrap/persistence.js';
import { freshDatabaseUrl } from '../support/database.js';
import { aCustomer, aSale, NOW, seedShop } from '../support/builders.js';

// The NotificationRepository and NotificationSettings contract on every adapter: tenancy, the list's
// filters and order, status changes only from the status they leave, delivery reports, preferences,
// and the marks that keep scheduled work from sending twice.

const at = (ms: number) => new Date(NOW.getTime() + ms);
const DAY = 86_400_000;
const page = (o: Partial<PageRequest<NotificationSort>> = {}): PageRequest<NotificationSort> => ({ sortBy: 'created_at', sortDir: 'desc', limit: 100, ...o });

const contract = (name: string, open: () => Promise<Persistence>) =>
  describe(`notifications contract: ${name}`, function () {
    this.timeout(60_000);
    let p: Persistence;
    before(async () => (p = await open()));
    after(async () => p.close());

    const aNotification = (businessId: string, o: Partial<Notification> = {}): Notification => ({
      id: randomUUID(), businessId, channel: 'SMS', to: '+2348031234567', template: 'CUSTOM', customerId: null, saleId: null, productId: null, message: 'Open on Sunday',
      summaryDate: null, status: 'QUEUED', attempts: 0, providerMessageId: null, failureReason: null, text: null, createdBy: null, sourceEventId: null,
      createdAt: NOW, updatedAt: NOW, sentAt: null, ...o,
    });

    it('stores and reads a notification whole, only within its business; a second one from the same event is a duplicate', async () => {
      const a = await seedShop(p.uow);
      const b = await seedShop(p.uow);
      const c = aCustomer(a.business.id);
      const source = randomUUID();
      const n = aNotification(a.business.id, { customerId: c.id, summaryDate: '2026-11-22', sourceEventId: source, createdBy: a.user.id, productId: a.product.id });
      await p.uow.run(async (r) => {
        await r.customers.add(c);
        expect(await r.notifications.add(n)).to.equal('added');
        expect(await r.notifications.add(aNotification(a.business.id, { sourceEventId: source }))).to.equal('duplicate');
      });
      expect(await p.uow.read((r) => r.notifications.findById(a.business.id, n.id))).to.deep.equal(n);
      expect(await p.uow.read((r) => r.notifications.findById(b.business.id, n.id))).to.equal(undefined);
      expect((await p.uow.read((r) => r.notifications.list(b.business.id, page(), {}))).items).to.deep.equal([]);
    });

    it('lists newest first, filtered by channel, status and customer, in keyset pages', async () => {
      const t = await seedShop(p.uow);
      const c = aCustomer(t.business.id);
      const rows = [
        aNotification(t.business.id, { createdAt: at(1), channel: 'SMS', customerId: c.id }),
        aNotification(t.business.id, { createdAt: at(2), channel: 'WHATSAPP', status: 'SENT' }),
        aNotification(t.business.id, { createdAt: at(3), channel: 'WHATSAPP', customerId: c.id }),
      ];
      await p.uow.run(async (r) => {
        await r.customers.add(c);
        for (const n of rows) await r.notifications.add(n);
      });
      const ids = async (f: NotificationFilter, o: Partial<PageRequest<NotificationSort>> = {}) =>
        (await p.uow.read((r) => r.notifications.list(t.business.id, page(o), f))).items.map((n) => n.id);
      expect(await ids({})).to.deep.equal([rows[2]!.id, rows[1]!.id, rows[0]!.id]);
      expect(await ids({ channel: 'WHATSAPP' })).to.deep.equal([rows[2]!.id, rows[1]!.id]);
      expect(await ids({ status: 'SENT' })).to.deep.equal([rows[1]!.id]);
      expect(await ids({ customerId: c.id, channel: 'SMS' })).to.deep.equal([rows[0]!.id]);
      const first = await p.uow.read((r) => r.notifications.list(t.business.id, page({ limit: 2 }), {}));
      expect(first.hasNext).to.equal(true);
      expect(await ids({}, { after: first.next! })).to.deep.equal([rows[0]!.id]);
    });

    it('counts attempts and settles only a QUEUED notification; a delivery report moves only a SENT one', async () => {
      const t = await seedShop(p.uow);
      const [x, y] = [aNotification(t.business.id), aNotification(t.business.id)];
      await p.uow.run(async (r) => {
        await r.notifications.add(x!);
        await r.notifications.add(y!);
      });
      expect(await p.uow.run((r) => r.notifications.countAttempt(t.business.id, x!.id, at(10)))).to.equal(1);
      expect(await p.uow.run((r) => r.notifications.countAttempt(t.business.id, x!.id, at(11)))).to.equal(2);
      expect(await p.uow.run((r) => r.notifications.settle(t.business.id, x!.id, { status: 'SENT', providerMessageId: 'prov-1', text: 'hello', at: at(12) }))).to.equal(true);
      expect(await p.uow.run((r) => r.notifications.settle(t.business.id, x!.id, { status: 'FAILED', reason: 'late', at: at(13) }))).to.equal(false);
      expect(await p.uow.run((r) => r.notifications.countAttempt(t.business.id, x!.id, at(14)))).to.equal(undefined);
      expect(await p.uow.read((r) => r.notifications.findById(t.business.id, x!.id))).to.deep.include({ status: 'SENT', attempts: 2, providerMessageId: 'prov-1', text: 'hello', sentAt: at(12) });

      expect(await p.uow.run((r) => r.notifications.applyDeliveryReport('prov-1', { status: 'DELIVERED', reason: null, at: at(20) }))).to.equal(true);
      expect(await p.uow.run((r) => r.notifications.applyDeliveryReport('prov-1', { status: 'FAILED', reason: 'x', at: at(21) }))).to.equal(false);
      expect(await p.uow.run((r) => r.notifications.applyDeliveryReport('unknown', { status: 'DELIVERED', reason: null, at: at(21) }))).to.equal(false);
      expect(await p.uow.read((r) => r.notifications.findById(t.business.id, x!.id))).to.deep.include({ status: 'DELIVERED', updatedAt: at(20) });

      const other = await seedShop(p.uow);
      expect(await p.uow.run((r) => r.notifications.settle(other.business.id, y!.id, { status: 'FAILED', reason: 'no', at: at(30) }))).to.equal(false);
      expect(await p.uow.run((r) => r.notifications.settle(t.business.id, y!.id, { status: 'FAILED', reason: 'bad number', at: at(30) }))).to.equal(true);
      expect(await p.uow.read((r) => r.notifications.findById(t.business.id, y!.id))).to.deep.include({ status: 'FAILED', failureReason: 'bad number' });
    });

    it('keeps preferences per business (defaults until saved) and marks each daily summary once per day', async () => {
      const t = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      expect(await p.uow.read((r) => r.notificationSettings.get(t.business.id))).to.deep.equal(DEFAULT_PREFERENCES);
      const prefs: NotificationPreferences = { ...DEFAULT_PREFERENCES, dailySummary: { enabled: true, time: '19:30', channel: 'WHATSAPP' }, receiptChannel: 'SMS' };
      await p.uow.run((r) => r.notificationSettings.save(t.business.id, prefs, at(0)));
      await p.uow.run((r) => r.notificationSettings.save(other.business.id, { ...prefs, dailySummary: { ...prefs.dailySummary, time: '21:00' } }, at(0)));
      expect(await p.uow.read((r) => r.notificationSettings.get(t.business.id))).to.deep.equal(prefs);
      const due = (time: string, day = '2026-11-22') => p.uow.read((r) => r.notificationSettings.dueDailySummaries(day, time, 1000));
      expect(await due('19:29')).to.not.include(t.business.id);
      expect(await due('19:30')).to.include(t.business.id).and.not.include(other.business.id);
      expect(await p.uow.run((r) => r.notificationSettings.claimDailySummary(t.business.id, '2026-11-22'))).to.equal(true);
      expect(await p.uow.run((r) => r.notificationSettings.claimDailySummary(t.business.id, '2026-11-22'))).to.equal(false);
      expect(await due('23:00')).to.not.include(t.business.id);
      expect(await due('19:30', '2026-11-23')).to.include(t.business.id);
      // saving the preferences again keeps the day's mark
      await p.uow.run((r) => r.notificationSettings.save(t.business.id, prefs, at(1)));
      expect(await due('23:00')).to.not.include(t.business.id);
    });

    it('finds reminder candidates (owing on an old credit sale, not opted out, not reminded lately) and claims each once per period', async () => {
      const t = await seedShop(p.uow);
      const owes = aCustomer(t.business.id, { name: 'Mama Chioma', creditBalance: kobo(150_050) });
      const optedOut = aCustomer(t.business.id, { creditBalance: kobo(1000), notificationsOptOut: true });
      const recent = aCustomer(t.business.id, { creditBalance: kobo(1000) });
      const paid = aCustomer(t.business.id);
      await p.uow.run(async (r) => {
        for (const c of [owes, optedOut, recent, paid]) await r.customers.add(c);
        await r.sales.add(aSale(t, t.product.id, { customerId: owes.id, paymentMethod: 'CREDIT', total: kobo(150_050), createdAt: at(-10 * DAY) }));
        await r.sales.add(aSale(t, t.product.id, { customerId: optedOut.id, paymentMethod: 'CREDIT', total: kobo(1000), createdAt: at(-10 * DAY) }));
        await r.sales.add(aSale(t, t.product.id, { customerId: recent.id, paymentMethod: 'CREDIT', total: kobo(1000), createdAt: at(-1 * DAY) }));
        await r.notificationSettings.save(t.business.id, { ...DEFAULT_PREFERENCES, creditReminders: { enabled: true, daysOverdue: 7, repeatEveryDays: 7, channel: 'SMS' } }, NOW);
      });
      expect((await p.uow.read((r) => r.notificationSettings.remindingBusinesses(10_000))).map((b) => b.businessId)).to.include(t.business.id);
      const candidates = () => p.uow.read((r) => r.notificationSettings.reminderCandidates(t.business.id, at(-7 * DAY), at(-7 * DAY), 100));
      expect(await candidates()).to.deep.equal([{ customerId: owes.id, name: 'Mama Chioma', phone: owes.phone, email: null, balance: 150_050 }]);
      expect(await p.uow.run((r) => r.notificationSettings.claimReminder(t.business.id, owes.id, NOW, at(-7 * DAY)))).to.equal(true);
      expect(await p.uow.run((r) => r.notificationSettings.claimReminder(t.business.id, owes.id, NOW, at(-7 * DAY)))).to.equal(false);
      expect(await candidates()).to.deep.equal([]);
      // a week later they are due again
      const later = (d: number) => p.uow.read((r) => r.notificationSettings.reminderCandidates(t.business.id, at(d * DAY - 7 * DAY), at(d * DAY - 7 * DAY), 100));
      expect((await later(7)).map((c) => c.customerId)).to.deep.equal([owes.id, recent.id].sort()).and.to.include(owes.id);
      expect(await p.uow.run((r) => r.notificationSettings.claimReminder(t.business.id, owes.id, at(7 * DAY), at(0)))).to.equal(true);
    });

    it('marks a low-stock alert once until cleared; knows opted-out contacts and the owner\'s contact', async () => {
      const t = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const claim = () => p.uow.run((r) => r.notificationSettings.claimLowStockAlert(t.business.id, t.product.id, NOW));
      const alerted = (businessId: string) => p.uow.read((r) => r.notificationSettings.isLowStockAlerted(businessId, t.product.id));
      expect(await alerted(t.business.id)).to.equal(false);
      expect(await claim()).to.equal(true);
      expect(await alerted(t.business.id)).to.equal(true);
      expect(await alerted(other.business.id)).to.equal(false);
      expect(await claim()).to.equal(false);
      await p.uow.run((r) => r.notificationSettings.clearLowStockAlert(other.business.id, t.product.id)); // not theirs: nothing happens
      expect(await claim()).to.equal(false);
      await p.uow.run((r) => r.notificationSettings.clearLowStockAlert(t.business.id, t.product.id));
      expect(await claim()).to.equal(true);

      const out = aCustomer(t.business.id, { email: 'Ngozi@Example.com', notificationsOptOut: true });
      await p.uow.run((r) => r.customers.add(out));
      expect(await p.uow.read((r) => r.customers.findById(t.business.id, out.id))).to.deep.equal(out);
      await p.uow.run((r) => r.customers.save({ ...out, notificationsOptOut: false }));
      expect((await p.uow.read((r) => r.customers.findById(t.business.id, out.id)))!.notificationsOptOut).to.equal(false);
      await p.uow.run((r) => r.customers.save(out));
      const optedOut = (businessId: string, contact: string) => p.uow.read((r) => r.notificationSettings.isOptedOut(businessId, contact));
      expect(await optedOut(t.business.id, out.phone!)).to.equal(true);
      expect(await optedOut(t.business.id, 'ngozi@example.com')).to.equal(true);
      expect(await optedOut(other.business.id, out.phone!)).to.equal(false);
      expect(await optedOut(t.business.id, '+2348000000000')).to.equal(false);

      expect(await p.uow.read((r) => r.notificationSettings.ownerContact(t.business.id))).to.deep.equal({ phone: t.user.phone, email: null });
    });

    it("knows who a message may go to: the business's customers and its active or invited members, by phone or e-mail (issue 31)", async () => {
      const t = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const customer = aCustomer(t.business.id, { email: 'Ada@Example.com' });
      await p.uow.run((r) => r.customers.add(customer));
      const may = (businessId: string, contact: string) => p.uow.read((r) => r.notificationSettings.isRecipientOf(businessId, contact));
      expect(await may(t.business.id, customer.phone!)).to.equal(true);
      expect(await may(t.business.id, 'ada@example.com')).to.equal(true);
      expect(await may(t.business.id, t.user.phone!)).to.equal(true); // the owner, a member
      expect(await may(other.business.id, customer.phone!)).to.equal(false); // another business's customer
      expect(await may(other.business.id, t.user.phone!)).to.equal(false);
      expect(await may(t.business.id, '+2348000000000')).to.equal(false);
      await p.uow.run((r) => r.memberships.save({ ...t.membership, status: 'DEACTIVATED' }));
      expect(await may(t.business.id, t.user.phone!)).to.equal(false); // a former member
    });

    it('counts daily messages per business, day and quota up to the limit; a rollback gives the count back (issue 31)', async () => {
      const t = await seedShop(p.uow);
      const other = await seedShop(p.uow);
      const count = (businessId: string, day: string, quota: 'MESSAGES' | 'INVITATIONS', limit = 2) =>
        p.uow.run((r) => r.notificationSettings.countDailyMessage(businessId, day, quota, limit));
      expect(await count(t.business.id, '2026-11-22', 'MESSAGES')).to.equal(true);
      expect(await p.uow.run(async (r) => rollback(await r.notificationSettings.countDailyMessage(t.business.id, '2026-11-22', 'MESSAGES', 2)))).to.equal(true);
      expect(await count(t.business.id, '2026-11-22', 'MESSAGES')).to.equal(true);
      expect(await count(t.business.id, '2026-11-22', 'MESSAGES')).to.equal(false);
      expect(await count(t.business.id, '2026-11-22', 'MESSAGES', 3)).to.equal(true); // a higher plan's cap
      expect(await count(t.business.id, '2026-11-22', 'INVITATIONS')).to.equal(true);
      expect(await count(t.business.id, '2026-11-23', 'MESSAGES')).to.equal(true);
      expect(await count(other.business.id, '2026-11-22', 'MESSAGES')).to.equal(true);
      expect(await count(t.business.id, '2026-11-22', 'MESSAGES', 0)).to.equal(false);
    });
  });

contract('in-memory', async () => inMemory());
contract('SQL/PostgreSQL', async () => openPostgres({ databaseUrl: await freshDatabaseUrl(), dataDir: '/tmp', poolMax: 4, log: () => undefined }));
