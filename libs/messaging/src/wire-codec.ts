import { HttpException } from '@nestjs/common';
import { DomainError, ERROR_CODES, type ErrorCode } from '@transfergate/contracts';

/**
 * The JSON form of what crosses the transport. JSON has no bigint (kuruş money), Date or bytes, so
 * those travel as one-key tagged objects and come back as the same types; everything else is JSON as is.
 * A plain object that happens to have one of the tag keys alone would be misread, so encode refuses it.
 */
const BIGINT_TAG = '$bigint';
const DATE_TAG = '$date';
const BYTES_TAG = '$bytes';
const TAGS = new Set([BIGINT_TAG, DATE_TAG, BYTES_TAG]);
/** Nesting bound (TIGER_STYLE): commands and query answers are a few levels deep; a cycle must fail fast. */
const MAX_DEPTH = 32;

export type Wire = null | boolean | number | string | Wire[] | { [key: string]: Wire };

export function toWire(value: unknown, depth = 0): Wire {
  if (depth > MAX_DEPTH) throw new Error(`wire codec: value nested deeper than ${MAX_DEPTH} levels`);
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
      return { [BIGINT_TAG]: value.toString() };
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new Error('wire codec: non-finite number');
      return value;
    case 'object':
      break;
    default:
      throw new Error(`wire codec: cannot send a ${typeof value}`);
  }
  if (value instanceof Date) return { [DATE_TAG]: value.toISOString() };
  if (value instanceof Uint8Array) return { [BYTES_TAG]: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map((item) => toWire(item, depth + 1));
  const out: Record<string, Wire> = {};
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && TAGS.has(entries[0]![0])) {
    throw new Error(`wire codec: an object with the single key ${entries[0]![0]} is reserved`);
  }
  // undefined fields are left out, as JSON.stringify does, so optional fields stay absent.
  for (const [key, item] of entries) if (item !== undefined) out[key] = toWire(item, depth + 1);
  return out;
}

export function fromWire(value: Wire, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new Error(`wire codec: value nested deeper than ${MAX_DEPTH} levels`);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => fromWire(item, depth + 1));
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const tagged = value[keys[0]!];
    if (keys[0] === BIGINT_TAG && typeof tagged === 'string') return BigInt(tagged);
    if (keys[0] === DATE_TAG && typeof tagged === 'string') return new Date(tagged);
    if (keys[0] === BYTES_TAG && typeof tagged === 'string') return Buffer.from(tagged, 'base64');
  }
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = fromWire(value[key]!, depth + 1);
  return out;
}

/** What a listener answers: never a thrown error, so nothing about the failure is lost in the transport. */
export type WireReply =
  | { ok: true; value: Wire }
  | { ok: false; error: { kind: 'domain'; errorCode: string; message: string; details: Wire } }
  | { ok: false; error: { kind: 'http'; status: number; response: Wire } }
  | { ok: false; error: { kind: 'error'; name: string; message: string } };

export function replyOf(value: unknown): WireReply {
  return { ok: true, value: toWire(value) };
}

/** DomainError keeps code, message and details; HttpException its status and body; anything else its message. */
export function errorReplyOf(error: unknown): WireReply {
  if (error instanceof DomainError) {
    return {
      ok: false,
      error: { kind: 'domain', errorCode: error.errorCode, message: error.message, details: toWire(error.details) },
    };
  }
  if (error instanceof HttpException) {
    return { ok: false, error: { kind: 'http', status: error.getStatus(), response: toWire(error.getResponse()) } };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { ok: false, error: { kind: 'error', name: e.name, message: e.message } };
}

/** A failure on the other side that was neither a DomainError nor an HttpException (answered as a 500). */
export class RemoteHandlerError extends Error {
  constructor(
    readonly remoteName: string,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteHandlerError';
  }
}

/** Turns a reply back into the value, or throws the error the handler threw (same class, code and status). */
export function unwrapReply(reply: WireReply): unknown {
  if (reply.ok) return fromWire(reply.value);
  const { error } = reply;
  if (error.kind === 'domain') {
    if (!(error.errorCode in ERROR_CODES))
      throw new RemoteHandlerError('DomainError', `unknown error code ${error.errorCode}`);
    const details = fromWire(error.details) as Record<string, unknown> | null;
    throw new DomainError(error.errorCode as ErrorCode, error.message, details ?? undefined);
  }
  if (error.kind === 'http') {
    throw new HttpException(fromWire(error.response) as string | Record<string, unknown>, error.status);
  }
  throw new RemoteHandlerError(error.name, error.message);
}
