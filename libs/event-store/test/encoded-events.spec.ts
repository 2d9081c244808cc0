import { MessageChannel, type MessagePort } from 'node:worker_threads';
import {
  DATA_END,
  DATA_START,
  ENCODED_OFFSETS,
  GENESIS_HASH_HEX,
  HEAD,
  METADATA_END,
  SLOT,
  TRAILER_END,
  canonicalEventText,
  chainHashHex,
  decodeEncodedHead,
  encodeEvents,
  encodedDataText,
  encodedMetadataText,
  encodedTrailer,
  hashEncodedHex,
  type ChainedEventFields,
} from '../src/store/chain-encoding.js';
import { createdAtOf, type AuditRow } from '../src/audit/audit-reader.js';
import { factsOf, pageMessage, rowsOfPage, trailerOf, type FromReader } from '../src/audit/audit-read-protocol.js';
import { plainAuditRow } from './plain-audit-row.js';

/**
 * A page's encoding (chain-encoding.ts, encodeEvents) is what the audit reader hashes and hands to
 * the projection: its bytes must be the canonical encoding, its hash chainHashHex's, and what the
 * projection reads back from it the fields that went in, whatever characters they hold.
 */
const PREVIOUS = 'cd'.repeat(32);

function event(i: number, streamId: string, type: string, dataText: string): ChainedEventFields {
  return {
    streamId,
    streamVersion: i + 1,
    type,
    schemaVersion: (i % 3) + 1,
    eventId: `A1B2C3D4-0000-4000-8000-${String(i).padStart(12, '0')}`,
    recordedAtUs: `2026-11-2${i % 10}T07:01:16.1234${String(i % 100).padStart(2, '0')}Z`,
    dataText,
    metadataText: i % 2 ? '{}' : `{"actor": "op-${i}", "note": "Şule"}`,
  };
}

const EVENTS: ChainedEventFields[] = [
  event(0, 'txn-1', 'DepositRequested', '{"a": 1}'),
  event(1, 'akış-ğüş', 'Türkçe\nTür', '{"ad": "Ayşe Öztürk İ", "e": "😀 \\u0001"}'),
  event(2, 'line\nbreak:9:', '1:2\n', '{}'),
  event(3, '😀', 'x', `{"s": "${'€'.repeat(3_000)}"}`),
  event(4, 'merchant-ledger-m1', 'TransfersPosted', '[]'),
];

describe('encodeEvents (a page of hash inputs in one buffer)', () => {
  const encoded = encodeEvents(EVENTS, ['t0', 'ş1', '', 't\n3', '-']);

  it('holds each event’s canonical encoding after a slot for the previous hash, then its trailer', () => {
    const { buffer, offsets } = encoded;
    expect(offsets).toHaveLength(EVENTS.length * ENCODED_OFFSETS);
    let at = 0;
    EVENTS.forEach((e, i) => {
      const o = i * ENCODED_OFFSETS;
      expect(offsets[o + SLOT]).toBe(at);
      expect(offsets[o + HEAD]).toBe(at + 32);
      const canonical = buffer.subarray(offsets[o + HEAD], offsets[o + METADATA_END]);
      expect(canonical.equals(Buffer.from(canonicalEventText(e), 'utf8'))).toBe(true);
      expect(buffer.toString('utf8', offsets[o + DATA_START], offsets[o + DATA_END])).toBe(e.dataText);
      at = offsets[o + TRAILER_END]!;
    });
    expect(at).toBe(buffer.length);
    // Its own memory, whole: a page's buffer is transferred to the projecting thread.
    expect(buffer.byteOffset).toBe(0);
    expect(buffer.buffer.byteLength).toBe(buffer.length);
  });

  it('hashes each event in place as chainHashHex does, with a genesis, a stored and a damaged previous hash', () => {
    const damaged = `${'ab'.repeat(20)}zz${'ab'.repeat(11)}`;
    EVENTS.forEach((e, i) => {
      for (const previous of [GENESIS_HASH_HEX, PREVIOUS, damaged]) {
        expect(hashEncodedHex(previous, encoded, i)).toBe(chainHashHex(previous, e));
      }
    });
    expect(() => hashEncodedHex('ab', encoded, 0)).toThrow(RangeError);
  });

  it('reads every field back, stream ids and types with any character included', () => {
    EVENTS.forEach((e, i) => {
      expect(decodeEncodedHead(encoded, i, e.streamId.length, e.type.length)).toEqual({
        streamId: e.streamId,
        type: e.type,
        eventId: e.eventId.toLowerCase(),
        recordedAtUs: e.recordedAtUs,
      });
      expect(encodedDataText(encoded, i)).toBe(e.dataText);
      expect(encodedMetadataText(encoded, i)).toBe(e.metadataText);
    });
    expect(EVENTS.map((_, i) => encodedTrailer(encoded, i))).toEqual(['t0', 'ş1', '', 't\n3', '-']);
  });

  it('refuses a head read with lengths that are not the event’s, and trailers that do not match the events', () => {
    expect(() => decodeEncodedHead(encoded, 1, EVENTS[1]!.streamId.length - 1, EVENTS[1]!.type.length)).toThrow(
      /stream id has another length/,
    );
    expect(() => decodeEncodedHead(encoded, 1, EVENTS[1]!.streamId.length, EVENTS[1]!.type.length + 1)).toThrow(
      /type has another length/,
    );
    expect(() => encodeEvents(EVENTS, ['one'])).toThrow(RangeError);
  });
});

describe('a reader page between threads (audit-read-protocol.ts)', () => {
  function auditRow(e: ChainedEventFields, i: number): AuditRow {
    return {
      ...e,
      eventId: e.eventId.toLowerCase(),
      position: { commitXid: String(900 + i), seq: String(18_446_744_073_709 + i) },
      createdAt: createdAtOf(e.recordedAtUs),
      hash: [PREVIOUS, null, '', PREVIOUS.toUpperCase(), GENESIS_HASH_HEX][i]!,
    };
  }

  async function across(port1: MessagePort, port2: MessagePort, projected: number) {
    const rows = EVENTS.map(auditRow);
    const encoded = encodeEvents(rows, rows.map(trailerOf));
    const { message, transfer } = pageMessage(rows.length, projected, encoded, factsOf(rows), []);
    const arrived = new Promise<FromReader>((resolve) => port2.once('message', resolve));
    port1.postMessage(message, transfer);
    const received = await arrived;
    if (received.kind !== 'page') throw new Error(received.kind);
    return { rows, encoded, received };
  }

  it('hands the events to project over with their memory, not a copy, and reads them back whole', async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const { rows, encoded, received } = await across(port1, port2, 4);
      // Transferred: the sender's buffers are gone.
      expect(encoded.buffer.buffer.byteLength).toBe(0);
      expect(encoded.offsets.length).toBe(0);
      expect(received.read).toBe(5);
      const back = rowsOfPage(received);
      expect(back.map(plainAuditRow)).toEqual(rows.slice(0, 4).map(plainAuditRow));
      // An empty stored hash is not a missing one.
      expect(back[1]!.hash).toBeNull();
      expect(back[2]!.hash).toBe('');
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('refuses a page whose parts do not match', async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const { received } = await across(port1, port2, 5);
      expect(() => rowsOfPage({ ...received, projected: 6 })).toThrow(/do not match/);
      expect(() => rowsOfPage({ ...received, facts: received.facts.subarray(4) })).toThrow(/do not match/);
    } finally {
      port1.close();
      port2.close();
    }
  });
});
