import {
  MAX_RETRY_AFTER_MS,
  MAX_RETRY_JITTER_MS,
  jitteredDelay,
  nextAttemptDelay,
  parseRetryAfter,
  type RetryJitter,
} from './retry-policy.js';

const NOW_MS = Date.parse('2026-03-01T12:00:00Z');
/** A jitter whose random draws are the given numbers, in turn. */
const drawing = (ratio: number, ...draws: number[]): RetryJitter => ({ ratio, random: () => draws.shift() ?? 0 });

describe('parseRetryAfter: delay-seconds or an HTTP date, capped', () => {
  it('reads delay-seconds, the first of repeated headers, trimmed', () => {
    expect(parseRetryAfter('120', NOW_MS)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW_MS)).toBe(0);
    expect(parseRetryAfter(['5', '600'], NOW_MS)).toBe(5_000);
  });

  it('reads an HTTP date as the time from now, a past date as at once', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT', NOW_MS)).toBe(90_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', NOW_MS)).toBe(0);
  });

  it('caps a long wait at MAX_RETRY_AFTER_MS instead of ignoring it', () => {
    expect(parseRetryAfter('9999999999', NOW_MS)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', NOW_MS)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('is undefined when absent or unreadable', () => {
    for (const value of [undefined, '', '   ', [], 'soon', 'in a minute', '12345678901']) {
      expect(parseRetryAfter(value as string | string[] | undefined, NOW_MS)).toBeUndefined();
    }
  });
});

describe('jitteredDelay: only ever added, bounded', () => {
  it('spreads a delay over [d, d·(1+ratio)], an integer', () => {
    expect(jitteredDelay(1_000, drawing(0.2, 0))).toBe(1_000);
    expect(jitteredDelay(1_000, drawing(0.2, 0.5))).toBe(1_100);
    expect(jitteredDelay(1_000, drawing(0.2, 0.999))).toBe(1_200);
    expect(jitteredDelay(333, drawing(0.2, 0.5))).toBe(Math.round(333 + 33.3));
  });

  it('keeps 0 at once and a zero ratio exact', () => {
    expect(jitteredDelay(0, drawing(0.2, 0.9))).toBe(0);
    expect(jitteredDelay(5_000, drawing(0, 0.9))).toBe(5_000);
  });

  it('bounds the spread by MAX_RETRY_JITTER_MS and the ratio by 1, and a draw outside [0, 1] by [0, 1]', () => {
    const tenHoursMs = 10 * 3_600_000;
    expect(jitteredDelay(tenHoursMs, drawing(0.2, 1))).toBe(tenHoursMs + MAX_RETRY_JITTER_MS);
    expect(jitteredDelay(1_000, drawing(5, 1))).toBe(2_000);
    expect(jitteredDelay(1_000, drawing(0.2, -3))).toBe(1_000);
    expect(jitteredDelay(1_000, drawing(0.2, 7))).toBe(1_200);
  });

  it('never leaves [d, d + min(ratio·d, MAX_RETRY_JITTER_MS)] whatever the draw', () => {
    for (let i = 0; i < 2_000; i++) {
      const delayMs = Math.floor(Math.random() * 86_400_000);
      const ratio = Math.random();
      const got = jitteredDelay(delayMs, { ratio, random: Math.random });
      expect(Number.isInteger(got)).toBe(true);
      expect(got).toBeGreaterThanOrEqual(delayMs);
      expect(got).toBeLessThanOrEqual(Math.ceil(delayMs + Math.min(ratio * delayMs, MAX_RETRY_JITTER_MS)));
    }
  });
});

describe('nextAttemptDelay: the schedule, then give up', () => {
  const SCHEDULE_MS = [0, 1_000, 5_000];

  it('entry i is the wait before attempt i+1, and n entries allow n attempts per round', () => {
    expect(nextAttemptDelay(SCHEDULE_MS, 1, undefined)).toBe(1_000);
    expect(nextAttemptDelay(SCHEDULE_MS, 2, undefined)).toBe(5_000);
    expect(nextAttemptDelay(SCHEDULE_MS, 3, undefined)).toBeUndefined();
    expect(nextAttemptDelay(SCHEDULE_MS, 9, undefined)).toBeUndefined();
    expect(nextAttemptDelay([], 0, undefined)).toBeUndefined();
  });

  it("takes the receiver's Retry-After as a floor, never shortened by the schedule or the jitter", () => {
    expect(nextAttemptDelay(SCHEDULE_MS, 1, 30_000)).toBe(30_000);
    expect(nextAttemptDelay(SCHEDULE_MS, 2, 2_000)).toBe(5_000);
    expect(nextAttemptDelay(SCHEDULE_MS, 1, 30_000, drawing(0.2, 0.999))).toBe(30_000);
    // A Retry-After does not bring back a round that has used its attempts.
    expect(nextAttemptDelay(SCHEDULE_MS, 3, 1_000)).toBeUndefined();
  });

  it('spreads the scheduled wait with the jitter', () => {
    expect(nextAttemptDelay(SCHEDULE_MS, 2, undefined, drawing(0.2, 0.5))).toBe(5_500);
    expect(nextAttemptDelay(SCHEDULE_MS, 0, undefined, drawing(0.2, 0.5))).toBe(0);
  });
});
