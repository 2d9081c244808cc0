import { randomUUID } from 'node:crypto';
import {
  IdempotencyConflictError,
  PostgresEventStore,
  WrongExpectedVersionError,
  comparePositions,
  DEFAULT_APPEND_GROUP_LIMITS,
  type AppendResult,
  type NewEvent,
  type SqlDatabase,
  type SqlExecutor,
} from '../src/index.js';
import { verifyAll } from './event-chain.contract.js';

const event = (data: unknown = {}): NewEvent => ({ eventId: randomUUID(), type: 'Grouped', schemaVersion: 1, data });
const stream = (label: string) => `group-${label}-${randomUUID()}`;

type Settled = PromiseSettledResult<AppendResult[]>;
const ok = (outcome: Settled | undefined): AppendResult[] => {
  if (outcome?.status !== 'fulfilled') throw new Error(`expected success, got ${String(outcome?.reason)}`);
  return outcome.value;
};
const failed = (outcome: Settled | undefined): unknown => {
  if (outcome?.status !== 'rejected') throw new Error('expected a rejection');
  return outcome.reason;
};

/**
 * Group commit (append-groups.ts) on the PostgreSQL adapter: concurrent callers share one
 * transaction, each with its own result or conflict, and none of the store's guarantees moves.
 * A group's members share the transaction's xid, which is how these tests see that a group formed.
 */
