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

  it('IPv6 forms that carry an internal IPv4 address (mapped hex and dotted, long form, mixed case, compatible, translated, NAT64, 6to4), and the IPv6 ranges outside the public internet', () => {
    const internal = [
      '::ffff:7f00:1', '::ffff:127.0.0.1', '0:0:0:0:0:ffff:127.0.0.1', '0000:0000:0000:0000:0000:FFFF:7F00:0001', '::FFFF:7f00:1', '[::ffff:7f00:1]',
      '::ffff:a9fe:a9fe', '::ffff:169.254.169.254', '::ffff:a00:1', '::ffff:10.0.0.1', '::ffff:c0a8:1', '::ffff:6440:1', '::ffff:0:0',
      '::7f00:1', '::127.0.0.1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '64:ff9b::169.254.169.254', '64:ff9b:1::808:808', '2002:7f00:1::', '2002:a9fe:a9fe::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', 'fc00::1', 'fdff:ffff::1', 'fe80::1', 'FE80::abcd', 'febf::1', 'fec0::1', 'ff02::1', 'ff05::1:3', '100::1',
      '2001:db8::1', '3fff::1', 'fe80::1%eth0',
    ];
    for (const ip of internal) expect(isInternalAddress(ip), ip).to.equal(true);
    for (const ip of ['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) expect(isInternalAddress(ip), ip).to.equal(false);
  });

  it('IPv4 broadcast, documentation, benchmarking and reserved ranges are internal too; their public neighbours are not', () => {
    for (const ip of ['255.255.255.255', '240.0.0.1', '192.0.0.8', '192.0.2.1', '198.18.0.1', '198.19.255.255', '198.51.100.7', '203.0.113.9', '192.88.99.1', '100.127.255.255', '0.1.2.3']) {
      expect(isInternalAddress(ip), ip).to.equal(true);
    }
    for (const ip of ['1.1.1.1', '198.20.0.1', '192.0.3.1', '100.63.255.255', '223.255.255.255', '172.15.255.255']) expect(isInternalAddress(ip), ip).to.equal(false);
  });

  it('every spelling of an internal address in a URL is refused: hex-mapped, long form, mixed case, and IPv4 as a decimal, octal or hex integer (the URL parser\'s rewrites)', () => {
    const strict = webhookUrlRefusal(false);
    for (const url of [
      'https://[::ffff:127.0.0.1]:18250/a', 'https://[::ffff:7f00:1]:18250/a', 'https://[0:0:0:0:0:ffff:127.0.0.1]/a', 'https://[::FFFF:7F00:1]/a',
      'https://[::ffff:169.254.169.254]/latest', 'https://[::ffff:10.0.0.1]/a', 'https://[64:ff9b::a9fe:a9fe]/a', 'https://[2002:7f00:1::]/a', 'https://[fe80::1]/a', 'https://[fd00::1]/a',
      'https://2130706433/', 'https://0x7f000001/', 'https://017700000001/', 'https://0x7f.1/', 'https://127.1/', 'https://0177.0.0.1/', 'https://0/', 'https://167772161/', 'https://0xa9.0xfe.0xa9.0xfe/',
      'https://127.0.0.1./', 'https://%31%32%37.0.0.1/', 'https://LOCALHOST/', 'https://localhost./', 'https://printer.local/', 'https://router.home.arpa/', 'https://metadata.google.internal/',
    ]) {
      expect(strict(url), url).to.equal('must not point at a private or loopback address');
    }
    for (const url of ['https://[2606:4700:4700::1111]/a', 'https://134744072/', 'https://hooks.example.com./x']) expect(strict(url), url).to.equal(undefined);
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
