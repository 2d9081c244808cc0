import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { PANEL_WEB_NONCE_PLACEHOLDER } from '@transfergate/panel-api';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Serving the built UI under /admin/ (no browser): a stand-in build in a temp dir, the missing-build
 * answer, and that only files of the build's assets/ directory are ever served.
 */
/** A bundle-like text asset: large and repetitive, as minified JavaScript is. */
const BIG_JS = Array.from({ length: 2000 }, (_, i) => `export const value${i} = () => "item-${i % 17}";`).join('\n');

/** The build's copies: distinct bytes from what the server would make, so the test knows whose it got. */
const BUILT_BR = brotliCompressSync(BIG_JS);
const BUILT_GZ = gzipSync(BIG_JS, { level: 1 });

/** Raw bytes and headers, without fetch's transparent decompression. */
function rawGet(url: string, acceptEncoding: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((done, fail) => {
    const req = request(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('panel web serving', () => {
  const previous = process.env.PANEL_WEB_DIR;
  afterAll(() => {
    if (previous === undefined) delete process.env.PANEL_WEB_DIR;
    else process.env.PANEL_WEB_DIR = previous;
  });

  describe('without a build', () => {
    let app: TestApp;
    beforeAll(async () => {
      process.env.PANEL_WEB_DIR = join(tmpdir(), 'tg-no-such-panel-build');
      app = await startTestApp('pglite');
    });
    afterAll(async () => {
      await app?.stop();
    });

    it('answers 503 with how to build it, and the API still works', async () => {
      for (const path of ['/admin/', '/admin', '/admin/assets/index.js']) {
        const res = await fetch(`${app.baseUrl}${path}`);
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ success: false, errorCode: 'panel_web_not_built' });
      }
      expect((await fetch(`${app.baseUrl}/api/auth/me`)).status).toBe(401);
    });
  });

  describe('with a build', () => {
    let app: TestApp;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tg-panel-build-'));
      mkdirSync(join(dir, 'assets'));
      writeFileSync(
        join(dir, 'index.html'),
        `<html><head><meta property="csp-nonce" nonce="${PANEL_WEB_NONCE_PLACEHOLDER}"></head></html>`,
      );
      writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("ui")');
      writeFileSync(join(dir, 'assets', 'notes.txt'), 'not an asset type');
      writeFileSync(join(dir, 'assets', 'vendor-def456.js'), BIG_JS);
      // As the real build writes them (apps/panel-web/build/precompress.ts).
      writeFileSync(join(dir, 'assets', 'built-789abc.js'), BIG_JS);
      writeFileSync(join(dir, 'assets', 'built-789abc.js.br'), BUILT_BR);
      writeFileSync(join(dir, 'assets', 'built-789abc.js.gz'), BUILT_GZ);
      writeFileSync(join(dir, 'secret.js'), 'outside assets');
      process.env.PANEL_WEB_DIR = dir;
      app = await startTestApp('pglite');
    });
    afterAll(async () => {
      await app?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves index.html with a fresh nonce in the page and the CSP on every load', async () => {
      const nonces = new Set<string>();
      for (let i = 0; i < 3; i += 1) {
        const res = await fetch(`${app.baseUrl}/admin/`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/html');
        expect(res.headers.get('cache-control')).toBe('no-store');
        const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
        expect(nonce).toBeTruthy();
        const html = await res.text();
        expect(html).toContain(`nonce="${nonce}"`);
        expect(html).not.toContain(PANEL_WEB_NONCE_PLACEHOLDER);
        nonces.add(nonce!);
      }
      expect(nonces.size).toBe(3);
    });

    it('serves the hashed assets as immutable and nothing else', async () => {
      const asset = await fetch(`${app.baseUrl}/admin/assets/index-abc123.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('text/javascript');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect(await asset.text()).toBe('console.log("ui")');
      expect(asset.headers.get('content-encoding')).toBeNull(); // too small to be worth it
      for (const path of [
        '/admin/assets/notes.txt',
        '/admin/assets/missing.js',
        '/admin/assets/..%2fsecret.js',
        '/admin/assets/%2e%2e%2fsecret.js',
        '/admin/secret.js',
      ]) {
        expect({ path, status: (await fetch(`${app.baseUrl}${path}`)).status }).toEqual({ path, status: 404 });
      }
    });

    it('serves text assets compressed: brotli when accepted, else gzip, else as is', async () => {
      const url = `${app.baseUrl}/admin/assets/vendor-def456.js`;
      // Without copies from the build, they are made on the thread pool once the asset is first
      // asked for, not at the start: until then, as is.
      let br = await rawGet(url, 'gzip, deflate, br');
      for (let i = 0; i < 150 && br.headers['content-encoding'] !== 'br'; i++) {
        expect(br.body.toString()).toBe(BIG_JS);
        await new Promise((resolve) => setTimeout(resolve, 100));
        br = await rawGet(url, 'gzip, deflate, br');
      }
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);
      expect(br.body.length / Buffer.byteLength(BIG_JS)).toBeLessThan(0.25);
      const gzip = await rawGet(url, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toBe(BIG_JS);
      const refused = await rawGet(url, 'br;q=0, gzip');
      expect(refused.headers['content-encoding']).toBe('gzip');
      const plain = await rawGet(url, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(BIG_JS);
    });

    it("sends the build's own compressed copies from the first request, and never serves them as assets", async () => {
      const url = `${app.baseUrl}/admin/assets/built-789abc.js`;
      const br = await rawGet(url, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(br.body.equals(BUILT_BR)).toBe(true);
      const gzip = await rawGet(url, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.body.equals(BUILT_GZ)).toBe(true);
      const plain = await rawGet(url, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(BIG_JS);
      expect((await rawGet(`${url}.br`, 'br')).status).toBe(404);
    });
  });
});
