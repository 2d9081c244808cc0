import { ERROR_CODES } from '@transfergate/contracts';
import { operatorMessages } from '../../apps/panel-web/src/i18n/operator-messages.js';

/** The panel never shows the API's English message: every error code has a sentence in both languages. */
describe('operator messages', () => {
  it.each(['en', 'tr'] as const)('have a %s sentence for every API error code', (locale) => {
    const sentences = operatorMessages[locale].tg.errors as Record<string, string>;
    const missing = Object.keys(ERROR_CODES).filter((code) => !sentences[code]?.trim());
    expect(missing).toEqual([]);
  });
});
