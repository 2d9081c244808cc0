import { z } from 'zod';

/**
 * Text fields of every request. Control characters are refused: PostgreSQL cannot store NUL in
 * text or jsonb, and no legitimate id, name, IBAN, key or URL contains one (a request with them
 * would otherwise fail deep in the store instead of with a clear 400).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
const noControl = { message: 'must not contain control characters' };
/** An unpaired UTF-16 surrogate (`"\ud800"` in JSON) is not Unicode text, and jsonb refuses it. */
const wellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();
const notWellFormed = { message: 'must not contain unpaired UTF-16 surrogates' };

/** A bounded, trimmed, non-empty text without control characters. */
export function requestText(maxLength: number) {
  return z.string().trim().min(1).max(maxLength).regex(NO_CONTROL, noControl).refine(wellFormed, notWellFormed);
}

/** A bounded text kept as sent (secrets, digests, URLs), without control characters. */
export function rawText(maxLength: number, minLength = 1) {
  return z.string().min(minLength).max(maxLength).regex(NO_CONTROL, noControl).refine(wellFormed, notWellFormed);
}

/**
 * Optional, not in the contract: the 5-digit EFT code of the customer's bank, so a deposit is routed
 * to a receiving account at the same bank (same-bank transfers are instant). Integrations that do not
 * send it are unaffected.
 */
export const BankCodeSchema = z.string().regex(/^\d{5}$/, 'bank code is the 5-digit EFT code');
