import { randomUUID } from 'node:crypto';
import {
  ChainVerifier,
  PostgresEventStore,
  START,
  auditHead,
  readAuditBatch,
  verifyHeads,
  type BrokenLink,
  type NewEvent,
  type SqlDatabase,
} from '../src/index.js';

/** Runs the verifier over the whole store, as the replay does. */
export async function verifyAll(db: SqlDatabase): Promise<{ broken: BrokenLink[]; checked: number }> {
  const verifier = new ChainVerifier();
  const broken: BrokenLink[] = [];
  const until = await auditHead(db);
  let after = START;
  for (;;) {
    const batch = await readAuditBatch(db, after, until, 1_000);
    if (batch.length === 0) break;
    for (const e of batch) {
      const link = verifier.accept(e);
      if (link) broken.push(link);
    }
    after = batch[batch.length - 1]!.position;
  }
  broken.push(...(await verifyHeads(db, verifier)));
  return { broken, checked: verifier.eventsChecked };
}

/** The hash chain: computed by the append in SQL, recomputed from stored columns in JS. */
export function describeEventChain(adapter: string, open: () => Promise<SqlDatabase>): void {
  describe(`event hash chain on ${adapter}`, () => {
    let db: SqlDatabase;
    let store: PostgresEventStore;

    beforeAll(async () => {
      db = await open();
      store = await PostgresEventStore.create(db);
    });
    afterAll(async () => {
      await db?.close();
    });

    const event = (data: unknown = {}, metadata?: Record<string, unknown>): NewEvent => ({
      eventId: randomUUID(),
      type: 'Chained',
      schemaVersion: 1,
      data,
      ...(metadata ? { metadata } : {}),
    });

    it('chains every expectation kind, multi-event and multi-stream appends, unicode and odd JSON', async () => {
      const a = `chain-${randomUUID()}`;
      const b = `chain-${randomUUID()}\nwith newline`;
      await store.append(a, [event({ x: 1 }), event({ ğüşİ: 'Ayşe "q" \\ \u0001', n: 1.5e3, z: null })], 'no_stream');
      await store.append(a, [event([1, 2, { b: 1, a: 2 }])], 2);
      await store.append(a, [event('text'), event(42), event(true)], 'any');
      // Past the verifier's reused 256 KB hash buffer (3-byte characters: 270,000 bytes of data).
      await store.append(b.replace('\nwith newline', '-large'), [event({ big: 'ş€'.repeat(45_000) })], 'no_stream');
      await store.appendMany([
        { streamId: a, events: [event({ m: 1 }, { actor: 'op', ip: '::1' })], expectedVersion: 6 },
        { streamId: b, events: [event({}), event({ deep: { deeper: [{}] } })], expectedVersion: 'any' },
      ]);
      const stored = await store.readStream(a);
      expect(stored.map((e) => e.streamVersion)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(stored.every((e) => typeof e.hash === 'string' && e.hash.length === 64)).toBe(true);
      expect(new Set(stored.map((e) => e.hash)).size).toBe(7);
      const { broken, checked } = await verifyAll(db);
      expect(broken).toEqual([]);
      expect(checked).toBeGreaterThanOrEqual(10);
    });

    it('keeps one correct chain under 12 concurrent writers of one stream', async () => {
      const id = `chain-${randomUUID()}`;
      await store.append(id, [event({ i: -1 })], 'no_stream');
      const writers = Array.from({ length: 12 }, (_, w) =>
        (async () => {
          for (let i = 0; i < 5; i++) await store.append(id, [event({ w, i }), event({ w, i, second: true })], 'any');
        })(),
      );
      // Writers with a numeric expectation race too: some lose, and the losers write nothing.
      const optimistic = Array.from({ length: 6 }, async () => {
        const version = (await store.readStream(id)).length;
        return store.append(id, [event({ optimistic: true })], version).then(
          () => 'won',
          () => 'lost',
        );
      });
      await Promise.all([...writers, ...optimistic]);
      const events = await store.readStream(id);
      expect(events.map((e) => e.streamVersion)).toEqual(events.map((_, i) => i + 1));
      expect((await verifyAll(db)).broken).toEqual([]);
    });

    it('names exactly the event whose stored data was edited, and a deleted tail', async () => {
      const id = `chain-${randomUUID()}`;
      await store.append(
        id,
        [event({ amount: '100' }), event({ amount: '200' }), event({ amount: '300' })],
        'no_stream',
      );
      const second = (await store.readStream(id))[1]!;
      await db.query(`update es_events set data = '{"amount":"999"}'::jsonb where event_id = $1`, [second.eventId]);
      const { broken } = await verifyAll(db);
      expect(broken).toHaveLength(1);
      expect(broken[0]).toMatchObject({
        streamId: id,
        streamVersion: 2,
        eventId: second.eventId,
        reason: 'hash_mismatch',
        position: second.position,
      });
      await db.query(`update es_events set data = '{"amount":"200"}'::jsonb where event_id = $1`, [second.eventId]);
      expect((await verifyAll(db)).broken).toEqual([]);

      const third = (await store.readStream(id))[2]!;
      await db.query(`delete from es_events where event_id = $1`, [third.eventId]);
      const tail = await verifyAll(db);
      expect(tail.broken).toEqual([expect.objectContaining({ streamId: id, reason: 'head_mismatch' })]);
    });

    it('backfills a store written before the chain existed, and chains on from there', async () => {
      const id = `legacy-${randomUUID()}`;
      await store.append(id, [event({ n: 1 }), event({ n: 2 })], 'no_stream');
      await store.append(id, [event({ n: 3 })], 2);
      const before = (await store.readStream(id)).map((e) => e.hash);
      await db.query(`update es_events set hash = null where stream_id = $1`, [id]);
      await db.query(`update es_streams set head_hash = null, prev_head_hash = null where stream_id = $1`, [id]);
      expect((await verifyAll(db)).broken.length).toBeGreaterThan(0);
      const reopened = await PostgresEventStore.create(db);
      expect((await reopened.readStream(id)).map((e) => e.hash)).toEqual(before);
      await reopened.append(id, [event({ n: 4 })], 3);
      expect((await verifyAll(db)).broken.filter((b) => b.streamId === id)).toEqual([]);
    });
  });
}
