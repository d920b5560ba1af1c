import { expect } from 'chai';
import { DEFAULT_EXPENSE_CATEGORIES } from '../../domain/expense.js';
import { aPartner, asPartner } from '../support/partners.js';
import { createTestApp, registerOwner, type TestApp } from '../support/test-app.js';

// Issue 32: every list answers the spec's page object (2.2), including the three that answered a bare
// array: expense categories, partner API keys and partner webhook endpoints (docs/adr/0047).

type Page = { content: { id: string }[]; cursor: string | null; has_next: boolean; limit: number };

describe('HTTP lists that were bare arrays answer the page object and page by cursor', () => {
  let app: TestApp;
  before(async () => (app = await createTestApp()));
  after(async () => app.close());

  /** Every id of a list, 2 a page, checking each page's shape. */
  const walk = async (get: (query: string) => Promise<{ status: number; text: string; body: { data: Page } }>, query = '') => {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`?limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, res.text).to.equal(200);
      expect(Object.keys(res.body.data).sort()).to.deep.equal(['content', 'cursor', 'has_next', 'limit']);
      expect(res.body.data.limit).to.equal(2);
      expect(res.body.data.content.length).to.be.at.most(2);
      expect(res.body.data.has_next).to.equal(res.body.data.cursor !== null);
      ids.push(...res.body.data.content.map((x) => x.id));
      cursor = res.body.data.cursor;
      pages += 1;
    } while (cursor);
    expect(pages).to.be.greaterThan(1);
    expect(new Set(ids).size, 'no row twice').to.equal(ids.length);
    return ids;
  };

  it('GET /expenses/categories: a page, newest first by default, sort_by=name, search; bad parameters 400', async () => {
    const owner = await registerOwner(app);
    const get = (path: string) => app.request('GET', path, { token: owner.accessToken });
    app.clock.advance(1000);
    const mine = (await app.request('POST', '/expenses/categories', { token: owner.accessToken, body: { name: 'Night security' } })).body.data.id as string;
    const first = await get('/expenses/categories');
    expect(first.status, first.text).to.equal(200);
    expect(first.body.data).to.include({ limit: 20 });
    expect(first.body.data.content[0].id, 'newest first').to.equal(mine);
    const all = await walk((q) => get(`/expenses/categories${q}`));
    expect(all).to.have.length(DEFAULT_EXPENSE_CATEGORIES.length + 1);
    const byName = await walk((q) => get(`/expenses/categories${q}`), '&sort_by=name&sort_dir=asc');
    expect(byName.sort()).to.deep.equal([...all].sort());
    expect((await get('/expenses/categories?search=SECUR')).body.data.content.map((c: { id: string }) => c.id)).to.deep.equal([mine]);
    const cursor = (await get('/expenses/categories?limit=2')).body.data.cursor as string;
    for (const bad of ['sort_by=spent_on', 'limit=101', 'colour=red', `sort_by=name&cursor=${cursor}`, `limit=2&cursor=${cursor.slice(0, -2)}xx`]) {
      const res = await get(`/expenses/categories?${bad}`);
      expect(res.status, bad).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_FAILED');
    }
    // a cursor of another list is refused
    expect((await get(`/expenses?cursor=${cursor}`)).status).to.equal(400);
  });

  it('GET /partner/api-keys and GET /partner/webhooks: pages, newest first; only the partner\'s own', async () => {
    const a = await aPartner(app);
    const b = await aPartner(app, 'Other Partner');
    const keys = [a.keyId];
    const hooks: string[] = [];
    for (let i = 0; i < 4; i++) {
      app.clock.advance(1000);
      keys.push((await asPartner(app, a.key, 'POST', '/partner/api-keys', { name: `key ${i}`, scopes: ['merchants:read'] })).body.data.id);
      hooks.push((await asPartner(app, a.key, 'POST', '/partner/webhooks', { url: `https://hooks.example.com/${i}`, events: ['sale.created'] })).body.data.id);
    }
    await asPartner(app, b.key, 'POST', '/partner/webhooks', { url: 'https://hooks.example.com/b', events: ['sale.created'] });
    expect(await walk((q) => asPartner(app, a.key, 'GET', `/partner/api-keys${q}`))).to.deep.equal([...keys].reverse());
    expect(await walk((q) => asPartner(app, a.key, 'GET', `/partner/webhooks${q}`))).to.deep.equal([...hooks].reverse());
    expect((await asPartner(app, b.key, 'GET', '/partner/api-keys')).body.data.content.map((k: { id: string }) => k.id)).to.deep.equal([b.keyId]);
    expect((await asPartner(app, a.key, 'GET', '/partner/webhooks?search=example.com/2')).body.data.content.map((h: { id: string }) => h.id)).to.deep.equal([hooks[2]]);
    expect((await asPartner(app, a.key, 'GET', '/partner/api-keys?sort_by=name')).status).to.equal(400);
  });

  it('the OpenAPI document gives the three lists the page object and the list parameters', async () => {
    const doc = (await app.request('GET', '/api/v1/api-docs')).body;
    for (const [path, page] of [['/expenses/categories', 'ExpenseCategoryPage'], ['/partner/api-keys', 'PartnerApiKeyPage'], ['/partner/webhooks', 'WebhookEndpointPage']] as const) {
      const op = doc.paths[path].get;
      expect(JSON.stringify(op.responses['200']), path).to.contain(`#/components/schemas/${page}`);
      expect(doc.components.schemas[page].required, page).to.deep.equal(['content', 'cursor', 'has_next', 'limit']);
      expect(op.parameters.map((p: { name: string }) => p.name), path).to.include.members(['cursor', 'limit', 'sort_by', 'sort_dir', 'start_date', 'end_date', 'search']);
    }
  });

  it('GET /sync/changes keeps its change-feed shape, and its description says why it is not the page object', async () => {
    const doc = (await app.request('GET', '/api/v1/api-docs')).body;
    const op = doc.paths['/sync/changes'].get;
    expect(op.description).to.contain('Not the page object of the lists').and.contain('change feed').and.contain('position in the feed');
    expect(doc.components.schemas.SyncChangesPage.required).to.deep.equal(['changes', 'cursor', 'has_more']);
  });
});
