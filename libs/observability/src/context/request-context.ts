import { randomUUID } from 'node:crypto';
import { isSaneRequestId } from '@transfergate/contracts';

/**
 * Request ids travel explicitly: a command's actor carries the id of the HTTP request that caused it
 * (`originOf` in @transfergate/runtime), the ledger stamps it on the events it appends, and every
 * consumer of those events (projection, dispatcher, callback) reads it from the event's metadata.
 * A log line about a request names it itself (its `requestId` field).
 *
 * Not an AsyncLocalStorage: on Node 20 one `run` turns on a promise hook for every promise of the
 * process (about 0.3 µs each; an H2H deposit makes about 62 on the main thread) and puts `await` on
 * its slow path, in every request, consumer and replay alike.
 */
export { MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER, isSaneRequestId } from '@transfergate/contracts';

/** The caller's id when it is sane, else a fresh UUID (an insane one is dropped, never logged). */
export function requestIdFrom(header: unknown): string {
  const value = Array.isArray(header) ? header[0] : header;
  return isSaneRequestId(value) ? value : randomUUID();
}
