import { randomUUID } from 'node:crypto';
import { openPglite } from '../src/index.js';
import { PostgresEventStore } from '../src/store/postgres-event-store.js';
import { startConsumer } from '../src/subscriptions/catch-up-subscription.js';
import type { SqlDatabase } from '../src/sql/sql-database.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

/**
 * A transactional consumer of every event reads its next batch in the statement that writes the
 * current one (catch-up-subscription.ts, readAllContinuation): the events appended while a batch was
 * handled are handed over next without a read of their own, each once and in order.
 */
const event = (n: number) => ({ eventId: randomUUID(), type: 'Counted', schemaVersion: 1, data: { n } });

describe.each([
  ['PostgreSQL', () => openTestPostgres('readahead')],
  ['PGlite', () => openPglite()],
])('consumer read-ahead (%s)', (_engine, open) => {
  let db: SqlDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await open();
    store = await PostgresEventStore.create(db);
    await db.exec('create table if not exists counted (event_id uuid primary key, n int not null)');
  });
  afterAll(async () => {
    await db?.close();
  });

  /**
   * One run: 3 events, then a consumer whose first batch appends 5 more. Answers what the consumer
   * sent ("read" for a standalone global-order read, "batch:N" for a batch of N of this run's events)
   * once it has handled all 8, each checked to be handled once, in order, and written.
   */
  async function run(): Promise<string[]> {
    const log: string[] = [];
    const watched: SqlDatabase = {
      kind: db.kind,
      query: (sql, params) => {
        if (/^select event_id::text/.test(sql.trim()) && sql.includes('pg_snapshot_xmin')) log.push('read');
        return db.query(sql, params);
      },
      transaction: (work) => db.transaction(work),
      exec: (sql) => db.exec(sql),
      close: () => db.close(),
    };
    const prefix = `ra-${randomUUID()}`;
    const appendNumbered = (from: number, count: number) =>
      store.appendMany(
        Array.from({ length: count }, (_, i) => ({
          streamId: `${prefix}-${from + i}`,
          events: [event(from + i)],
          expectedVersion: 'no_stream' as const,
        })),
      );
    await appendNumbered(0, 3);
    const handled: number[] = [];
    let appendedDuringBatch: ((appending: ReturnType<typeof appendNumbered>) => void) | undefined;
    const duringBatch = new Promise<ReturnType<typeof appendNumbered>>((resolve) => (appendedDuringBatch = resolve));
    const consumer = await startConsumer(new PostgresEventStore(watched), {
      name: `readahead-${randomUUID()}`,
      owner: 'a',
      mode: 'transactional',
      idlePollMs: 50,
      handle: async (events, tx) => {
        const ours = events.filter((e) => e.streamId.startsWith(prefix));
        if (ours.length === 0) return;
        log.push(`batch:${ours.length}`);
        for (const e of ours) {
          handled.push((e.data as { n: number }).n);
          tx.defer('insert into counted (event_id, n) values ($1::uuid, $2::int)', [
            e.eventId,
            (e.data as { n: number }).n,
          ]);
        }
        // Committed before this batch's statement runs: its read finds them.
        if (appendedDuringBatch) {
          const appending = appendNumbered(3, 5);
          appendedDuringBatch(appending);
          appendedDuringBatch = undefined;
          await appending;
        }
      },
    });
    try {
      const results = await await duringBatch;
      expect(results).toHaveLength(5);
      await consumer.waitUntil(results[4]!.lastPosition, 10_000);
      expect(handled).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const { rows } = await db.query<{ n: number }>(
        `select count(*)::int as n from counted where event_id in (select event_id from es_events where stream_id like $1)`,
        [`${prefix}-%`],
      );
      expect(rows[0]!.n).toBe(8);
      return log;
    } finally {
      await consumer.stop();
    }
  }

  it('hands over the events appended during a batch as the next batch, without another read', async () => {
    // The first batch needs a read; the second comes with the first batch's statement. On a shared
    // PostgreSQL cluster, any other session's transaction running when that statement begins holds
    // the 5 back (as it would hold back a read), so a run may need its own read: up to 3 runs, one
    // must show the read-ahead. Without it none can (every batch is then read on its own).
    const logs: string[][] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const log = await run();
      logs.push(log.slice(0, 3));
      if (log.slice(0, 3).join() === 'read,batch:3,batch:5') break;
    }
    expect(logs).toContainEqual(['read', 'batch:3', 'batch:5']);
  });
});
