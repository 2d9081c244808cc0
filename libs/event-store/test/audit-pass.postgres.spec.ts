import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  PostgresEventStore,
  READER_PAGES_AHEAD,
  START,
  auditHead,
  comparePositions,
  countEvents,
  openPostgres,
  postgresConnectionOf,
  startAuditPass,
  type AuditPassOptions,
  type AuditRow,
  type BrokenLink,
  type GlobalPosition,
  type NewEvent,
  type SqlDatabase,
  type SqlExecutor,
} from '../src/index.js';
import { TEST_DATABASE_URL } from '../../../test/support/postgres.js';
import { plainAuditRow } from './plain-audit-row.js';

/**
 * The replay's pass over the store on a reader thread (its own connections, parsing and hashing
 * there) gives what the pass on the calling thread gives: the same events to project, in order,
 * the same broken links in the same order, the same count. The test runs from the TypeScript
 * sources, so it hands the pass the built reader script (`npm run build` first).
 */
const BUILT_READER = new URL('../dist/audit/audit-read.worker.js', import.meta.url);

/** A pass on the reader thread over the whole store in pages of 2, everything handed over. */
async function readerPassOverAll(db: SqlDatabase) {
  const until = await auditHead(db);
  return startAuditPass(db, {
    readUntil: until,
    projectUntil: until,
    batchEvents: 2,
    onBroken: () => {},
    thread: 'reader',
    readerUrl: BUILT_READER,
  });
}

type Thread = 'reader' | 'inline';

async function runPass(
  db: SqlDatabase,
  thread: Thread,
  options: Partial<AuditPassOptions> & { readUntil: GlobalPosition; projectUntil: GlobalPosition },
) {
  const broken: BrokenLink[] = [];
  const pass = startAuditPass(db, {
    batchEvents: 3,
    onBroken: (link) => broken.push(link),
    thread,
    ...(thread === 'reader' ? { readerUrl: BUILT_READER } : {}),
    ...options,
  });
  const events: AuditRow[] = [];
  let read = 0;
  let pages = 0;
  try {
    for (let page = await pass.next(); page; page = await pass.next()) {
      pages += 1;
      read += page.read;
      events.push(...page.events);
    }
    await pass.finish({ heads: true });
    return { thread: pass.thread, events, read, pages, broken, checked: pass.eventsChecked, spilled: pass.spilled };
  } finally {
    await pass.close();
  }
}

