import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { MAX_ENCODED_PAGE_BYTES } from '../store/chain-encoding.js';
import { recordedAtSql } from '../store/event-chain.js';
import { MAX_READ_BATCH, type GlobalPosition } from '../store/event-store.js';
import { readBinaryCopy, type CopiedRows } from './binary-copy.js';
import {
  COPIED_FIELD_COUNT,
  copiedPosition,
  encodeCopiedPage,
  rowsWithServerTime,
  type CopiedPage,
} from './copied-page-encoding.js';

/**
 * The audit reader's page on PostgreSQL (audit-read.worker.ts): the same key-set page as
 * readAuditBatch (audit-reader.ts), read with `COPY (select …) TO STDOUT (FORMAT binary)` and
 * encoded from the bytes the server sent (copied-page-encoding.ts).
 *
 * Why COPY: pg decodes every field of every row into a string and builds an object per row; the
 * reader only copies the data and metadata into the page's encoding, so that work was all waste.
 * At 1M events it cost the reader's thread about a second more, and the server also prints less
 * (binary integers, uuids and times). COPY takes no parameters: the positions are written into the
 * statement, after checking that they are decimal digits only.
 */
export function copiedPageSql(after: GlobalPosition, until: GlobalPosition, limit: number): string {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_READ_BATCH) {
    throw new RangeError(`audit batch must be 1..${MAX_READ_BATCH}, got ${limit}`);
  }
  for (const value of [after.commitXid, after.seq, until.commitXid, until.seq]) {
    if (!DIGITS.test(value)) throw new RangeError(`a position is decimal digits, got ${JSON.stringify(value)}`);
  }
  // Ordered by the table's columns: an output name would sort by the text of the cast.
  return `copy (
     select seq::text, xid::text, event_id, stream_id, stream_version, type, schema_version, data::text,
            metadata::text, created_at, hash
     from es_events
     where (xid, seq) > ('${after.commitXid}'::xid8, ${after.seq}::bigint)
       and (xid, seq) <= ('${until.commitXid}'::xid8, ${until.seq}::bigint)
     order by es_events.xid, es_events.seq limit ${limit}
   ) to stdout (format binary)`;
}
const DIGITS = /^[0-9]{1,20}$/;

/**
 * One page's rows as the server sent them, unencoded (the benchmark's raw read reads so); empty
 * past `until`. `client` is a connection of the caller's own (a COPY holds it until its end).
 */
export async function readCopiedRows(
  client: pg.ClientBase,
  after: GlobalPosition,
  until: GlobalPosition,
  limit: number,
): Promise<CopiedRows> {
  return readBinaryCopy(await copyOut(client, copiedPageSql(after, until, limit)), COPIED_FIELD_COUNT, limit);
}

/** Reads and encodes one page on `client` (a connection of the reader's own); the page is empty past `until`. */
export async function readCopiedPage(
  client: pg.ClientBase,
  after: GlobalPosition,
  until: GlobalPosition,
  limit: number,
): Promise<CopiedPage> {
  const rows = await readCopiedRows(client, after, until, limit);
  const odd = rowsWithServerTime(rows);
  const serverTimes = new Map<number, string>();
  if (odd.length > 0) {
    // Rare (an edited row): the server prints these times as the append's SQL did.
    const seqs = odd.map((r) => copiedPosition(rows, r).seq);
    const { rows: printed } = await client.query<{ seq: string; at: string | null }>(
      `select seq::text as seq, ${recordedAtSql('created_at')} as at from es_events where seq = any($1::bigint[])`,
      [seqs],
    );
    const bySeq = new Map(printed.map((p) => [p.seq, p.at]));
    odd.forEach((r, i) => {
      const at = bySeq.get(seqs[i]!);
      if (at === undefined || at === null) {
        throw new Error(`event at seq ${seqs[i]} has a recorded time the canonical encoding cannot print`);
      }
      serverTimes.set(r, at);
    });
  }
  return encodeCopiedPage(rows, serverTimes);
}

/** A COPY's whole output in one buffer, at most MAX_ENCODED_PAGE_BYTES. */
async function copyOut(client: pg.ClientBase, sql: string): Promise<Buffer> {
  const stream = client.query(copyTo(sql));
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_ENCODED_PAGE_BYTES) {
      stream.destroy();
      throw new RangeError(`a page's COPY output is over ${MAX_ENCODED_PAGE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}
