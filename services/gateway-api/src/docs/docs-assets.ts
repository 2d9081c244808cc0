import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The browsable API reference: Swagger UI from the `swagger-ui-dist` package, every file served by
 * our own routes (no CDN: the gateway may run without internet). Only the files named here are
 * served; a request for anything else is a 404, so no path can reach outside this list.
 */

export interface DocsAsset {
  contentType: string;
  body: () => Buffer;
}

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

function packageFile(name: string): () => Buffer {
  let cached: Buffer | undefined;
  return () => (cached ??= readFileSync(join(SWAGGER_UI_DIR, name)));
}

/** Starts Swagger UI on the element that names the document URL; no inline script (CSP `script-src 'self'`). */
const INIT_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
  });
});
`;

const STYLE = `body { margin: 0; background: #fafafa; }
.docs-header { padding: 12px 20px; background: #1b1f24; color: #fff; font: 600 16px/1.4 sans-serif; }
.docs-header a { color: #9ecbff; margin-left: 16px; font-weight: 400; }
`;

export const DOCS_ASSETS: Readonly<Record<string, DocsAsset>> = Object.freeze({
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', body: packageFile('swagger-ui.css') },
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', body: packageFile('swagger-ui-bundle.js') },
  'favicon-32x32.png': { contentType: 'image/png', body: packageFile('favicon-32x32.png') },
  'favicon-16x16.png': { contentType: 'image/png', body: packageFile('favicon-16x16.png') },
  'docs-init.js': { contentType: 'text/javascript; charset=utf-8', body: () => Buffer.from(INIT_SCRIPT) },
  'docs.css': { contentType: 'text/css; charset=utf-8', body: () => Buffer.from(STYLE) },
});

export function docsAsset(name: string): DocsAsset | undefined {
  return Object.hasOwn(DOCS_ASSETS, name) ? DOCS_ASSETS[name] : undefined;
}

/** The page; `prefix` is '' or '/api' so every link stays under the prefix the page was asked with. */
export function docsPage(prefix: string): string {
  const asset = (name: string) => `${prefix}/docs/assets/${name}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>transfergate gateway API</title>
    <link rel="icon" type="image/png" sizes="32x32" href="${asset('favicon-32x32.png')}" />
    <link rel="icon" type="image/png" sizes="16x16" href="${asset('favicon-16x16.png')}" />
    <link rel="stylesheet" href="${asset('swagger-ui.css')}" />
    <link rel="stylesheet" href="${asset('docs.css')}" />
  </head>
  <body>
    <div class="docs-header">transfergate gateway API<a href="${prefix}/openapi.json">openapi.json</a></div>
    <div id="swagger-ui" data-spec-url="${prefix}/openapi.json"></div>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script src="${asset('docs-init.js')}"></script>
  </body>
</html>
`;
}

/** The page loads only from this server. Swagger UI sets inline styles, hence 'unsafe-inline' for styles. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
