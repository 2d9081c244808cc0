import { intlLocale } from '../i18n/current-locale';

/**
 * The operator's time zone is the browser's: the panel shows every instant as the operator's own
 * clock reads it (the app bar names the zone, so a misconfigured machine is visible).
 */
export function operatorTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** An ISO instant as date + time in the operator's time zone and the UI language's conventions. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(intlLocale(), {
    timeZone: operatorTimeZone(),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(date);
}
