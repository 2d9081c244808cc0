import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { COPIED_FIELD_COUNT, encodeCopiedPage } from '../src/audit/copied-page-encoding.js';
import { copiedPageSql, readCopiedPage, readCopiedRows } from '../src/audit/copied-page-read.js';
import { factsOf, trailerOf } from '../src/audit/audit-read-protocol.js';
import { readBinaryCopy } from '../src/audit/binary-copy.js';
import {
  END_WRITTEN_US,
  FIRST_WRITTEN_US,
  RECORDED_TIME_BYTES,
  writeRecordedTime,
} from '../src/audit/recorded-time.js';
import {
  PostgresEventStore,
  START,
  auditHead,
  openPostgres,
  postgresPoolConfig,
  readAuditBatch,
  recordedAtSql,
  type GlobalPosition,
  type NewEvent,
  type SqlDatabase,
} from '../src/index.js';
import { ENCODED_OFFSETS, HASH_BYTES, SLOT, encodeEvents, type EncodedEvents } from '../src/store/chain-encoding.js';
import { TEST_DATABASE_URL } from '../../../test/support/postgres.js';

/** A page's bytes with each previous-hash slot zeroed (it is the hash's to fill, unset till then). */
function hashInputs(encoded: EncodedEvents): Buffer {
  const bytes = Buffer.from(encoded.buffer);
  for (let o = 0; o < encoded.offsets.length; o += ENCODED_OFFSETS) {
    bytes.fill(0, encoded.offsets[o + SLOT], encoded.offsets[o + SLOT]! + HASH_BYTES);
  }
  return bytes;
}

/**
 * The audit reader's pages by binary COPY (copied-page-read.ts) must be byte for byte what the
 * reader wrote from pg's rows before (readAuditBatch, then encodeEvents with trailerOf): the same
 * encoding (so the same hashes), offsets, facts and events, for any text the store may hold and
 * for rows edited behind the store's back. The recorded time, printed in JS here, must be the
 * server's to_char text for every time it prints, and left to the server for the others.
 */
