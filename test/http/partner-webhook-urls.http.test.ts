import { expect } from 'chai';
import { aPartner, asPartner } from '../support/partners.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('HTTP partner webhooks: URLs (https only, no private or loopback address)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => (app = await createTestApp({ persistence: 'memory' })));
  after(async () => app.close());

  it('422 WEBHOOK_URL_NOT_ALLOWED for http, loopback, private, link-local and localhost; an https public host is taken', async () => {
    const p = await aPartner(app);
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://192.168.0.5/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://localhost/x', 'https://user:pw@hooks.example.com/']) {
      const res = await asPartner(app, p.key, 'POST', '/partner/webhooks', { url, events: ['sale.created'] });
      expect(res.status, url).to.equal(422);
      expect(res.body.error.code).to.equal('WEBHOOK_URL_NOT_ALLOWED');
      expect(res.body.error.errors[0].field).to.equal('url');
    }
    expect((await asPartner(app, p.key, 'POST', '/partner/webhooks', { url: 'https://hooks.example.com/bizops', events: ['sale.created'] })).status).to.equal(201);
  });
});
