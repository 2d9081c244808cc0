import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What follows one piece of work through the process: the id of the HTTP request that caused it,
 * or (for consumers and workers) the id recorded on the event they are handling.
 */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Longest request id we accept from a caller (and the header we echo). */
export const MAX_REQUEST_ID_LENGTH = 128;
/** Letters, digits and the separators UUIDs, ULIDs and trace ids use: safe in a log line and a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_REQUEST_ID_LENGTH && SANE_REQUEST_ID.test(value);
}

/** The caller's id when it is sane, else a fresh UUID (an insane one is dropped, never logged). */
export function requestIdFrom(header: unknown): string {
  const value = Array.isArray(header) ? header[0] : header;
  return isSaneRequestId(value) ? value : randomUUID();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

export function runWithRequestId<T>(requestId: string | undefined, work: () => T): T {
  if (!requestId) return work();
  return storage.run({ requestId }, work);
}

/** For framework hooks that continue with a callback (Fastify's `done`). */
export function enterRequestContext(context: RequestContext, next: () => void): void {
  storage.run(context, next);
}
