/* No imports: the specs read these under node as well as in the browser. */

/** Turkey's zone by the name operators use for it (TSİ, Türkiye saati; TRT in English). */
const TURKEY_ZONES = new Set(['Europe/Istanbul', 'Asia/Istanbul', 'Turkey']);

/** `UTC+3`, `UTC-4:30`, `UTC` for an instant in a zone. */
export function utcOffset(zone: string, at: Date = new Date()): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const offset = (part ?? 'GMT').replace(/^GMT/, 'UTC');
  return offset === 'UTC+0' ? 'UTC' : offset;
}

/**
 * The zone as the app bar names it: `TSİ (UTC+3)` for Turkey in Turkish (`TRT (UTC+3)` in English),
 * else the zone's IANA name with its offset (`Europe/Berlin (UTC+1)`).
 */
export function timeZoneLabel(zone: string, locale: 'tr' | 'en', at?: Date): string {
  const offset = utcOffset(zone, at);
  if (TURKEY_ZONES.has(zone)) return `${locale === 'tr' ? 'TSİ' : 'TRT'} (${offset})`;
  return `${zone} (${offset})`;
}

/**
 * An instant for a spreadsheet: `07.12.2026 20:58:19` in Turkish local time (UTC+3, Turkey has no
 * daylight saving time), whatever the browser's zone or language, so that an export reads the same
 * as the bank's own statement and Excel with Turkish settings reads it as a date. Empty for none.
 */
export function csvTurkishTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Istanbul',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day}.${parts.month}.${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}
