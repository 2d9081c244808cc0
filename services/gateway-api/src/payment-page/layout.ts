import { CLIENT_SCRIPT } from './client-script.js';
import { html, trusted, type SafeHtml } from './html.js';
import type { Lang } from './language.js';
import type { Texts } from './i18n.js';
import { STYLES } from './styles.js';

export interface DocumentParts {
  lang: Lang;
  texts: Texts;
  /** Per-response CSP nonce for the inline style and script. */
  nonce: string;
  body: SafeHtml;
  /** The "do not share this link" line: only on a page the link really opens. */
  footer: boolean;
  /** Only pages that can still change carry the script. */
  withScript: boolean;
  /** Without JavaScript a waiting page reloads itself now and then instead of polling. */
  refreshSeconds?: number;
}

/**
 * The HTML document around every payment-page body: viewport for phones, the inline stylesheet,
 * the language switch, and the script. The switch is a query-only relative link ("?lang=en") so it
 * keeps the path and works behind any reverse-proxy prefix.
 */
export function renderDocument(parts: DocumentParts): string {
  const { lang, texts, nonce } = parts;
  const other: Lang = lang === 'tr' ? 'en' : 'tr';
  const refresh =
    parts.refreshSeconds === undefined
      ? ''
      : html`<noscript><meta http-equiv="refresh" content="${parts.refreshSeconds}" /></noscript>`;
  const doc = html`<!doctype html>
    <html lang="${lang}" class="nojs">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content="light" />
        <link rel="icon" href="data:," />
        <title>${texts.htmlTitle}</title>
        ${refresh}
        <style nonce="${nonce}">
          ${trusted(STYLES)}
        </style>
      </head>
      <body>
        <main>
          <header class="top">
            <h1>${texts.heading}</h1>
            <a class="lang" href="?lang=${other}" hreflang="${other}" lang="${other}">${texts.switchTo}</a>
          </header>
          ${parts.body} ${parts.footer && html`<footer>${texts.footer}</footer>`}
        </main>
        ${
          parts.withScript &&
          html`<script nonce="${nonce}">
            ${trusted(CLIENT_SCRIPT)};
          </script>`
        }
      </body>
    </html> `;
  return doc.value;
}
