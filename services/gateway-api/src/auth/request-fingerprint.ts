import { hash } from 'node:crypto';

/**
 * Fingerprint of what a request asks for (not how it was spelled or signed): a repeat with the same
 * fingerprint gets the first answer again, a repeat with another one is a duplicate (409).
 */
export function requestFingerprint(parts: Record<string, string | bigint | undefined>): string {
  const canonical = Object.keys(parts)
    .sort()
    .map((key) => [key, parts[key] === undefined ? null : String(parts[key])]);
  return hash('sha256', JSON.stringify(canonical), 'hex');
}
