import { createHash, hash } from 'node:crypto';

/**
 * The canonical encoding of an event in JS: as text (canonicalEventText), hashed (chainHash,
 * chainHashHex) and written a page at a time into one buffer (encodeEvents) that the audit reader
 * hashes in place and hands on. Its SQL form is in event-chain.ts.
 *
 * Tamper evidence: every stored event carries `hash` = SHA-256(previous hash of its stream ‖ the
 * event's canonical encoding). The first event of a stream chains from GENESIS_HASH. The append
 * computes it in SQL (one statement, see postgres-event-store.ts); the replay recomputes it here in
 * JS from the stored columns, so the encoding below is the single definition both must follow.
 *
 * Canonical encoding (UTF-8 text, fields separated by "\n"):
 *   tg-event/1
 *   <byte length of stream id>:<stream id>
 *   <stream version>
 *   <byte length of type>:<type>
 *   <schema version>
 *   <event id, lower-case UUID>
 *   <recorded time, UTC, microseconds: 2026-11-21T07:01:16.123456Z>
 *   <byte length of data>:<data as PostgreSQL prints jsonb>
 *   <metadata as PostgreSQL prints jsonb>
 * Text fields are length-prefixed so no choice of stream id or type can shift a field boundary.
 * jsonb's text form is canonical (keys sorted, one spacing), so it is what the data "is" once stored.
 */
export const CHAIN_ENCODING = 'tg-event/1';
export const HASH_BYTES = 32;
export const GENESIS_HASH = Buffer.alloc(HASH_BYTES, 0);
export const GENESIS_HASH_HEX = GENESIS_HASH.toString('hex');

/** The stored columns the hash covers, as text (what the verifier reads back). */
export interface ChainedEventFields {
  streamId: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  eventId: string;
  /** UTC, microseconds, `YYYY-MM-DDTHH:MM:SS.ffffffZ` (RECORDED_AT_SQL prints it so). */
  recordedAtUs: string;
  /** jsonb text as PostgreSQL prints it (`data::text`). */
  dataText: string;
  metadataText: string;
}

export function canonicalEventText(e: ChainedEventFields): string {
  return `${canonicalHead(e, Buffer.byteLength(e.dataText, 'utf8'))}${e.dataText}${canonicalTail(e)}`;
}

/** The canonical encoding up to the data (its length prefix included); one template, as it is on the hot path. */
function canonicalHead(e: ChainedEventFields, dataBytes: number): string {
  return (
    `${CHAIN_ENCODING}\n${Buffer.byteLength(e.streamId, 'utf8')}:${e.streamId}\n${e.streamVersion}\n` +
    `${Buffer.byteLength(e.type, 'utf8')}:${e.type}\n${e.schemaVersion}\n${e.eventId.toLowerCase()}\n` +
    `${e.recordedAtUs}\n${dataBytes}:`
  );
}

/** The canonical encoding after the data. */
function canonicalTail(e: ChainedEventFields): string {
  return `\n${e.metadataText}`;
}

export function chainHash(previousHash: Buffer, event: ChainedEventFields): Buffer {
  if (previousHash.length !== HASH_BYTES) throw new RangeError(`a chain hash has ${HASH_BYTES} bytes`);
  return createHash('sha256').update(previousHash).update(canonicalEventText(event), 'utf8').digest();
}

export const HASH_HEX_LENGTH = HASH_BYTES * 2;

/** The reused input buffer of chainHashHex (its thread's own: module state is per thread). */
const HASH_SCRATCH_BYTES = 256 * 1024;
const SCRATCH_TEXT_UNITS = Math.floor((HASH_SCRATCH_BYTES - HASH_BYTES) / 3);
const hashScratch = Buffer.allocUnsafe(HASH_SCRATCH_BYTES);

/** chainHash on hex text, as the audit reader has the stored hashes (no Buffer per event). */
export function chainHashHex(previousHashHex: string, event: ChainedEventFields): string {
  // A length check only (a pattern test per event cost 1.6% of a replay): non-hex digits end
  // Buffer's hex decoding early, so such a hash can only make the comparison fail, never pass.
  if (previousHashHex.length !== HASH_HEX_LENGTH) throw new RangeError(`a chain hash is ${HASH_HEX_LENGTH} hex digits`);
  const text = canonicalEventText(event);
  // One-shot hashing of one buffer (previous hash ‖ encoding): a Hash object and two updates per
  // event cost the replay's reader 0.6 µs more per event. UTF-8 takes at most 3 bytes per UTF-16
  // unit, so a text within SCRATCH_TEXT_UNITS always fits the reused buffer; a longer one gets its own.
  const buffer =
    text.length <= SCRATCH_TEXT_UNITS ? hashScratch : Buffer.allocUnsafe(HASH_BYTES + Buffer.byteLength(text, 'utf8'));
  // Non-hex digits end the decoding early: hash what createHash would have been given, as before.
  if (buffer.write(previousHashHex, 0, HASH_BYTES, 'hex') !== HASH_BYTES) {
    return createHash('sha256').update(previousHashHex, 'hex').update(text, 'utf8').digest('hex');
  }
  const length = HASH_BYTES + buffer.write(text, HASH_BYTES, 'utf8');
  return hash('sha256', buffer.subarray(0, length), 'hex');
}

