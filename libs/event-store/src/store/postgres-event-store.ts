import { EventEmitter } from 'node:events';
import { sqlState, sqlTable, UNIQUE_VIOLATION, type SqlDatabase, type SqlExecutor } from '../sql/sql-database.js';
import { CHAIN_BACKFILL, CHAIN_BACKFILL_NEEDED, EVENT_STORE_SCHEMA } from './schema.js';
import { GENESIS_HASH_SQL, payloadChainHeadSql, payloadEventSql } from './event-chain.js';
import {
  AppendGroups,
  MAX_EVENTS_PER_GROUP,
  eventCount,
  type AppendGroupLimits,
  type GroupMember,
} from './append-groups.js';
import {
  GROUP_APPEND_FUNCTIONS,
  LOCK_STREAMS,
  groupAppend,
  groupAppendCall,
  type GroupAppend,
  type GroupRow,
} from './group-append-sql.js';
import {
  IdempotencyConflictError,
  MAX_EVENTS_PER_APPEND,
  MAX_READ_BATCH,
  MAX_ROWS_ALONGSIDE,
  MAX_TABLES_ALONGSIDE,
  WrongExpectedVersionError,
  comparePositions,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type RowsAlongside,
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

/**
 * The global-order read (readAll): the first `limit` events after a position, all of them below
 * every transaction still running (gap-free). The arguments are the statement's placeholders for
 * the position's xid and seq and for the limit, so that another statement can carry the same read
 * (a consumer's batch statement reads the next batch in it: readAllContinuation).
 */
function readAllSql(xid: string, seq: string, limit: string): string {
  return `select ${EVENT_COLUMNS} from es_events
       where (xid, seq) > (${xid}::text::xid8, ${seq}::bigint)
         and xid < pg_snapshot_xmin(pg_current_snapshot())
       order by es_events.xid, es_events.seq limit ${limit}`;
}

/**
 * readAll as the tail of another statement: `name as (...)` for its WITH list, and the SELECT that
 * ends the statement with `head` (a one-row CTE the statement must evaluate: a lease check) followed
 * by the read's rows in global order. `events` reads them back from the statement's rows (the head
 * alone when the read found nothing).
 */
export function readAllContinuation(
  name: string,
  head: string,
  placeholders: { xid: string; seq: string; limit: string },
): { cte: string; select: string; events(rows: Array<Record<string, unknown>>): RecordedEvent[] } {
  return {
    cte: `${name} as (${readAllSql(placeholders.xid, placeholders.seq, placeholders.limit)})`,
    // A left join: the head's row comes back (and its check runs) even when nothing was read.
    select: `select ${head}.*, ${name}.* from ${head} left join ${name} on true
       order by ${name}.xid::xid8, ${name}.seq::bigint`,
    events: (rows) =>
      (rows as unknown as EventRow[])
        .filter((row) => row.event_id !== null && row.event_id !== undefined)
        .map(toRecorded),
  };
}

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
 * Group commit bounds, one group at a time on every engine. PGlite runs one transaction at a time
 * anyway. On a server, two groups at once overlapped their commits, but each group is a
 * statement whose send, wake-up of the server's process and reply cost the app's event loop about
 * as much as several requests, and that loop is what bounds a deposit: one group at a time makes
 * the groups twice as large and was faster in every measured form (`bench/ab.mjs` on 2 cores:
 * 1.07-1.10 of the rate, above 1 in 17 of 18 alternations, p99 lower). Groups
 * grow with the load (up to maxWritesPerGroup), so one in flight still takes 128 writes per commit.
 * Processes of distributed mode still write groups side by side: the stream locks order them.
 */
export const DEFAULT_APPEND_GROUP_LIMITS: AppendGroupLimits = Object.freeze({
  maxGroupsInFlight: 1,
  maxWritesPerGroup: 128,
});

/** What `readAllOfTypes` answers: the wanted events and how far the read got. */
export interface TypedRead {
  events: RecordedEvent[];
  scanned: number;
  last?: GlobalPosition;
}

function assertInvariant(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`event store invariant: ${message}`);
}

/**
 * PostgreSQL adapter, on a pg Pool or on PGlite. An append is one statement (claim + insert in
 * data-modifying CTEs). Concurrent appends are grouped (append-groups.ts): a caller alone is that
 * single statement with no explicit transaction; several callers at once share one transaction.
 */
export class PostgresEventStore implements EventStore {
  private readonly appended = new EventEmitter();
  private appendsInProcess = 0;
  private readonly groups: AppendGroups;
  private groupsWritten = 0;
  private groupsFailed = 0;

  constructor(
    private readonly db: SqlDatabase,
    groupLimits: AppendGroupLimits = DEFAULT_APPEND_GROUP_LIMITS,
  ) {
    this.appended.setMaxListeners(1_000);
    this.groups = new AppendGroups(groupLimits, (members) => this.writeGroup(members));
  }

