import { newEventId, openPglite, PostgresEventStore, type NewEvent, type SqlDatabase } from '../src/index.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

/**
 * ANALYZE gathers no statistics on the events' payloads (schema.ts): on the embedded store it runs
 * on the one connection every request waits for, and the jsonb columns were most of its time. The
 * columns the store's reads filter on keep theirs.
 */
const event = (n: number): NewEvent => ({
  eventId: newEventId(),
  type: n % 2 === 0 ? 'Even' : 'Odd',
  schemaVersion: 1,
  data: { n, note: `payload ${n}` },
  metadata: { actor: `actor-${n % 5}` },
});

describe.each([
  ['PGlite', () => openPglite()],
  ['PostgreSQL', () => openTestPostgres('payload_stats')],
])('es_events statistics on %s', (_engine, open: () => Promise<SqlDatabase>) => {
  let db: SqlDatabase;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('analyses the columns reads filter on, and not data or metadata', async () => {
    const store = await PostgresEventStore.create(db);
    for (let s = 0; s < 20; s++)
      await store.append(
        `stats-${s}`,
        Array.from({ length: 10 }, (_, i) => event(s * 10 + i)),
        'no_stream',
      );
    await db.exec('analyze es_events');
    const { rows } = await db.query<{ attname: string }>(
      `select attname from pg_stats where schemaname = current_schema() and tablename = 'es_events' order by attname`,
    );
    const analysed = rows.map((r) => r.attname);
    expect(analysed).toEqual(expect.arrayContaining(['event_id', 'seq', 'stream_id', 'type', 'xid']));
    expect(analysed).not.toContain('data');
    expect(analysed).not.toContain('metadata');
  });

  it('leaves the setting alone when a store opens again (no catalog write, no plan invalidation)', async () => {
    const targets = async () =>
      (
        await db.query<{ attname: string; target: number | null; xmin: string }>(
          `select attname, attstattarget::int as target, xmin::text from pg_attribute
            where attrelid = 'es_events'::regclass and attname in ('data', 'metadata') order by attname`,
        )
      ).rows;
    const before = await targets();
    expect(before.map((r) => [r.attname, r.target])).toEqual([
      ['data', 0],
      ['metadata', 0],
    ]);
    await PostgresEventStore.create(db);
    expect(await targets()).toEqual(before);
  });
});
