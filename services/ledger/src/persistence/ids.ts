import { parse as uuidParse, v5 as uuidv5 } from 'uuid';

/** Namespace for transfergate's name-based UUIDs (v5). Changing it would re-key every stream. */
const NAMESPACE = '0b5e3b9a-6f3f-4d7e-9a57-2f8f0c1d9e11';
// Parsed once, and names handed over as their UTF-8 bytes: the same UUIDs as uuidv5(name, NAMESPACE)
// (tested), without parsing the namespace twice and encoding the name char by char on every
// deposit. Names are storable text: unpaired surrogates are refused at the HTTP edge.
const NAMESPACE_BYTES = uuidParse(NAMESPACE);
const nameUuid = (name: string) => uuidv5(Buffer.from(name, 'utf8'), NAMESPACE_BYTES);

/**
 * A transaction's UUID is derived from (provider, external id): appending its first event with
 * `no_stream` is then the uniqueness check, atomic and safe under concurrent repeats.
 */
export function transactionIdFor(providerId: string, externalId: string): string {
  return nameUuid(`txn:${providerId}:${externalId}`);
}

/** Stable ids of configuration records, from their natural keys (bootstrap is idempotent by them). */
export const configIdFor = {
  infrastructure: (slug: string) => nameUuid(`infrastructure:${slug}`),
  merchant: (name: string) => nameUuid(`merchant:${name}`),
  provider: (name: string) => nameUuid(`provider:${name}`),
  bankAccount: (iban: string) => nameUuid(`bank-account:${iban}`),
  operator: (username: string) => nameUuid(`operator:${username.toLowerCase()}`),
  role: (name: string) => nameUuid(`role:${name}`),
};
