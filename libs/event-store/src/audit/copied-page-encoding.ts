import {
  CHAIN_ENCODING,
  DATA_END,
  DATA_START,
  ENCODED_OFFSETS,
  HASH_BYTES,
  HEAD,
  MAX_ENCODED_PAGE_BYTES,
  METADATA_END,
  SLOT,
  TRAILER_END,
  type EncodedEvents,
} from '../store/chain-encoding.js';
import type { LinkedEvent } from '../store/event-chain.js';
import type { GlobalPosition } from '../store/event-store.js';
import { FACTS_PER_EVENT } from './audit-read-protocol.js';
import type { CopiedRows } from './binary-copy.js';
import { decimalBytes, writeDecimal } from './decimal-text.js';
import { RECORDED_TIME_BYTES, writeRecordedTime, writtenMicros } from './recorded-time.js';

/**
 * A page read by binary COPY (copied-page-read.ts), written into the page encoding the audit
 * reader hashes and hands on (chain-encoding.ts, EncodedEvents) straight from the bytes the server
 * sent: the data and metadata are copied, never decoded into strings and encoded again. The bytes
 * and offsets are exactly what encodeEvents(events, events.map(trailerOf)) writes for the same
 * rows (libs/event-store/test/copied-page.postgres.spec.ts holds them side by side).
 *
 * The page query's columns, in this order (copied-page-read.ts selects them so):
 */
export const COPIED_FIELDS = {
  seq: 0, // bigint as text
  xid: 1, // xid8 as text
  eventId: 2, // uuid, 16 bytes
  streamId: 3, // text
  streamVersion: 4, // integer, 4 bytes
  type: 5, // text
  schemaVersion: 6, // integer, 4 bytes
  data: 7, // jsonb as text
  metadata: 8, // jsonb as text
  createdAt: 9, // timestamptz, int64 microseconds since 2000-01-01 UTC
  hash: 10, // bytea, or null
} as const;
export const COPIED_FIELD_COUNT = 11;

/** A copied page: the events for the chain check, their encoding and their facts (audit-read-protocol.ts). */
export interface CopiedPage {
  events: CopiedEvent[];
  encoded: EncodedEvents;
  facts: Int32Array;
}

/**
 * The recorded times the server printed, by row index, for the rows whose time writeRecordedTime
 * leaves to it (rowsWithServerTime).
 */
export type ServerTimes = ReadonlyMap<number, string>;

/** The rows of a page whose recorded time only the server prints (outside 1970-2199). */
export function rowsWithServerTime(rows: CopiedRows): number[] {
  const odd: number[] = [];
  for (let r = 0; r < rows.rows; r++) {
    const f = r * rows.fieldsPerRow + COPIED_FIELDS.createdAt;
    if (rows.lengths[f] !== 8) throw new Error('copied page: a recorded time is not 8 bytes');
    if (writtenMicros(rows.buffer, rows.starts[f]!) === undefined) odd.push(r);
  }
  return odd;
}

const PREFIX = Buffer.from(`${CHAIN_ENCODING}\n`, 'latin1');
const NEWLINE = 0x0a;
const COLON = 0x3a;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/**
 * The page's encoding, facts and events. `serverTimes` holds the server's text for every row
 * rowsWithServerTime names (and may hold more).
 */
