import { randomUUID } from 'node:crypto';
import { ANY, NO_STREAM, type AllStreamResolvedEvent } from '@kurrent/kurrentdb-client';
import { ChainVerifier, GENESIS_HASH_HEX, comparePositions, type RecordedEvent } from '../index.js';
import {
  KurrentDbEventStore,
  USER_STREAM_REGEX,
  fromPosition,
  prepareWrite,
  toAudited,
  toPosition,
  toRecorded,
  toStreamState,
} from './kurrentdb-event-store.js';
import { leaseClaim } from './kurrentdb-consumer.js';

/**
 * What the KurrentDB adapter decides without a server: version and position mapping, the event
 * encoding and its hash chain (checked by the same ChainVerifier as PostgreSQL). The adapter's
 * behaviour against a server is the contract suite (event-store.kurrentdb.spec.ts, KURRENTDB_URL).
 */

/** What the server hands back for an appended event: the stored JSON parsed again, its revision and position. */
function stored(
  prepared: ReturnType<typeof prepareWrite>,
  firstRevision: number,
  commit: bigint,
): AllStreamResolvedEvent[] {
  return prepared.events.map((event, i) => ({
    event: {
      streamId: prepared.streamId,
      id: event.id,
      isJson: true,
      revision: BigInt(firstRevision + i),
      type: event.type,
      created: new Date('2026-11-21T07:00:00.000Z'),
      data: JSON.parse(JSON.stringify(event.data)),
      metadata: JSON.parse(JSON.stringify(event.metadata)),
      position: { commit, prepare: commit + BigInt(i) },
    },
  })) as AllStreamResolvedEvent[];
}

describe('KurrentDB adapter mapping', () => {
  it('maps expected versions to stream states (version v is revision v-1)', () => {
    expect(toStreamState('any')).toBe(ANY);
    expect(toStreamState('no_stream')).toBe(NO_STREAM);
    expect(toStreamState(0)).toBe(NO_STREAM);
    expect(toStreamState(1)).toBe(0n);
    expect(toStreamState(42)).toBe(41n);
  });

  it('maps $all positions both ways, ordered by commit then prepare', () => {
    const a = fromPosition({ commit: 1_000n, prepare: 990n });
    expect(a).toEqual({ commitXid: '1000', seq: '990' });
    expect(toPosition(a)).toEqual({ commit: 1_000n, prepare: 990n });
    expect(comparePositions(a, fromPosition({ commit: 1_000n, prepare: 995n }))).toBe(-1);
    expect(comparePositions(fromPosition({ commit: 2_000n, prepare: 1n }), a)).toBe(1);
  });

  it('readAll sees user streams only: no system streams, none of our bookkeeping', () => {
    const user = new RegExp(USER_STREAM_REGEX);
    expect(user.test('txn-5b1c')).toBe(true);
    expect(user.test('merchant-ledger-1')).toBe(true);
    expect(user.test('$all')).toBe(false);
    expect(user.test('$$txn-1')).toBe(false);
    expect(user.test('__tg-consumer-ledger-read-models')).toBe(false);
  });

  it('refuses a URL that is not a KurrentDB connection string', () => {
    expect(() => KurrentDbEventStore.connect('postgres://x')).toThrow(/kurrentdb:\/\//);
  });

  it('encodes events with a hash chain the shared ChainVerifier accepts, and detects an edit', () => {
    const streamId = `txn-${randomUUID()}`;
    const first = prepareWrite(
      {
        streamId,
        expectedVersion: 'no_stream',
        events: [
          {
            eventId: randomUUID(),
            type: 'DepositRequested',
            schemaVersion: 2,
            data: { amountKurus: '25000' },
            metadata: { actor: 'op-1' },
          },
          { eventId: randomUUID(), type: 'PaymentReported', schemaVersion: 1, data: {} },
        ],
      },
      [],
    );
    expect(first.streamState).toBe(NO_STREAM);
    const firstStored = stored(first, 0, 100n);
    const recorded = firstStored.map((e) => toRecorded(e)!);
    expect(recorded.map((e) => [e.streamVersion, e.schemaVersion, e.type])).toEqual([
      [1, 2, 'DepositRequested'],
      [2, 1, 'PaymentReported'],
    ]);
    expect(recorded[0]!.metadata).toEqual({ actor: 'op-1' });
    expect(recorded[0]!.data).toEqual({ amountKurus: '25000' });
    expect(recorded[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(recorded[0]!.hash).not.toBe(GENESIS_HASH_HEX);

    // An 'any' append continues the chain from the head it read and is sent at that version.
    const second = prepareWrite(
      {
        streamId,
        expectedVersion: 'any',
        events: [{ eventId: randomUUID(), type: 'TransactionApproved', schemaVersion: 1, data: { by: 'op-1' } }],
      },
      recorded as RecordedEvent[],
    );
    expect(second.streamState).toBe(1n);
    const all = [...firstStored, ...stored(second, 2, 200n)];

    const verifier = new ChainVerifier();
    expect(all.map((e) => verifier.accept(toAudited(e)!))).toEqual([undefined, undefined, undefined]);

    const edited = structuredClone(all);
    (edited[1]!.event!.data as Record<string, unknown>).forged = true;
    const check = new ChainVerifier();
    const broken = edited.map((e) => check.accept(toAudited(e)!));
    expect(broken[0]).toBeUndefined();
    expect(broken[1]).toMatchObject({ reason: 'hash_mismatch', streamVersion: 2 });
  });

  it('skips system events and events that are not JSON', () => {
    const base = {
      streamId: 'x',
      id: randomUUID(),
      revision: 0n,
      created: new Date(),
      data: {},
      metadata: {},
      position: { commit: 1n, prepare: 1n },
    };
    expect(
      toRecorded({ event: { ...base, type: '$metadata', isJson: true } } as AllStreamResolvedEvent),
    ).toBeUndefined();
    expect(toRecorded({ event: { ...base, type: 'Bin', isJson: false } } as AllStreamResolvedEvent)).toBeUndefined();
    expect(toRecorded({} as AllStreamResolvedEvent)).toBeUndefined();
  });
});

describe('KurrentDB consumer lease', () => {
  const at = (commitXid: string, seq: string) => ({ commitXid, seq });

  it('a free, released or expired lease is taken with the stored checkpoint; a live one of another owner is not', () => {
    expect(leaseClaim(undefined, 'a', 1_000, 500)).toEqual({ owner: 'a', untilMs: 1_500, commitXid: '0', seq: '0' });
    const held = { owner: 'b', untilMs: 2_000, ...at('70', '65') };
    expect(leaseClaim(held, 'a', 1_999, 500)).toBeUndefined();
    expect(leaseClaim(held, 'a', 2_001, 500)).toEqual({ owner: 'a', untilMs: 2_501, ...at('70', '65') });
    expect(leaseClaim(held, 'b', 1_500, 500)).toEqual({ owner: 'b', untilMs: 2_000, ...at('70', '65') });
    expect(leaseClaim({ ...held, owner: null, untilMs: 0 }, 'a', 10, 500)).toMatchObject({
      owner: 'a',
      ...at('70', '65'),
    });
    expect(() => leaseClaim(undefined, '', 0, 500)).toThrow(RangeError);
    expect(() => leaseClaim(undefined, 'a', 0, 0)).toThrow(RangeError);
  });
});
