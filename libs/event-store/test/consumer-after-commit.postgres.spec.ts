import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../src/store/postgres-event-store.js';
import { startConsumer } from '../src/subscriptions/catch-up-subscription.js';
import type { SqlDatabase } from '../src/sql/sql-database.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

/**
 * afterCommit may return a promise (the ledger's notice to other processes): its batch's waiters are
 * released only once it settles, and a rejection is reported, never turned into a second handling of
 * a committed batch.
 */
describe('consumer afterCommit returning a promise (PostgreSQL)', () => {
  let db: SqlDatabase & { close(): Promise<void> };
  let store: PostgresEventStore;
  const event = () => ({ eventId: randomUUID(), type: 'A', schemaVersion: 1, data: {} });

  beforeAll(async () => {
    db = await openTestPostgres('after_commit');
    store = await PostgresEventStore.create(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('holds the waiters until the promise settles', async () => {
    const order: string[] = [];
    let release!: () => void;
    const consumer = await startConsumer(store, {
      name: `after-commit-${randomUUID()}`,
      owner: 'one',
      mode: 'transactional',
      idlePollMs: 5,
      handle: async () => undefined,
      afterCommit: () =>
        new Promise<void>((resolve) => {
          order.push('afterCommit started');
          release = () => {
            order.push('afterCommit settled');
            resolve();
          };
        }),
    });
    try {
      const appended = await store.append(`s-${randomUUID()}`, [event()], 'no_stream');
      const waited = consumer.waitUntil(appended.lastPosition, 10_000).then(() => order.push('waiter released'));
      // Well past the time the batch takes: the waiter must still be held.
      await new Promise((r) => setTimeout(r, 300));
      expect(order).toEqual(['afterCommit started']);
      release();
      await waited;
      expect(order).toEqual(['afterCommit started', 'afterCommit settled', 'waiter released']);
    } finally {
      await consumer.stop();
    }
  });

  it('reports a rejection and moves on without handling the batch again', async () => {
    const errors: unknown[] = [];
    const handled: string[] = [];
    const consumer = await startConsumer(store, {
      name: `after-commit-${randomUUID()}`,
      owner: 'one',
      mode: 'transactional',
      idlePollMs: 5,
      handle: async (events) => {
        handled.push(...events.map((e) => e.eventId));
      },
      afterCommit: () => Promise.reject(new Error('notice not sent')),
      onError: (error) => errors.push(error),
    });
    try {
      const written = event();
      const appended = await store.append(`s-${randomUUID()}`, [written], 'no_stream');
      await consumer.waitUntil(appended.lastPosition, 10_000);
      await new Promise((r) => setTimeout(r, 100));
      // The store holds the other test's event too: every event once, this one included.
      expect(handled.filter((id) => id === written.eventId)).toHaveLength(1);
      expect(new Set(handled).size).toBe(handled.length);
      expect(errors.map(String)).toContain('Error: notice not sent');
    } finally {
      await consumer.stop();
    }
  });
});
