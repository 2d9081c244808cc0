import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { sqlState, UNIQUE_VIOLATION, type SqlDatabase, type SqlExecutor } from '../sql/sql-database.js';
import { CHAIN_BACKFILL, CHAIN_BACKFILL_NEEDED, EVENT_STORE_SCHEMA } from './schema.js';
import { GENESIS_HASH_SQL, payloadChainHeadSql, payloadEventSql } from './event-chain.js';
import {
  IdempotencyConflictError,
  MAX_EVENTS_PER_APPEND,
  MAX_READ_BATCH,
  WrongExpectedVersionError,
  comparePositions,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type StreamWrite,
} from './event-store.js';

interface EventRow {
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  xid: string;
  seq: string;
  created_at: string;
  hash: string | null;
}

const EVENT_COLUMNS = `event_id::text, stream_id, stream_version, type, schema_version, data, metadata,
  xid::text as xid, seq::text as seq, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  encode(hash, 'hex') as hash`;

function toRecorded(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: row.metadata,
    position: { commitXid: row.xid, seq: row.seq },
    createdAt: row.created_at,
    ...(row.hash ? { hash: row.hash } : {}),
  };
}

/**
 * Writers of one stream queue on a transaction-scoped advisory lock BEFORE their first write. An
 * advisory lock assigns no transaction id, so each writer's xid is assigned only once it holds the
 * lock: xid order then equals version order within a stream, and the (xid, seq) global order
 * delivers every stream in version order. (A row lock alone is not enough: a waiter gets its xid
 * before it queues, and waiters may be granted the row in any order.)
 */
const STREAM_LOCK = `(select pg_advisory_xact_lock(hashtextextended($1, 0))) as stream_lock`;

/**
 * The claim on the stream's version: one statement, so it takes the row lock that serialises writers.
 * It also advances the stream's hash chain: SET expressions see the row as the previous writer left
 * it (a concurrent update is re-read before they run), so `head_hash` there is the true previous head
 * even though the statement's snapshot predates the lock wait. The old head goes to `prev_head_hash`
 * for the insert below, which rebuilds the same chain per event.
 */
function claimSql(expected: ExpectedVersion, eventCount: number): string {
  const head = (previous: string, base: string) => payloadChainHeadSql(previous, base, eventCount);
  if (expected === 'any') {
    return `insert into es_streams (stream_id, version, head_hash, prev_head_hash)
            select $1, $2, ${head('null', '0')}, null from ${STREAM_LOCK}
            on conflict (stream_id) do update set version = es_streams.version + $2,
              head_hash = ${head('es_streams.head_hash', 'es_streams.version')},
              prev_head_hash = es_streams.head_hash
            returning version, prev_head_hash, head_hash`;
  }
  if (expected === 'no_stream' || expected === 0) {
    return `insert into es_streams (stream_id, version, head_hash, prev_head_hash)
            select $1, $2, ${head('null', '0')}, null from ${STREAM_LOCK}
            on conflict (stream_id) do nothing returning version, prev_head_hash, head_hash`;
  }
  return `update es_streams s set version = s.version + $2, head_hash = ${head('s.head_hash', 's.version')},
            prev_head_hash = s.head_hash
          from ${STREAM_LOCK}
          where s.stream_id = $1 and s.version = $4 returning s.version, s.prev_head_hash, s.head_hash`;
}

/**
 * The events of one append with their hashes: a single event's hash is the claim's new head;
 * several are chained again from the claim's previous head (same expression, same result).
 */
function chainedEventsSql(eventCount: number): string {
  if (eventCount === 1) {
    return `chained(e, ord, hash) as (select $3::jsonb->0, 1::bigint, (select head_hash from claim))`;
  }
  return `ev as (select e, ord from jsonb_array_elements($3::jsonb) with ordinality as t(e, ord)),
       chain(ord, hash) as (
         select 0::bigint, coalesce((select prev_head_hash from claim), ${GENESIS_HASH_SQL})
         union all
         select ev.ord, sha256(chain.hash || ${payloadEventSql('(select version from claim) - $2 + ev.ord::int')})
         from chain join ev on ev.ord = chain.ord + 1
       ),
       chained(e, ord, hash) as (select ev.e, ev.ord, chain.hash from ev join chain on chain.ord = ev.ord)`;
}

