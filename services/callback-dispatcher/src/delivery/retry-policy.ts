/** Longest Retry-After honoured (a longer one is capped, not ignored). */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** Retry-After as delay-seconds or an HTTP date, in ms from `nowMs`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d{1,10}$/.test(text)) return Math.min(Number(text) * 1_000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
}

/**
 * Spread of each retry delay: a delay d becomes a uniformly random point in [d, d·(1+ratio)]. After an
 * outage every delivery that failed in it would otherwise come due at the same instants and arrive at
 * the receiver in bursts; up to +20 % spreads them. Only added, never taken off: the schedule stays
 * the shortest wait a receiver sees (the panel and docs/integrators.md promise "at least").
 */
export const DEFAULT_RETRY_JITTER_RATIO = 0.2;
/** The spread never exceeds this, whatever the delay (a 10 h retry moves by at most 1 h). */
export const MAX_RETRY_JITTER_MS = 3_600_000;

export interface RetryJitter {
  /** 0 (none) .. 1; see DEFAULT_RETRY_JITTER_RATIO. */
  ratio: number;
  /** A number in [0, 1): Math.random in production, a fixed sequence in tests. */
  random: () => number;
}

/** `delayMs` plus at most min(ratio·delayMs, MAX_RETRY_JITTER_MS); an integer; 0 stays 0 (at once). */
export function jitteredDelay(delayMs: number, jitter: RetryJitter): number {
  if (delayMs <= 0 || jitter.ratio <= 0) return delayMs;
  const spreadMs = Math.min(delayMs * Math.min(jitter.ratio, 1), MAX_RETRY_JITTER_MS);
  const r = Math.min(Math.max(jitter.random(), 0), 1);
  return Math.round(delayMs + spreadMs * r);
}

/**
 * What follows a failed attempt. `roundAttempts` counts the attempts made since the delivery was
 * created or last resent, including this one; schedule entry i is the delay before attempt i+1, so
 * a schedule of n entries allows n attempts per round. With `jitter` the schedule's delay is spread
 * (jitteredDelay); a receiver's Retry-After is a floor and is never shortened by it.
 */
export function nextAttemptDelay(
  schedule: readonly number[],
  roundAttempts: number,
  retryAfterMs: number | undefined,
  jitter?: RetryJitter,
): number | undefined {
  if (roundAttempts >= schedule.length) return undefined;
  const scheduledMs = jitter ? jitteredDelay(schedule[roundAttempts]!, jitter) : schedule[roundAttempts]!;
  return Math.max(scheduledMs, retryAfterMs ?? 0);
}
