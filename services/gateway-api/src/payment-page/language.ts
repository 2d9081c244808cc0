/**
 * The page language: an explicit `?lang=` wins (the switch link sets it, and it survives the form
 * post), then the browser's Accept-Language, then Turkish: the customers are in Turkey.
 */
export type Lang = 'tr' | 'en';

export const LANGS: readonly Lang[] = ['tr', 'en'];
export const DEFAULT_LANG: Lang = 'tr';

function asLang(value: string): Lang | undefined {
  const primary = value.trim().toLowerCase().split('-')[0];
  return LANGS.find((lang) => lang === primary);
}

/** Highest-q supported language of an Accept-Language header (RFC 9110 §12.5.4); ties keep header order. */
export function fromAcceptLanguage(header: string | undefined): Lang | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .slice(0, 20) // a header is tiny in practice; never sort an attacker's thousands of entries
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { lang: asLang(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.lang !== undefined && range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges[0]?.lang;
}

export function chooseLanguage(queryLang: unknown, acceptLanguage: string | undefined): Lang {
  const explicit = typeof queryLang === 'string' ? asLang(queryLang) : undefined;
  return explicit ?? fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANG;
}
