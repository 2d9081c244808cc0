import { EventEmitter } from 'node:events';
import {
  BACKWARDS,
  ErrorType,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  ANY,
  isCommandError,
  jsonEvent,
  streamNameFilter,
  type AppendStreamState,
  type EventData,
  type Position,
  type ResolvedEvent,
  type AllStreamResolvedEvent,
} from '@kurrent/kurrentdb-client';
import {
  IdempotencyConflictError,
  MAX_EVENTS_PER_APPEND,
  MAX_READ_BATCH,
  START,
  WrongExpectedVersionError,
  comparePositions,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type StreamWrite,
} from '../store/event-store.js';
import { GENESIS_HASH, chainHash } from '../store/chain-encoding.js';
import type { AuditedEvent } from '../store/event-chain.js';

/**
 * KurrentDB (EventStoreDB) adapter of the EventStore contract, run against the same contract suite
 * as PostgreSQL when KURRENTDB_URL is set (the server cannot run on our machines).
 *
 * Mapping: our stream version v (1-based) is KurrentDB revision v-1; expected version 0 is
 * `no_stream`. Our GlobalPosition is KurrentDB's $all position: commitXid = commit, seq = prepare
 * (ordered the same way, by commit then prepare). Each event carries our metadata, schema version and
 * metadata as string properties (`tg.meta` JSON, `tg.schemaVersion`) because KurrentDB's multi-stream
 * append accepts string-valued properties only; one encoding for both append paths.
 *
 * appendMany: KurrentDB ≥ 25.1 appends to several streams atomically (multiStreamAppend, each
 * stream with its own expected state), which is what the ledger's withdrawal request + reservation
 * needs. An older server answers UNIMPLEMENTED and the write is refused with
 * MultiStreamAppendUnsupportedError — never split into separate, non-atomic appends.
 *
 * Idempotent event ids: KurrentDB deduplicates an exact retry at the same expected position, but
 * it has no global index of event ids. Before each append we read the tail of every written stream
 * (at most IDEMPOTENCY_WINDOW events) for the ids: all present → a replay, some → a conflict. So a
 * retry is recognised within the stream's last IDEMPOTENCY_WINDOW events (PostgreSQL: globally and
 * forever); the ledger's retries are immediate and on the same stream, well inside that window.
 *
 * Hash chain: each event's metadata carries `tg.hash`, the PostgreSQL adapter's per-stream chain
 * (chainHash() of event-chain.ts, checked by the same ChainVerifier), with the writer's clock as the
 * recorded time (`tg.recordedAt`) and data/metadata as their stored JSON text. To extend the chain
 * from the head it read, an 'any' append is sent at the version it saw, and when another writer got
 * in first it reads the new head and tries again (at most MAX_ANY_ATTEMPTS): still "any" to the
 * caller, and the chain never forks.
 */
export const IDEMPOTENCY_WINDOW = 2 * MAX_EVENTS_PER_APPEND;

/** Streams the adapter keeps for its own bookkeeping (consumer leases/checkpoints), hidden from readAll. */
export const BOOKKEEPING_STREAM_PREFIX = '__tg-';

const META_KEY = 'tg.meta';
const SCHEMA_KEY = 'tg.schemaVersion';
const RECORDED_AT_KEY = 'tg.recordedAt';
const HASH_KEY = 'tg.hash';
const GRPC_UNIMPLEMENTED = 12;
const READ_BACK_SLACK = 32;
/** An 'any' append retried this many times against concurrent writers before it gives up. */
const MAX_ANY_ATTEMPTS = 20;

export class MultiStreamAppendUnsupportedError extends Error {
  constructor() {
    super('this KurrentDB server has no atomic multi-stream append (needs KurrentDB 25.1 or newer): write refused');
    this.name = 'MultiStreamAppendUnsupportedError';
  }
}

export interface KurrentDbEventStoreCapabilities {
  /** All streams of an appendMany land or none (server-side multi-stream append). */
  atomicMultiStreamAppend: true;
  /** How far back a repeated event id is recognised: a stream's last N events. */
  idempotencyWindowEvents: number;
}

export class KurrentDbEventStore implements EventStore {
  readonly capabilities: KurrentDbEventStoreCapabilities = {
    atomicMultiStreamAppend: true,
    idempotencyWindowEvents: IDEMPOTENCY_WINDOW,
  };
  private readonly appended = new EventEmitter();

  constructor(readonly client: KurrentDBClient) {
    this.appended.setMaxListeners(1_000);
  }

