import { randomUUID } from 'node:crypto';
import {
  IdempotencyConflictError,
  PostgresEventStore,
  START,
  WrongExpectedVersionError,
  comparePositions,
  startConsumer,
  type EventStore,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type RunningConsumer,
  type SqlDatabase,
} from '../src/index.js';

/** What the suite needs from an adapter: the store, its head, and its checkpointed consumers. */
export interface EventStoreHarness {
  store: EventStore & { headPosition(): Promise<GlobalPosition> };
  /**
   * A leased, checkpointed consumer. `mode` is the PostgreSQL consumer's; an adapter without a
   * transaction shared with the handler runs every consumer as 'after' (at-least-once).
   */
  startConsumer(options: {
    name: string;
    owner: string;
    mode: 'transactional' | 'after';
    batchSize?: number;
    idlePollMs?: number;
    leaseMs?: number;
    handle: (events: RecordedEvent[]) => Promise<void>;
  }): Promise<RunningConsumer>;
  /** Stores a consumer's checkpoint at `position` before it first runs. */
  seedCheckpoint(name: string, position: GlobalPosition): Promise<void>;
  close(): Promise<void>;
}

/** The PostgreSQL/PGlite harness: the adapter and consumer exactly as the services use them. */
export async function postgresHarness(open: () => Promise<SqlDatabase>): Promise<EventStoreHarness> {
  const db = await open();
  const store = await PostgresEventStore.create(db);
  return {
    store,
    startConsumer: ({ handle, ...options }) => startConsumer(store, { ...options, handle: (events) => handle(events) }),
    seedCheckpoint: async (name, position) => {
      await db.query(`insert into es_checkpoints (consumer, commit_xid, seq) values ($1, $2::text::xid8, $3::bigint)`, [
        name,
        position.commitXid,
        position.seq,
      ]);
    },
    close: () => db.close(),
  };
}

/**
 * The event store contract suite. Every adapter runs it unchanged; an adapter whose server cannot
 * run here is reported as not run, never as passed.
 */
