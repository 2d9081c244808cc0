import { GENESIS_HASH_HEX } from '../src/store/chain-encoding.js';
import { ChainVerifier, type AuditedEvent } from '../src/store/event-chain.js';

/** An event of `streamId` at `version`; its hash is wrong (the eviction order is what is checked here). */
function event(streamId: string, version: number): AuditedEvent {
  return {
    streamId,
    streamVersion: version,
    type: 'Evicted',
    schemaVersion: 1,
    eventId: `${streamId}-${version}`,
    recordedAtUs: '2026-11-29T10:00:00.000000Z',
    dataText: '{}',
    metadataText: '{}',
    hash: GENESIS_HASH_HEX,
    position: { commitXid: '1', seq: String(version) },
  };
}

const ids = (entries: Array<[string, unknown]>) => entries.map(([streamId]) => streamId).sort();

describe('ChainVerifier.evictOldest (the bounded chain check)', () => {
  it('hands out the least recently seen streams, a restored one counting as just seen', () => {
    const verifier = new ChainVerifier();
    for (const [id, version] of [
      ['a', 1],
      ['b', 1],
      ['c', 1],
      ['d', 1],
      ['a', 2],
      ['e', 1],
      ['b', 2],
    ] as const)
      verifier.accept(event(id, version));
    // Last seen, oldest first: c, d, a, e, b.
    expect(verifier.evictOldest(0)).toEqual([]);
    const out = verifier.evictOldest(2);
    expect(ids(out)).toEqual(['c', 'd']);
    expect(out.find(([id]) => id === 'd')![1]).toMatchObject({ version: 1, hashHex: GENESIS_HASH_HEX });
    expect(verifier.streamsHeld).toBe(3);
    expect(verifier.holds('c')).toBe(false);

    verifier.restore('c', { version: 1, hashHex: GENESIS_HASH_HEX });
    expect(() => verifier.restore('c', { version: 1, hashHex: GENESIS_HASH_HEX })).toThrow(/held already/);
    // Now a, e, b, then the restored c.
    expect(ids(verifier.evictOldest(1))).toEqual(['a']);
    verifier.accept(event('e', 2));
    expect(ids(verifier.evictOldest(2))).toEqual(['b', 'c']);
    expect(ids(verifier.evictOldest(5))).toEqual(['e']);
    expect(verifier.streamsHeld).toBe(0);
    expect(() => verifier.evictOldest(-1)).toThrow(RangeError);
  });

  it('takes restored streams as seen after every event before them, in the order put back', () => {
    const verifier = new ChainVerifier();
    verifier.accept(event('a', 1));
    for (const id of ['x', 'y', 'z']) verifier.restore(id, { version: 4, hashHex: GENESIS_HASH_HEX });
    verifier.accept(event('a', 2));
    expect(ids(verifier.evictOldest(2))).toEqual(['x', 'y']);
    expect(ids(verifier.evictOldest(1))).toEqual(['z']);
    expect(ids([...verifier.held()])).toEqual(['a']);
  });
});
