/**
 * The UI language outside React (formatters are plain functions the records screens call too).
 * The i18n provider sets it on start and on every language switch; it is remembered per browser.
 */
export type UiLocale = 'tr' | 'en';

const STORAGE_KEY = 'tg.locale';
let current: UiLocale = initialLocale();

function initialLocale(): UiLocale {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  if (stored === 'tr' || stored === 'en') return stored;
  const browser = typeof navigator === 'undefined' ? 'tr' : navigator.language.toLowerCase();
  // Operators are in Turkey: Turkish unless the browser clearly asks for English.
  return browser.startsWith('en') ? 'en' : 'tr';
}

export function currentLocale(): UiLocale {
  return current;
}

export function setCurrentLocale(locale: UiLocale): void {
  current = locale;
  localStorage.setItem(STORAGE_KEY, locale);
  syncDocumentLanguage();
}

/**
 * <html lang> follows the UI language: screen readers pick their voice by it, and CSS uppercase
 * uses its rules (with lang="tr", "Edit" becomes "EDİT").
 */
export function syncDocumentLanguage(): void {
  if (typeof document !== 'undefined') document.documentElement.lang = current;
}

/** BCP 47 tag for Intl: Turkish formatting rules in Turkish, British English (24 h, d/m/y) in English. */
export function intlLocale(): string {
  return current === 'tr' ? 'tr-TR' : 'en-GB';
}