/**
 * An encoded page's size at most: its offsets are 32-bit. The replay's pages are 2,000 events of
 * about a kilobyte each.
 */
export const MAX_ENCODED_PAGE_BYTES = 1024 * 1024 * 1024;

/**
 * Where an event sits in an encoded page: EncodedEvents.offsets holds ENCODED_OFFSETS values per
 * event, in the page's order. The previous hash's slot starts at SLOT; the canonical encoding runs
 * from HEAD (the slot's end) to METADATA_END, its data text from DATA_START to DATA_END; the
 * event's trailer (not hashed) from METADATA_END to TRAILER_END.
 */
export const SLOT = 0;
export const HEAD = 1;
export const DATA_START = 2;
export const DATA_END = 3;
export const METADATA_END = 4;
export const TRAILER_END = 5;
export const ENCODED_OFFSETS = 6;

/**
 * A page of events' hash inputs in one buffer: per event HASH_BYTES left for the previous hash of
 * its stream, its canonical encoding, then the caller's trailer for it (text that is not hashed).
 *
 * Why one buffer: the audit reader hashes each event in place (hashEncodedHex) and hands the page
 * to the projecting thread as one transferred buffer with no value per event to clone; that thread
 * reads the fields back (decodeEncodedHead) and the data text only for the events it parses.
 * Handing the events over as values costs the reader about a microsecond per event.
 */
export interface EncodedEvents {
  buffer: Buffer;
  offsets: Int32Array;
}

/**
 * The canonical encoding of each event (and its trailer, when `trailers` is given), in one new
 * buffer of its own (not from Buffer's pool, so that its memory can be transferred to another thread).
 */
export function encodeEvents(events: readonly ChainedEventFields[], trailers?: readonly string[]): EncodedEvents {
  if (trailers && trailers.length !== events.length) throw new RangeError('encodeEvents: one trailer per event');
  // Per event: everything before the data in one string, what follows it in another, so that a
  // page costs three writes per event (each write is a call into C++; one per field had
  // cost more than the copying).
  const heads = new Array<string>(events.length);
  const tails = new Array<string>(events.length);
  const sizes = new Int32Array(events.length * 3);
  let total = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const dataBytes = Buffer.byteLength(e.dataText, 'utf8');
    heads[i] = canonicalHead(e, dataBytes);
    tails[i] = canonicalTail(e);
    sizes[i * 3] = Buffer.byteLength(heads[i]!, 'utf8');
    sizes[i * 3 + 1] = dataBytes;
    sizes[i * 3 + 2] = Buffer.byteLength(tails[i]!, 'utf8');
    total += HASH_BYTES + sizes[i * 3]! + dataBytes + sizes[i * 3 + 2]!;
    if (trailers) total += Buffer.byteLength(trailers[i]!, 'utf8');
  }
  if (total > MAX_ENCODED_PAGE_BYTES) {
    throw new RangeError(`a page of events encodes to ${total} bytes, over ${MAX_ENCODED_PAGE_BYTES}`);
  }
  const buffer = Buffer.allocUnsafeSlow(total);
  const offsets = new Int32Array(events.length * ENCODED_OFFSETS);
  let at = 0;
  for (let i = 0; i < events.length; i++) {
    const o = i * ENCODED_OFFSETS;
    offsets[o + SLOT] = at;
    offsets[o + HEAD] = at += HASH_BYTES;
    offsets[o + DATA_START] = at += buffer.write(heads[i]!, at, 'utf8');
    offsets[o + DATA_END] = at += buffer.write(events[i]!.dataText, at, 'utf8');
    offsets[o + METADATA_END] = at += buffer.write(tails[i]!, at, 'utf8');
    offsets[o + TRAILER_END] = at += trailers ? buffer.write(trailers[i]!, at, 'utf8') : 0;
    // Each write took exactly the bytes counted above (a short one would shift every later event).
    const head = offsets[o + DATA_START]! - offsets[o + HEAD]!;
    const data = offsets[o + DATA_END]! - offsets[o + DATA_START]!;
    const tail = offsets[o + METADATA_END]! - offsets[o + DATA_END]!;
    if (head !== sizes[i * 3] || data !== sizes[i * 3 + 1] || tail !== sizes[i * 3 + 2]) {
      throw new Error('encodeEvents: a write was cut short');
    }
  }
  if (at !== total) throw new Error(`encodeEvents: wrote ${at} bytes of ${total}`);
  return { buffer, offsets };
}

