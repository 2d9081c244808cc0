import { randomUUID } from 'node:crypto';
import { openPglite } from '../src/index.js';
import { PostgresEventStore } from '../src/store/postgres-event-store.js';
import { LeaseLostError, startConsumer } from '../src/subscriptions/catch-up-subscription.js';
import { MAX_DEFERRED_WRITES, joinWrites } from '../src/subscriptions/batch-statement.js';
import type { SqlDatabase } from '../src/sql/sql-database.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

/** The database as a consumer sees it, counting what it sends. */
function counted(db: SqlDatabase) {
  const seen = { statements: [] as string[], transactions: 0 };
  const wrapped: SqlDatabase = {
    kind: db.kind,
    query: (sql, params) => {
      seen.statements.push(sql);
      return db.query(sql, params);
    },
    transaction: (work) => {
      seen.transactions++;
      return db.transaction(work);
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
  return { wrapped, seen };
}

const event = () => ({ eventId: randomUUID(), type: 'Noted', schemaVersion: 1, data: {} });

describe('joinWrites', () => {
  it('renumbers each statement after the previous ones and keeps the parameters in order', () => {
    const joined = joinWrites(
      [
        { sql: 'insert into a (x, y) values ($1, $2)', params: [1, 2] },
        { sql: 'update b set x = $1 where y = $1', params: [3] },
      ],
      { sql: 'c as (select $2::int as v, $1::text as w) select v from c', params: ['w', 4] },
    );
    expect(joined.sql).toBe(
      'with w0 as (insert into a (x, y) values ($1, $2)),\nw1 as (update b set x = $3 where y = $3),\n' +
        'c as (select $5::int as v, $4::text as w) select v from c',
    );
    expect(joined.params).toEqual([1, 2, 3, 'w', 4]);
  });

  it('refuses a placeholder without its parameter, dollar quoting and a nested WITH', () => {
    const closing = { sql: 'x as (select 1) select 1', params: [] };
    expect(() => joinWrites([{ sql: 'delete from a where x = $2', params: [1] }], closing)).toThrow(/\$2/);
    expect(() => joinWrites([{ sql: 'insert into a values ($$1$$)', params: [] }], closing)).toThrow(/dollar/);
    expect(() => joinWrites([{ sql: 'with q as (select 1) insert into a select 1', params: [] }], closing)).toThrow(
      /WITH/,
    );
  });
});

describe.each([
  ['PostgreSQL', () => openTestPostgres('deferred')],
  ['PGlite', () => openPglite()],
])('deferred batch writes (%s)', (engine, open) => {
  let db: SqlDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await open();
    store = await PostgresEventStore.create(db);
    await db.exec('create table if not exists noted (event_id uuid primary key, n int not null)');
  });
  afterAll(async () => {
    await db?.close();
  });

  const noted = async (ids: string[]) =>
    (
      await db.query<{ n: number }>(
        'select count(*)::int as n from noted where event_id = any (array(select jsonb_array_elements_text($1::jsonb)::uuid))',
        [JSON.stringify(ids)],
      )
    ).rows[0]!.n;
  const checkpoint = async (name: string) =>
    (await db.query<{ seq: string }>('select seq::text as seq from es_checkpoints where consumer = $1', [name]))
      .rows[0]!.seq;

  it('sends a batch that only defers as one statement with its checkpoint, no transaction', async () => {
    const { wrapped, seen } = counted(db);
    const name = `deferred-${randomUUID()}`;
    const consumer = await startConsumer(new PostgresEventStore(wrapped), {
      name,
      owner: 'a',
      mode: 'transactional',
      idlePollMs: 5,
      handle: async (events, tx) => {
        for (const e of events) tx.defer('insert into noted (event_id, n) values ($1::uuid, $2::int)', [e.eventId, 1]);
      },
    });
    try {
      // Appended through another instance in one transaction: the consumer reads the three together.
      const events = [event(), event(), event()];
      const results = await store.appendMany(
        events.map((e) => ({ streamId: `s-${randomUUID()}`, events: [e], expectedVersion: 'no_stream' as const })),
      );
      seen.statements.length = 0;
      seen.transactions = 0;
      await consumer.waitUntil(results[2]!.lastPosition, 10_000);
      expect(await noted(events.map((e) => e.eventId))).toBe(3);
      expect(await checkpoint(name)).toBe(results[2]!.lastPosition.seq);
      expect(seen.transactions).toBe(0);
      const writing = seen.statements.filter((sql) => sql.includes('insert into noted'));
      expect(writing).toHaveLength(1);
      expect(writing[0]).toContain('update es_checkpoints');
    } finally {
      await consumer.stop();
    }
  });

  it('writes past the bound of one statement one by one, in the batch transaction', async () => {
    const { wrapped, seen } = counted(db);
    const name = `bounded-${randomUUID()}`;
    const rows = MAX_DEFERRED_WRITES + 6;
    const ids = Array.from({ length: rows }, () => randomUUID());
    const consumer = await startConsumer(new PostgresEventStore(wrapped), {
      name,
      owner: 'a',
      mode: 'transactional',
      idlePollMs: 5,
      handle: async (events, tx) => {
        if (!events.some((e) => e.type === 'Bounded')) return;
        for (const id of ids) tx.defer('insert into noted (event_id, n) values ($1::uuid, 3)', [id]);
      },
    });
    try {
      const result = await store.append(`s-${randomUUID()}`, [{ ...event(), type: 'Bounded' }], 'no_stream');
      await consumer.waitUntil(result.lastPosition, 10_000);
      expect(await noted(ids)).toBe(rows);
      expect(seen.transactions).toBe(1);
    } finally {
      await consumer.stop();
    }
  });

  if (engine !== 'PostgreSQL') return;

  /** A consumer whose lease another owner takes while its handler runs (before the batch is sent). */
  async function batchWithStolenLease(withImmediateWrite: boolean) {
    const name = `stolen-${randomUUID()}`;
    const errors: unknown[] = [];
    const written = [event(), event()];
    const consumer = await startConsumer(store, {
      name,
      owner: 'victim',
      mode: 'transactional',
      idlePollMs: 5,
      handle: async (events, tx) => {
        if (!events.some((e) => e.eventId === written[0]!.eventId)) return;
        if (withImmediateWrite) {
          await tx.query('insert into noted (event_id, n) values ($1::uuid, 1)', [written[0]!.eventId]);
        } else {
          tx.defer('insert into noted (event_id, n) values ($1::uuid, 1)', [written[0]!.eventId]);
        }
        await db.query(
          `update es_checkpoints set lease_owner = 'thief', lease_until = now() + interval '1 hour' where consumer = $1`,
          [name],
        );
        tx.defer('insert into noted (event_id, n) values ($1::uuid, 2)', [written[1]!.eventId]);
      },
      onError: (error) => errors.push(error),
    });
    try {
      const results = await store.appendMany(
        written.map((e) => ({ streamId: `s-${randomUUID()}`, events: [e], expectedVersion: 0 })),
      );
      const deadline = Date.now() + 10_000;
      while (errors.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(errors[0]).toBeInstanceOf(LeaseLostError);
      expect(await noted(written.map((e) => e.eventId))).toBe(0);
      // Earlier batches (other tests' events) may have been saved; this one was not.
      expect(BigInt(await checkpoint(name))).toBeLessThan(BigInt(results[0]!.lastPosition.seq));
    } finally {
      await consumer.stop();
    }
  }

  it('undoes the deferred writes of a batch whose lease was lost', async () => {
    await batchWithStolenLease(false);
  });

  it('undoes the immediate and the deferred writes of a batch whose lease was lost', async () => {
    await batchWithStolenLease(true);
  });
});
