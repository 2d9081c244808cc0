import { hash } from 'node:crypto';

/** Namespace for transfergate's name-based UUIDs (v5). Changing it would re-key every stream. */
const NAMESPACE_BYTES = Buffer.from('0b5e3b9a6f3f4d7e9a572f8f0c1d9e11', 'hex');

/**
 * RFC 9562's v5: SHA-1 of namespace and name, version 5 and variant 10 set in the digest's text.
 * Written here rather than with uuid's v5 because every deposit derives one: the library works
 * byte by byte on typed arrays and builds the text pair by pair, about 3 µs and 2 kB of garbage per
 * id on the hot path; one SHA-1 to hex and five slices take about 1 µs. The same UUIDs as uuid's v5
 * of the name (services/ledger/src/persistence/ids.spec.ts, non-ASCII names included). Names are
 * storable text: unpaired surrogates are refused at the HTTP edge.
 */
export function nameUuid(name: string): string {
  const hex = hash('sha1', Buffer.concat([NAMESPACE_BYTES, Buffer.from(name, 'utf8')]), 'hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A transaction's UUID is derived from (provider, external id): the ledger's first append of it
 * with `no_stream` is then the uniqueness check, atomic and safe under concurrent repeats, and any
 * service can find a transaction by its external id through the primary key (the webhook lookup).
 */
export function transactionIdFor(providerId: string, externalId: string): string {
  return nameUuid(`txn:${providerId}:${externalId}`);
}