export function describeAppendGroups(adapter: string, open: () => Promise<SqlDatabase>): void {
  describe(`append group commit on ${adapter}`, () => {
    let db: SqlDatabase;
    /** One group at a time, so the callers queued behind a first one deterministically form the next group. */
    let store: PostgresEventStore;

    beforeAll(async () => {
      db = await open();
      store = await PostgresEventStore.create(db, { maxGroupsInFlight: 1, maxWritesPerGroup: 128 });
    });
    afterAll(async () => {
      await db?.close();
    });

    it('gives each caller of one group its own result or its own conflict, and a conflict writes nothing', async () => {
      const [s1, s2, s3, s4, fresh, side] = ['s1', 's2', 's3', 's4', 'fresh', 'side'].map(stream) as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      const pair = [stream('pair-a'), stream('pair-b')] as const;
      for (const id of [s1, s2, s4]) await store.append(id, [event({ n: 1 })], 'no_stream');
      await store.append(s3, [event({ n: 1 }), event({ n: 2 })], 'no_stream');
      const groupsBefore = store.appendGroupsWritten;

      // Same turn: the callers leave together as one group, except a second caller of a stream
      // already in that group, which waits for the next.
      const outcomes = await Promise.allSettled([
        store.appendMany([{ streamId: stream('first'), events: [event()], expectedVersion: 'no_stream' }]),
        store.appendMany([{ streamId: s1, events: [event({ n: 2 })], expectedVersion: 1 }]),
        store.appendMany([{ streamId: s2, events: [event({ stale: true })], expectedVersion: 5 }]),
        store.appendMany([{ streamId: s2, events: [event({ n: 2 })], expectedVersion: 1 }]),
        // Several streams: its first write would succeed, its second is stale (s3 is at 2).
        store.appendMany([
          { streamId: side, events: [event({ must: 'vanish' })], expectedVersion: 'no_stream' },
          { streamId: s3, events: [event({ stale: true })], expectedVersion: 1 },
        ]),
        store.appendMany([{ streamId: s4, events: [event({ exists: true })], expectedVersion: 'no_stream' }]),
        store.appendMany([{ streamId: fresh, events: [event({ winner: true })], expectedVersion: 'no_stream' }]),
        store.appendMany([
          { streamId: pair[0], events: [event(), event()], expectedVersion: 'no_stream' },
          { streamId: pair[1], events: [event()], expectedVersion: 'any' },
        ]),
      ]);

      expect(store.appendGroupsWritten - groupsBefore).toBe(2);
      const [first, s1Ok, s2Stale, s2Ok, multiStale, s4Exists, freshOk, pairOk] = outcomes;
      expect(ok(s1Ok)[0]).toMatchObject({ streamId: s1, nextVersion: 2, idempotentReplay: false });
      expect(failed(s2Stale)).toBeInstanceOf(WrongExpectedVersionError);
      expect(failed(s2Stale)).toMatchObject({ streamId: s2, expectedVersion: 5, actualVersion: 1 });
      expect(ok(s2Ok)[0]).toMatchObject({ streamId: s2, nextVersion: 2 });
      expect(failed(multiStale)).toBeInstanceOf(WrongExpectedVersionError);
      expect(failed(multiStale)).toMatchObject({ streamId: s3, actualVersion: 2 });
      expect(failed(s4Exists)).toBeInstanceOf(WrongExpectedVersionError);
      expect(failed(s4Exists)).toMatchObject({ streamId: s4, actualVersion: 1 });
      expect(ok(freshOk)[0]).toMatchObject({ streamId: fresh, nextVersion: 1 });
      expect(ok(pairOk).map((r) => r.nextVersion)).toEqual([2, 1]);

      // The successful members of the first group committed in one transaction (one xid), in
      // arrival order, before the second.
      const grouped = [first, s1Ok, freshOk, pairOk].flatMap((o) => ok(o).map((r) => r.lastPosition));
      expect(new Set(grouped.map((p) => p.commitXid)).size).toBe(1);
      for (let i = 1; i < grouped.length; i++) expect(comparePositions(grouped[i - 1]!, grouped[i]!)).toBe(-1);
      expect(comparePositions(grouped[grouped.length - 1]!, ok(s2Ok)[0]!.lastPosition)).toBe(-1);
      expect(ok(s2Ok)[0]!.lastPosition.commitXid).not.toBe(grouped[0]!.commitXid);

      // A conflict wrote nothing, not even the other stream of its own atomic append.
      expect(await store.readStream(side)).toEqual([]);
      expect((await store.readStream(s1)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      expect((await store.readStream(s2)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      expect((await store.readStream(s3)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      expect((await store.readStream(s4)).map((e) => e.data)).toEqual([{ n: 1 }]);
      expect((await store.readStream(pair[0])).map((e) => e.streamVersion)).toEqual([1, 2]);
      expect((await verifyAll(db)).broken).toEqual([]);
    });

    it('keeps event ids idempotent across one group: a retry beside its original is its replay', async () => {
      const x = stream('x');
      const y = stream('y');
      const earlier = stream('earlier');
      const stored = [event({ e: 1 })];
      await store.append(earlier, stored, 'no_stream');
      const original = [event({ o: 1 }), event({ o: 2 })];

      const calls = [
        store.appendMany([{ streamId: stream('first'), events: [event()], expectedVersion: 'no_stream' }]),
        store.appendMany([{ streamId: x, events: original, expectedVersion: 'no_stream' }]),
        // The same events again in the same group (a client retry racing its original), with 'any'.
        store.appendMany([{ streamId: x, events: original, expectedVersion: 'any' }]),
        store.appendMany([{ streamId: y, events: [event({ bystander: true })], expectedVersion: 'no_stream' }]),
        // The same events for another stream, in the same group as the original: refused, nothing written.
        store.appendMany([{ streamId: stream('elsewhere'), events: original, expectedVersion: 'no_stream' }]),
        // A retry of events stored before the group, with the expectation they were written under.
        store.appendMany([{ streamId: earlier, events: stored, expectedVersion: 'no_stream' }]),
        // Some of its ids are stored already, some not: refused, nothing written.
        store.appendMany([{ streamId: earlier, events: [stored[0]!, event({ new: true })], expectedVersion: 'any' }]),
      ];
      const [, originalOut, retryOut, bystander, elsewhere, earlierRetry, partial] = await Promise.allSettled(calls);

      expect(ok(originalOut)[0]).toMatchObject({ streamId: x, nextVersion: 2, idempotentReplay: false });
      expect(ok(retryOut)[0]).toMatchObject({
        streamId: x,
        nextVersion: 2,
        idempotentReplay: true,
        lastPosition: ok(originalOut)[0]!.lastPosition,
      });
      expect(ok(bystander)[0]).toMatchObject({ streamId: y, nextVersion: 1, idempotentReplay: false });
      expect(ok(earlierRetry)[0]).toMatchObject({ streamId: earlier, nextVersion: 1, idempotentReplay: true });
      expect(failed(partial)).toBeInstanceOf(IdempotencyConflictError);
      expect(failed(elsewhere)).toBeInstanceOf(IdempotencyConflictError);
      // The original and the bystander committed together.
      expect(ok(bystander)[0]!.lastPosition.commitXid).toBe(ok(originalOut)[0]!.lastPosition.commitXid);

      expect((await store.readStream(x)).map((e) => e.eventId)).toEqual(original.map((e) => e.eventId));
      expect((await store.readStream(earlier)).map((e) => e.eventId)).toEqual([stored[0]!.eventId]);
      expect(await store.readStream(y)).toHaveLength(1);
      expect((await verifyAll(db)).broken).toEqual([]);
    });

    it("lets callers that expect nothing of a stream share it in one group: arrival order, one chain, each caller's own outcome", async () => {
      const ledger = stream('ledger');
      const stale = stream('stale');
      const stored = event({ pre: true });
      await store.append(ledger, [stored], 'no_stream');
      await store.append(stale, [event()], 'no_stream');
      const groupsBefore = store.appendGroupsWritten;
      const failedBefore = store.appendGroupsFailed;

      const [a, b, conflict, retry, e, versioned] = await Promise.allSettled([
        store.appendMany([
          { streamId: stream('txn-a'), events: [event()], expectedVersion: 'no_stream' },
          { streamId: ledger, events: [event({ by: 'a' })], expectedVersion: 'any' },
        ]),
        store.appendMany([
          { streamId: stream('txn-b'), events: [event()], expectedVersion: 'no_stream' },
          { streamId: ledger, events: [event({ by: 'b', n: 1 }), event({ by: 'b', n: 2 })], expectedVersion: 'any' },
        ]),
        // Its other write is stale: it writes nothing, and the callers after it do not count it.
        store.appendMany([
          { streamId: stale, events: [event()], expectedVersion: 5 },
          { streamId: ledger, events: [event({ by: 'conflict' })], expectedVersion: 'any' },
        ]),
        // A retry of an event stored before: its replay, not a second copy.
        store.appendMany([{ streamId: ledger, events: [stored], expectedVersion: 'any' }]),
        store.appendMany([{ streamId: ledger, events: [event({ by: 'e' })], expectedVersion: 'any' }]),
        // Expects a version: never shares the stream, so it leaves with a later group.
        store.appendMany([{ streamId: ledger, events: [event({ by: 'versioned' })], expectedVersion: 5 }]),
      ]);

      expect(ok(a)[1]).toMatchObject({ streamId: ledger, nextVersion: 2, idempotentReplay: false });
      expect(ok(b)[1]).toMatchObject({ streamId: ledger, nextVersion: 4, idempotentReplay: false });
      expect(failed(conflict)).toMatchObject({ streamId: stale, expectedVersion: 5, actualVersion: 1 });
      expect(ok(retry)[0]).toMatchObject({ streamId: ledger, nextVersion: 1, idempotentReplay: true });
      expect(ok(e)[0]).toMatchObject({ streamId: ledger, nextVersion: 5, idempotentReplay: false });
      expect(ok(versioned)[0]).toMatchObject({ streamId: ledger, nextVersion: 6 });
      // Each caller's position is its own last event's, all three in one transaction, in arrival order.
      const positions = [ok(a)[1]!, ok(b)[1]!, ok(e)[0]!].map((r) => r.lastPosition);
      expect(new Set(positions.map((p) => p.commitXid)).size).toBe(1);
      expect(comparePositions(positions[0]!, positions[1]!)).toBe(-1);
      expect(comparePositions(positions[1]!, positions[2]!)).toBe(-1);
      expect(ok(versioned)[0]!.lastPosition.commitXid).not.toBe(positions[0]!.commitXid);
      const events = await store.readStream(ledger);
      expect(events.map((ev) => ev.data)).toEqual([
        { pre: true },
        { by: 'a' },
        { by: 'b', n: 1 },
        { by: 'b', n: 2 },
        { by: 'e' },
        { by: 'versioned' },
      ]);
      expect(events[4]!.position).toEqual(positions[2]);

      // One event per write everywhere: the one-event statement cannot chain a shared stream, so
      // such a group takes the general one, and nothing falls back to writing alone.
      const shared = stream('shared');
      const ones = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          store.appendMany([{ streamId: shared, events: [event({ i })], expectedVersion: 'any' }]),
        ),
      );
      expect(ones.map(([r]) => r!.nextVersion)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(new Set(ones.map(([r]) => r!.lastPosition.commitXid)).size).toBe(1);
      expect((await store.readStream(shared)).map((ev) => ev.data)).toEqual([0, 1, 2, 3, 4, 5].map((i) => ({ i })));
      expect(store.appendGroupsFailed - failedBefore).toBe(0);
      expect(store.appendGroupsWritten - groupsBefore).toBeLessThan(6 + 6);
      expect((await verifyAll(db)).broken).toEqual([]);
    });

    it('writes a caller alone with several streams in one statement: its results, its conflict, its replay', async () => {
      // The store's statements and transactions, counted: what a lone caller costs the server.
      const calls = { query: 0, transaction: 0 };
      const counted: SqlDatabase = Object.create(db, {
        query: { value: (sql: string, params?: readonly unknown[]) => (calls.query++, db.query(sql, params)) },
        transaction: {
          value: <T>(work: (tx: SqlExecutor) => Promise<T>) => (calls.transaction++, db.transaction(work)),
        },
      });
      const lone = await PostgresEventStore.create(counted, { maxGroupsInFlight: 1, maxWritesPerGroup: 128 });
      const ledger = stream('lone-ledger');
      await lone.append(ledger, [event({ n: 1 })], 'no_stream');
      const txn = stream('lone-txn');
      const requested = event({ requested: true });
      const reserved = event({ reserved: true });
      const writes = [
        { streamId: txn, events: [requested], expectedVersion: 'no_stream' as const },
        { streamId: ledger, events: [reserved], expectedVersion: 1 },
      ];

      calls.query = calls.transaction = 0;
      const [first, second] = await lone.appendMany(writes);
      expect(calls).toEqual({ query: 1, transaction: 0 });
      expect(first).toMatchObject({ streamId: txn, nextVersion: 1, idempotentReplay: false });
      expect(second).toMatchObject({ streamId: ledger, nextVersion: 2, idempotentReplay: false });
      expect(first!.lastPosition.commitXid).toBe(second!.lastPosition.commitXid);
      expect(comparePositions(first!.lastPosition, second!.lastPosition)).toBe(-1);

      // The same events again: their replay, nothing written twice.
      const again = await lone.appendMany(writes);
      expect(again.map((r) => [r.nextVersion, r.idempotentReplay])).toEqual([
        [1, true],
        [2, true],
      ]);
      expect(again.map((r) => r.lastPosition)).toEqual([first!.lastPosition, second!.lastPosition]);

      // A stale version in its second write: its own conflict, and its first write is not written either.
      const other = stream('lone-other');
      calls.query = calls.transaction = 0;
      const stale = await Promise.allSettled([
        lone.appendMany([
          { streamId: other, events: [event()], expectedVersion: 'no_stream' },
          { streamId: ledger, events: [event({ late: true })], expectedVersion: 1 },
        ]),
      ]);
      expect(failed(stale[0])).toBeInstanceOf(WrongExpectedVersionError);
      expect(failed(stale[0])).toMatchObject({ streamId: ledger, expectedVersion: 1, actualVersion: 2 });
      expect(calls.transaction).toBe(0);
      expect(await lone.readStream(other)).toEqual([]);
      expect((await lone.readStream(ledger)).map((ev) => ev.data)).toEqual([{ n: 1 }, { reserved: true }]);
      expect((await verifyAll(db)).broken).toEqual([]);
    });

    // One group in flight is every engine's default; two side by side is what two processes of
    // distributed mode write, so it must keep every guarantee too.
    it.each([1, 2])(
      'parallel appends in groups, %i in flight: gap-free global order, each stream in version order, one chain',
      async (inFlight) => {
        const live = await PostgresEventStore.create(db, {
          ...DEFAULT_APPEND_GROUP_LIMITS,
          maxGroupsInFlight: inFlight,
        });
        const hot = Array.from({ length: 5 }, (_, i) => stream(`hot${i}`));
        const tail = await live.headPosition();
        const groupsBefore = live.appendGroupsWritten;
        const failedBefore = live.appendGroupsFailed;
        const CALLERS = 40;
        const APPENDS_PER_CALLER = 6;
        const written: string[] = [];
        await Promise.all(
          Array.from({ length: CALLERS }, async (_, caller) => {
            for (let round = 0; round < APPENDS_PER_CALLER; round++) {
              const events = [event({ caller, round })];
              const target = hot[(caller + round) % hot.length]!;
              if (caller % 3 === 0) {
                await live.appendMany([
                  { streamId: `${target}-side-${caller}`, events: [event({ side: true })], expectedVersion: 'any' },
                  { streamId: target, events, expectedVersion: 'any' },
                ]);
              } else {
                await live.append(target, events, 'any');
              }
              written.push(...events.map((e) => e.eventId));
            }
          }),
        );
        const appends = CALLERS * APPENDS_PER_CALLER;
        expect(live.appendGroupsWritten - groupsBefore).toBeLessThan(appends);
        // Groups in flight at once share hot streams: each must see the stream as the one before it
        // left it (its locks, then a fresh snapshot), never fail on a version taken meanwhile.
        expect(live.appendGroupsFailed - failedBefore).toBe(0);

        const seen: Array<{ eventId: string; streamId: string; streamVersion: number }> = [];
        let from = tail;
        for (;;) {
          const page = await live.readAll(from, 1_000);
          if (page.length === 0) break;
          for (let i = 1; i < page.length; i++)
            expect(comparePositions(page[i - 1]!.position, page[i]!.position)).toBe(-1);
          seen.push(...page);
          from = page[page.length - 1]!.position;
        }
        const ids = new Set(seen.map((e) => e.eventId));
        expect(ids.size).toBe(seen.length);
        for (const id of written) expect(ids.has(id)).toBe(true);
        for (const id of hot) {
          const versions = seen.filter((e) => e.streamId === id).map((e) => e.streamVersion);
          expect({ id, versions }).toEqual({ id, versions: versions.map((_, i) => i + 1) });
        }
        expect(seen.filter((e) => hot.includes(e.streamId))).toHaveLength(appends);
        expect((await verifyAll(db)).broken).toEqual([]);
      },
    );
  });
}