  /** `kurrentdb://host:2113?tls=false` (KURRENTDB_URL). */
  static connect(url: string): KurrentDbEventStore {
    if (!/^(kurrentdb|kdb|esdb|eventstore)(\+discover)?:\/\/.+/.test(url)) {
      throw new Error('KURRENTDB_URL must be a kurrentdb:// (or esdb://) connection string');
    }
    return new KurrentDbEventStore(KurrentDBClient.connectionString(url));
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    const [result] = await this.appendMany([{ streamId, events, expectedVersion }]);
    return result!;
  }

  async appendMany(writes: StreamWrite[], options?: AppendOptions): Promise<AppendResult[]> {
    if (writes.length === 0) throw new RangeError('appendMany needs at least one write');
    // The rows would go to another database than the events: no transaction holds both.
    if (options?.alongside) throw new RangeError('KurrentDB cannot write rows alongside events');
    for (const write of writes) validateWrite(write);
    if (new Set(writes.map((w) => w.streamId)).size !== writes.length) {
      throw new RangeError('appendMany writes each stream once');
    }
    for (let attempt = 1; ; attempt++) {
      const tails = await Promise.all(writes.map((write) => this.readTail(write.streamId, IDEMPOTENCY_WINDOW)));
      const replay = replayResults(writes, tails);
      if (replay) return replay;
      const prepared = writes.map((write, i) => prepareWrite(write, tails[i]!));
      try {
        if (prepared.length === 1) {
          const [only] = prepared;
          await this.client.appendToStream(only!.streamId, only!.events, { streamState: only!.streamState });
        } else {
          await this.client.multiStreamAppend(
            prepared.map((p) => ({ streamName: p.streamId, events: p.events, expectedState: p.streamState })),
          );
        }
      } catch (error) {
        if (isKurrentError(error, ErrorType.WRONG_EXPECTED_VERSION)) {
          // A lost race may be a retry of events that just landed.
          const after = await Promise.all(writes.map((write) => this.readTail(write.streamId, IDEMPOTENCY_WINDOW)));
          const replayAfter = replayResults(writes, after);
          if (replayAfter) return replayAfter;
          const versions = after.map((tail) => tail[tail.length - 1]?.streamVersion ?? 0);
          const refused = writes.findIndex(
            (write, i) => write.expectedVersion !== 'any' && expectedNumber(write.expectedVersion) !== versions[i],
          );
          // 'any' was sent as the version we saw (to extend the hash chain from the head we read):
          // when only such heads moved, another writer got in between: read the new heads and retry.
          if (refused < 0 && attempt < MAX_ANY_ATTEMPTS) continue;
          const index = refused < 0 ? 0 : refused;
          throw new WrongExpectedVersionError(
            writes[index]!.streamId,
            writes[index]!.expectedVersion,
            versions[index]!,
          );
        }
        if (
          prepared.length > 1 &&
          (isKurrentError(error, ErrorType.UNSUPPORTED) || (error as { code?: number }).code === GRPC_UNIMPLEMENTED)
        ) {
          throw new MultiStreamAppendUnsupportedError();
        }
        throw error;
      }
      this.appended.emit('append');
      // Read each stream's last event of ours back: its exact $all position is what readers see.
      // Ours are at the tail unless another writer appended since: read a little more than we wrote.
      const results: AppendResult[] = [];
      for (const write of writes) {
        const ids = new Set(write.events.map((e) => e.eventId));
        let mine = (await this.readTail(write.streamId, write.events.length + READ_BACK_SLACK)).filter((e) =>
          ids.has(e.eventId),
        );
        if (mine.length === 0) {
          mine = (await this.readTail(write.streamId, IDEMPOTENCY_WINDOW)).filter((e) => ids.has(e.eventId));
        }
        const newest = mine[mine.length - 1];
        if (!newest) throw new Error(`stream ${write.streamId}: appended events not found in the idempotency window`);
        results.push(resultOf(write.streamId, newest, false));
      }
      return results;
    }
  }

