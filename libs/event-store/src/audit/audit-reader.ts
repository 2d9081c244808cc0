import { headMismatch, recordedAtSql, type AuditedEvent, type BrokenLink } from '../store/event-chain.js';
import { MAX_READ_BATCH, START, type GlobalPosition } from '../store/event-store.js';
import type { SqlDatabase, SqlExecutor } from '../sql/sql-database.js';
import type { HeadCheck, StreamHead } from './chain-check-protocol.js';

/**
 * Reads the stored events for an audit (the replay): every hashed field as the database prints it,
 * plus the parsed payload for the projector. Key-set pages in global order, bounded above by `until`
 * (inclusive) so a replay reads one fixed prefix of the store even while writers go on.
 */
export interface AuditRow extends AuditedEvent {
  type: string;
  /** Millisecond ISO time, as RecordedEvent.createdAt has it. */
  createdAt: string;
}

interface Row {
  seq: string;
  xid: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: string;
  metadata: string;
  at_us: string;
  hash: string | null;
}

/**
 * The newest committed event, not limited by the oldest running transaction (on a shared server
 * any other schema's transaction holds that back). An event still in flight below it is simply not
 * part of this audit; verifyHeads tells such streams apart from streams that lost events.
 */
export async function auditHead(db: SqlExecutor): Promise<GlobalPosition> {
  const { rows } = await db.query<{ xid: string; seq: string }>(
    `select xid::text as xid, seq::text as seq from es_events order by es_events.xid desc, es_events.seq desc limit 1`,
  );
  return rows[0] ? { commitXid: rows[0].xid, seq: rows[0].seq } : START;
}

/**
 * After a full pass: the recorded stream heads against what the verifier saw. A stream recorded
 * ahead of what was read is fine when its later events exist (written after the read) and broken
 * when they are gone (a deleted tail).
 */
export async function verifyHeads(
  db: SqlExecutor,
  verifier: { checkHeads(heads: StreamHead[], into?: HeadCheck): HeadCheck },
  maxChecks = 10_000,
): Promise<BrokenLink[]> {
  const check: HeadCheck = { broken: [], unseen: [] };
  for await (const page of streamHeadPages(db)) verifier.checkHeads(page, check);
  return settleHeadCheck(db, check, maxChecks);
}

/** A head check's result with its unseen streams told apart: still being written (fine) or cut short (broken). */
export async function settleHeadCheck(db: SqlExecutor, check: HeadCheck, maxChecks = 10_000): Promise<BrokenLink[]> {
  const { broken, unseen } = check;
  for (const u of unseen.slice(0, maxChecks)) {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from es_events where stream_id = $1 and stream_version > $2 and stream_version <= $3`,
      [u.streamId, u.seenVersion, u.recordedVersion],
    );
    if (rows[0]!.n !== u.recordedVersion - u.seenVersion) {
      broken.push(
        headMismatch(
          u.streamId,
          u.recordedVersion,
          `versions ${u.seenVersion + 1}..${u.recordedVersion} stored`,
          u.seenVersion,
          null,
        ),
      );
    }
  }
  return broken;
}

/**
 * The events up to `until` (the replay's progress total). A replay counts while its reader already
 * reads: PostgreSQL's parallel workers and JIT compilation would buy the count wall time with the
 * CPU those reads need (at 1M events 0.81-0.95 s of the server's CPU with them, 0.27-0.57 s without), so the
 * count runs serially and interpreted.
 */
export async function countEvents(db: SqlDatabase, until: GlobalPosition): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`set local jit = off`);
    await tx.query(`set local max_parallel_workers_per_gather = 0`);
    const { rows } = await tx.query<{ n: string }>(
      `select count(*)::text as n from es_events where (xid, seq) <= ($1::text::xid8, $2::bigint)`,
      [until.commitXid, until.seq],
    );
    return Number(rows[0]!.n);
  });
}

export async function readAuditBatch(
  db: SqlExecutor,
  after: GlobalPosition,
  until: GlobalPosition,
  limit: number,
): Promise<AuditRow[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_READ_BATCH) {
    throw new RangeError(`audit batch must be 1..${MAX_READ_BATCH}, got ${limit}`);
  }
  const { rows } = await db.query<Row>(
    `select seq::text as seq, xid::text as xid, event_id::text as event_id, stream_id, stream_version, type,
            schema_version, data::text as data, metadata::text as metadata, ${recordedAtSql('created_at')} as at_us,
            encode(hash, 'hex') as hash
     from es_events
     where (xid, seq) > ($1::text::xid8, $2::bigint) and (xid, seq) <= ($3::text::xid8, $4::bigint)
     order by es_events.xid, es_events.seq limit $5`,
    [after.commitXid, after.seq, until.commitXid, until.seq, limit],
  );
  return rows.map((r) => ({
    position: { commitXid: r.xid, seq: r.seq },
    eventId: r.event_id,
    streamId: r.stream_id,
    streamVersion: r.stream_version,
    type: r.type,
    schemaVersion: r.schema_version,
    dataText: r.data,
    metadataText: r.metadata,
    recordedAtUs: r.at_us,
    createdAt: createdAtOf(r.at_us),
    hash: r.hash,
  }));
}

/** RecordedEvent.createdAt (milliseconds) from the hashed recorded time (microseconds). */
export function createdAtOf(recordedAtUs: string): string {
  return `${recordedAtUs.slice(0, 23)}Z`;
}

/**
 * Recorded stream heads per page of `streamHeadPages`: one row per stream, so a page is about
 * 2.5 MB of objects where the whole table at once was about 250 bytes per stream ever made
 * (75 MB at 307,742 streams, measured; docs/auditing.md, "Replay").
 */
export const HEAD_PAGE_ROWS = 10_000;

/**
 * Every recorded stream head (es_streams), a page at a time in stream id order (key-set pages on
 * the primary key). Each stream is in exactly one page; a stream made after the pass started may
 * be in one or in none, which the head check allows either way (unseen, then settled by its events).
 */
export async function* streamHeadPages(
  db: SqlExecutor,
  rowsPerPage: number = HEAD_PAGE_ROWS,
): AsyncGenerator<StreamHead[], void, undefined> {
  if (!Number.isInteger(rowsPerPage) || rowsPerPage < 1 || rowsPerPage > HEAD_PAGE_ROWS) {
    throw new RangeError(`stream head pages must be 1..${HEAD_PAGE_ROWS} rows, got ${rowsPerPage}`);
  }
  let after: string | undefined;
  for (;;) {
    const { rows } = await db.query<{ stream_id: string; version: number; head: string | null }>(
      after === undefined
        ? `select stream_id, version, encode(head_hash, 'hex') as head from es_streams order by stream_id limit $1`
        : `select stream_id, version, encode(head_hash, 'hex') as head from es_streams
           where stream_id > $2 order by stream_id limit $1`,
      after === undefined ? [rowsPerPage] : [rowsPerPage, after],
    );
    if (rows.length > 0) yield rows.map((r) => ({ streamId: r.stream_id, version: r.version, headHash: r.head }));
    if (rows.length < rowsPerPage) return;
    after = rows[rows.length - 1]!.stream_id;
  }
}
