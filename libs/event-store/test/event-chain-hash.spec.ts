import { createHash } from 'node:crypto';
import {
  GENESIS_HASH,
  GENESIS_HASH_HEX,
  canonicalEventText,
  chainHash,
  chainHashHex,
  type ChainedEventFields,
} from '../src/store/chain-encoding.js';

/** The reference: SHA-256 over (previous hash bytes ‖ canonical text), with Node's streaming hash. */
function referenceHex(previousHex: string, event: ChainedEventFields): string {
  return createHash('sha256').update(previousHex, 'hex').update(canonicalEventText(event), 'utf8').digest('hex');
}

function fields(dataText: string): ChainedEventFields {
  return {
    streamId: 'txn-ğüş',
    streamVersion: 3,
    type: 'DepositRequested',
    schemaVersion: 1,
    eventId: 'A1B2C3D4-0000-4000-8000-00000000000F',
    recordedAtUs: '2026-11-21T07:01:16.123456Z',
    dataText,
    metadataText: '{"actor": "op"}',
  };
}

const PREVIOUS = 'ab'.repeat(32);

describe('chainHashHex (the verifier’s one-shot hash)', () => {
  it('equals the streaming hash and chainHash for ASCII, multi-byte and astral text', () => {
    for (const data of ['{}', '{"a": "Ayşe Öztürk İ"}', '{"e": "😀 \\u0001"}', `{"s": "${'€'.repeat(1_000)}"}`]) {
      const event = fields(data);
      expect(chainHashHex(PREVIOUS, event)).toBe(referenceHex(PREVIOUS, event));
      expect(chainHashHex(GENESIS_HASH_HEX, event)).toBe(chainHash(GENESIS_HASH, event).toString('hex'));
    }
  });

  it('hashes texts around and past its reused buffer, and a short one after a long one', () => {
    // 256 KB buffer: up to (262,144 - 32) / 3 = 87,370 UTF-16 units go through it.
    for (const units of [87_300, 87_370, 87_371, 120_000]) {
      // 3-byte characters: the texts past the bound would overflow the buffer, were it used for them.
      const data = `"${'€'.repeat(units - 2)}"`;
      const event = fields(data);
      expect(chainHashHex(PREVIOUS, event)).toBe(referenceHex(PREVIOUS, event));
    }
    const short = fields('{"x": 1}');
    expect(chainHashHex(PREVIOUS, short)).toBe(referenceHex(PREVIOUS, short));
  });

  it('hashes a previous hash with non-hex digits as the streaming hash does, and refuses a wrong length', () => {
    const event = fields('{"x": 1}');
    const damaged = `${'ab'.repeat(20)}zz${'ab'.repeat(11)}`;
    expect(damaged).toHaveLength(64);
    // A long text first leaves other bytes in the reused buffer: none may leak into this hash.
    chainHashHex(PREVIOUS, fields(`"${'x'.repeat(80_000)}"`));
    expect(chainHashHex(damaged, event)).toBe(referenceHex(damaged, event));
    expect(chainHashHex(damaged, event)).not.toBe(referenceHex(PREVIOUS, event));
    expect(() => chainHashHex('ab', event)).toThrow(RangeError);
  });
});
