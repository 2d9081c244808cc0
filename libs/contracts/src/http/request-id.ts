/**
 * Request ids (`x-request-id`): the gateway echoes a caller's sane id or makes one, commands carry
 * it on their actor (ActorRef.requestId), and the ledger stamps it on the events they append.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Longest request id we accept from a caller (and the header we echo). */
export const MAX_REQUEST_ID_LENGTH = 128;
/** Letters, digits and the separators UUIDs, ULIDs and trace ids use: safe in a log line and a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_REQUEST_ID_LENGTH && SANE_REQUEST_ID.test(value);
}
