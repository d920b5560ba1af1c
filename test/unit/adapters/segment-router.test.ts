import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { expect } from 'chai';
import Koa, { type Middleware } from 'koa';
import { segmentRouter } from '../../../adapters/http/segment-router.js';

type Method = 'get' | 'post' | 'put' | 'delete';
const table: { method: Method; path: string; operationId: string }[] = [
  { method: 'get', path: '/products/export', operationId: 'exportProducts' },
  { method: 'get', path: '/products/:id', operationId: 'getProduct' },
  { method: 'put', path: '/products/:id', operationId: 'updateProduct' },
  { method: 'get', path: '/products', operationId: 'listProducts' },
  { method: 'post', path: '/sales', operationId: 'recordSale' },
  { method: 'get', path: '/sales/:id/receipt', operationId: 'getReceipt' },
  { method: 'delete', path: '/staff/:id', operationId: 'removeStaff' },
];
const answer =
  (r: { operationId: string }): Middleware =>
  (ctx) => {
    ctx.body = { op: r.operationId, params: ctx.params };
  };

/** A Koa app whose routes are `routes` and `allowed`, answering what ran, the status and Allow. */
const serve = async (routes: Middleware, allowed: Middleware): Promise<{ server: Server; url: string }> => {
  const app = new Koa();
  app.use(routes);
  app.use(allowed);
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

describe('segmentRouter (one @koa/router per first path segment)', () => {
  let one: { server: Server; url: string };
  let split: { server: Server; url: string };
  const bySegment = segmentRouter('/api/v1', table, answer);
  before(async () => {
    const single = new Router({ prefix: '/api/v1' });
    for (const r of table) single[r.method](r.operationId, r.path, answer(r));
    one = await serve(single.routes() as Middleware, single.allowedMethods() as Middleware);
    split = await serve(bySegment.routes(), bySegment.allowedMethods());
  });
  after(() => {
    one.server.close();
    split.server.close();
  });

  const requests: [string, string][] = [
    ['GET', '/api/v1/products'],
    ['GET', '/api/v1/products/'],
    ['GET', '/api/v1/products/export'],
    ['GET', '/api/v1/products/3f1c'],
    ['PUT', '/api/v1/products/3f1c'],
    ['DELETE', '/api/v1/products/3f1c'],
    ['POST', '/api/v1/products'],
    ['GET', '/API/V1/Products/3f1c'],
    ['GET', '/api/v1/sales/9/receipt'],
    ['GET', '/api/v1/sales'],
    ['PROPFIND', '/api/v1/sales'],
    ['OPTIONS', '/api/v1/staff/7'],
    ['GET', '/api/v1/nothing-here'],
    ['GET', '/api/v1/'],
    ['GET', '/api/v1'],
    ['GET', '/api/v10/products'],
    ['GET', '/elsewhere/products'],
  ];

  it('answers every request as one router of all the routes would: route, params, status, Allow', async () => {
    for (const [method, path] of requests) {
      const [a, b] = await Promise.all([fetch(one.url + path, { method }), fetch(split.url + path, { method })]);
      const seen = async (res: Response) => ({ status: res.status, allow: res.headers.get('allow'), body: await res.text() });
      expect(await seen(b), `${method} ${path}`).to.deep.equal(await seen(a));
    }
  });

  it('takes a literal path registered before a parameter first, as the table orders them', async () => {
    const res = await fetch(`${split.url}/api/v1/products/export`);
    expect(await res.json()).to.deep.equal({ op: 'exportProducts', params: {} });
  });

  it('holds every route once and matches a path as its segment router does', () => {
    expect(bySegment.stack.map((l) => l.name)).to.have.members(table.map((r) => r.operationId));
    expect(bySegment.match('/api/v1/products/3f1c', 'PUT').pathAndMethod.map((l) => l.name)).to.deep.equal(['updateProduct']);
    expect(bySegment.match('/api/v1/unknown', 'GET')).to.deep.equal({ path: [], pathAndMethod: [], route: false });
  });
});
