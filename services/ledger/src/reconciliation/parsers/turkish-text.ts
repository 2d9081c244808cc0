/**
 * Number, date and text conventions of Turkish bank exports: `1.234,56`, `23.11.2026 14:05`,
 * and the dotted/dotless i (İ ı) that a plain toLowerCase() gets wrong.
 */

export type DecimalMark = ',' | '.';

/**
 * A money text in kuruş, exact (no float ever): `1.234,56`, `-1.234,56`, `1234,5`, `+250,00 TL`,
 * or with decimalMark '.': `1,234.56`. Thousands separators must group by three. Throws on
 * anything else, including more than two decimals.
 */
export function parseMoneyText(text: string, decimalMark: DecimalMark): bigint {
  const cleaned = text
    .replace(/[\u00a0\u202f\s]/g, '')
    .replace(/(TRY|TL|₺)$/i, '')
    .replace(/^(TRY|TL|₺)/i, '');
  const thousands = decimalMark === ',' ? '\\.' : ',';
  const decimal = decimalMark === ',' ? ',' : '\\.';
  const pattern = new RegExp(`^([+-])?(\\d{1,3}(?:${thousands}\\d{3})+|\\d+)(?:${decimal}(\\d{1,2}))?([+-])?$`);
  const m = pattern.exec(cleaned);
  if (!m || (m[1] && m[4])) throw new Error(`not an amount: ${JSON.stringify(text)}`);
  const whole = m[2]!.replace(/[.,]/g, '');
  if (whole.length > 14) throw new Error(`amount too large: ${JSON.stringify(text)}`);
  const kurus = BigInt(whole) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] === '-' || m[4] === '-' ? -kurus : kurus;
}

export type DateOrder = 'DMY' | 'YMD';

/** `23.11.2026`, `23/11/2026`, `23-11-2026` (DMY) or `2026-11-23` (YMD), optional ` 14:05[:33]`. */
export function parseDateText(text: string, order: DateOrder): { day: string; at?: string } {
  const t = text.trim();
  const dmy = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
  const ymd = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
  const m = (order === 'DMY' ? dmy : ymd).exec(t);
  if (!m) throw new Error(`not a date: ${JSON.stringify(text)}`);
  const [y, mo, d] = order === 'DMY' ? [m[3]!, m[2]!, m[1]!] : [m[1]!, m[2]!, m[3]!];
  return calendarDay(Number(y), Number(mo), Number(d), m[4], m[5], m[6]);
}

/** A checked calendar day and, with a time, its instant (Turkish local time is UTC+3 all year). */
export function calendarDay(
  year: number,
  month: number,
  day: number,
  hours?: string,
  minutes?: string,
  seconds?: string,
): { day: string; at?: string } {
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    throw new Error(`no such date: ${year}-${month}-${day}`);
  }
  const iso = probe.toISOString().slice(0, 10);
  if (hours === undefined) return { day: iso };
  const h = Number(hours);
  const mi = Number(minutes);
  const s = Number(seconds ?? '0');
  if (h > 23 || mi > 59 || s > 59) throw new Error(`no such time: ${hours}:${minutes}`);
  const at = new Date(Date.UTC(year, month - 1, day, h - TURKEY_UTC_OFFSET_HOURS, mi, s)).toISOString();
  return { day: iso, at };
}

export const TURKEY_UTC_OFFSET_HOURS = 3;

export { foldTurkish } from '@transfergate/contracts';
