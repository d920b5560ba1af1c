import Router from '@koa/router';
import type { Middleware } from 'koa';

type Layer = Router['stack'][number];

/**
 * The API's routes as one @koa/router per first path segment (`/products`, `/sales`, ...), and a
 * lookup of the segment that picks the router a request goes to.
 *
 * Why: a router tests every one of its routes' patterns on every request (and passes each test to
 * `debug`, which allocates even when off). With all 120 routes in one router that was ~16 KB and
 * ~30 µs a request; a segment holds at most 17. The order of routes inside a segment is kept, so a
 * literal path registered before a parameter (`/products/export` before `/products/:id`) still wins.
 */
export interface SegmentRouter<S> {
  /** Every route, as the routers hold them (for the OpenAPI checks). */
  readonly stack: readonly Layer[];
  /** The routes of `path` and `method`, as the router of its segment matches them. */
  match(path: string, method: string): ReturnType<Router['match']>;
  routes(): Middleware<S>;
  allowedMethods(): Middleware<S>;
}

interface Route {
  readonly method: 'get' | 'post' | 'put' | 'delete';
  readonly path: string;
  readonly operationId: string;
}

export const segmentRouter = <S, R extends Route>(prefix: string, routes: readonly R[], middlewareOf: (route: R) => Middleware<S>): SegmentRouter<S> => {
  const routers = new Map<string, Router<S>>();
  for (const r of routes) {
    const segment = r.path.split('/')[1]!.toLowerCase();
    let router = routers.get(segment);
    if (!router) routers.set(segment, (router = new Router<S>({ prefix })));
    router[r.method](r.operationId, r.path, middlewareOf(r));
  }
  const start = prefix.length + 1;
  // The routers match case-insensitively (@koa/router's default), so the segment is looked up so too.
  const routerOf = (path: string): Router<S> | undefined => {
    if (path.length <= start || path[start - 1] !== '/' || path.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return undefined;
    const end = path.indexOf('/', start);
    return routers.get(path.slice(start, end === -1 ? undefined : end).toLowerCase());
  };
  const dispatch = (pick: (router: Router<S>) => Middleware<S>): Middleware<S> => {
    const middleware = new Map([...routers.values()].map((router) => [router, pick(router)]));
    return (ctx, next) => {
      const router = routerOf(ctx.path);
      return router ? middleware.get(router)!(ctx, next) : next();
    };
  };
  return {
    stack: [...routers.values()].flatMap((router) => router.stack),
    match: (path, method) => routerOf(path)?.match(path, method) ?? { path: [], pathAndMethod: [], route: false },
    routes: () => dispatch((router) => router.routes() as Middleware<S>),
    allowedMethods: () => dispatch((router) => router.allowedMethods() as Middleware<S>),
  };
};
