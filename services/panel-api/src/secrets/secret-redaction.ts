import type { OperatorContext } from '../auth/decorators.js';

/**
 * What operators without `secrets.view` must not see. An Infrastructure `SecurityKey` covers only
 * ApiKey, ApiSecret and OperationGuid, so one seen is a credential; hashes and signatures of other
 * forms are kept out too. They stay in the event store and the callback log (callbacks must echo
 * them); only the panel's answers are redacted, per operator.
 */
export const REDACTED = '[redacted]';

/** Field names that carry a signature, a hash or a secret, in any spelling the forms use. */
const SECRET_FIELD = /^(security_?key|hash|signature|api_?secret|secret|password|webhook-signature)$/i;

/** The same fields inside JSON text (an answer's excerpt that echoes the body). */
const SECRET_FIELD_IN_TEXT =
  /("(?:security_?key|hash|signature|api_?secret|secret|password|webhook-signature)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** Values shorter than this are not searched for in free text (they would match by accident). */
const MIN_SECRET_VALUE_LENGTH = 8;

export function maySeeSecrets(operator: OperatorContext): boolean {
  return operator.permissions.includes('secrets.view');
}

/** A copy of `value` with every secret field (at any depth) replaced by REDACTED. */
export function redactSecretFields<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redactSecretFields) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, field]) => [
      key,
      SECRET_FIELD.test(key) && typeof field === 'string' && field !== '' ? REDACTED : redactSecretFields(field),
    ]),
  ) as T;
}

/** Every secret field's string value in `value` (to find them again in free text). */
export function secretValuesIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) secretValuesIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_FIELD.test(key) && typeof field === 'string' && field.length >= MIN_SECRET_VALUE_LENGTH) {
        found.add(field);
      } else secretValuesIn(field, found);
    }
  }
  return found;
}

/** Free text (a response excerpt, an error) without the given secret values or secret JSON fields. */
export function redactSecretText(text: string | null, values: ReadonlySet<string>): string | null {
  if (text === null) return null;
  let redacted = text.replace(SECRET_FIELD_IN_TEXT, `$1"${REDACTED}"`);
  for (const secret of values) {
    // Hex digests are compared case-insensitively, so a receiver may echo them in either case.
    redacted = redacted.replace(new RegExp(escapeRegExp(secret), 'gi'), REDACTED);
  }
  return redacted;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