describe('audit pages read by binary COPY (PostgreSQL server)', () => {
  const schema = `t_copied_page_${randomBytes(5).toString('hex')}`;
  let db: SqlDatabase;
  let store: PostgresEventStore;
  let client: pg.Client;

  beforeAll(async () => {
    db = await openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 2 });
    store = await PostgresEventStore.create(db);
    client = new pg.Client(postgresPoolConfig({ url: TEST_DATABASE_URL, schema }, 1));
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.close();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  const event = (type: string, data: unknown, metadata?: Record<string, unknown>): NewEvent => ({
    eventId: randomUUID(),
    type,
    schemaVersion: 1 + (data === null ? 0 : 2),
    data,
    ...(metadata ? { metadata } : {}),
  });

  /** Every page from START in pages of `limit`, both ways. */
  async function bothWays(limit: number, until: GlobalPosition) {
    const pages: Array<{
      copied: Awaited<ReturnType<typeof readCopiedPage>>;
      rows: Awaited<ReturnType<typeof readAuditBatch>>;
    }> = [];
    let after = START;
    for (;;) {
      const rows = await readAuditBatch(db, after, until, limit);
      const copied = await readCopiedPage(client, after, until, limit);
      pages.push({ copied, rows });
      if (rows.length === 0) return pages;
      after = rows[rows.length - 1]!.position;
    }
  }

  it('writes the encoding, offsets, facts and events that pg’s rows give, page after page', async () => {
    const streams = ['txn-1', 'akış-ğüş', 'line\nbreak:9:', '😀', `tab\tand\\back ${'€'.repeat(60)}`];
    for (let round = 0; round < 4; round++) {
      for (const [i, id] of streams.entries()) {
        await store.append(
          id,
          [
            event(i % 2 ? 'Türkçe\nTür' : 'DepositRequested', {
              round,
              ad: 'Ayşe Öztürk İ',
              e: '😀 \u0001',
              s: '€'.repeat(i * 500),
            }),
            event('1:2\n', [round, { b: 1, a: 2 }], { actor: `op-${i}`, note: 'Şule\t"q"' }),
          ],
          'any',
        );
      }
    }
    // Rows edited behind the store's back: no hash, an empty one, a short one, a negative version.
    await db.query(`update es_events set hash = null where stream_id = 'txn-1' and stream_version = 2`);
    await db.query(`update es_events set hash = '\\x'::bytea where stream_id = 'txn-1' and stream_version = 3`);
    await db.query(`update es_events set hash = '\\xab01'::bytea where stream_id = '😀' and stream_version = 1`);
    await db.query(`update es_events set stream_version = -7 where stream_id = '😀' and stream_version = 8`);
    const until = await auditHead(db);

    let events = 0;
    for (const limit of [1, 3, 7, 2_000]) {
      for (const { copied, rows } of await bothWays(limit, until)) {
        const encoded = encodeEvents(rows, rows.map(trailerOf));
        expect(hashInputs(copied.encoded).equals(hashInputs(encoded))).toBe(true);
        expect([...copied.encoded.offsets]).toEqual([...encoded.offsets]);
        expect([...copied.facts]).toEqual([...factsOf(rows)]);
        expect(
          copied.events.map((e) => ({
            streamId: e.streamId,
            streamVersion: e.streamVersion,
            eventId: e.eventId,
            position: e.position,
            hash: e.hash,
          })),
        ).toEqual(
          rows.map((r) => ({
            streamId: r.streamId,
            streamVersion: r.streamVersion,
            eventId: r.eventId,
            position: r.position,
            hash: r.hash,
          })),
        );
        if (limit === 2_000) events += rows.length;
      }
    }
    expect(events).toBe(40);
    // The edits are among them, as their own kinds of value.
    const all = (await bothWays(2_000, until))[0]!.copied.events;
    expect(all.filter((e) => e.hash === null)).toHaveLength(1);
    expect(all.filter((e) => e.hash === '')).toHaveLength(1);
    expect(all.filter((e) => e.hash === 'ab01')).toHaveLength(1);
    expect(all.filter((e) => e.streamVersion === -7)).toHaveLength(1);
  });

  it('prints the recorded time of 1970-2199 in JS and leaves the others to the server', async () => {
    const stream = `times-${randomUUID()}`;
    await store.append(
      stream,
      [1, 2, 3, 4].map((i) => event('Timed', { i })),
      'no_stream',
    );
    const at = (version: number, time: string) =>
      db.query(`update es_events set created_at = $2::timestamptz where stream_id = $1 and stream_version = $3`, [
        stream,
        time,
        version,
      ]);
    await at(1, '1969-12-31T23:59:59.999999Z');
    await at(2, '2200-01-01T00:00:00Z');
    await at(3, '0044-03-15T12:00:00.5Z');
    await at(4, '1970-01-01T00:00:00Z');
    const until = await auditHead(db);
    for (const { copied, rows } of await bothWays(5, until)) {
      expect(hashInputs(copied.encoded).equals(hashInputs(encodeEvents(rows, rows.map(trailerOf))))).toBe(true);
    }
    const ours = (await readAuditBatch(db, START, until, 2_000)).filter((r) => r.streamId === stream);
    expect(ours.map((r) => r.recordedAtUs)).toEqual([
      '1969-12-31T23:59:59.999999Z',
      '2200-01-01T00:00:00.000000Z',
      '0044-03-15T12:00:00.500000Z',
      '1970-01-01T00:00:00.000000Z',
    ]);

    // A time the canonical encoding cannot print (to_char gives null for infinity): a clear error.
    await at(3, 'infinity');
    await expect(readCopiedPage(client, START, await auditHead(db), 2_000)).rejects.toThrow(
      /has a recorded time the canonical encoding cannot print/,
    );
    await db.query(`delete from es_events where stream_id = $1`, [stream]);
    // The connection is still usable after that error (it happened after the COPY had ended).
    expect((await readCopiedPage(client, START, await auditHead(db), 2_000)).events.length).toBeGreaterThan(0);
  });

  it('prints times exactly as to_char does, over the whole range written in JS', async () => {
    // Random microseconds over 1970-2199 and every edge: days of leap years, month and year ends.
    const { rows } = await client.query<{ us: string; text: string }>(
      `with t as (
         select ts from (
           select timestamptz '1970-01-01 00:00:00+00'
                  + (random() * (timestamptz '2199-12-31 23:59:59.999999+00' - timestamptz '1970-01-01 00:00:00+00')) as ts
           from generate_series(1, 20000)
           union all
           select d + s from generate_series(timestamptz '1970-01-01 00:00:00+00', timestamptz '2199-12-01 00:00:00+00', interval '1 month') as d,
                  unnest(array[interval '0', interval '-1 microsecond', interval '1 day' - interval '1 microsecond', interval '28 days', interval '59 days 23:59:59.999999']) as s
           union all
           select unnest(array[timestamptz '2000-02-29 12:34:56.000001+00', timestamptz '2100-02-28 23:59:59.999999+00',
                               timestamptz '2100-03-01 00:00:00+00', timestamptz '2199-12-31 23:59:59.999999+00',
                               timestamptz '1970-01-01 00:00:00+00', timestamptz '1999-12-31 23:59:59.999999+00'])
         ) x where ts >= timestamptz '1970-01-01 00:00:00+00' and ts < timestamptz '2200-01-01 00:00:00+00')
       select ((extract(epoch from ts) - 946684800) * 1000000)::bigint::text as us, ${recordedAtSql('ts')} as text from t`,
    );
    expect(rows.length).toBeGreaterThan(20_000);
    const source = Buffer.alloc(8);
    const target = Buffer.alloc(RECORDED_TIME_BYTES);
    const wrong: string[] = [];
    for (const { us, text } of rows) {
      source.writeBigInt64BE(BigInt(us));
      if (!writeRecordedTime(source, 0, target, 0) || target.toString('latin1') !== text) wrong.push(`${us} ${text}`);
    }
    expect(wrong).toEqual([]);
    // Outside the range, and ±infinity: nothing written.
    for (const us of [FIRST_WRITTEN_US - 1, END_WRITTEN_US, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n]) {
      source.writeBigInt64BE(BigInt(us));
      target.fill(0);
      expect(writeRecordedTime(source, 0, target, 0)).toBe(false);
      expect(target.equals(Buffer.alloc(RECORDED_TIME_BYTES))).toBe(true);
    }
  });

  it('writes only decimal positions into the COPY statement', () => {
    const until = { commitXid: '9', seq: '9' };
    expect(copiedPageSql({ commitXid: '1', seq: '2' }, until, 10)).toContain(`('1'::xid8, 2::bigint)`);
    for (const bad of ["1'); drop table es_events; --", '', '1.5', '-1', ' 1', '1'.repeat(21)]) {
      expect(() => copiedPageSql({ commitXid: bad, seq: '1' }, until, 10)).toThrow(/decimal digits/);
      expect(() => copiedPageSql({ commitXid: '1', seq: bad }, until, 10)).toThrow(/decimal digits/);
    }
    expect(() => copiedPageSql(START, until, 0)).toThrow(/audit batch must be/);
  });

  it('refuses a COPY output that is not whole rows of the page’s fields', async () => {
    const good = (await copyOutOf(`copy (select 1::int, null::text, 'ş'::text) to stdout (format binary)`)) as Buffer;
    const rows = readBinaryCopy(good, 3, 1);
    expect(rows.rows).toBe(1);
    expect([...rows.lengths]).toEqual([4, -1, 2]);
    expect(good.toString('utf8', rows.starts[2], rows.starts[2]! + 2)).toBe('ş');
    expect(() => readBinaryCopy(good, 2, 1)).toThrow(/a row of 3 fields, expected 2/);
    expect(() => readBinaryCopy(good, 3, 0)).toThrow(/more than 0 rows/);
    expect(() => readBinaryCopy(good.subarray(0, good.length - 2), 3, 1)).toThrow(/cut short before its trailer/);
    expect(() => readBinaryCopy(good.subarray(0, good.length - 5), 3, 1)).toThrow(/past the end|cut short/);
    expect(() => readBinaryCopy(Buffer.concat([good, Buffer.from([0])]), 3, 1)).toThrow(/bytes after its trailer/);
    expect(() => readBinaryCopy(Buffer.from('PGCOPY\n'), 3, 1)).toThrow(/no PGCOPY header/);
    expect(() => encodeCopiedPage(rows)).toThrow(new RegExp(`rows of 3 fields`));
    // A page's null where the store never has one is refused, not encoded.
    const nullType = await copyOutOf(
      `copy (select '1'::text, '1'::text, gen_random_uuid(), 's'::text, 1, null::text, 1, '{}'::text, '{}'::text, now(), null::bytea) to stdout (format binary)`,
    );
    expect(() => encodeCopiedPage(readBinaryCopy(nullType, COPIED_FIELD_COUNT, 1))).toThrow(/field 5 is null/);
  });

  it('reads the raw rows the benchmark times, the same count as the page', async () => {
    const until = await auditHead(db);
    const raw = await readCopiedRows(client, START, until, 2_000);
    const page = await readCopiedPage(client, START, until, 2_000);
    expect(raw.rows).toBe(page.events.length);
    expect(raw.rows).toBeGreaterThan(0);
  });

  async function copyOutOf(sql: string): Promise<Buffer> {
    const { to } = await import('pg-copy-streams');
    const chunks: Buffer[] = [];
    for await (const chunk of client.query(to(sql)) as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
});
