import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress';

/**
 * Served by the app under /admin/ (services/panel-api/src/web/panel-web.ts). The nonce placeholder
 * is replaced per page load there, so the CSP can name it for emotion's <style> tags.
 */
export default defineConfig({
  base: '/admin/',
  plugins: [react(), precompress()],
  html: { cspNonce: '__TG_CSP_NONCE__' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2_000,
  },
  server: {
    // `vite` in dev: the API runs on the app's port.
    proxy: { '/api': 'http://127.0.0.1:3000', '/panel': 'http://127.0.0.1:3000' },
  },
});
