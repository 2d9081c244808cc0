import { randomUUID } from 'node:crypto';
import { openPglite, PostgresEventStore, startConsumer, type RecordedEvent, type SqlDatabase } from '../src/index.js';

/**
 * minReadIntervalMs (the callback dispatcher's): under a steady stream of appends the consumer
 * reads at most once per interval, handling what arrived meanwhile in one batch, and still handles
 * every event exactly once and in order; a backlog (full batches) is read without pauses.
 * unwaitedReadIntervalMs (the ledger projection's): the same pacing while nobody waits, ended at
 * once by a waiter.
 */
const event = (n: number) => ({ eventId: randomUUID(), type: 'Tick', schemaVersion: 1, data: { n } });

describe('consumer minReadIntervalMs', () => {
  let db: SqlDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await openPglite();
    store = await PostgresEventStore.create(db);
  });
  afterAll(async () => {
    await db.close();
  });

  /** Appends one event every few ms for `durationMs`; answers how many. */
  async function steadyAppends(prefix: string, durationMs: number): Promise<number> {
    let n = 0;
    const until = Date.now() + durationMs;
    while (Date.now() < until) {
      await store.append(`tick-${prefix}-${n}`, [event(n)], 'no_stream');
      n++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return n;
  }

  async function run(minReadIntervalMs: number, unwaitedReadIntervalMs = 0) {
    const seen: number[] = [];
    let batches = 0;
    // One store for every test: only this run's events are counted.
    const prefix = randomUUID();
    const consumer = await startConsumer(store, {
      name: `ticks-${minReadIntervalMs}-${unwaitedReadIntervalMs}`,
      owner: 'test',
      mode: 'transactional',
      idlePollMs: 50,
      minReadIntervalMs,
      unwaitedReadIntervalMs,
      handle: async (events: RecordedEvent[]) => {
        const ours = events.filter((e) => e.streamId.startsWith(`tick-${prefix}-`));
        if (ours.length > 0) batches++;
        for (const e of ours) seen.push((e.data as { n: number }).n);
      },
    });
    try {
      const n = await steadyAppends(prefix, 1_000);
      await consumer.waitUntil(await store.headPosition(), 10_000);
      return { n, seen, batches };
    } finally {
      await consumer.stop();
    }
  }

  it('reads at most once per interval under steady appends, every event once and in order', async () => {
    const paced = await run(200);
    expect(paced.seen).toEqual(Array.from({ length: paced.n }, (_, i) => i));
    // ~1 s of appends: about 5 reads, and a few more for the wake-ups after the last one.
    expect(paced.batches).toBeLessThanOrEqual(10);
    expect(paced.n).toBeGreaterThan(50);
  });

  it('without it, the same appends take many more batches (what the interval saves)', async () => {
    const unpaced = await run(0);
    expect(unpaced.seen).toEqual(Array.from({ length: unpaced.n }, (_, i) => i));
    expect(unpaced.batches).toBeGreaterThan(20);
  });

  it('unwaitedReadIntervalMs paces the reads alike while nobody waits', async () => {
    const paced = await run(0, 200);
    expect(paced.seen).toEqual(Array.from({ length: paced.n }, (_, i) => i));
    expect(paced.batches).toBeLessThanOrEqual(10);
    expect(paced.n).toBeGreaterThan(50);
  });

  it('a waiter ends an unwaited pause at once', async () => {
    const prefix = `waited-${randomUUID()}`;
    const consumer = await startConsumer(store, {
      name: 'waited',
      owner: 'test',
      mode: 'transactional',
      idlePollMs: 50,
      unwaitedReadIntervalMs: 1_000,
      handle: async () => {},
    });
    try {
      const waitedMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        // The consumer has just read (the wait before released it), so it is in a 1 s pause now.
        const position = (await store.append(`${prefix}-${i}`, [event(i)], 'no_stream')).lastPosition;
        const started = Date.now();
        await consumer.waitUntil(position, 10_000);
        waitedMs.push(Date.now() - started);
      }
      // Each wait ends the pause it meets: a few ms each, where sitting the pause out takes 1 s.
      expect(Math.max(...waitedMs.slice(1))).toBeLessThan(500);
    } finally {
      await consumer.stop();
    }
  });

  it('reads a backlog in full batches without pausing between them', async () => {
    const prefix = `backlog-${randomUUID()}`;
    for (let s = 0; s < 20; s++) {
      await store.append(
        `${prefix}-${s}`,
        Array.from({ length: 100 }, (_, i) => event(s * 100 + i)),
        'no_stream',
      );
    }
    let ours = 0;
    const started = Date.now();
    const consumer = await startConsumer(store, {
      name: 'backlog',
      owner: 'test',
      mode: 'transactional',
      batchSize: 100,
      minReadIntervalMs: 1_000,
      handle: async (events: RecordedEvent[]) => {
        ours += events.filter((e) => e.streamId.startsWith(prefix)).length;
      },
    });
    let elapsedMs: number;
    try {
      await consumer.waitUntil(await store.headPosition(), 10_000);
      elapsedMs = Date.now() - started;
    } finally {
      await consumer.stop();
    }
    expect(ours).toBe(2_000);
    // At least 20 full batches of 100: paused between them it would take 19 s or more.
    expect(elapsedMs).toBeLessThan(8_000);
  });

  it('refuses an interval beyond its bound', async () => {
    await expect(
      startConsumer(store, {
        name: 'bad',
        owner: 'test',
        mode: 'after',
        minReadIntervalMs: 5_000,
        handle: async () => {},
      }),
    ).rejects.toThrow(RangeError);
    await expect(
      startConsumer(store, {
        name: 'bad-unwaited',
        owner: 'test',
        mode: 'after',
        unwaitedReadIntervalMs: 5_000,
        handle: async () => {},
      }),
    ).rejects.toThrow(/unwaitedReadIntervalMs/);
  });
});