export function encodeCopiedPage(rows: CopiedRows, serverTimes: ServerTimes = new Map()): CopiedPage {
  if (rows.fieldsPerRow !== COPIED_FIELD_COUNT) throw new Error(`copied page: rows of ${rows.fieldsPerRow} fields`);
  const { buffer: source, starts, lengths } = rows;
  const n = rows.rows;
  const events = new Array<CopiedEvent>(n);
  const facts = new Int32Array(n * FACTS_PER_EVENT);
  const timeTexts = new Array<Buffer | undefined>(n);
  // First pass: the fields' checks, the events and every event's size.
  let total = 0;
  for (let r = 0; r < n; r++) {
    const f = r * COPIED_FIELD_COUNT;
    for (const field of NOT_NULL) {
      if (lengths[f + field]! < 0) throw new Error(`copied page: field ${field} is null`);
    }
    if (lengths[f + COPIED_FIELDS.eventId] !== 16) throw new Error('copied page: an event id is not 16 bytes');
    if (lengths[f + COPIED_FIELDS.streamVersion] !== 4 || lengths[f + COPIED_FIELDS.schemaVersion] !== 4) {
      throw new Error('copied page: a version is not 4 bytes');
    }
    const streamVersion = source.readInt32BE(starts[f + COPIED_FIELDS.streamVersion]!);
    const schemaVersion = source.readInt32BE(starts[f + COPIED_FIELDS.schemaVersion]!);
    const streamIdBytes = lengths[f + COPIED_FIELDS.streamId]!;
    const typeBytes = lengths[f + COPIED_FIELDS.type]!;
    const dataBytes = lengths[f + COPIED_FIELDS.data]!;
    const hashBytes = lengths[f + COPIED_FIELDS.hash]!;
    const streamIdStart = starts[f + COPIED_FIELDS.streamId]!;
    const streamId = source.toString('utf8', streamIdStart, streamIdStart + streamIdBytes);
    const hash =
      hashBytes < 0
        ? null
        : source.toString('hex', starts[f + COPIED_FIELDS.hash], starts[f + COPIED_FIELDS.hash]! + hashBytes);
    events[r] = new CopiedEvent(rows, r, streamId, streamVersion, hash);
    facts[r * FACTS_PER_EVENT] = streamId.length;
    facts[r * FACTS_PER_EVENT + 1] = utf16Units(source, starts[f + COPIED_FIELDS.type]!, typeBytes);
    facts[r * FACTS_PER_EVENT + 2] = streamVersion;
    facts[r * FACTS_PER_EVENT + 3] = schemaVersion;
    let timeBytes = RECORDED_TIME_BYTES;
    const serverTime = serverTimes.get(r);
    if (serverTime !== undefined) {
      const text = Buffer.from(serverTime, 'utf8');
      timeTexts[r] = text;
      timeBytes = text.length;
    }
    total +=
      HASH_BYTES +
      PREFIX.length +
      decimalBytes(streamIdBytes) +
      1 +
      streamIdBytes +
      1 +
      decimalBytes(streamVersion) +
      1 +
      decimalBytes(typeBytes) +
      1 +
      typeBytes +
      1 +
      decimalBytes(schemaVersion) +
      1 +
      UUID_TEXT_BYTES +
      1 +
      timeBytes +
      1 +
      decimalBytes(dataBytes) +
      1 +
      dataBytes +
      1 +
      lengths[f + COPIED_FIELDS.metadata]! +
      lengths[f + COPIED_FIELDS.xid]! +
      1 +
      lengths[f + COPIED_FIELDS.seq]! +
      1 +
      (hash === null ? 1 : 1 + hash.length);
  }
  if (total > MAX_ENCODED_PAGE_BYTES) {
    throw new RangeError(`a page of events encodes to ${total} bytes, over ${MAX_ENCODED_PAGE_BYTES}`);
  }
  // Second pass: the bytes, in a buffer of its own (transferable, as encodeEvents makes it).
  const target = Buffer.allocUnsafeSlow(total);
  const offsets = new Int32Array(n * ENCODED_OFFSETS);
  let at = 0;
  const copy = (field: number, f: number): void => {
    at += source.copy(target, at, starts[f + field]!, starts[f + field]! + lengths[f + field]!);
  };
  for (let r = 0; r < n; r++) {
    const f = r * COPIED_FIELD_COUNT;
    const o = r * ENCODED_OFFSETS;
    const event = events[r]!;
    offsets[o + SLOT] = at;
    at += HASH_BYTES;
    offsets[o + HEAD] = at;
    at += PREFIX.copy(target, at);
    at = writeDecimal(target, at, lengths[f + COPIED_FIELDS.streamId]!);
    target[at++] = COLON;
    copy(COPIED_FIELDS.streamId, f);
    target[at++] = NEWLINE;
    at = writeDecimal(target, at, event.streamVersion);
    target[at++] = NEWLINE;
    at = writeDecimal(target, at, lengths[f + COPIED_FIELDS.type]!);
    target[at++] = COLON;
    copy(COPIED_FIELDS.type, f);
    target[at++] = NEWLINE;
    at = writeDecimal(target, at, facts[r * FACTS_PER_EVENT + 3]!);
    target[at++] = NEWLINE;
    at = writeUuid(source, starts[f + COPIED_FIELDS.eventId]!, target, at);
    target[at++] = NEWLINE;
    const timeText = timeTexts[r];
    if (timeText) {
      at += timeText.copy(target, at);
    } else {
      if (!writeRecordedTime(source, starts[f + COPIED_FIELDS.createdAt]!, target, at)) {
        throw new Error(`copied page: row ${r}'s recorded time was left to the server, which did not print it`);
      }
      at += RECORDED_TIME_BYTES;
    }
    target[at++] = NEWLINE;
    at = writeDecimal(target, at, lengths[f + COPIED_FIELDS.data]!);
    target[at++] = COLON;
    offsets[o + DATA_START] = at;
    copy(COPIED_FIELDS.data, f);
    offsets[o + DATA_END] = at;
    target[at++] = NEWLINE;
    copy(COPIED_FIELDS.metadata, f);
    offsets[o + METADATA_END] = at;
    copy(COPIED_FIELDS.xid, f);
    target[at++] = NEWLINE;
    copy(COPIED_FIELDS.seq, f);
    target[at++] = NEWLINE;
    if (event.hash === null) {
      target[at++] = MINUS;
    } else {
      target[at++] = EQUALS;
      at += target.write(event.hash, at, 'latin1');
    }
    offsets[o + TRAILER_END] = at;
  }
  if (at !== total) throw new Error(`copied page: wrote ${at} bytes of ${total}`);
  return { events, encoded: { buffer: target, offsets }, facts };
}

