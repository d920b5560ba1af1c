import { expect } from 'chai';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { httpWebhookPoster, REFUSED_ADDRESS_ERROR, type ResolveHost } from '../../../adapters/webhooks/http-poster.js';

// The webhook poster decides on the address it connects to (docs/adr/0037): every resolved address is
// checked, and the connection goes to those addresses, never to a second DNS answer.

/** A loopback TCP listener that records every connection and its first bytes (a TLS ClientHello names the host in clear). */
const listener = async () => {
  const connections: Buffer[] = [];
  const server: Server = createTcpServer((socket) => {
    const index = connections.push(Buffer.alloc(0)) - 1;
    socket.on('data', (d: Buffer) => {
      connections[index] = Buffer.concat([connections[index]!, d]);
      socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

/** A port nothing listens on (taken, then let go). */
const closedPort = async () => {
  const l = await listener();
  await l.close();
  return l.port;
};

/** A resolver from a fixed table, counting its calls (no DNS in tests). */
const table = (entries: Record<string, string[]>) => {
  const calls: string[] = [];
  const resolve: ResolveHost = async (host) => {
    calls.push(host);
    return (entries[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
};

const HEADERS = { 'content-type': 'application/json' };

describe('webhook poster: the address it connects to', function () {
  this.timeout(20_000);

  it('a host name resolving to a private address is refused at send, and nothing connects', async () => {
    const l = await listener();
    try {
      for (const addresses of [['127.0.0.1'], ['::ffff:7f00:1'], ['93.184.216.34', '10.0.0.7'], ['169.254.169.254'], ['fd00::1']]) {
        const dns = table({ 'hooks.partner.test': addresses });
        const poster = httpWebhookPoster({ timeoutMs: 2_000, allowPrivate: false, resolve: dns.resolve });
        const out = await poster.post(`https://hooks.partner.test:${l.port}/a`, HEADERS, '{}');
        expect(out, addresses.join(',')).to.deep.include({ status: null, error: REFUSED_ADDRESS_ERROR });
        expect(dns.calls).to.deep.equal(['hooks.partner.test']);
      }
      expect(l.connections).to.have.length(0);
    } finally {
      await l.close();
    }
  });

  it('an internal address in any spelling is refused at send with one error, whatever the port (no port scanner)', async () => {
    const open = await listener();
    const closed = await closedPort();
    try {
      const poster = httpWebhookPoster({ timeoutMs: 2_000, allowPrivate: false, resolve: table({}).resolve });
      const errors = new Set<string | null>();
      for (const host of ['[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]', '127.0.0.1', '2130706433', '0x7f.1', 'localhost', '[::1]']) {
        for (const port of [open.port, closed]) {
          const out = await poster.post(`https://${host}:${port}/a`, HEADERS, '{}');
          expect(out.status, host).to.equal(null);
          errors.add(out.error);
        }
      }
      expect([...errors]).to.deep.equal([REFUSED_ADDRESS_ERROR]);
      expect(open.connections, 'connections to the listener').to.have.length(0);
    } finally {
      await open.close();
    }
  });

  it('connects to the address the resolver answered (resolved once), with the host name in Host and in TLS SNI', async () => {
    const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const tls = await listener();
    try {
      const port = (receiver.address() as AddressInfo).port;
      // Allowed to reach loopback (tests), so the checked address can be a local receiver; the name is in no DNS.
      const dns = table({ 'hooks.partner.test': ['127.0.0.1'] });
      const poster = httpWebhookPoster({ timeoutMs: 2_000, allowPrivate: true, resolve: dns.resolve });
      const out = await poster.post(`http://hooks.partner.test:${port}/a`, HEADERS, '{"x":1}');
      expect(out).to.deep.include({ status: 204, error: null });
      expect(dns.calls).to.deep.equal(['hooks.partner.test']);
      expect(seen).to.have.length(1);
      expect(seen[0]!.headers.host).to.equal(`hooks.partner.test:${port}`);
      expect(seen[0]!.body).to.equal('{"x":1}');
      // https: the ClientHello reaches the resolved address and names the host (SNI), so the certificate is checked against it.
      const tlsOut = await poster.post(`https://hooks.partner.test:${tls.port}/a`, HEADERS, '{}');
      expect(tlsOut.status).to.equal(null);
      expect(tls.connections).to.have.length(1);
      expect(tls.connections[0]!.includes(Buffer.from('hooks.partner.test'))).to.equal(true);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await tls.close();
    }
  });

  it('the deadline covers the name\'s resolution; a name that resolves to nothing fails clearly', async () => {
    const hanging: ResolveHost = () => new Promise(() => undefined);
    const slow = await httpWebhookPoster({ timeoutMs: 200, allowPrivate: false, resolve: hanging }).post('https://hooks.partner.test/a', HEADERS, '{}');
    expect(slow).to.deep.include({ status: null, error: 'timed out' });
    expect(slow.durationMs).to.be.below(1_500);
    const none = await httpWebhookPoster({ timeoutMs: 2_000, allowPrivate: false, resolve: table({}).resolve }).post('https://hooks.partner.test/a', HEADERS, '{}');
    expect(none).to.deep.include({ status: null, error: 'the host name does not resolve' });
  });
});
