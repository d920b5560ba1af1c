import { expect } from 'chai';
import pg from 'pg';
import { inMemoryOutboxRows } from '../../adapters/persistence/in-memory/outbox.in-memory.js';
import { aPhone, createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

interface Row {
  readonly type: string;
  readonly payload: Record<string, unknown>;
  readonly attempts: number;
  readonly deliveredAt: Date | null;
}

/** The outbox table as it stands, on either adapter. */
const outboxRows = async (app: TestApp): Promise<Row[]> => {
  if (!app.databaseUrl) return (await inMemoryOutboxRows(app.persistence.uow)).map((r) => ({ ...r, payload: r.payload as Record<string, unknown> }));
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select type, payload, attempts, delivered_at from outbox order by occurred_at, id');
    return rows.map((r) => ({ type: r.type, payload: r.payload, attempts: r.attempts, deliveredAt: r.delivered_at }));
  } finally {
    await client.end();
  }
};
const ofType = async (app: TestApp, type: string) => (await outboxRows(app)).filter((r) => r.type === type);

for (const persistence of ['postgres', 'memory'] as const) {
  describe(`HTTP domain events and the outbox (${persistence})`, () => {
    let app: TestApp;
    before(async () => (app = await createTestApp({ persistence })));
    after(async () => app.close());

    it('a failing message provider: register still answers 201, and the code arrives on a later retry and signs in', async () => {
      const phone = aPhone();
      app.outbox.failNext(1);
      const reg = await app.request('POST', '/auth/register', { body: { phone, first_name: 'Ada', last_name: 'Obi', business_name: 'Ada Stores' } });
      expect(reg.status).to.equal(201);
      expect(() => app.outbox.lastCode(phone)).to.throw('no code was sent');
      const failed = app.logLines.filter((l) => l.includes('event delivery failed; will retry'));
      expect(failed).to.have.length(1);
      expect(failed[0]).to.include('SignInCodeIssued').and.include('provider unavailable').and.not.include(phone);

      app.clock.advance(999);
      await app.dispatcher.runDue();
      expect(() => app.outbox.lastCode(phone)).to.throw('no code was sent');
      app.clock.advance(1);
      await app.dispatcher.runDue();
      const code = app.outbox.lastCode(phone);
      expect(app.logLines.join('\n')).to.not.include(code);
      const verify = await app.request('POST', '/auth/verify-otp', { body: { phone, otp: code } });
      expect(verify.status).to.equal(200);
      const [row] = (await ofType(app, 'SignInCodeIssued')).filter((r) => (r.payload.identifier as { value: string }).value === phone);
      expect(row).to.deep.include({ attempts: 2 });
      expect(row!.deliveredAt).to.not.equal(null);
      expect(row!.payload, 'a delivered code is not kept').to.not.have.property('code');
    });

    it('codes and invitations are sent after the commit, from the outbox, before the request answers', async () => {
      const owner = await registerOwner(app);
      const phone = aPhone();
      const invite = await app.request('POST', '/staff/invite', { token: owner.accessToken, body: { phone, first_name: 'Bola', last_name: 'Ade', role: 'STAFF' } });
      expect(invite.status).to.equal(201);
      expect(app.outbox.sent.at(-1)).to.deep.equal({ channel: 'sms', to: phone, purpose: 'INVITATION', text: 'Ada Stores has invited you to join their team on BizOps. Sign in with this phone number to accept.' });
      const [event] = (await ofType(app, 'MemberInvited')).filter((r) => (r.payload.identifier as { value: string }).value === phone);
      expect(event!.payload).to.include({ membershipId: invite.body.data.id, role: 'STAFF', businessName: 'Ada Stores' });
      expect(event!.deliveredAt).to.not.equal(null);

      const email = `ada.${Date.now()}@example.com`;
      expect((await app.request('POST', '/auth/otp/send', { body: { email } })).status).to.equal(200);
      expect(app.outbox.lastCode(email)).to.match(/^\d{6}$/);
      expect((await ofType(app, 'VerificationCodeIssued')).at(-1)!.payload).to.not.have.property('code');
    });

    it('sales, voids, stock, customers and credit payments record their events in kobo; a refused sale records none', async () => {
      const owner = await registerOwner(app);
      const auth = { token: owner.accessToken };
      const product = (await app.request('POST', '/products', { ...auth, body: { name: 'Milo 500g', price: 2500, quantity: 10 } })).body.data;
      const customer = (await app.request('POST', '/customers', { ...auth, body: { name: 'Chinedu Eze', phone: aPhone() } })).body.data;
      const before = (await outboxRows(app)).length;

      const refused = await app.request('POST', '/sales', { ...auth, body: { items: [{ product_id: product.id, quantity: 11 }], payment_method: 'CASH' } });
      expect(refused.status).to.equal(409);
      expect((await outboxRows(app)).length, 'a rolled-back sale records nothing').to.equal(before);

      const sale = (await app.request('POST', '/sales', { ...auth, body: { items: [{ product_id: product.id, quantity: 3 }], payment_method: 'CREDIT', customer_id: customer.id } })).body.data;
      await app.request('POST', `/customers/${customer.id}/credit/payment`, { ...auth, body: { amount: 1000, payment_method: 'CASH' } });
      await app.request('POST', `/sales/${sale.id}/void`, { ...auth, body: { reason: 'returned' } });

      const mine = (await outboxRows(app)).filter((r) => r.payload.productId === product.id || r.payload.customerId === customer.id);
      expect(mine.map((r) => r.type)).to.have.members(['StockChanged', 'CustomerCreated', 'SaleRecorded', 'StockChanged', 'CreditPaymentRecorded', 'SaleVoided', 'StockChanged']);
      expect(mine.find((r) => r.type === 'SaleRecorded')!.payload).to.deep.include({
        saleId: sale.id,
        customerId: customer.id,
        paymentMethod: 'CREDIT',
        total: 750_000,
        amountPaid: 0,
        balanceDue: 750_000,
        lines: [{ productId: product.id, name: 'Milo 500g', quantity: 3, lineTotal: 750_000, discount: 0 }],
        discount: 0,
        grossTotal: 750_000,
      });
      expect(mine.filter((r) => r.type === 'StockChanged').map((r) => [r.payload.reason, r.payload.change, r.payload.quantityAfter])).to.have.deep.members([
        ['INITIAL', 10, 10],
        ['SALE', -3, 7],
        ['SALE_VOID', 3, 10],
      ]);
      expect(mine.find((r) => r.type === 'CreditPaymentRecorded')!.payload).to.include({ amount: 100_000, balanceAfter: 650_000, method: 'CASH' });
      expect(mine.find((r) => r.type === 'SaleVoided')!.payload).to.include({ saleId: sale.id, refundAmount: 100_000 });
      // Nobody subscribes to these yet: the loop settles them after the grace period.
      app.clock.advance(60_000);
      while ((await app.dispatcher.runDue()) > 0);
      expect((await outboxRows(app)).filter((r) => r.deliveredAt === null)).to.deep.equal([]);
    });
  });
}
