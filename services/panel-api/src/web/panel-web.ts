import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip as gzipCallback } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where the operator UI is served. The Vite build uses the same base. */
export const PANEL_WEB_PREFIX = '/admin/';

/**
 * The placeholder Vite writes into index.html for `html.cspNonce` (apps/panel-web/vite.config.ts):
 * each page load replaces it with a fresh nonce, so emotion's <style> tags pass a strict CSP.
 */
export const PANEL_WEB_NONCE_PLACEHOLDER = '__TG_CSP_NONCE__';

/**
 * Strict CSP for the UI: scripts only from this origin (the build has no inline script), styles
 * from this origin or carrying the page's nonce (MUI/emotion injects <style> tags); style
 * attributes stay allowed because charts set them and they cannot run code. Images allow data:
 * for the 2FA QR code, which the API sends as a data URL.
 */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src-elem 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

/**
 * The built UI: PANEL_WEB_DIR if set, else the dist of the @transfergate/panel-web workspace
 * package, found through module resolution so it works from src (tests) and dist (npm start) alike.
 */
export function resolvePanelWebDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PANEL_WEB_DIR) return resolve(env.PANEL_WEB_DIR);
  try {
    const manifest = createRequire(import.meta.url).resolve('@transfergate/panel-web/package.json');
    return join(dirname(manifest), 'dist');
  } catch {
    // Not installed as a workspace (a copied service): the repository layout is the fallback.
    return resolve(dirname(fileURLToPath(import.meta.url)), '../../../../apps/panel-web/dist');
  }
}

/**
 * Serves the operator UI under /admin/ on the given Fastify instance (the all-in-one app and a
 * distributed panel-api process both call this before the app initialises). A missing build is
 * not a crash: /admin/ then answers 503 saying how to build it.
 */
export async function registerPanelWeb(fastify: FastifyInstance, options: { dir?: string } = {}): Promise<void> {
  const dir = options.dir ?? resolvePanelWebDir();
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) {
    const unavailable = (_request: unknown, reply: FastifyReply) =>
      reply
        .code(503)
        .headers({ ...COMMON_HEADERS, 'cache-control': 'no-store' })
        .type('application/json; charset=utf-8')
        .send({
          success: false,
          errorCode: 'panel_web_not_built',
          message: `the panel web UI is not built (no ${indexPath}); run \`npm run build\` or set PANEL_WEB_DIR`,
        });
    fastify.get('/admin', unavailable);
    fastify.get('/admin/*', unavailable);
    return;
  }
  // Read once: the build does not change under a running process.
  const indexHtml = readFileSync(indexPath, 'utf8');
  const sendIndex = (_request: unknown, reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .headers({
        ...COMMON_HEADERS,
        'content-security-policy': contentSecurityPolicy(nonce),
        'cache-control': 'no-store',
      })
      .type('text/html; charset=utf-8')
      .send(indexHtml.replaceAll(PANEL_WEB_NONCE_PLACEHOLDER, nonce));
  };
  fastify.get('/admin', (_request, reply) => reply.redirect(PANEL_WEB_PREFIX, 301));
  fastify.get(PANEL_WEB_PREFIX, sendIndex);
  fastify.get(`${PANEL_WEB_PREFIX}index.html`, sendIndex);
  const assets = listAssets(join(dir, 'assets'));
  fastify.get(`${PANEL_WEB_PREFIX}assets/:name`, (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return reply.code(404).headers(COMMON_HEADERS).type('text/plain; charset=utf-8').send('not found');
    if (asset.compressible && !asset.compressing) compressInBackground(asset);
    const encoding = chooseEncoding(request.headers['accept-encoding'], asset);
    return reply
      .headers({
        ...COMMON_HEADERS,
        'cache-control': 'public, max-age=31536000, immutable',
        ...(asset.compressible ? { vary: 'accept-encoding' } : {}),
        ...(encoding ? { 'content-encoding': encoding } : {}),
      })
      .type(asset.contentType)
      .send(encoding ? asset[encoding] : asset.body);
  });
}

/** Content types of what a Vite build emits; anything else in assets/ is not served. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
interface Asset {
  contentType: string;
  body: Buffer;
  /** Worth compressing: answers vary by Accept-Encoding (also while the copies are being made). */
  compressible?: true;
  /** Set once the copies are read from the build or being made: they are made at most once. */
  compressing?: true;
  /** Brotli and gzip copies; absent until made and when they would not be smaller. */
  br?: Buffer;
  gzip?: Buffer;
}

/** Text assets are worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;
/** Below this, a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/**
 * The build writes `<asset>.br` and `<asset>.gz` beside each text asset (apps/panel-web/build/
 * precompress.ts), read here with the asset, so a request costs no CPU: the 1.6 MB bundle goes out
 * as about a quarter of that. A build without them (PANEL_WEB_DIR made elsewhere) has them made
 * when the asset is first asked for, on libuv's thread pool, and sent as it is until then: brotli
 * at its highest quality takes seconds of CPU and tens of MB of working memory, which a start
 * (and a process nobody opens the panel in) should not pay.
 */
function readAsset(path: string, contentType: string): Asset {
  const body = readFileSync(path);
  if (!COMPRESSIBLE.test(contentType) || body.length < MIN_COMPRESS_BYTES) return { contentType, body };
  const asset: Asset = { contentType, body, compressible: true };
  const br = readCopy(`${path}.br`);
  const gzipped = readCopy(`${path}.gz`);
  if (br || gzipped) {
    asset.compressing = true;
    if (br && br.length < body.length) asset.br = br;
    if (gzipped && gzipped.length < body.length) asset.gzip = gzipped;
  }
  return asset;
}

function readCopy(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined;
}

function compressInBackground(asset: Asset): void {
  asset.compressing = true;
  const { body } = asset;
  void Promise.all([
    brotli(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: 9 }),
  ]).then(
    ([br, gzipped]) => {
      if (br.length < body.length) asset.br = br;
      if (gzipped.length < body.length) asset.gzip = gzipped;
    },
    // A copy that could not be made leaves the asset served as it is.
    () => undefined,
  );
}

/** Brotli when the client takes it, else gzip, else none (`q=0` refuses an encoding). */
function chooseEncoding(header: string | string[] | undefined, asset: Asset): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (asset.br && ok('br')) return 'br';
  if (asset.gzip && ok('gzip')) return 'gzip';
  return null;
}

/** A build is a few files of at most a few MB; more means a wrong directory. */
const MAX_ASSETS = 200;

/**
 * The hashed build assets, read into memory once. Served by exact file name from this map, so no
 * request path ever reaches the file system (no traversal to guard against). Not @fastify/static:
 * its current major pulls an ESM-only dependency through require(), which jest's ESM runtime
 * (every app test) cannot load.
 */
function listAssets(assetsDir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(assetsDir)) return assets;
  for (const name of readdirSync(assetsDir)) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (!contentType || !statSync(join(assetsDir, name)).isFile()) continue;
    assets.set(name, readAsset(join(assetsDir, name), contentType));
    if (assets.size > MAX_ASSETS) throw new RangeError(`more than ${MAX_ASSETS} files in ${assetsDir}`);
  }
  return assets;
}