  static async create(db: SqlDatabase, groupLimits?: AppendGroupLimits): Promise<PostgresEventStore> {
    await db.exec(EVENT_STORE_SCHEMA + GROUP_APPEND_FUNCTIONS);
    const { rows } = await db.query<{ needed: boolean }>(CHAIN_BACKFILL_NEEDED);
    if (rows[0]?.needed) await db.exec(CHAIN_BACKFILL);
    return new PostgresEventStore(db, groupLimits);
  }

  /** Transactions the appends of this instance took so far (a group of one caller counts too). */
  get appendGroupsWritten(): number {
    return this.groupsWritten;
  }

  /**
   * Groups whose call failed as a whole, so that their members were written one by one: a
   * duplicate event id committed meanwhile, a lost connection, or a stream moved under the group
   * (which its locks must rule out).
   */
  get appendGroupsFailed(): number {
    return this.groupsFailed;
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

  async appendMany(writes: StreamWrite[], options?: AppendOptions): Promise<AppendResult[]> {
    if (writes.length === 0) throw new RangeError('appendMany needs at least one write');
    for (const write of writes) validateWrite(write);
    const alongside = alongsideSets(options?.alongside);
    try {
      return await this.groups.submit(writes, alongside);
    } catch (error) {
      // A row alongside that breaks its table's own constraint is that table's error, not a race
      // of the events (nothing was written: the rows and the events share one statement).
      if (alongside && alongside.some((set) => sqlTable(error) === set.table)) throw error;
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

  /**
   * Writes one group and settles each member with its own results or its own error. One member is
   * written exactly as an append always was. Several share one call of a server-side function
   * (group-append-sql.ts): all their stream locks (sorted, before any write assigns the xid, as for
   * a multi-stream append), then GROUP_APPEND_SQL, which checks every member's expectations against
   * the locked streams and writes, in one multi-row statement, the members whose writes all hold. A member that fails its
   * expectation wrote nothing and gets its own conflict. A member with an event id already stored
   * (a retry) or also carried by an earlier member of the group is written alone afterwards, so it
   * gets its replay or its refusal exactly as without grouping. Any error aborts the call's transaction
   * (nothing of the group was written); each member is then written alone, in arrival order.
   */
  private async writeGroup(members: GroupMember[]): Promise<void> {
    if (members.length === 1) {
      await this.settleAlone(members);
      return;
    }
    const seenIds = new Set<string>();
    const grouped: GroupMember[] = [];
    const later: GroupMember[] = [];
    for (const member of members) {
      const ids = member.writes.flatMap((w) => w.events.map((e) => e.eventId.toLowerCase()));
      if (ids.some((id) => seenIds.has(id))) later.push(member);
      else grouped.push(member);
      for (const id of ids) seenIds.add(id);
    }
    let rows: GroupRow[];
    try {
      rows = await this.runGroup(groupAppend(grouped));
    } catch {
      this.groupsFailed++;
      // Whatever failed (a lost connection, a duplicate id committed meanwhile) took the whole
      // transaction with it. One by one in arrival order, so the first of two callers with the same
      // events writes them and the second is its replay, as without grouping.
      await this.settleAlone(members);
      return;
    }
    // Each member's rows, in one pass over the group's (a filter per member was quadratic in the group).
    const rowsOf: GroupRow[][] = grouped.map(() => []);
    for (const row of rows) rowsOf[row.m]?.push(row);
    let written = 0;
    grouped.forEach((member, m) => {
      const outcome = this.settleFromRows(member, rowsOf[m]!);
      if (outcome === 'written') written++;
      else if (outcome === 'stored-id') later.push(member);
    });
    if (written > 0) this.noteCommitted(written);
    await this.settleAlone(later.sort((a, b) => members.indexOf(a) - members.indexOf(b)));
  }

  /**
   * Settles a member from its rows of a group call: written (its results), a conflict (its own
   * WrongExpectedVersionError), or left unsettled when one of its event ids was stored already (a
   * retry), for the caller to write it alone, which answers the replay or the refusal.
   */
  private settleFromRows(member: GroupMember, rows: GroupRow[]): 'written' | 'conflict' | 'stored-id' {
    const own = [...rows].sort((a, b) => a.w - b.w);
    assertInvariant(own.length === member.writes.length, 'a group answers one row per write');
    if (own[0]!.has_stored_id) return 'stored-id';
    if (!own[0]!.member_ok) {
      const failedWrite = own.find((row) => !row.ok)!;
      const write = member.writes[failedWrite.w]!;
      member.reject(new WrongExpectedVersionError(write.streamId, write.expectedVersion, failedWrite.cur_version ?? 0));
      return 'conflict';
    }
    member.resolve(
      own.map((row, w) => ({
        streamId: member.writes[w]!.streamId,
        nextVersion: row.next_version,
        idempotentReplay: false,
        lastPosition: { commitXid: row.xid!, seq: row.seq! },
      })),
    );
    return 'written';
  }

  /**
   * A group's locks and append in one call of the group-append function: on a server one round
   * trip, where a transaction took four, each waking the server's process and then ours.
   */
  private async runGroup(group: GroupAppend): Promise<GroupRow[]> {
    const call = groupAppendCall(group);
    return (await this.db.query<GroupRow>(call.sql, call.params)).rows;
  }

  /** Members written one by one, each with its own outcome. */
  private async settleAlone(members: GroupMember[]): Promise<void> {
    for (const member of members) {
      try {
        if (member.alongside || writesStreamsOnce(member)) {
          await this.writeAloneInOneCall(member);
          continue;
        }
        const results = await this.writeAlone(member.writes);
        this.noteCommitted(1);
        member.resolve(results);
      } catch (error) {
        member.reject(error);
      }
    }
  }

  /**
   * A caller on its own, in a group call of one member: the only statement that writes rows with
   * the events, and for writes to several streams one round trip where a transaction took three
   * plus one per stream (begin, the locks, an append per stream, commit). A withdrawal's request
   * and an approval, which write their transaction's stream and the merchant's ledger, are such
   * callers whenever nobody else appends at that moment. An event id stored already (a retry) is
   * answered as without the call: the replay (nothing written) or the refusal.
   */
  private async writeAloneInOneCall(member: GroupMember): Promise<void> {
    const outcome = this.settleFromRows(member, await this.runGroup(groupAppend([member])));
    if (outcome === 'written') {
      this.noteCommitted(1);
      return;
    }
    if (outcome === 'stored-id') member.resolve(await this.writeAlone(member.writes));
  }

  /** One caller's append on its own: one statement, or one transaction for several streams. */
  private async writeAlone(writes: StreamWrite[]): Promise<AppendResult[]> {
    if (writes.length === 1) return [await this.appendOne(this.db, writes[0]!)];
    return this.db.transaction(async (tx) => {
      await tx.query(LOCK_STREAMS, [JSON.stringify([...new Set(writes.map((w) => w.streamId))].sort())]);
      const out: AppendResult[] = [];
      for (const write of writes) out.push(await this.appendOne(tx, write));
      return out;
    });
  }

  /** After a commit: consumers waiting in this process look again (once per group). */
  private noteCommitted(appends: number): void {
    this.groupsWritten++;
    this.appendsInProcess += appends;
    this.appended.emit('append');
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

  /**
   * Several whole streams in one statement (a consumer's batch needs one stream per event): each id
   * maps to its events in version order, an id without events to an empty list. At most
   * MAX_READ_BATCH ids, as a batch holds at most that many events.
   */
  async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const unique = [...new Set(streamIds)];
    if (unique.length > MAX_READ_BATCH) {
      throw new RangeError(`readStreams reads at most ${MAX_READ_BATCH} streams, got ${unique.length}`);
    }
    const streams = new Map<string, RecordedEvent[]>(unique.map((id) => [id, []]));
    if (unique.length === 0) return streams;
    const { rows } = await this.db.query<EventRow>(
      `select ${EVENT_COLUMNS} from es_events where stream_id = any($1::text[]) order by stream_id, stream_version`,
      [unique],
    );
    for (const row of rows) streams.get(row.stream_id)!.push(toRecorded(row));
    return streams;
  }

  async readAll(after: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_READ_BATCH) {
      throw new RangeError(`readAll limit must be 1..${MAX_READ_BATCH}, got ${limit}`);
    }
    const { rows } = await this.db.query<EventRow>(readAllSql('$1', '$2', '$3'), [after.commitXid, after.seq, limit]);
    return rows.map(toRecorded);
  }

  /**
   * The global order as `readAll` reads it (same rows, same limit), handing out only the events of
   * `types`: the others are passed over in SQL, their data never read or parsed. For a consumer
   * that acts on a few types among many (the callback dispatcher: final transaction events among
   * every deposit request). `scanned` counts the events passed over or handed out, and `last` is
   * the position of the last of them (the consumer's next checkpoint), undefined when none.
   */
  async readAllOfTypes(after: GlobalPosition, limit: number, types: readonly string[]): Promise<TypedRead> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_READ_BATCH) {
      throw new RangeError(`readAll limit must be 1..${MAX_READ_BATCH}, got ${limit}`);
    }
    if (types.length === 0) throw new RangeError('readAllOfTypes needs at least one type');
    // The wanted rows are fetched again by primary key (= any(array): index probes whatever the
    // statistics); the scan itself reads no data column.
    const { rows } = await this.db.query<EventRow & { scan_xid: string; scan_seq: string; scanned: number }>(
      `with scanned as materialized (
         select xid, seq, type from es_events
         where (xid, seq) > ($1::text::xid8, $2::bigint)
           and xid < pg_snapshot_xmin(pg_current_snapshot())
         order by xid, seq limit $3
       ),
       tail as (
         select s.xid as tail_xid, s.seq as tail_seq, (select count(*) from scanned)::int as scanned
         from scanned s order by s.xid desc, s.seq desc limit 1
       )
       select tail.tail_xid::text as scan_xid, tail.tail_seq::text as scan_seq, tail.scanned, ev.*
       from tail left join lateral (
         select ${EVENT_COLUMNS}, row_number() over (order by es_events.xid, es_events.seq) as ord from es_events
         where seq = any (array(select seq from scanned where type = any ($4::text[])))
       ) ev on true
       order by ev.ord`,
      [after.commitXid, after.seq, limit, [...types]],
    );
    const tail = rows[0];
    if (!tail) return { events: [], scanned: 0 };
    return {
      events: rows.filter((row) => row.event_id !== null).map(toRecorded),
      scanned: tail.scanned,
      last: { commitXid: tail.scan_xid, seq: tail.scan_seq },
    };
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

/** Table and column names are spliced into SQL: plain lower-case identifiers only. */
const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
/** A column's type: a plain type name, words only (`timestamptz`, `double precision`). */
const PLAIN_TYPE = /^[a-z][a-z0-9_]*( [a-z][a-z0-9_]*)?$/;

/** The append's row sets as a list (undefined for none), each checked, within the bounds. */
function alongsideSets(alongside: AppendOptions['alongside']): readonly RowsAlongside[] | undefined {
  if (!alongside) return undefined;
  const sets: readonly RowsAlongside[] = Array.isArray(alongside) ? alongside : [alongside as RowsAlongside];
  if (sets.length === 0) return undefined;
  if (sets.length > MAX_TABLES_ALONGSIDE) {
    throw new RangeError(`rows alongside: 1..${MAX_TABLES_ALONGSIDE} tables, got ${sets.length}`);
  }
  let rows = 0;
  for (const set of sets) {
    validateAlongside(set);
    rows += set.rows.length;
  }
  if (rows > MAX_ROWS_ALONGSIDE) throw new RangeError(`rows alongside: 1..${MAX_ROWS_ALONGSIDE}, got ${rows}`);
  return sets;
}

function validateAlongside(alongside: RowsAlongside): void {
  if (!PLAIN_IDENTIFIER.test(alongside.table)) throw new RangeError(`not a plain table name: ${alongside.table}`);
  declaredColumns(alongside.columns);
  for (const column of alongside.recordedAtColumns ?? []) {
    if (!PLAIN_IDENTIFIER.test(column)) throw new RangeError(`not a plain column name: ${column}`);
  }
  if (alongside.rows.length === 0 || alongside.rows.length > MAX_ROWS_ALONGSIDE) {
    throw new RangeError(`rows alongside: 1..${MAX_ROWS_ALONGSIDE}, got ${alongside.rows.length}`);
  }
}

/**
 * Column declarations found plain, by identity. Only frozen ones: a declaration that can still
 * change could get a name spliced into SQL that was never checked. Every append of a new deposit
 * hands over the same frozen declaration, so its twenty-odd names are checked once, not per call.
 */
const plainDeclarations = new WeakSet<Readonly<Record<string, string>>>();

/** Checks a declaration's column names and types (they are spliced into SQL); throws on the first bad one. */
function declaredColumns(columns: Readonly<Record<string, string>>): void {
  if (plainDeclarations.has(columns)) return;
  const entries = Object.entries(columns);
  if (entries.length === 0) throw new RangeError('rows alongside declare their columns');
  for (const [column, type] of entries) {
    if (!PLAIN_IDENTIFIER.test(column)) throw new RangeError(`not a plain column name: ${column}`);
    if (!PLAIN_TYPE.test(type)) throw new RangeError(`not a plain type name: ${type}`);
  }
  if (Object.isFrozen(columns)) plainDeclarations.add(columns);
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

/**
 * A caller whose writes go to several streams, each once, within a group's bounds: the group call
 * writes it as it writes one member of a group. One stream written twice in one append is chained
 * write by write in a transaction (append-groups.ts writes that caller alone too).
 */
function writesStreamsOnce(member: GroupMember): boolean {
  if (member.writes.length < 2) return false;
  const streams = new Set(member.writes.map((write) => write.streamId));
  return streams.size === member.writes.length && eventCount(member) <= MAX_EVENTS_PER_GROUP;
}
