/**
 * The Turkish business day: the date in Türkiye (UTC+3, no DST since 2016) of an instant, printed as
 * SQL prints a `date` (`YYYY-MM-DD`). The one definition: a deposit's receiving account counts its
 * volume on the day of the deposit's request, the live projection and the replay file it there, and
 * the deposit-context cache decides the next deposit from it. SQL's form of the same day is
 * `((t at time zone 'UTC') + interval '3 hours')::date`.
 */

const DAY_MS = 86_400_000;
const TURKEY_UTC_OFFSET_MS = 3 * 3_600_000;
// Every deposit of a day asks for the same day: the last one is kept (a Date and its ISO string
// cost about 1.5 µs a deposit).
let lastDayNumber = Number.NaN;
let lastDay = '';

/** The Turkish business day of an instant (ms since the epoch). */
export function turkishDay(ms: number): string {
  const dayNumber = Math.floor((ms + TURKEY_UTC_OFFSET_MS) / DAY_MS);
  if (dayNumber !== lastDayNumber) {
    lastDay = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
    lastDayNumber = dayNumber;
  }
  return lastDay;
}

/**
 * Days by UTC hour (`2026-11-21T07`) of ISO times ending in `Z`: the day only depends on the hour,
 * and a replay parses millions of times (Date.parse is the costly part). Bounded: cleared when full.
 */
const dayOfHour = new Map<string, string>();
export const MAX_CACHED_HOURS = 100_000;

/** The Turkish business day of an ISO time (an event's recorded time); an unreadable time throws. */
export function turkishDayOfIso(iso: string): string {
  const utc = iso.endsWith('Z');
  if (utc) {
    const cached = dayOfHour.get(iso.slice(0, 13));
    if (cached !== undefined) return cached;
  }
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new RangeError(`unreadable time ${iso}`);
  const day = turkishDay(ms);
  if (utc) {
    if (dayOfHour.size >= MAX_CACHED_HOURS) dayOfHour.clear();
    dayOfHour.set(iso.slice(0, 13), day);
  }
  return day;
}
