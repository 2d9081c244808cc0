import { randomUUID } from 'node:crypto';
import { MAX_READ_BATCH, PostgresEventStore, openPglite, type NewEvent, type SqlDatabase } from '../src/index.js';
import { openTestPostgres } from '../../../test/support/postgres.js';

const ENGINES: Array<[string, () => Promise<SqlDatabase>]> = [
  ['PGlite', () => openPglite()],
  ['PostgreSQL', () => openTestPostgres('rs')],
];

/** readStreams: a consumer batch's streams in one statement (the callback enqueuer's reads). */
describe.each(ENGINES)('readStreams on %s', (_engine, open) => {
  let db: SqlDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await open();
    store = await PostgresEventStore.create(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  const event = (type: string, data: unknown = {}): NewEvent => ({
    eventId: randomUUID(),
    type,
    schemaVersion: 1,
    data,
  });

  it('answers each stream whole and in version order, an unknown one empty, a repeated id once', async () => {
    const [a, b, none] = [`rs-${randomUUID()}`, `rs-${randomUUID()}`, `rs-${randomUUID()}`];
    await store.append(a, [event('A1', { n: 1 }), event('A2')], 'no_stream');
    await store.append(b, [event('B1')], 'no_stream');
    await store.append(a, [event('A3', { n: 3 })], 2);
    const streams = await store.readStreams([b, a, none, a]);
    expect([...streams.keys()]).toEqual([b, a, none]);
    expect(streams.get(a)!.map((e) => [e.type, e.streamVersion])).toEqual([
      ['A1', 1],
      ['A2', 2],
      ['A3', 3],
    ]);
    expect(streams.get(a)!.map((e) => e.data)).toEqual([{ n: 1 }, {}, { n: 3 }]);
    expect(streams.get(b)!.map((e) => e.type)).toEqual(['B1']);
    expect(streams.get(none)).toEqual([]);
    // The same events as one read per stream gives.
    expect(streams.get(a)).toEqual(await store.readStream(a));
    expect((await store.readStreams([])).size).toBe(0);
  });

  it(`refuses more than ${MAX_READ_BATCH} streams`, async () => {
    const ids = Array.from({ length: MAX_READ_BATCH + 1 }, (_, i) => `rs-many-${i}`);
    await expect(store.readStreams(ids)).rejects.toThrow(RangeError);
    await expect(store.readStreams([...ids.slice(0, MAX_READ_BATCH), ids[0]!])).resolves.toBeInstanceOf(Map);
  });
});
