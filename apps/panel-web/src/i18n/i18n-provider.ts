import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations, type TranslationMessages } from 'react-admin';
import { messages as logMessages } from '../resources/logs/index';
import { messages as recordMessages } from '../resources/records/index';
import { messages as reconciliationMessages } from '../resources/reconciliation/index';
import { appEn, appTr } from './app-messages';
import { operatorMessages } from './operator-messages';
import { setTranslator } from './translator';
import { currentLocale, setCurrentLocale, type UiLocale } from './current-locale';
import { raTurkish } from './ra-turkish';
import { portalMessages } from '../portal/portal-messages';

const english = mergeTranslations(
  englishMessages,
  appEn,
  operatorMessages.en,
  recordMessages.en,
  logMessages.en,
  reconciliationMessages.en,
  portalMessages.en,
) as TranslationMessages;
// Turkish on top of English: a key nobody translated yet shows in English, never as a raw key.
const turkish = mergeTranslations(
  english,
  raTurkish,
  appTr,
  operatorMessages.tr,
  recordMessages.tr,
  logMessages.tr,
  reconciliationMessages.tr,
  portalMessages.tr,
) as TranslationMessages;

const catalogues: Record<UiLocale, TranslationMessages> = { en: english, tr: turkish };

const base = polyglotI18nProvider((locale) => catalogues[locale === 'en' ? 'en' : 'tr'], currentLocale(), [
  { locale: 'tr', name: 'Türkçe' },
  { locale: 'en', name: 'English' },
]);

/** Keeps the formatters' locale (format/time.ts) in step with the UI language. */
export const i18nProvider = {
  ...base,
  changeLocale: async (locale: string) => {
    setCurrentLocale(locale === 'en' ? 'en' : 'tr');
    return base.changeLocale(locale);
  },
};

setTranslator((key, options) => i18nProvider.translate(key, options));
