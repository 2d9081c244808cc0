import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../src/store/postgres-event-store.js';
import { startConsumer } from '../src/subscriptions/catch-up-subscription.js';
import type { SqlDatabase } from '../src/sql/sql-database.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

/**
 * Read-your-writes across processes: an instance that does not hold a consumer's lease (a second
 * ledger replica, or one restarted while the old lease runs) still learns when the holder has passed
 * a position, from the stored checkpoint, and releases its waiters promptly.
 */
describe('consumer waiters on an instance without the lease (PostgreSQL)', () => {
  let db: SqlDatabase & { close(): Promise<void> };
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await openTestPostgres('waiters');
    store = await PostgresEventStore.create(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("is released by the lease holder's progress within a poll, and times out when nobody progresses", async () => {
    const name = `waiters-${randomUUID()}`;
    const event = (type: string) => ({ eventId: randomUUID(), type, schemaVersion: 1, data: {} });
    let holderHandles = true;
    const holder = await startConsumer(store, {
      name,
      owner: 'holder',
      mode: 'transactional',
      idlePollMs: 5,
      handle: async () => {
        if (!holderHandles) throw new Error('holder paused');
      },
    });
    const first = await store.append(`s-${randomUUID()}`, [event('A')], 'no_stream');
    await holder.waitUntil(first.lastPosition, 10_000);
    const follower = await startConsumer(store, {
      name,
      owner: 'follower',
      mode: 'transactional',
      idlePollMs: 1_000,
      handle: async () => {
        throw new Error('the follower never holds the lease in this test');
      },
    });
    try {
      const second = await store.append(`s-${randomUUID()}`, [event('B')], 'no_stream');
      const startedMs = Date.now();
      await follower.waitUntil(second.lastPosition, 5_000);
      // Well below the follower's 1 s idle poll: the new waiter wakes it and it reads the checkpoint.
      expect(Date.now() - startedMs).toBeLessThan(900);
      expect(follower.position()).toEqual({ commitXid: '0', seq: '0' });

      holderHandles = false;
      const third = await store.append(`s-${randomUUID()}`, [event('C')], 'no_stream');
      await expect(follower.waitUntil(third.lastPosition, 300)).rejects.toThrow(/did not reach/);
    } finally {
      await follower.stop();
      await holder.stop();
    }
  });
});
