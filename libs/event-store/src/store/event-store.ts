/**
 * The event store contract (docs/architecture.md, "The event store"). Adapters: PostgreSQL/PGlite
 * here; KurrentDB later, against the same contract-test suite.
 */

/** Version of a stream = number of events in it; the first event has version 1. */
export type ExpectedVersion = number | 'no_stream' | 'any';

export interface NewEvent {
  /** Client-chosen UUID: appending the same id twice stores the event once. */
  eventId: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata?: Record<string, unknown>;
}

/**
 * Global order is (commitXid, seq): the writing transaction's xid8, then the insert sequence.
 * Only events below the oldest running transaction are ever handed out, so the order a subscriber
 * sees never gains an event behind its checkpoint. Values are decimal strings (int64 range).
 */
export interface GlobalPosition {
  commitXid: string;
  seq: string;
}

export const START: GlobalPosition = Object.freeze({ commitXid: '0', seq: '0' });

export interface RecordedEvent {
  eventId: string;
  streamId: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: Record<string, unknown>;
  position: GlobalPosition;
  createdAt: string;
  /** Hex SHA-256 chaining this event to the previous one of its stream (adapters with a hash chain). */
  hash?: string;
}

export interface StreamWrite {
  streamId: string;
  events: NewEvent[];
  expectedVersion: ExpectedVersion;
}

/**
 * Rows written in the same transaction as an append's events (the store's inline projection): a
 * reader that sees the events sees the rows, and the rows exist only if the events were written.
 * For a read model that must be true when the append's caller answers, without waiting for the
 * consumer that projects it (which must then leave such rows as they are: they are its own rows,
 * written earlier). Only the PostgreSQL/PGlite adapter supports it (the rows go to its database).
 */
export interface RowsAlongside {
  /** A table of the store's database (a plain lower-case identifier; not quoted, never user input). */
  table: string;
  /** Each written column and its SQL type (a plain type name: `text`, `bigint`, `timestamptz`...). */
  columns: Readonly<Record<string, string>>;
  /** Column → value, read as JSON into the declared types; a column left out is null. */
  rows: Record<string, unknown>[];
  /** Columns set to the events' recorded time, as readers get it (RecordedEvent.createdAt, to the ms). */
  recordedAtColumns?: readonly string[];
}

/** Most rows one append may carry alongside its events (TIGER_STYLE: bounded like the events). */
export const MAX_ROWS_ALONGSIDE = 256;
/** Most tables one append may write rows of alongside its events. */
export const MAX_TABLES_ALONGSIDE = 4;

export interface AppendOptions {
  /**
   * Written with the events in one transaction, each set into its own table (a row that breaks a
   * table's constraint fails the append with that table's error: nothing is written). A result
   * that is not an idempotent replay means they were; on a replay nothing is written, rows included.
   */
  alongside?: RowsAlongside | readonly RowsAlongside[];
}

export interface AppendResult {
  streamId: string;
  /** Stream version after the append (its last event's version). */
  nextVersion: number;
  /** true when every event id was already stored: nothing was written. */
  idempotentReplay: boolean;
  /** Global position of the write's last event: wait for a projection to pass it to read your writes. */
  lastPosition: GlobalPosition;
}

export interface EventStore {
  /** Atomic append to one stream with optimistic concurrency. */
  append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult>;
  /** Atomic append to several streams: all land or none (KurrentDB's multi-stream append). */
  appendMany(writes: StreamWrite[], options?: AppendOptions): Promise<AppendResult[]>;
  readStream(streamId: string, fromVersion?: number): Promise<RecordedEvent[]>;
  readAll(after: GlobalPosition, limit: number): Promise<RecordedEvent[]>;
  /** Resolves when something was appended in this process (or after `timeoutMs`): a poll hint. */
  waitForAppend(timeoutMs: number): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: ExpectedVersion,
    readonly actualVersion: number,
  ) {
    super(`stream ${streamId}: expected version ${expectedVersion}, actual ${actualVersion}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export class IdempotencyConflictError extends Error {
  constructor(readonly streamId: string) {
    super(`stream ${streamId}: some but not all event ids of the append were already stored`);
    this.name = 'IdempotencyConflictError';
  }
}

/** Limits (TIGER_STYLE): a single append and a single read are bounded. */
export const MAX_EVENTS_PER_APPEND = 256;
export const MAX_READ_BATCH = 10_000;

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  const xa = BigInt(a.commitXid);
  const xb = BigInt(b.commitXid);
  if (xa !== xb) return xa < xb ? -1 : 1;
  const sa = BigInt(a.seq);
  const sb = BigInt(b.seq);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}