  /** The stream's last `count` events, oldest first (empty for a missing stream). */
  private async readTail(streamId: string, count: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: 'end',
        maxCount: count,
      })) {
        const recorded = toRecorded(resolved);
        if (recorded) out.push(recorded);
      }
    } catch (error) {
      if (isKurrentError(error, ErrorType.STREAM_NOT_FOUND)) return [];
      throw error;
    }
    return out.reverse();
  }

  async readStream(streamId: string, fromVersion = 1): Promise<RecordedEvent[]> {
    if (!Number.isInteger(fromVersion) || fromVersion < 1) throw new RangeError('fromVersion must be an integer ≥ 1');
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: BigInt(fromVersion - 1),
      })) {
        const recorded = toRecorded(resolved);
        if (recorded) out.push(recorded);
      }
    } catch (error) {
      if (isKurrentError(error, ErrorType.STREAM_NOT_FOUND)) return [];
      throw error;
    }
    return out;
  }

  /** A stream's events with the fields its hash chain covers, for ChainVerifier. */
  async readStreamAudited(streamId: string): Promise<AuditedEvent[]> {
    const out: AuditedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: FORWARDS, fromRevision: 'start' })) {
        const audited = toAudited(resolved);
        if (audited) out.push(audited);
      }
    } catch (error) {
      if (isKurrentError(error, ErrorType.STREAM_NOT_FOUND)) return [];
      throw error;
    }
    return out;
  }

  async readAll(after: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_READ_BATCH) {
      throw new RangeError(`readAll limit must be 1..${MAX_READ_BATCH}, got ${limit}`);
    }
    const fromStart = comparePositions(after, START) === 0;
    const out: RecordedEvent[] = [];
    // The server reads from a position inclusively: ask for one more and drop what is not after `after`.
    for await (const resolved of this.client.readAll({
      direction: FORWARDS,
      fromPosition: fromStart ? 'start' : toPosition(after),
      maxCount: limit + 1,
      filter: userStreamsFilter(),
    })) {
      const recorded = toRecorded(resolved);
      if (!recorded || comparePositions(recorded.position, after) <= 0) continue;
      out.push(recorded);
      if (out.length === limit) break;
    }
    return out;
  }

  /** Position of the newest user event (START for an empty store). */
  async headPosition(): Promise<GlobalPosition> {
    for await (const resolved of this.client.readAll({
      direction: BACKWARDS,
      fromPosition: 'end',
      maxCount: 1,
      filter: userStreamsFilter(),
    })) {
      const recorded = toRecorded(resolved);
      if (recorded) return recorded.position;
    }
    return START;
  }

  waitForAppend(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.appended.off('append', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.appended.once('append', done);
    });
  }
}

/** When every event id of every write is already in its stream's tail, the append is a replay. */
function replayResults(writes: StreamWrite[], tails: RecordedEvent[][]): AppendResult[] | undefined {
  const results: Array<AppendResult | undefined> = [];
  for (const [i, write] of writes.entries()) {
    const ids = new Set(write.events.map((e) => e.eventId));
    const found = tails[i]!.filter((e) => ids.has(e.eventId));
    if (found.length > 0 && found.length !== ids.size) throw new IdempotencyConflictError(write.streamId);
    results.push(found.length ? resultOf(write.streamId, found[found.length - 1]!, true) : undefined);
  }
  if (results.every((r) => r === undefined)) return undefined;
  const missing = writes.find((_, i) => results[i] === undefined);
  if (missing) throw new IdempotencyConflictError(missing.streamId);
  return results as AppendResult[];
}

interface PreparedWrite {
  streamId: string;
  streamState: AppendStreamState;
  events: EventData[];
}

/**
 * The events as KurrentDB stores them, each with its link in the stream's hash chain (the same
 * chainHash() and canonical encoding as PostgreSQL; data and metadata texts are their JSON as
 * stored). The chain continues from the head in `tail`, so an 'any' append is sent as "at the
 * version we saw" and retried by appendMany when another writer got in first.
 */
export function prepareWrite(write: StreamWrite, tail: RecordedEvent[], now: Date = new Date()): PreparedWrite {
  const head = tail[tail.length - 1];
  const baseVersion = head?.streamVersion ?? 0;
  let previous: Buffer = head?.hash ? Buffer.from(head.hash, 'hex') : GENESIS_HASH;
  const recordedAtUs = now.toISOString().replace(/Z$/, '000Z');
  const events = write.events.map((event, i) => {
    const metadataText = JSON.stringify(event.metadata ?? {});
    const hash = chainHash(previous, {
      streamId: write.streamId,
      streamVersion: baseVersion + i + 1,
      type: event.type,
      schemaVersion: event.schemaVersion,
      eventId: event.eventId.toLowerCase(),
      recordedAtUs,
      dataText: JSON.stringify(event.data ?? null),
      metadataText,
    });
    previous = hash;
    return jsonEvent({
      id: event.eventId,
      type: event.type,
      data: (event.data ?? null) as never,
      metadata: {
        [META_KEY]: metadataText,
        [SCHEMA_KEY]: String(event.schemaVersion),
        [RECORDED_AT_KEY]: recordedAtUs,
        [HASH_KEY]: hash.toString('hex'),
      },
    });
  });
  const streamState =
    write.expectedVersion === 'any' ? toStreamState(baseVersion) : toStreamState(write.expectedVersion);
  return { streamId: write.streamId, streamState, events };
}

