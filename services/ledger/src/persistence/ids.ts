import { v5 as uuidv5 } from 'uuid';

/** Namespace for transfergate's name-based UUIDs (v5). Changing it would re-key every stream. */
const NAMESPACE = '0b5e3b9a-6f3f-4d7e-9a57-2f8f0c1d9e11';

/**
 * A transaction's UUID is derived from (provider, external id): appending its first event with
 * `no_stream` is then the uniqueness check, atomic and safe under concurrent repeats.
 */
export function transactionIdFor(providerId: string, externalId: string): string {
  return uuidv5(`txn:${providerId}:${externalId}`, NAMESPACE);
}

/** Stable ids of configuration records, from their natural keys (bootstrap is idempotent by them). */
export const configIdFor = {
  infrastructure: (slug: string) => uuidv5(`infrastructure:${slug}`, NAMESPACE),
  merchant: (name: string) => uuidv5(`merchant:${name}`, NAMESPACE),
  provider: (name: string) => uuidv5(`provider:${name}`, NAMESPACE),
  bankAccount: (iban: string) => uuidv5(`bank-account:${iban}`, NAMESPACE),
  operator: (username: string) => uuidv5(`operator:${username.toLowerCase()}`, NAMESPACE),
  role: (name: string) => uuidv5(`role:${name}`, NAMESPACE),
};
