import { expect } from 'chai';
import { isInternalAddress, webhookUrlRefusal } from '../../../adapters/webhooks/url-policy.js';
import { afterAttempt, retryDelayMs, type WebhookEndpoint } from '../../../domain/webhook.js';

describe('webhook URL policy and endpoint health', () => {
  it('internal addresses: loopback, private, link-local, CGNAT, multicast, unspecified, IPv6 local and mapped', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '[::1]']) {
      expect(isInternalAddress(ip), ip).to.equal(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', 'hooks.example.com']) expect(isInternalAddress(ip), ip).to.equal(false);
  });

  it('https only and no internal host, unless private addresses are allowed (tests), which also allows http', () => {
    const strict = webhookUrlRefusal(false);
    expect(strict('https://hooks.example.com/x')).to.equal(undefined);
    expect(strict('http://hooks.example.com/x')).to.equal('must be an https URL');
    expect(strict('https://127.0.0.1:8443/x')).to.match(/private or loopback/);
    expect(strict('https://api.localhost/x')).to.match(/private or loopback/);
    expect(strict('https://u:p@hooks.example.com/')).to.match(/user name or password/);
    expect(strict('ftp://hooks.example.com/')).to.equal('must be an https URL');
    const lax = webhookUrlRefusal(true);
    expect(lax('http://127.0.0.1:9000/hooks')).to.equal(undefined);
  });

  it('retries back off from a minute, doubling, at most 6 hours; failures make an endpoint FAILING, then DISABLED after a day; a success heals it', () => {
    expect([1, 2, 3, 4, 10, 50].map(retryDelayMs)).to.deep.equal([60_000, 120_000, 240_000, 480_000, 6 * 3_600_000, 6 * 3_600_000]);
    const t0 = new Date('2026-11-21T12:00:00.000Z');
    const e = { status: 'ACTIVE', failingSince: null, lastError: null } as unknown as WebhookEndpoint;
    const failing = afterAttempt(e, false, 'the receiver answered 500', t0);
    expect(failing).to.include({ status: 'FAILING', lastError: 'the receiver answered 500' });
    expect(afterAttempt(failing, false, 'timed out', new Date(t0.getTime() + 23 * 3_600_000)).status).to.equal('FAILING');
    expect(afterAttempt(failing, false, 'timed out', new Date(t0.getTime() + 24 * 3_600_000)).status).to.equal('DISABLED');
    expect(afterAttempt(failing, true, null, t0)).to.include({ status: 'ACTIVE', failingSince: null, lastError: null });
  });
});
