import { randomUUID } from 'node:crypto';
import {
  openPglite,
  PostgresEventStore,
  START,
  startConsumer,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type SqlDatabase,
} from '../src/index.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

/**
 * A consumer that acts on a few event types (the callback dispatcher) reads only those: the store
 * passes the others over in SQL. It must see exactly what a full read filtered in JS sees, in the
 * same order, and its checkpoint must still move past the events it ignores.
 */
const WANTED = ['Wanted', 'AlsoWanted'];
const event = (type: string, n: number): NewEvent => ({
  eventId: randomUUID(),
  type,
  schemaVersion: 1,
  data: { n },
  metadata: { m: n },
});

describe.each([
  ['PGlite', () => openPglite()],
  ['PostgreSQL', () => openTestPostgres('typed')],
])('typed reads on %s', (_engine, open: () => Promise<SqlDatabase>) => {
  let db: SqlDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await open();
    store = await PostgresEventStore.create(db);
    // 300 events over 30 streams, every seventh wanted (either type).
    for (let s = 0; s < 30; s++) {
      const events = Array.from({ length: 10 }, (_, i) => {
        const n = s * 10 + i;
        return event(n % 7 === 0 ? WANTED[n % 2]! : 'Other', n);
      });
      await store.append(`typed-${s}`, events, 'no_stream');
    }
    // On a shared server another session's open transaction can hold the readable horizon (xmin)
    // back for a moment: the reads below start once every event is readable.
    const deadline = Date.now() + 20_000;
    while ((await store.readAll(START, 1_000)).length < 300) {
      if (Date.now() > deadline) throw new Error('the appended events did not become readable');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    await db.close();
  });

  it('pages through the global order handing out exactly the wanted events, each once, in order', async () => {
    const all: RecordedEvent[] = [];
    for (let from: GlobalPosition = START; ;) {
      const page = await store.readAll(from, 37);
      if (page.length === 0) break;
      all.push(...page);
      from = page[page.length - 1]!.position;
    }
    const expected = all.filter((e) => WANTED.includes(e.type));
    expect(expected.length).toBeGreaterThan(40);

    const typed: RecordedEvent[] = [];
    let scanned = 0;
    for (let from: GlobalPosition = START; ;) {
      const read = await store.readAllOfTypes(from, 37, WANTED);
      if (!read.last) {
        expect(read).toEqual({ events: [], scanned: 0 });
        break;
      }
      // The position the page got to is the one a full page of 37 would have reached.
      const full = await store.readAll(from, 37);
      expect(read.scanned).toBe(full.length);
      expect(read.last).toEqual(full[full.length - 1]!.position);
      typed.push(...read.events);
      scanned += read.scanned;
      from = read.last;
    }
    expect(scanned).toBe(all.length);
    // Whole records, hash included, exactly as readAll has them.
    expect(typed).toEqual(expected);
  });

  it('a page of only other events hands out none and still gets past them', async () => {
    const first = await store.readAll(START, 1);
    expect(first[0]!.type).toBe('Wanted'); // n = 0
    const read = await store.readAllOfTypes(first[0]!.position, 5, WANTED);
    expect(read.events).toEqual([]);
    expect(read.scanned).toBe(5);
    const full = await store.readAll(first[0]!.position, 5);
    expect(read.last).toEqual(full[4]!.position);
  });

  it('a typed consumer handles only its types and checkpoints past the others', async () => {
    const name = `typed-consumer-${randomUUID()}`;
    const seen: RecordedEvent[] = [];
    const batches: number[] = [];
    const consumer = await startConsumer(store, {
      name,
      owner: 'typed-test',
      mode: 'transactional',
      batchSize: 50,
      idlePollMs: 5,
      types: WANTED,
      handle: async (events) => {
        batches.push(events.length);
        seen.push(...events);
      },
    });
    try {
      const head = await store.headPosition();
      await consumer.waitUntil(head, 10_000);
      const { rows } = await db.query<{ xid: string; seq: string }>(
        'select commit_xid::text as xid, seq::text as seq from es_checkpoints where consumer = $1',
        [name],
      );
      expect(rows[0]).toEqual({ xid: head.commitXid, seq: head.seq });
      expect(seen.map((e) => e.data)).toEqual(
        Array.from({ length: 300 }, (_, n) => n)
          .filter((n) => n % 7 === 0)
          .map((n) => ({ n })),
      );
      expect(batches.every((n) => n > 0)).toBe(true);
    } finally {
      await consumer.stop();
    }
  });
});