function isKurrentError(error: unknown, type: ErrorType): boolean {
  return error instanceof Error && isCommandError(error) && error.type === type;
}

/** User streams only: no system streams (`$…`) and none of our bookkeeping streams. */
export const USER_STREAM_REGEX = `^(?!\\$)(?!${BOOKKEEPING_STREAM_PREFIX})`;

function userStreamsFilter() {
  return streamNameFilter({ regex: USER_STREAM_REGEX });
}

/** The stream version an expectation names (no_stream is 0). */
function expectedNumber(expected: Exclude<ExpectedVersion, 'any'>): number {
  return expected === 'no_stream' ? 0 : expected;
}

export function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream' || expected === 0) return NO_STREAM;
  return BigInt(expected - 1);
}

export function toPosition(position: GlobalPosition): Position {
  return { commit: BigInt(position.commitXid), prepare: BigInt(position.seq) };
}

export function fromPosition(position: Position): GlobalPosition {
  return { commitXid: position.commit.toString(), seq: position.prepare.toString() };
}

type AnyResolved = ResolvedEvent | AllStreamResolvedEvent;

export function toRecorded(resolved: AnyResolved): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || !event.isJson || event.type.startsWith('$')) return undefined;
  const raw = (event.metadata ?? {}) as Record<string, unknown>;
  const metadata =
    typeof raw[META_KEY] === 'string' ? (JSON.parse(raw[META_KEY] as string) as Record<string, unknown>) : raw;
  const schemaVersion = typeof raw[SCHEMA_KEY] === 'string' ? Number(raw[SCHEMA_KEY]) : 1;
  if (!event.position) throw new Error('KurrentDB returned an event without a position (server older than 22.6)');
  return {
    eventId: event.id,
    streamId: event.streamId,
    streamVersion: Number(event.revision) + 1,
    type: event.type,
    schemaVersion,
    data: event.data,
    metadata,
    position: fromPosition(event.position),
    createdAt: event.created.toISOString(),
    ...(typeof raw[HASH_KEY] === 'string' ? { hash: raw[HASH_KEY] as string } : {}),
  };
}

/** A stored event as the chain verifier reads it (ChainVerifier in ../store/event-chain.ts). */
export function toAudited(resolved: AnyResolved): AuditedEvent | undefined {
  const recorded = toRecorded(resolved);
  if (!recorded) return undefined;
  const raw = (resolved.event!.metadata ?? {}) as Record<string, unknown>;
  return {
    streamId: recorded.streamId,
    streamVersion: recorded.streamVersion,
    type: recorded.type,
    schemaVersion: recorded.schemaVersion,
    eventId: recorded.eventId.toLowerCase(),
    recordedAtUs: typeof raw[RECORDED_AT_KEY] === 'string' ? (raw[RECORDED_AT_KEY] as string) : '',
    dataText: JSON.stringify(recorded.data ?? null),
    metadataText: typeof raw[META_KEY] === 'string' ? (raw[META_KEY] as string) : JSON.stringify(recorded.metadata),
    position: recorded.position,
    hash: recorded.hash ?? null,
  };
}

function resultOf(streamId: string, last: RecordedEvent, idempotentReplay: boolean): AppendResult {
  return { streamId, nextVersion: last.streamVersion, idempotentReplay, lastPosition: last.position };
}

function validateWrite(write: StreamWrite): void {
  if (!write.streamId || write.streamId.length > 200) throw new RangeError('stream id must be 1..200 characters');
  if (write.streamId.startsWith('$') || write.streamId.startsWith(BOOKKEEPING_STREAM_PREFIX)) {
    throw new RangeError(`stream id "${write.streamId}" is reserved`);
  }
  if (write.events.length === 0 || write.events.length > MAX_EVENTS_PER_APPEND) {
    throw new RangeError(`an append carries 1..${MAX_EVENTS_PER_APPEND} events, got ${write.events.length}`);
  }
  const ev = write.expectedVersion;
  if (typeof ev === 'number' && (!Number.isInteger(ev) || ev < 0)) {
    throw new RangeError(`expected version must be a non-negative integer, got ${ev}`);
  }
}
