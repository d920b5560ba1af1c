import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { draftsOf } from '../../../application/audit/record-audit-entries.js';
import type { Attribution } from '../../../application/audit/ports.js';
import { createDispatcher } from '../../../application/events/dispatcher.js';
import { rollback } from '../../../application/ports/unit-of-work.js';
import { deliverAfterCommit } from '../../../adapters/persistence/deliver-after-commit.js';
import { auditEntries } from '../../../bootstrap/jobs.js';
import { inMemory } from '../../../bootstrap/persistence.js';
import { saleVoided, stockChanged, type DomainEvent } from '../../../domain/events.js';
import { MOVEMENT_REASONS, type StockMovement } from '../../../domain/product.js';
import { kobo } from '../../../domain/money.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { aProduct, aSale, NOW, seedShop } from '../../support/builders.js';
import { testClock } from '../../support/test-app.js';

// The audit log's entries come from the events a transaction records, in that transaction (docs/adr/0069):
// which events make an entry, who the actor is, and that a change and its entry commit (or not) together.

const setup = (attribution: () => Attribution | undefined = () => undefined, crypto = nodeCrypto(Buffer.alloc(32))) => {
  const p = inMemory();
  const clock = testClock(NOW);
  const dispatcher = createDispatcher({ outbox: p.outbox, clock, subscribers: [] });
  const uow = deliverAfterCommit(p.uow, dispatcher, [auditEntries({ crypto }, attribution)]);
  const entries = (businessId: string) => p.uow.read(async (r) => (await r.auditLog.list(businessId, { sortBy: 'at', sortDir: 'desc', limit: 100 }, {})).items);
  return { p, uow, clock, entries };
};

const aMovement = (businessId: string, o: Partial<StockMovement> = {}): StockMovement => ({
  id: randomUUID(), businessId, productId: randomUUID(), branchId: randomUUID(), quantityChange: -4, quantityBefore: 10, quantityAfter: 6,
  reason: 'LOSS', note: null, unitCost: null, createdBy: randomUUID(), createdAt: NOW, ...o,
});

