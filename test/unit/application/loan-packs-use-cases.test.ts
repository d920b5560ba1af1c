import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { nodeCrypto } from '../../../adapters/crypto/node-crypto.js';
import { inMemoryUnitOfWork } from '../../../bootstrap/persistence.js';
import { createLoanPack } from '../../../application/loan-packs/create-loan-pack.js';
import { startLoanPackCheckout } from '../../../application/loan-packs/pay-loan-pack.js';
import { GatewayUnavailable, type PaymentGateway } from '../../../application/loan-packs/ports.js';
import { kobo } from '../../../domain/money.js';
import { seedTenant } from '../../support/builders.js';
import { testClock } from '../../support/test-app.js';

// Loan pack use cases on the in-memory adapters: the edges an HTTP test cannot stage deterministically.

describe('loan pack use cases', () => {
  const setup = async () => {
    const uow = inMemoryUnitOfWork();
    const deps = { uow, clock: testClock(new Date('2026-11-21T12:00:00Z')), crypto: nodeCrypto(new Uint8Array(32)) };
    const t = await seedTenant(uow);
    const pack = await createLoanPack({ ...deps, loanPackPrice: kobo(500_000) })(t.actor, { months: 6 });
    return { uow, deps, actor: t.actor, pack };
  };

  it('two checkouts at once: the one the gateway refuses (the reference is taken) answers the checkout the other kept', async () => {
    const { uow, deps, actor, pack } = await setup();
    const kept = { authorizationUrl: 'https://checkout.paystack.com/first', accessCode: 'first' };
    // the racing checkout saves its link while this one is at the gateway, which then refuses the reused reference
    const gateway: PaymentGateway = {
      name: 'paystack',
      initialize: async () => {
        await uow.run((r) => r.loanPacks.saveCheckout(actor.businessId, pack.reference, kept));
        throw new GatewayUnavailable('Paystack refused to start the payment: Duplicate Transaction Reference');
      },
      verify: async () => expect.fail('not asked'),
    };
    const r = await startLoanPackCheckout({ ...deps, gateway })(actor, pack.reference, { email: 'ada@example.com' });
    expect(E.isRight(r) && r.right.checkout).to.deep.equal(kept);
  });

  it('a gateway that fails with nothing kept is PaymentGatewayUnavailable; the pack keeps no checkout', async () => {
    const { uow, deps, actor, pack } = await setup();
    const gateway: PaymentGateway = { name: 'paystack', initialize: async () => Promise.reject(new GatewayUnavailable('down')), verify: async () => expect.fail('not asked') };
    const r = await startLoanPackCheckout({ ...deps, gateway })(actor, pack.reference, { email: 'ada@example.com' });
    expect(r).to.deep.equal(E.left({ _tag: 'PaymentGatewayUnavailable', gateway: 'paystack' }));
    expect((await uow.read((x) => x.loanPacks.findByReference(actor.businessId, pack.reference)))!.checkout).to.equal(null);
  });

  it('any other error of the gateway is a fault, not a failure', async () => {
    const { deps, actor, pack } = await setup();
    const gateway: PaymentGateway = { name: 'paystack', initialize: async () => Promise.reject(new TypeError('bug')), verify: async () => expect.fail('not asked') };
    let thrown: unknown;
    await startLoanPackCheckout({ ...deps, gateway })(actor, pack.reference, { email: 'ada@example.com' }).catch((e: unknown) => (thrown = e));
    expect(thrown).to.be.instanceOf(TypeError);
  });
});
