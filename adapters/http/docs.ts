import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Middleware } from 'koa';
import { writeJson } from './json-values.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Business Operations API</title>
  <link rel="stylesheet" href="./swagger-ui.css">
  <link rel="stylesheet" href="./index.css">
  <link rel="icon" type="image/png" href="./favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="./swagger-ui-bundle.js" charset="utf-8"></script>
  <script src="./swagger-ui-standalone-preset.js" charset="utf-8"></script>
  <script src="./swagger-initializer.js" charset="utf-8"></script>
</body>
</html>
`;

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '../api-docs',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

/**
 * helmet's CSP (set earlier in the chain) minus `upgrade-insecure-requests`: with it a browser rewrites the
 * page's own assets to https, so over plain http on any host but localhost (a LAN address, a staging box
 * without TLS) the page stays blank. Every asset is relative, so it follows the page's scheme anyway.
 */
const withoutUpgrade = (csp: string) =>
  csp
    .split(';')
    .filter((d) => d.trim() !== '' && d.trim().toLowerCase() !== 'upgrade-insecure-requests')
    .join(';');

/**
 * GET {base}/api-docs (the OpenAPI JSON, not enveloped: tools read it as it is) and
 * GET {base}/swagger-ui/ (Swagger UI from the installed swagger-ui-dist, no CDN).
 */
export const docsMiddleware = (base: string, openApi: object): Middleware => {
  const json = writeJson(openApi);
  // The package's directory, found without loading its index: that evaluates the whole Swagger UI
  // bundle in Node (about 10 MB of heap kept for the life of the process) to export this path.
  const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === `${base}/api-docs`) {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = json;
      return;
    }
    if (ctx.path === `${base}/swagger-ui`) return ctx.redirect(`${base}/swagger-ui/`);
    if (!ctx.path.startsWith(`${base}/swagger-ui/`)) return next();
    const file = ctx.path.slice(`${base}/swagger-ui/`.length);
    if (file === '' || file === 'index.html') {
      ctx.type = 'text/html; charset=utf-8';
      const csp = ctx.response.get('Content-Security-Policy');
      if (csp) ctx.set('Content-Security-Policy', withoutUpgrade(csp));
      ctx.body = PAGE;
    } else if (file === 'swagger-initializer.js') {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.body = INITIALIZER;
    } else if (ASSETS[file]) {
      ctx.type = ASSETS[file];
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = createReadStream(join(assetsDir, file));
    } else {
      return next();
    }
  };
};