/** chainHashHex of the event at `index` of an encoded page: its previous hash goes into its slot. */
export function hashEncodedHex(previousHashHex: string, encoded: EncodedEvents, index: number): string {
  if (previousHashHex.length !== HASH_HEX_LENGTH) throw new RangeError(`a chain hash is ${HASH_HEX_LENGTH} hex digits`);
  const o = index * ENCODED_OFFSETS;
  const start = encoded.offsets[o + SLOT]!;
  const end = encoded.offsets[o + METADATA_END]!;
  if (encoded.buffer.write(previousHashHex, start, HASH_BYTES, 'hex') !== HASH_BYTES) {
    // Non-hex digits end the decoding early: hash what createHash would have been given, as chainHashHex does.
    return createHash('sha256')
      .update(previousHashHex, 'hex')
      .update(encoded.buffer.subarray(start + HASH_BYTES, end))
      .digest('hex');
  }
  return hash('sha256', encoded.buffer.subarray(start, end), 'hex');
}

/** The hashed fields before the data, as decodeEncodedHead reads them back. */
export interface EncodedHead {
  streamId: string;
  type: string;
  eventId: string;
  recordedAtUs: string;
}

/**
 * The text fields of the head of the event at `index` (its encoding up to the data), decoded with
 * one call. The stream id's and the type's lengths in UTF-16 units (`streamIdUnits`, `typeUnits`,
 * which the encoder's caller knows) delimit them, since either may hold any character; the event id
 * (a UUID) and the recorded time never hold a newline. The fields are slices of the one decoded head.
 */
export function decodeEncodedHead(
  encoded: EncodedEvents,
  index: number,
  streamIdUnits: number,
  typeUnits: number,
): EncodedHead {
  const o = index * ENCODED_OFFSETS;
  const head = encoded.buffer.toString('utf8', encoded.offsets[o + HEAD], encoded.offsets[o + DATA_START]);
  // `tg-event/1\n<bytes>:<stream id>\n<version>\n<bytes>:<type>\n<schema version>\n<event id>\n<recorded time>\n<bytes>:`
  let at = head.indexOf(':', CHAIN_ENCODING.length) + 1;
  const streamId = head.slice(at, (at += streamIdUnits));
  if (head.charCodeAt(at) !== NEWLINE) throw new Error('decodeEncodedHead: the stream id has another length');
  at = head.indexOf('\n', at + 1) + 1; // past the stream version
  at = head.indexOf(':', at) + 1;
  const type = head.slice(at, (at += typeUnits));
  if (head.charCodeAt(at) !== NEWLINE) throw new Error('decodeEncodedHead: the type has another length');
  at = head.indexOf('\n', at + 1) + 1; // past the schema version
  const eventIdEnd = head.indexOf('\n', at);
  const recordedAtEnd = head.indexOf('\n', eventIdEnd + 1);
  if (at === 0 || eventIdEnd < 0 || recordedAtEnd < 0) throw new Error('decodeEncodedHead: not an encoded event');
  return {
    streamId,
    type,
    eventId: head.slice(at, eventIdEnd),
    recordedAtUs: head.slice(eventIdEnd + 1, recordedAtEnd),
  };
}

const NEWLINE = 10;

/** The data text of the event at `index` of an encoded page (decoded on each call). */
export function encodedDataText(encoded: EncodedEvents, index: number): string {
  const o = index * ENCODED_OFFSETS;
  return encoded.buffer.toString('utf8', encoded.offsets[o + DATA_START], encoded.offsets[o + DATA_END]);
}

/** The metadata text of the event at `index` of an encoded page (decoded on each call). */
export function encodedMetadataText(encoded: EncodedEvents, index: number): string {
  const o = index * ENCODED_OFFSETS;
  return encoded.buffer.toString('utf8', encoded.offsets[o + DATA_END]! + 1, encoded.offsets[o + METADATA_END]);
}

/** The trailer of the event at `index` of an encoded page. */
export function encodedTrailer(encoded: EncodedEvents, index: number): string {
  const o = index * ENCODED_OFFSETS;
  return encoded.buffer.toString('utf8', encoded.offsets[o + METADATA_END], encoded.offsets[o + TRAILER_END]);
}