describe('audit entries from domain events', () => {
  it('only the audited changes make an entry: stock moved by hand (not a sale, a void, a transfer, an opening stock), a sale only with a discount', () => {
    const businessId = randomUUID();
    const byHand = MOVEMENT_REASONS.filter((reason) => draftsOf(stockChanged(aMovement(businessId, { reason }), 6)).length === 1);
    expect(byHand).to.deep.equal(['RESTOCK', 'DAMAGE', 'LOSS', 'RETURN', 'CORRECTION', 'OTHER', 'IMPORT']);
    // a return's stock coming back belongs to its sale's story (sale.returned), not to stock.adjusted
    expect(draftsOf(stockChanged(aMovement(businessId, { reason: 'RETURN', saleId: randomUUID() }), 6))).to.deep.equal([]);
    const plain: DomainEvent = { _tag: 'SaleRecorded', businessId, saleId: randomUUID(), receiptNumber: 'RCP-000001', branchId: randomUUID(), customerId: null, paymentMethod: 'CASH', total: kobo(1000), amountPaid: kobo(1000), balanceDue: kobo(0), lines: [{ productId: randomUUID(), name: 'Rice', quantity: 1, lineTotal: kobo(1000), discount: kobo(0) }], discount: kobo(0), grossTotal: kobo(1000), recordedBy: randomUUID() };
    expect(draftsOf(plain)).to.deep.equal([]);
    expect(draftsOf({ ...plain, discount: kobo(1) }).map((d) => d.action)).to.deep.equal(['sale.discounted']);
    for (const tag of ['CustomerCreated', 'CreditPaymentRecorded', 'NotificationRequested', 'AuditEntryRecorded'] as const) {
      expect(draftsOf({ _tag: tag, businessId } as DomainEvent), tag).to.deep.equal([]);
    }
  });

  it('is written in the change\'s transaction: a change rolled back or failed leaves no entry', async () => {
    const { uow, entries } = await setup();
    const shop = await seedShop(uow);
    const event = stockChanged(aMovement(shop.business.id, { productId: shop.product.id }), 6);
    await uow.run(async (r) => rollback(await r.events.record(NOW, event)));
    await uow
      .run(async (r) => {
        await r.events.record(NOW, event);
        throw new Error('the change failed after its event');
      })
      .catch(() => undefined);
    expect(await entries(shop.business.id)).to.deep.equal([]);
    await uow.run((r) => r.events.record(NOW, event));
    expect((await entries(shop.business.id)).map((e) => [e.action, e.subject.label])).to.deep.equal([['stock.adjusted', 'rice']]);
  });

  it('and a change whose entry cannot be written is not made either', async () => {
    const broken = { ...nodeCrypto(Buffer.alloc(32)), uuid: () => { throw new Error('no entry id today'); } };
    const { uow, p } = await setup(() => undefined, broken);
    const shop = await seedShop(p.uow);
    const product = aProduct(shop.business.id);
    let failure: unknown;
    try {
      await uow.run(async (r) => {
        await r.products.add(product);
        await r.events.record(NOW, saleVoided({ ...aSale(shop, product.id), receiptNumber: 'RCP-000001' }));
      });
    } catch (e) {
      failure = e;
    }
    expect(String(failure)).to.include('no entry id today');
    expect(await p.uow.read((r) => r.products.findById(shop.business.id, product.id))).to.equal(undefined);
  });

  it('the actor: the request\'s member (DEVICE with a till), its partner key, the member an event names (a sign-in), else the system', async () => {
    let who: Attribution | undefined;
    const { uow, p, entries } = await setup(() => who);
    const shop = await seedShop(p.uow);
    const voided = (label: string) => saleVoided({ ...aSale(shop, shop.product.id), receiptNumber: label });
    const record = (e: DomainEvent) => uow.run((r) => r.events.record(NOW, e));
    who = { requestId: 'req-1', member: { userId: shop.user.id, role: 'BUSINESS_OWNER' } };
    await record(voided('RCP-1'));
    who = { requestId: 'req-2', member: { userId: shop.user.id, role: 'BUSINESS_OWNER' }, deviceId: 'till-3' };
    await record(voided('RCP-2'));
    const partnerId = randomUUID();
    await p.uow.run((r) => r.partners.add({ id: partnerId, name: 'Kudi', code: 'KUDI2345', status: 'ACTIVE', branding: { displayName: null, logoUrl: null, primaryColor: null, supportPhone: null, supportEmail: null }, createdAt: NOW, updatedAt: NOW }));
    who = { requestId: 'req-3', partner: { partnerId, keyId: 'b3f1c2a4-8b7d-4c6e-9a1b-2d3e4f5a6b7c' } };
    await record(voided('RCP-3'));
    who = { requestId: 'req-4' }; // a public route: the event names the member who signed in
    await record({ _tag: 'SignedInFromNewDevice', businessId: shop.business.id, userId: shop.user.id, role: 'BUSINESS_OWNER', sessionId: randomUUID(), userAgent: 'Opera Mini', ip: null });
    who = undefined;
    await record(voided('RCP-5'));
    const byLabel = Object.fromEntries((await entries(shop.business.id)).map((e) => [e.subject.label, [e.actor, e.requestId]]));
    const member = { userId: shop.user.id, name: 'ada obi', role: 'BUSINESS_OWNER', apiKeyId: null };
    expect(byLabel).to.deep.equal({
      'RCP-1': [{ type: 'USER', ...member, deviceId: null }, 'req-1'],
      'RCP-2': [{ type: 'DEVICE', ...member, deviceId: 'till-3' }, 'req-2'],
      'RCP-3': [{ type: 'PARTNER_KEY', userId: null, name: 'Kudi', role: null, deviceId: null, apiKeyId: 'b3f1c2a4-8b7d-4c6e-9a1b-2d3e4f5a6b7c' }, 'req-3'],
      'Opera Mini': [{ type: 'USER', ...member, deviceId: null }, 'req-4'],
      'RCP-5': [{ type: 'SYSTEM', userId: null, name: null, role: null, deviceId: null, apiKeyId: null }, null],
    });
  });
});