const NOT_NULL = [
  COPIED_FIELDS.seq,
  COPIED_FIELDS.xid,
  COPIED_FIELDS.eventId,
  COPIED_FIELDS.streamId,
  COPIED_FIELDS.streamVersion,
  COPIED_FIELDS.type,
  COPIED_FIELDS.schemaVersion,
  COPIED_FIELDS.data,
  COPIED_FIELDS.metadata,
  COPIED_FIELDS.createdAt,
];
const UUID_TEXT_BYTES = 36;
const MINUS = 0x2d;
const EQUALS = 0x3d;

/**
 * An event of a copied page, as the chain check reads it. Its event id and position are read from
 * the page's bytes when asked for (the check asks only for a broken link's, and the reader for a
 * page's last).
 */
export class CopiedEvent implements LinkedEvent {
  constructor(
    private readonly rows: CopiedRows,
    private readonly row: number,
    readonly streamId: string,
    readonly streamVersion: number,
    readonly hash: string | null,
  ) {}

  get eventId(): string {
    const text = Buffer.allocUnsafe(UUID_TEXT_BYTES);
    writeUuid(this.rows.buffer, this.rows.starts[this.row * COPIED_FIELD_COUNT + COPIED_FIELDS.eventId]!, text, 0);
    return text.toString('latin1');
  }

  get position(): GlobalPosition {
    return copiedPosition(this.rows, this.row);
  }
}

/** The position of a copied page's row. */
export function copiedPosition(rows: CopiedRows, row: number): GlobalPosition {
  if (!Number.isInteger(row) || row < 0 || row >= rows.rows) throw new RangeError(`no row ${row} in the page`);
  const text = (field: number) => {
    const f = row * COPIED_FIELD_COUNT + field;
    return rows.buffer.toString('latin1', rows.starts[f], rows.starts[f]! + rows.lengths[f]!);
  };
  return { commitXid: text(COPIED_FIELDS.xid), seq: text(COPIED_FIELDS.seq) };
}

/** A uuid's 16 bytes as its lower-case text (8-4-4-4-12), as uuid_out prints it. */
function writeUuid(source: Buffer, from: number, target: Buffer, at: number): number {
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) target[at++] = MINUS;
    const byte = source[from + i]!;
    target[at++] = HEX[byte >> 4]!;
    target[at++] = HEX[byte & 15]!;
  }
  return at;
}

/** The UTF-16 length of valid UTF-8 bytes: one unit per character, two for one past U+FFFF (a 4-byte sequence). */
function utf16Units(source: Buffer, from: number, bytes: number): number {
  let units = 0;
  for (let i = from; i < from + bytes; i++) {
    const byte = source[i]!;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}
