import { randomUUID } from 'node:crypto';
import { isSaneRequestId } from '@transfergate/contracts';

/**
 * Request ids travel explicitly: a command's actor carries the id of the HTTP request that caused it
 * (`originOf` in @transfergate/runtime), the ledger stamps it on the events it appends, and every
 * consumer of those events (projection, dispatcher, callback) reads it from the event's metadata.
 * A log line about a request names it itself (its `requestId` field).
 *
 * Not an AsyncLocalStorage: on Node 20 one `run` turns on a promise hook for every promise of the
 * process, and under the bench's H2H deposits that hook cost about a sixth of the main thread's CPU
 * per deposit (README, Benchmark, issue 15's eighth round).
 */
export { MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER, isSaneRequestId } from '@transfergate/contracts';

/** The caller's id when it is sane, else a fresh UUID (an insane one is dropped, never logged). */
export function requestIdFrom(header: unknown): string {
  const value = Array.isArray(header) ? header[0] : header;
  return isSaneRequestId(value) ? value : randomUUID();
}
