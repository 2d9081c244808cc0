import {
  ENCODED_OFFSETS,
  decodeEncodedHead,
  encodedDataText,
  encodedMetadataText,
  encodedTrailer,
  type EncodedEvents,
} from '../store/chain-encoding.js';
import type { BrokenLink } from '../store/event-chain.js';
import type { GlobalPosition } from '../store/event-store.js';
import type { PostgresConnection } from '../sql/postgres-database.js';
import { createdAtOf, type AuditRow } from './audit-reader.js';
import type { HeadCheck } from './chain-check-protocol.js';

/**
 * Messages between an audit pass (audit-pass.ts) and its reader thread (audit-read.worker.ts).
 * A page's events travel in the page's encoding (chain-encoding.ts, encodeEvents), whose memory is
 * transferred with the message, and in one Int32Array of facts: no value per event to clone.
 */
export interface ReaderSettings {
  connection: PostgresConnection;
  readUntil: GlobalPosition;
  projectUntil: GlobalPosition;
  batchEvents: number;
  /** Pages sent and not yet taken, at most. */
  pagesAhead: number;
  /** Streams the chain check holds before it spills (bounded-chain-check.ts). */
  maxStreamHeads: number;
}

export type ToReader = { kind: 'taken' } | { kind: 'heads' };

export type FromReader =
  /**
   * `read` events checked; the first `projected` of them (global order: those up to projectUntil)
   * are the page's events to project, each in `encoded` (the whole page's encoding, transferred, not
   * copied) with its FACTS_PER_EVENT values in `facts`; `broken` the page's links, in order.
   */
  | {
      kind: 'page';
      read: number;
      projected: number;
      encoded: EncodedOnTheWire;
      facts: Int32Array;
      broken: BrokenLink[];
    }
  /** After the last page; `spilled`: the chain check held more than maxStreamHeads streams and spilled the rest. */
  | { kind: 'end'; spilled: boolean }
  | { kind: 'heads'; result: HeadCheck }
  | { kind: 'failed'; message: string };

/** A page's encoding as sent (a Buffer) and as the structured clone delivers it (a plain Uint8Array). */
export interface EncodedOnTheWire {
  buffer: Uint8Array;
  offsets: Int32Array;
}

/** Per event in a page's `facts`: its stream id's and type's lengths in UTF-16 units, its two versions. */
export const FACTS_PER_EVENT = 4;

/** A page's message: `read` events, the first `projected` of them to project. */
export function pageMessage(
  read: number,
  projected: number,
  encoded: EncodedEvents,
  facts: Int32Array,
  broken: BrokenLink[],
): { message: FromReader; transfer: ArrayBuffer[] } {
  if (encoded.offsets.length !== read * ENCODED_OFFSETS || facts.length !== read * FACTS_PER_EVENT) {
    throw new Error('audit read: a page whose parts do not match');
  }
  const transfer = [encoded.buffer.buffer, encoded.offsets.buffer, facts.buffer] as ArrayBuffer[];
  return { message: { kind: 'page', read, projected, encoded, facts, broken }, transfer };
}

/**
 * A page's facts (FACTS_PER_EVENT per event) from its events as values: their definition. The
 * reader writes them from the bytes it copied (copied-page-encoding.ts), tested against this.
 */
export function factsOf(rows: readonly AuditRow[]): Int32Array {
  const facts = new Int32Array(rows.length * FACTS_PER_EVENT);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    facts[i * FACTS_PER_EVENT] = row.streamId.length;
    facts[i * FACTS_PER_EVENT + 1] = row.type.length;
    facts[i * FACTS_PER_EVENT + 2] = row.streamVersion;
    facts[i * FACTS_PER_EVENT + 3] = row.schemaVersion;
  }
  return facts;
}

/**
 * The trailer after each event of a page (chain-encoding.ts), defined from the event as a value
 * (the reader writes it from the bytes it copied, copied-page-encoding.ts): what the projection needs
 * beside the hashed fields, as ASCII. The stored hash is marked so that none (null) and an empty
 * one stay apart.
 */
export function trailerOf(row: AuditRow): string {
  return `${row.position.commitXid}\n${row.position.seq}\n${row.hash === null ? '-' : `=${row.hash}`}`;
}

/** The events to project of a page's message, read back from its encoding. */
export function rowsOfPage(message: Extract<FromReader, { kind: 'page' }>): AuditRow[] {
  const bytes = message.encoded.buffer;
  const encoded: EncodedEvents = {
    buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    offsets: message.encoded.offsets,
  };
  const events = encoded.offsets.length / ENCODED_OFFSETS;
  if (message.projected > events || message.facts.length !== events * FACTS_PER_EVENT) {
    throw new Error('audit read: a page whose parts do not match');
  }
  const rows: AuditRow[] = [];
  for (let i = 0; i < message.projected; i++) rows.push(new HandedOverRow(encoded, message.facts, i));
  return rows;
}

/**
 * An event from the reader, read back from its page's encoding. The data and metadata texts are
 * decoded when read (on each read), so an event folded without its data never has that text as a
 * string. It holds its page's encoding while it is referenced; its fields are slices of the event's
 * decoded head (a few hundred bytes each).
 */
class HandedOverRow implements AuditRow {
  readonly position: GlobalPosition;
  readonly eventId: string;
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly recordedAtUs: string;
  readonly createdAt: string;
  readonly hash: string | null;

  constructor(
    private readonly encoded: EncodedEvents,
    facts: Int32Array,
    private readonly index: number,
  ) {
    const f = index * FACTS_PER_EVENT;
    const head = decodeEncodedHead(encoded, index, facts[f]!, facts[f + 1]!);
    this.streamId = head.streamId;
    this.type = head.type;
    this.eventId = head.eventId;
    this.recordedAtUs = head.recordedAtUs;
    this.createdAt = createdAtOf(head.recordedAtUs);
    this.streamVersion = facts[f + 2]!;
    this.schemaVersion = facts[f + 3]!;
    const trailer = encodedTrailer(encoded, index);
    const seqStart = trailer.indexOf('\n') + 1;
    const hashStart = trailer.indexOf('\n', seqStart) + 1;
    if (seqStart === 0 || hashStart === 0) throw new Error('audit read: an event without its position');
    this.position = { commitXid: trailer.slice(0, seqStart - 1), seq: trailer.slice(seqStart, hashStart - 1) };
    this.hash = trailer[hashStart] === '=' ? trailer.slice(hashStart + 1) : null;
  }

  get dataText(): string {
    return encodedDataText(this.encoded, this.index);
  }

  get metadataText(): string {
    return encodedMetadataText(this.encoded, this.index);
  }
}