export function describeEventStoreContract(adapter: string, open: () => Promise<EventStoreHarness>): void {
  describe(`event store contract on ${adapter}`, () => {
    let harness: EventStoreHarness;
    let store: EventStoreHarness['store'];

    beforeAll(async () => {
      harness = await open();
      store = harness.store;
    });
    afterAll(async () => {
      await harness?.close();
    });

    const event = (type = 'Tested', data: unknown = {}): NewEvent => ({
      eventId: randomUUID(),
      type,
      schemaVersion: 1,
      data,
    });
    const stream = () => `test-${randomUUID()}`;

    it('appends and reads a stream in version order with data and metadata intact', async () => {
      const id = stream();
      const first = await store.append(id, [event('A', { n: 1, amountKurus: '25000' })], 'no_stream');
      expect(first.nextVersion).toBe(1);
      const second = await store.append(id, [{ ...event('B', { n: 2 }), metadata: { actor: 'op-1' } }, event('C')], 1);
      expect(second.nextVersion).toBe(3);
      const events = await store.readStream(id);
      expect(events.map((e) => [e.type, e.streamVersion])).toEqual([
        ['A', 1],
        ['B', 2],
        ['C', 3],
      ]);
      expect(events[0]!.data).toEqual({ n: 1, amountKurus: '25000' });
      expect(events[1]!.metadata).toEqual({ actor: 'op-1' });
      expect(await store.readStream(id, 3)).toHaveLength(1);
    });

    it('refuses a wrong expected version and names the actual one', async () => {
      const id = stream();
      await store.append(id, [event(), event()], 'no_stream');
      await expect(store.append(id, [event()], 1)).rejects.toMatchObject({
        name: 'WrongExpectedVersionError',
        actualVersion: 2,
      });
      await expect(store.append(id, [event()], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(store.append(stream(), [event()], 5)).rejects.toBeInstanceOf(WrongExpectedVersionError);
      expect(await store.readStream(id)).toHaveLength(2);
      const any = await store.append(id, [event()], 'any');
      expect(any.nextVersion).toBe(3);
    });

    it('stores an event id once: a repeated append is a replay, a partial overlap is refused', async () => {
      const id = stream();
      const batch = [event('A'), event('B')];
      await store.append(id, batch, 'no_stream');
      const replay = await store.append(id, batch, 'no_stream');
      expect(replay).toMatchObject({ idempotentReplay: true, nextVersion: 2 });
      const replayAny = await store.append(id, batch, 'any');
      expect(replayAny.idempotentReplay).toBe(true);
      await expect(store.append(id, [batch[0]!, event('C')], 2)).rejects.toBeInstanceOf(IdempotencyConflictError);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('appendMany is atomic: one stale expectation writes nothing to any stream', async () => {
      const a = stream();
      const b = stream();
      await store.append(b, [event()], 'no_stream');
      await expect(
        store.appendMany([
          { streamId: a, events: [event()], expectedVersion: 'no_stream' },
          { streamId: b, events: [event()], expectedVersion: 0 },
        ]),
      ).rejects.toBeInstanceOf(WrongExpectedVersionError);
      expect(await store.readStream(a)).toHaveLength(0);
      const ok = await store.appendMany([
        { streamId: a, events: [event()], expectedVersion: 'no_stream' },
        { streamId: b, events: [event()], expectedVersion: 1 },
      ]);
      expect(ok.map((r) => r.nextVersion)).toEqual([1, 2]);
    });

    it('bounds appends and reads', async () => {
      await expect(store.append(stream(), [], 'any')).rejects.toBeInstanceOf(RangeError);
      await expect(store.readAll(START, 0)).rejects.toBeInstanceOf(RangeError);
      await expect(store.append(stream(), [event()], -1)).rejects.toBeInstanceOf(RangeError);
    });

    it('readAll pages through the global order without repeats', async () => {
      const id = stream();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const e = event('P', { i });
        ids.push(e.eventId);
        await store.append(id, [e], 'any');
      }
      // Events become readable once no older transaction on the server is still running (xmin rule),
      // so a reader pages until it has caught up, bounded in time.
      const seen: RecordedEvent[] = [];
      let from = START;
      const deadline = Date.now() + 15_000;
      while (seen.filter((e) => e.streamId === id).length < ids.length && Date.now() < deadline) {
        const page = await store.readAll(from, 3);
        if (page.length === 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        seen.push(...page);
        from = page[page.length - 1]!.position;
      }
      for (let i = 1; i < seen.length; i++) expect(comparePositions(seen[i - 1]!.position, seen[i]!.position)).toBe(-1);
      expect(seen.filter((e) => e.streamId === id).map((e) => e.eventId)).toEqual(ids);
    });

    it('10 concurrent appends with the same expected version: exactly one wins', async () => {
      const id = stream();
      await store.append(id, [event()], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.append(id, [event('Race', { i })], 1)),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o) => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(9);
      for (const o of lost) expect((o as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersionError);
      expect(await store.readStream(id)).toHaveLength(2);
    });

    it('10 concurrent creations of one stream with no_stream: exactly one wins', async () => {
      const id = stream();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () => store.append(id, [event()], 'no_stream')),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await store.readStream(id)).toHaveLength(1);
    });

    it('16 concurrent writers, 2,000 events, a live subscriber: every event exactly once, each stream in order', async () => {
      const consumerName = `contract-${randomUUID()}`;
      // Start the subscriber at the current end so earlier tests' events are not counted.
      const tail = await store.headPosition();
      await harness.seedCheckpoint(consumerName, tail);
      const seen = new Map<string, number>();
      const perStream = new Map<string, number[]>();
      const consumer = await harness.startConsumer({
        name: consumerName,
        owner: 'contract-test',
        mode: 'after',
        batchSize: 97,
        idlePollMs: 5,
        handle: async (events) => {
          for (const e of events) {
            seen.set(e.eventId, (seen.get(e.eventId) ?? 0) + 1);
            const versions = perStream.get(e.streamId) ?? [];
            versions.push(e.streamVersion);
            perStream.set(e.streamId, versions);
          }
        },
      });

      const WRITERS = 16;
      const TOTAL = 2_000;
      const perWriter = TOTAL / WRITERS;
      const written: string[] = [];
      const runId = randomUUID().slice(0, 8);
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          let left = perWriter;
          let round = 0;
          while (left > 0) {
            const size = Math.min(left, 1 + ((writer + round) % 4));
            const batch = Array.from({ length: size }, () => event('Load', { writer }));
            // Writers share streams (4 writers per stream) and retry lost races, so commits interleave.
            const streamId = `load-${runId}-${writer % 4}`;
            for (let attempt = 0; ; attempt++) {
              try {
                if (round % 3 === 0) {
                  await store.appendMany([
                    { streamId, events: batch.slice(0, 1), expectedVersion: 'any' },
                    {
                      streamId: `load-${runId}-solo-${writer}`,
                      events: batch.slice(1).length ? batch.slice(1) : [event('Pad')],
                      expectedVersion: 'any',
                    },
                  ]);
                } else {
                  await store.append(streamId, batch, 'any');
                }
                break;
              } catch (error) {
                if (attempt > 50) throw error;
              }
            }
            written.push(...batch.map((e) => e.eventId));
            left -= size;
            round++;
          }
        }),
      );
      expect(written).toHaveLength(TOTAL);
      const deadline = Date.now() + 30_000;
      while (written.some((id) => !seen.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await consumer.stop();

      for (const id of written) expect(seen.get(id)).toBe(1);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      for (const [streamId, versions] of perStream) {
        const sorted = [...versions].sort((a, b) => a - b);
        expect({ streamId, versions }).toEqual({ streamId, versions: sorted });
        expect(new Set(versions).size).toBe(versions.length);
      }
    });

    it('32 concurrent writers on one stream: the global order delivers its versions strictly in order', async () => {
      const id = stream();
      const tail = await store.headPosition();
      await Promise.all(
        Array.from({ length: 32 }, async (_, writer) => {
          for (let i = 0; i < 8; i++) {
            // Half the writers write another stream first in the same transaction: their xid exists
            // before they queue for the hot stream, which is what can invert xid and version order.
            if (writer % 2 === 0) {
              await store.appendMany([
                { streamId: `${id}-side-${writer}`, events: [event('Side')], expectedVersion: 'any' },
                { streamId: id, events: [event('Hot', { writer, i })], expectedVersion: 'any' },
              ]);
            } else {
              await store.append(id, [event('Hot', { writer, i })], 'any');
            }
          }
        }),
      );
      const versions: number[] = [];
      let from = tail;
      const deadline = Date.now() + 15_000;
      while (versions.length < 256 && Date.now() < deadline) {
        const page = await store.readAll(from, 1_000);
        if (page.length === 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        versions.push(...page.filter((e) => e.streamId === id).map((e) => e.streamVersion));
        from = page[page.length - 1]!.position;
      }
      expect(versions).toEqual(Array.from({ length: 256 }, (_, i) => i + 1));
    });

    it('a consumer resumes from its checkpoint and a second instance waits for the lease', async () => {
      const name = `resume-${randomUUID()}`;
      const id = stream();
      const tail = await store.headPosition();
      await harness.seedCheckpoint(name, tail);
      const first = await store.append(id, [event('R1'), event('R2')], 'no_stream');
      const handledByA: string[] = [];
      const a = await harness.startConsumer({
        name,
        owner: 'a',
        mode: 'transactional',
        idlePollMs: 5,
        handle: async (events) => void handledByA.push(...events.filter((e) => e.streamId === id).map((e) => e.type)),
      });
      await a.waitUntil(first.lastPosition, 10_000);
      const handledByB: string[] = [];
      const b = await harness.startConsumer({
        name,
        owner: 'b',
        mode: 'transactional',
        idlePollMs: 5,
        leaseMs: 200,
        handle: async (events) => void handledByB.push(...events.filter((e) => e.streamId === id).map((e) => e.type)),
      });
      const second = await store.append(id, [event('R3')], 2);
      await a.waitUntil(second.lastPosition, 10_000);
      expect(handledByB).toEqual([]);
      await a.stop(); // releases the lease: b resumes after a's checkpoint
      const third = await store.append(id, [event('R4')], 3);
      await b.waitUntil(third.lastPosition, 10_000);
      await b.stop();
      expect(handledByA).toEqual(['R1', 'R2', 'R3']);
      expect(handledByB).toEqual(['R4']);
    });
  });
}
