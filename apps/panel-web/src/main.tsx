import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { syncDocumentLanguage } from './i18n/current-locale';

/**
 * The server puts a fresh nonce into <meta property="csp-nonce"> of every page (Vite's
 * html.cspNonce); emotion stamps it on the <style> tags it injects, so the CSP needs no
 * 'unsafe-inline' for style elements.
 */
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
const emotionCache = createCache({ key: 'tg', ...(nonce ? { nonce } : {}) });

syncDocumentLanguage();
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <CacheProvider value={emotionCache}>
      <App />
    </CacheProvider>
  </StrictMode>,
);
