import { expect } from 'chai';
import pino from 'pino';
import { loadConfig } from '../../../bootstrap/config.js';
import { configError } from '../../support/config-error.js';
import { paymentGateway } from '../../../bootstrap/payments.js';

const clock = { now: () => new Date('2026-11-21T12:00:00Z') };
const silent = pino({ level: 'silent' });

describe('loan pack payments: chosen by configuration', () => {
  it('defaults: the sandbox gateway, 5,000 naira a pack, links on http://localhost:8080', async () => {
    const config = loadConfig({});
    expect(config).to.include({ LOAN_PACK_PRICE_NGN: 5000, PUBLIC_BASE_URL: 'http://localhost:8080', PAYSTACK_BASE_URL: 'https://api.paystack.co', PAYSTACK_TIMEOUT_MS: 10000 });
    const payments = paymentGateway(config, clock, silent, Buffer.alloc(32, 7));
    expect(payments.gateway.name).to.equal('sandbox');
    expect(payments.sandbox).to.not.equal(undefined);
    expect(payments.webhook.read(Buffer.from('{}'), 'anything')).to.deep.equal({ authentic: false });
    const checkout = await payments.gateway.initialize({ amount: 500_000 as never, email: 'ada@example.com', reference: 'LP-20261121-K7M2QX', callbackUrl: null });
    expect(checkout.authorizationUrl).to.equal(`http://localhost:8080/api/v1/sandbox/checkout/${checkout.accessCode}`);
  });

  it('Paystack when PAYSTACK_SECRET_KEY is set; no sandbox then', () => {
    const payments = paymentGateway(loadConfig({ PAYSTACK_SECRET_KEY: 'sk_test_abcdef0123456789' }), clock, silent, Buffer.alloc(32, 7));
    expect(payments.gateway.name).to.equal('paystack');
    expect(payments.sandbox).to.equal(undefined);
  });

  it('NODE_ENV=production without a Paystack key is refused, unless PAYMENTS_SANDBOX=true says the sandbox is meant', () => {
    expect(configError({ NODE_ENV: 'production' })).to.include('PAYSTACK_SECRET_KEY is not set').and.include('PAYMENTS_SANDBOX=true');
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'true' }).PAYMENTS_SANDBOX).to.equal(true);
    expect(loadConfig({ NODE_ENV: 'production', PAYSTACK_SECRET_KEY: 'sk_live_abcdef0123456789' }).PAYSTACK_SECRET_KEY).to.equal('sk_live_abcdef0123456789');
    expect(loadConfig({}).PAYMENTS_SANDBOX, 'development needs no say-so').to.equal(false);
  });

  it('refuses a key that is not a Paystack secret key (without printing it) and a price out of bounds', () => {
    const message = configError({ PAYSTACK_SECRET_KEY: 'pk_live_abcdef0123456789' });
    expect(message).to.include('PAYSTACK_SECRET_KEY=(hidden)').and.not.include('pk_live_abcdef');
    expect(configError({ LOAN_PACK_PRICE_NGN: '0' })).to.include('LOAN_PACK_PRICE_NGN');
    expect(configError({ LOAN_PACK_PRICE_NGN: '1000001' })).to.include('must be at most 1000000');
    expect(configError({ PUBLIC_BASE_URL: 'ftp://example.com' })).to.include('PUBLIC_BASE_URL');
    expect(loadConfig({ PORT: '8899' }).PUBLIC_BASE_URL, 'unset: this server on its port').to.equal('http://localhost:8899');
    expect(loadConfig({ PORT: '8899', PUBLIC_BASE_URL: 'https://api.bizops.ng' }).PUBLIC_BASE_URL).to.equal('https://api.bizops.ng');
  });
});
