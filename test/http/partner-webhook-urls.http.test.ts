import { expect } from 'chai';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { REFUSED_ADDRESS_ERROR } from '../../adapters/webhooks/http-poster.js';
import { aPartner, asPartner } from '../support/partners.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The IPv4-mapped and other spellings of internal addresses the URL parser rewrites (issue 31). */
const MAPPED = [
  'https://[::ffff:127.0.0.1]:18250/a',
  'https://[0:0:0:0:0:ffff:127.0.0.1]:18250/a',
  'https://[::ffff:169.254.169.254]/latest/meta-data',
  'https://[::ffff:10.0.0.1]/a',
  'https://[::FFFF:7F00:1]/a',
  'https://[64:ff9b::a9fe:a9fe]/a',
  'https://2130706433/a',
  'https://0x7f.1/a',
];

describe('HTTP partner webhooks: URLs (https only, no private or loopback address)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => (app = await createTestApp({ persistence: 'memory' })));
  after(async () => app.close());

  const refused = (res: { status: number; body: { error: { code: string; errors: { field: string }[] } } }, url: string) => {
    expect(res.status, url).to.equal(422);
    expect(res.body.error.code, url).to.equal('WEBHOOK_URL_NOT_ALLOWED');
    expect(res.body.error.errors[0]!.field).to.equal('url');
  };

  it('422 WEBHOOK_URL_NOT_ALLOWED for http, loopback, private, link-local and localhost; an https public host is taken', async () => {
    const p = await aPartner(app);
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://192.168.0.5/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://localhost/x', 'https://user:pw@hooks.example.com/']) {
      refused(await asPartner(app, p.key, 'POST', '/partner/webhooks', { url, events: ['sale.created'] }), url);
    }
    expect((await asPartner(app, p.key, 'POST', '/partner/webhooks', { url: 'https://hooks.example.com/bizops', events: ['sale.created'] })).status).to.equal(201);
  });

  it('create and update (PUT) answer 422 WEBHOOK_URL_NOT_ALLOWED for IPv4-mapped, long-form, NAT64 and integer spellings of internal addresses; nothing is stored', async () => {
    const p = await aPartner(app);
    const hook = (await asPartner(app, p.key, 'POST', '/partner/webhooks', { url: 'https://hooks.example.com/ok', events: ['sale.created'] })).body.data as { id: string };
    for (const url of MAPPED) {
      refused(await asPartner(app, p.key, 'POST', '/partner/webhooks', { url, events: ['sale.created'] }), `POST ${url}`);
      refused(await asPartner(app, p.key, 'PUT', `/partner/webhooks/${hook.id}`, { url }), `PUT ${url}`);
    }
    const list = await asPartner(app, p.key, 'GET', '/partner/webhooks');
    expect(list.body.data.content.map((e: { url: string }) => e.url)).to.deep.equal(['https://hooks.example.com/ok']);
  });
});

describe('HTTP partner webhooks: a stored URL to an internal address is refused at send, the same whatever the port', function () {
  this.timeout(60_000);
  let lax: TestApp;
  let strict: TestApp;
  let listener: Server;
  let connections = 0;
  before(async () => {
    // Endpoints stored before the check knew these spellings (or while WEBHOOKS_ALLOW_PRIVATE was on), sent by a server without it.
    lax = await createTestApp({ persistence: 'memory', env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    strict = await createTestApp({ persistence: lax.persistence });
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await strict.close();
    await lax.close();
  });

  it('POST .../test to an open and a closed loopback port (IPv4-mapped) gives one last_error, and nothing connects (no port scanner)', async () => {
    const p = await aPartner(lax);
    const open = (listener.address() as AddressInfo).port;
    const closing = createServer();
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const closed = (closing.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    const errors: (string | null)[] = [];
    for (const port of [open, closed]) {
      const made = await asPartner(lax, p.key, 'POST', '/partner/webhooks', { url: `https://[::ffff:127.0.0.1]:${port}/a`, events: ['sale.created'] });
      expect(made.status, made.text).to.equal(201);
      const sent = await asPartner(strict, p.key, 'POST', `/partner/webhooks/${made.body.data.id}/test`);
      expect(sent.status, sent.text).to.equal(200);
      expect(sent.body.data).to.include({ response_code: null });
      errors.push(sent.body.data.last_error);
      const endpoint = await asPartner(strict, p.key, 'GET', `/partner/webhooks/${made.body.data.id}`);
      expect(endpoint.body.data).to.include({ status: 'FAILING', last_error: REFUSED_ADDRESS_ERROR });
    }
    expect(errors).to.deep.equal([REFUSED_ADDRESS_ERROR, REFUSED_ADDRESS_ERROR]);
    expect(connections, 'connections to the loopback listener').to.equal(0);
  });
});
