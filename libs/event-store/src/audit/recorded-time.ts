import { writeDigits } from './decimal-text.js';

/**
 * An event's recorded time as the canonical encoding prints it (`recordedAtSql`, event-chain.ts:
 * to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')), written in JS from
 * the value a binary COPY sends (int64 microseconds since 2000-01-01 00:00:00 UTC).
 *
 * Why not to_char on the server: it is the costliest expression of the replay's page query, on
 * the server's CPU, which the replay's own threads share. Only the years 1970-2199 are written
 * here (where the microseconds fit a double exactly and the text is four-digit years, no era);
 * a time outside them (never recorded by the store, which stamps now(), but a row may have been
 * edited) is left to the server, so the text is to_char's in every case.
 */

/** The canonical text's length: `2026-11-21T07:01:16.123456Z`. */
export const RECORDED_TIME_BYTES = 27;

const MICROS_PER_SECOND = 1_000_000;
const SECONDS_PER_DAY = 86_400;
/** Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch. */
const DAYS_1970_TO_2000 = 10_957;
/** 1970-01-01 and 2200-01-01 in microseconds since 2000-01-01. */
export const FIRST_WRITTEN_US = -DAYS_1970_TO_2000 * SECONDS_PER_DAY * MICROS_PER_SECOND;
export const END_WRITTEN_US = 73_049 * SECONDS_PER_DAY * MICROS_PER_SECOND;

/**
 * The microseconds of the int64 at `source[from..from+8)` (a binary timestamptz) when they are a
 * time of 1970-2199, which writeRecordedTime writes; undefined for any other (or ±infinity).
 */
export function writtenMicros(source: Buffer, from: number): number | undefined {
  const high = source.readInt32BE(from);
  // Outside ±2^21 the value is beyond ±285 years from 2000 (and may not fit a double exactly).
  if (high < -0x200000 || high >= 0x200000) return undefined;
  const us = high * 0x1_0000_0000 + source.readUInt32BE(from + 4);
  return us < FIRST_WRITTEN_US || us >= END_WRITTEN_US ? undefined : us;
}

/**
 * Writes the canonical text of the int64 at `source[from..from+8)` (a binary timestamptz) into
 * `target` at `at`; returns false, writing nothing, for a time outside 1970-2199 (or ±infinity).
 */
export function writeRecordedTime(source: Buffer, from: number, target: Buffer, at: number): boolean {
  const us = writtenMicros(source, from);
  if (us === undefined) return false;
  const seconds = Math.floor(us / MICROS_PER_SECOND);
  const micros = us - seconds * MICROS_PER_SECOND;
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  let secondOfDay = seconds - days * SECONDS_PER_DAY;
  // Civil date from a day count (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms",
  // civil_from_days), for days since 1970 ≥ 0, where every division below is of non-negatives.
  const z = days + DAYS_1970_TO_2000 + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(secondOfDay / 3_600);
  secondOfDay -= hour * 3_600;
  const minute = Math.floor(secondOfDay / 60);
  const second = secondOfDay - minute * 60;
  writeDigits(target, at, year, 4);
  target[at + 4] = 0x2d; // -
  writeDigits(target, at + 5, month, 2);
  target[at + 7] = 0x2d;
  writeDigits(target, at + 8, day, 2);
  target[at + 10] = 0x54; // T
  writeDigits(target, at + 11, hour, 2);
  target[at + 13] = 0x3a; // :
  writeDigits(target, at + 14, minute, 2);
  target[at + 16] = 0x3a;
  writeDigits(target, at + 17, second, 2);
  target[at + 19] = 0x2e; // .
  writeDigits(target, at + 20, micros, 6);
  target[at + 26] = 0x5a; // Z
  return true;
}
