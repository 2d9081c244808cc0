import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { roundForHash, type Kurus } from '../money/kurus.js';

/** The four signature rules of the contract. Digests are lower-case hex; comparison ignores case. */

function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Merchant API optional hash: SHA256(apiKey + transactionId + apiSecret + round(amount)). */
export function merchantHash(apiKey: string, transactionId: string, apiSecret: string, amount: Kurus): string {
  return sha256Hex(`${apiKey}${transactionId}${apiSecret}${roundForHash(amount)}`);
}

/** H2H mandatory hash: SHA256(apikey + transaction_id + apiSecret + round(amount)). */
export function h2hHash(apiKey: string, transactionId: string, apiSecret: string, amount: Kurus): string {
  return sha256Hex(`${apiKey}${transactionId}${apiSecret}${roundForHash(amount)}`);
}

/** Infrastructure API SecurityKey: SHA256(ApiKey + ApiSecret + OperationGuid). */
export function infrastructureSecurityKey(apiKey: string, apiSecret: string, operationGuid: string): string {
  return sha256Hex(`${apiKey}${apiSecret}${operationGuid}`);
}

/**
 * MD5 callback signature: MD5(transactionId + status + amount + type + apiSecret).
 * `amount` is the amount as it appears in the callback body (its JSON number text).
 */
export function md5CallbackSignature(
  transactionId: string,
  status: string,
  amountText: string,
  type: string,
  apiSecret: string,
): string {
  return createHash('md5').update(`${transactionId}${status}${amountText}${type}${apiSecret}`, 'utf8').digest('hex');
}

/** Constant-time, case-insensitive comparison of two hex digests. */
export function digestsEqual(expectedHex: string, givenHex: unknown): boolean {
  if (typeof givenHex !== 'string') return false;
  const expected = Buffer.from(expectedHex.toLowerCase(), 'utf8');
  const given = Buffer.from(givenHex.trim().toLowerCase(), 'utf8');
  if (expected.length !== given.length) return false;
  return timingSafeEqual(expected, given);
}