/**
 * PostgreSQL adapter, on a pg Pool or on PGlite. An append is one statement (claim + insert in
 * data-modifying CTEs), so the common case is a single round trip with no explicit transaction.
 */
export class PostgresEventStore implements EventStore {
  private readonly appended = new EventEmitter();
  private appendsInProcess = 0;

  constructor(private readonly db: SqlDatabase) {
    this.appended.setMaxListeners(1_000);
  }

  static async create(db: SqlDatabase): Promise<PostgresEventStore> {
    await db.exec(EVENT_STORE_SCHEMA);
    const { rows } = await db.query<{ needed: boolean }>(CHAIN_BACKFILL_NEEDED);
    if (rows[0]?.needed) await db.exec(CHAIN_BACKFILL);
    return new PostgresEventStore(db);
  }

  get database(): SqlDatabase {
    return this.db;
  }

  /**
   * Appends made through this instance so far. A consumer compares it across a read so that an
   * append landing while it read is not mistaken for idleness (waitForAppend only hears later ones).
   */
  get appendCount(): number {
    return this.appendsInProcess;
  }

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    const [result] = await this.appendMany([{ streamId, events, expectedVersion }]);
    return result!;
  }

  async appendMany(writes: StreamWrite[]): Promise<AppendResult[]> {
    if (writes.length === 0) throw new RangeError('appendMany needs at least one write');
    for (const write of writes) validateWrite(write);
    try {
      const results =
        writes.length === 1
          ? [await this.appendOne(this.db, writes[0]!)]
          : await this.db.transaction(async (tx) => {
              // All stream locks first, in one fixed order (no deadlocks), before any write assigns an xid.
              await tx.query(
                `select pg_advisory_xact_lock(hashtextextended(s, 0)) from jsonb_array_elements_text($1::jsonb) as s order by s`,
                [JSON.stringify([...new Set(writes.map((w) => w.streamId))].sort())],
              );
              const out: AppendResult[] = [];
              for (const write of writes) out.push(await this.appendOne(tx, write));
              return out;
            });
      this.appendsInProcess++;
      this.appended.emit('append');
      return results;
    } catch (error) {
      // A lost race may be a retry of events that already landed: then the append is a replay.
      if (error instanceof WrongExpectedVersionError || sqlState(error) === UNIQUE_VIOLATION) {
        const replay = await this.replayResults(writes);
        if (replay) return replay;
        if (error instanceof WrongExpectedVersionError) throw error;
        const write = writes[0]!;
        throw new WrongExpectedVersionError(
          write.streamId,
          write.expectedVersion,
          await this.currentVersion(this.db, write.streamId),
        );
      }
      throw error;
    }
  }

  private async appendOne(executor: SqlExecutor, write: StreamWrite): Promise<AppendResult> {
    const count = write.events.length;
    const payload = JSON.stringify(
      write.events.map((event) => ({
        id: event.eventId,
        type: event.type,
        v: event.schemaVersion,
        data: event.data,
        meta: event.metadata ?? {},
      })),
    );
    const numericExpected = typeof write.expectedVersion === 'number' && write.expectedVersion > 0;
    // $1 stream, $2 event count, $3 payload, $4 expected version (only for a numeric expectation).
    const params: unknown[] = [write.streamId, count, payload];
    if (numericExpected) params.push(write.expectedVersion);
    const { rows } = await executor.query<{ version: number | null; xid: string | null; seq: string | null }>(
      `with recursive claim as (${claimSql(write.expectedVersion, count)}),
       ${chainedEventsSql(count)},
       inserted as (
         insert into es_events (event_id, stream_id, stream_version, type, schema_version, data, metadata,
                                created_at, hash)
         select (c.e->>'id')::uuid, $1, (select version from claim) - $2 + c.ord::int, c.e->>'type',
                (c.e->>'v')::int, c.e->'data', c.e->'meta', now(), c.hash
         from chained c
         where exists (select 1 from claim)
         -- seq follows the row order: without it the join may hand version 3 a smaller seq than version 2.
         order by c.ord
         returning xid, seq
       )
       select (select version from claim) as version, (select max(xid::text) from inserted) as xid,
              (select max(seq)::text from inserted) as seq`,
      params,
    );
    const version = rows[0]?.version;
    if (version === null || version === undefined) {
      throw new WrongExpectedVersionError(
        write.streamId,
        write.expectedVersion,
        await this.currentVersion(executor, write.streamId),
      );
    }
    return {
      streamId: write.streamId,
      nextVersion: version,
      idempotentReplay: false,
      lastPosition: { commitXid: rows[0]!.xid!, seq: rows[0]!.seq! },
    };
  }

  /** When every event id of every write is already stored in its stream, the append is a replay. */
  private async replayResults(writes: StreamWrite[]): Promise<AppendResult[] | undefined> {
    const results: AppendResult[] = [];
    for (const write of writes) {
      const ids = write.events.map((event) => event.eventId);
      const { rows } = await this.db.query<{ stream_id: string; stream_version: number; xid: string; seq: string }>(
        `select stream_id, stream_version, xid::text as xid, seq::text as seq from es_events
         where event_id in (select jsonb_array_elements_text($1::jsonb)::uuid)`,
        [JSON.stringify(ids)],
      );
      if (rows.length === 0) return undefined;
      if (rows.length !== ids.length || rows.some((row) => row.stream_id !== write.streamId)) {
        throw new IdempotencyConflictError(write.streamId);
      }
      results.push({
        streamId: write.streamId,
        nextVersion: Math.max(...rows.map((row) => row.stream_version)),
        idempotentReplay: true,
        lastPosition: rows
          .map((row) => ({ commitXid: row.xid, seq: row.seq }))
          .reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b)),
      });
    }
    return results;
  }

  private async currentVersion(executor: SqlExecutor, streamId: string): Promise<number> {
    const { rows } = await executor.query<{ version: number }>('select version from es_streams where stream_id = $1', [
      streamId,
    ]);
    return rows[0]?.version ?? 0;
  }

  async readStream(streamId: string, fromVersion = 1): Promise<RecordedEvent[]> {
    const { rows } = await this.db.query<EventRow>(
      `select ${EVENT_COLUMNS} from es_events where stream_id = $1 and stream_version >= $2 order by stream_version`,
      [streamId, fromVersion],
    );
    return rows.map(toRecorded);
  }

  async readAll(after: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_READ_BATCH) {
      throw new RangeError(`readAll limit must be 1..${MAX_READ_BATCH}, got ${limit}`);
    }
    const { rows } = await this.db.query<EventRow>(
      `select ${EVENT_COLUMNS} from es_events
       where (xid, seq) > ($1::text::xid8, $2::bigint)
         and xid < pg_snapshot_xmin(pg_current_snapshot())
       order by es_events.xid, es_events.seq limit $3`,
      [after.commitXid, after.seq, limit],
    );
    return rows.map(toRecorded);
  }

  /**
   * Position of the newest committed event (START for an empty store). Deliberately not limited by
   * the xmin rule: any transaction on the server (another schema, another app) can hold xmin back,
   * and a caller waiting for "everything committed so far" must not be answered early.
   */
  async headPosition(): Promise<GlobalPosition> {
    const { rows } = await this.db.query<{ xid: string; seq: string }>(
      `select xid::text as xid, seq::text as seq from es_events order by es_events.xid desc, es_events.seq desc limit 1`,
    );
    return rows[0] ? { commitXid: rows[0].xid, seq: rows[0].seq } : { commitXid: '0', seq: '0' };
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

function validateWrite(write: StreamWrite): void {
  if (!write.streamId || write.streamId.length > 200) throw new RangeError('stream id must be 1..200 characters');
  if (write.events.length === 0 || write.events.length > MAX_EVENTS_PER_APPEND) {
    throw new RangeError(`an append carries 1..${MAX_EVENTS_PER_APPEND} events, got ${write.events.length}`);
  }
  const ev = write.expectedVersion;
  if (typeof ev === 'number' && (!Number.isInteger(ev) || ev < 0)) {
    throw new RangeError(`expected version must be a non-negative integer, got ${ev}`);
  }
}

/** A fresh event id (UUID v4) for callers that have no natural one. */
export function newEventId(): string {
  return randomUUID();
}
