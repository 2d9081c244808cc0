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
 * What follows a failed attempt. `roundAttempts` counts the attempts made since the delivery was
 * created or last resent, including this one; schedule entry i is the delay before attempt i+1, so
 * a schedule of n entries allows n attempts per round.
 */
export function nextAttemptDelay(
  schedule: readonly number[],
  roundAttempts: number,
  retryAfterMs: number | undefined,
): number | undefined {
  if (roundAttempts >= schedule.length) return undefined;
  return Math.max(schedule[roundAttempts]!, retryAfterMs ?? 0);
}
