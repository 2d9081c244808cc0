/**
 * A provider's API secrets in force at `nowMs`: the current one first, then the one a rotation
 * replaced while its overlap window (`previousUntil`, ISO 8601 UTC) is still open. Generic over the
 * value, so a caller may ask with sealed or with plain secrets.
 */
export function secretsInForce<T>(
  secrets: { current: T; previous?: T | undefined; previousUntil?: string | undefined },
  nowMs: number,
): T[] {
  const { current, previous, previousUntil } = secrets;
  if (previous === undefined || previousUntil === undefined) return [current];
  const untilMs = Date.parse(previousUntil);
  if (!Number.isFinite(untilMs) || nowMs >= untilMs) return [current];
  return [current, previous];
}

/** At most this many secrets are ever in force for one provider (the current one and the one before it). */
export const MAX_SECRETS_IN_FORCE = 2;