describe('audit pass on a reader thread (PostgreSQL server)', () => {
  const schema = `t_audit_pass_${randomBytes(5).toString('hex')}`;
  let db: SqlDatabase;
  let store: PostgresEventStore;
  const event = (data: unknown): NewEvent => ({ eventId: randomUUID(), type: 'Audited', schemaVersion: 1, data });

  beforeAll(async () => {
    expect(existsSync(fileURLToPath(BUILT_READER))).toBe(true); // npm test builds first
    db = await openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 4 });
    store = await PostgresEventStore.create(db);
  });
  afterAll(async () => {
    await db?.close();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('reads, checks and hands over what the calling thread would, broken links included', async () => {
    const streams = Array.from({ length: 5 }, (_, i) => `audit-${i}-${randomUUID()}`);
    for (let round = 0; round < 6; round++) {
      for (const [i, id] of streams.entries()) {
        await store.append(id, [event({ round, i, ad: 'Ayşe Çelik "q" \\' }), event([round, { b: 1, a: 2 }])], 'any');
      }
    }
    const [edited, missing, cut] = streams;
    await db.query(`update es_events set data = '{"round":9}'::jsonb where stream_id = $1 and stream_version = 4`, [
      edited,
    ]);
    await db.query(`update es_events set hash = null where stream_id = $1 and stream_version = 2`, [missing]);
    await db.query(`delete from es_events where stream_id = $1 and stream_version >= 11`, [cut]);

    const readUntil = await auditHead(db);
    // Project only the first two thirds: the rest is read and checked, not handed over.
    const { rows } = await db.query<{ xid: string; seq: string }>(
      `select xid::text as xid, seq::text as seq from es_events order by es_events.xid, es_events.seq offset 38 limit 1`,
    );
    const projectUntil = { commitXid: rows[0]!.xid, seq: rows[0]!.seq };

    const inline = await runPass(db, 'inline', { readUntil, projectUntil });
    const reader = await runPass(db, 'reader', { readUntil, projectUntil });

    expect(inline.thread).toBe('inline');
    expect(reader.thread).toBe('reader');
    expect(inline.read).toBe(58);
    expect(inline.checked).toBe(58);
    expect(inline.events).toHaveLength(39);
    expect(inline.events.every((e) => comparePositions(e.position, projectUntil) <= 0)).toBe(true);
    // The edit, the removed hash and the event after it (which chains on from genesis), the cut tail.
    expect(inline.broken.map((b) => `${b.reason} ${b.streamVersion}`).sort()).toEqual([
      'hash_mismatch 3',
      'hash_mismatch 4',
      'hash_missing 2',
      'head_mismatch 12',
    ]);
    // 20 pages of 3 events, far more than the reader may send ahead: it waited for each to be taken.
    expect(reader.pages).toBe(inline.pages);
    expect(reader.pages).toBeGreaterThan(READER_PAGES_AHEAD * 4);
    expect(reader.read).toBe(inline.read);
    expect(reader.checked).toBe(inline.checked);
    expect(reader.events.map(plainAuditRow)).toEqual(inline.events.map(plainAuditRow));
    expect(reader.broken).toEqual(inline.broken);
  });

  it('holds at most maxStreamHeads streams: past them it spills to a temporary table and finds the same', async () => {
    // 7 streams written round-robin: a bound of 2 spills them all on every page and puts each back
    // before its next event; 11 events each, in pages of 3.
    const streams = Array.from({ length: 7 }, (_, i) => `spill-${i}-${randomUUID()}`);
    for (let round = 0; round < 11; round++) {
      for (const [i, id] of streams.entries()) await store.append(id, [event({ round, i })], 'any');
    }
    const [edited, gap, nulled, cut, headEdited, emptied] = streams;
    await db.query(`update es_events set data = '{"round":9}'::jsonb where stream_id = $1 and stream_version = 7`, [
      edited,
    ]);
    await db.query(`delete from es_events where stream_id = $1 and stream_version = 5`, [gap]);
    await db.query(`update es_events set hash = null where stream_id = $1 and stream_version = 8`, [nulled]);
    await db.query(`delete from es_events where stream_id = $1 and stream_version >= 10`, [cut]);
    await db.query(`update es_streams set head_hash = sha256('x') where stream_id = $1`, [headEdited]);
    await db.query(`delete from es_events where stream_id = $1`, [emptied]);
    const until = await auditHead(db);
    const range = { readUntil: until, projectUntil: until };
    const ours = (links: BrokenLink[]) => links.filter((l) => streams.includes(l.streamId));

    const unbounded = await runPass(db, 'inline', range);
    expect(
      ours(unbounded.broken)
        .map((b) => `${streams.indexOf(b.streamId)} ${b.reason} ${b.streamVersion}`)
        .sort(),
    ).toEqual([
      '0 hash_mismatch 7',
      '1 version_gap 6',
      '2 hash_mismatch 9',
      '2 hash_missing 8',
      '3 head_mismatch 11',
      '4 head_mismatch 11',
      '5 head_mismatch 11',
    ]);
    expect(unbounded.spilled).toBe(false);
    for (const thread of ['inline', 'reader'] as const) {
      const bounded = await runPass(db, thread, { ...range, maxStreamHeads: 2 });
      expect(bounded.spilled).toBe(true);
      expect(bounded.checked).toBe(unbounded.checked);
      expect(bounded.events.map(plainAuditRow)).toEqual(unbounded.events.map(plainAuditRow));
      // Page links in global order, then head links by stream id (from memory's pages and from the spill's join alike).
      expect(bounded.broken).toEqual(unbounded.broken);
    }
    // Nothing is left behind: the spill's table lived in its own connection's temporary schema.
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from pg_class where relname = 'tg_audit_stream_heads'`,
    );
    expect(rows[0]!.n).toBe(0);
    expect(() => startAuditPass(db, { ...range, batchEvents: 3, onBroken: () => {}, maxStreamHeads: 0 })).toThrow(
      /maxStreamHeads must be a positive integer/,
    );
  });

  it('is chosen by default for a server from the built code, and needs a server', async () => {
    expect(postgresConnectionOf(db)).toEqual({ url: TEST_DATABASE_URL, schema });
    // From the sources (the test runner) without a reader script, the pass stays on this thread.
    const local = startAuditPass(db, { readUntil: START, projectUntil: START, batchEvents: 10, onBroken: () => {} });
    expect(local.thread).toBe('inline');
    await local.close();
    const copy: SqlDatabase = { ...db };
    expect(() =>
      startAuditPass(copy, {
        readUntil: START,
        projectUntil: START,
        batchEvents: 10,
        onBroken: () => {},
        thread: 'reader',
      }),
    ).toThrow(/needs a PostgreSQL server/);
  });

  it('fails the pass, never ends it quietly, when reading fails or the reader dies', async () => {
    const until = await auditHead(db);
    const broken = await openPostgres({ url: TEST_DATABASE_URL, schema: `${schema}_none`, poolSize: 1 });
    try {
      // A schema without an event table: the reader's first query fails.
      await expect(runPass(broken, 'reader', { readUntil: until, projectUntil: until })).rejects.toThrow(
        /audit read: relation "es_events" does not exist/,
      );
    } finally {
      await broken.close();
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema}_none cascade`);
      await admin.end();
    }
    const dying = new URL('data:text/javascript,process.exit(7)');
    await expect(runPass(db, 'reader', { readUntil: until, projectUntil: until, readerUrl: dying })).rejects.toThrow(
      /reader exited \(code 7\)/,
    );
  });

  it('sends at most READER_PAGES_AHEAD pages before they are taken, and one more per page taken', async () => {
    // At least 40 events in pages of 2: 20 pages or more, far more than the bound.
    await store.append(
      `audit-ahead-${randomUUID()}`,
      Array.from({ length: 40 }, (_, i) => event({ i })),
      'no_stream',
    );
    const pass = await readerPassOverAll(db);
    // The pages that arrived and wait to be taken (the pass's queue; private, read for this test only).
    const waiting = () => (pass as unknown as { arrived: unknown[] }).arrived.length;
    const settle = async (expected: number) => {
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && waiting() < expected) await new Promise((resolve) => setTimeout(resolve, 20));
      // Time for any page beyond the bound to arrive, were the reader not holding it back.
      await new Promise((resolve) => setTimeout(resolve, 300));
    };
    try {
      expect(READER_PAGES_AHEAD).toBeLessThan(10);
      await settle(READER_PAGES_AHEAD);
      expect(waiting()).toBe(READER_PAGES_AHEAD);
      for (let taken = 1; taken <= 3; taken++) {
        expect(await pass.next()).toMatchObject({ read: 2 });
        await settle(READER_PAGES_AHEAD);
        expect(waiting()).toBe(READER_PAGES_AHEAD);
      }
    } finally {
      await pass.close();
    }
  });

  it('stops midway on close', async () => {
    const pass = await readerPassOverAll(db);
    expect(await pass.next()).toMatchObject({ read: 2 });
    // The reader sends pages ahead meanwhile: the ones already here are not handed out after close.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pass.close();
    await expect(pass.next()).rejects.toThrow(/audit read: closed/);
    await pass.close(); // idempotent
  });

  it('counts the events up to a position, its plan settings local to the count', async () => {
    // Its own events, so that it runs alone too (-t) and the tenth event always exists.
    await store.append(
      `count-${randomUUID()}`,
      Array.from({ length: 12 }, (_, i) => event({ i })),
      'any',
    );
    const { rows } = await db.query<{ xid: string; seq: string; n: string }>(
      `select xid::text as xid, seq::text as seq, (select count(*) from es_events)::text as n
       from es_events order by es_events.xid, es_events.seq offset 9 limit 1`,
    );
    const tenth = { commitXid: rows[0]!.xid, seq: rows[0]!.seq };
    // One connection: a count that changed its session's settings would leave them on it.
    const one = await openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1 });
    try {
      const SETTINGS_SQL = `select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`;
      const settings = () => one.query<{ jit: string; workers: string }>(SETTINGS_SQL);
      const before = (await settings()).rows[0];
      // The settings the count's own statement runs under, read in its transaction just before it.
      const underCount: unknown[] = [];
      const watched: SqlDatabase = Object.assign(Object.create(one) as SqlDatabase, {
        transaction: <T>(work: (tx: SqlExecutor) => Promise<T>) =>
          one.transaction((tx) =>
            work({
              async query(sql, params) {
                if (/^select count\(\*\)/.test(sql)) {
                  const { rows: now } = await tx.query(SETTINGS_SQL);
                  underCount.push(now[0]);
                }
                return tx.query(sql, params);
              },
            }),
          ),
      });
      expect(await countEvents(watched, tenth)).toBe(10);
      expect(underCount).toEqual([{ jit: 'off', workers: '0' }]);
      expect(await countEvents(one, await auditHead(one))).toBe(Number(rows[0]!.n));
      expect(await countEvents(one, START)).toBe(0);
      expect((await settings()).rows[0]).toEqual(before);
    } finally {
      await one.close();
    }
  });
});
