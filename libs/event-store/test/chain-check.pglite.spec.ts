import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BoundedChainCheck,
  MAX_PAGES_IN_FLIGHT,
  PostgresEventStore,
  START,
  auditHead,
  openPglite,
  readAuditBatch,
  streamHeadPages,
  settleHeadCheck,
  spillOpenerFor,
  startAuditPass,
  startChainCheck,
  type BrokenLink,
  type NewEvent,
  type SqlDatabase,
} from '../src/index.js';
import { verifyAll } from './event-chain.contract.js';

/**
 * The replay's chain check on a worker thread gives ChainVerifier's links, in its order, with their
 * positions. The test runs from the TypeScript sources, so it hands the check the built worker
 * script (`npm run build` first, as for the CLI tests).
 */
const BUILT_WORKER = new URL('../dist/audit/chain-check.worker.js', import.meta.url);

async function checkOnWorker(db: SqlDatabase, pageEvents: number, workerUrl = BUILT_WORKER, headRows?: number) {
  const broken: BrokenLink[] = [];
  const check = startChainCheck((link) => broken.push(link), { thread: 'worker', workerUrl });
  try {
    const until = await auditHead(db);
    let after = START;
    for (;;) {
      const page = await readAuditBatch(db, after, until, pageEvents);
      if (page.length === 0) break;
      after = page[page.length - 1]!.position;
      await check.submit(page);
    }
    await check.drain();
    broken.push(...(await settleHeadCheck(db, await check.checkHeads(() => streamHeadPages(db, headRows)))));
    return { broken, checked: check.eventsChecked, thread: check.thread };
  } finally {
    await check.close();
  }
}

describe('chain check on a worker thread (PGlite)', () => {
  let db: SqlDatabase;
  let store: PostgresEventStore;
  const event = (data: unknown, metadata?: Record<string, unknown>): NewEvent => ({
    eventId: randomUUID(),
    type: 'Chained',
    schemaVersion: 1,
    data,
    ...(metadata ? { metadata } : {}),
  });

  beforeAll(async () => {
    expect(existsSync(fileURLToPath(BUILT_WORKER))).toBe(true); // npm test builds first
    db = await openPglite();
    store = await PostgresEventStore.create(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('finds what the verifier finds, in its order, across pages and with pages waiting for room', async () => {
    const streams = Array.from({ length: 6 }, (_, i) => `wchain-${i}-${randomUUID()}`);
    for (let round = 0; round < 5; round++) {
      for (const [i, id] of streams.entries()) {
        await store.append(id, [event({ round, i, ğüş: 'Ayşe "q" \\ \u0001' }), event([round, { b: 1, a: 2 }])], 'any');
      }
    }
    const clean = await checkOnWorker(db, 7);
    expect(clean).toEqual({ broken: [], checked: (await verifyAll(db)).checked, thread: 'worker' });

    const [edited, metadataEdited, cut] = streams;
    const { rows } = await db.query<{ event_id: string; stream_id: string }>(
      `select event_id::text, stream_id from es_events where stream_id = any($1) and stream_version = 4`,
      [[edited, metadataEdited, cut]],
    );
    const byStream = new Map(rows.map((r) => [r.stream_id, r.event_id]));
    await db.query(`update es_events set data = '{"round":9}'::jsonb where event_id = $1`, [byStream.get(edited)]);
    await db.query(`update es_events set metadata = '{"actor":"mallory"}'::jsonb where event_id = $1`, [
      byStream.get(metadataEdited),
    ]);
    await db.query(`delete from es_events where stream_id = $1 and stream_version >= 9`, [cut]);
    await db.query(`update es_events set hash = null where stream_id = $1 and stream_version = 2`, [cut]);

    const inline = await verifyAll(db);
    // The two edits, the removed hash and the event after it (which chains on from genesis), the cut tail.
    expect(inline.broken.map((b) => `${b.reason} ${b.streamVersion}`).sort()).toEqual([
      'hash_mismatch 3',
      'hash_mismatch 4',
      'hash_mismatch 4',
      'hash_missing 2',
      `head_mismatch 10`,
    ]);
    // Pages of 1 and 3 events outrun the worker: submit waits for room (MAX_PAGES_IN_FLIGHT).
    for (const pageEvents of [1, 3, 1_000]) {
      const onWorker = await checkOnWorker(db, pageEvents);
      expect(onWorker.broken).toEqual(inline.broken);
      expect(onWorker.checked).toBe(inline.checked);
    }
    expect(MAX_PAGES_IN_FLIGHT).toBeGreaterThan(0);
    // The inline check (what the test runner gets by default) agrees as well.
    const defaultCheck = startChainCheck(() => undefined);
    expect(defaultCheck.thread).toBe('inline');
    await defaultCheck.close();
  });

  it('holds at most maxStreamHeads streams, the rest in a temporary table, and finds the same links', async () => {
    const streams = Array.from({ length: 5 }, (_, i) => `spill-${i}-${randomUUID()}`);
    for (let round = 0; round < 8; round++) {
      for (const [i, id] of streams.entries()) await store.append(id, [event({ round, i })], 'any');
    }
    const [edited, gap, cut] = streams;
    await db.query(`update es_events set data = '{"x":1}'::jsonb where stream_id = $1 and stream_version = 6`, [
      edited,
    ]);
    await db.query(`delete from es_events where stream_id = $1 and stream_version = 3`, [gap]);
    await db.query(`delete from es_events where stream_id = $1 and stream_version >= 7`, [cut]);
    const unbounded = await verifyAll(db);
    expect(unbounded.broken.filter((l) => streams.includes(l.streamId)).map((l) => l.reason)).toEqual([
      'version_gap',
      'hash_mismatch',
      'head_mismatch',
    ]);

    for (const pageEvents of [1, 4]) {
      const check = new BoundedChainCheck(3, spillOpenerFor(db));
      const broken: BrokenLink[] = [];
      let mostHeld = 0;
      const until = await auditHead(db);
      try {
        for (let after = START; ;) {
          const page = await readAuditBatch(db, after, until, pageEvents);
          if (page.length === 0) break;
          after = page[page.length - 1]!.position;
          await check.checkPage(page, (link) => broken.push(link));
          mostHeld = Math.max(mostHeld, check.streamsHeld);
        }
        broken.push(...(await settleHeadCheck(db, await check.checkHeads(() => streamHeadPages(db)))));
      } finally {
        await check.close();
      }
      expect(check.spilled).toBe(true);
      // The bound, plus at most one page's new streams before the page's eviction.
      expect(mostHeld).toBeLessThanOrEqual(3 + pageEvents);
      expect(check.eventsChecked).toBe(unbounded.checked);
      // Page links in global order, then head links by stream id (from memory's pages and from the spill's join alike).
      expect(broken).toEqual(unbounded.broken);
    }
    // Closed, the spill leaves no table in PGlite's one session.
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from pg_class where relname = 'tg_audit_stream_heads'`,
    );
    expect(rows[0]!.n).toBe(0);

    // The worker thread has no database: past its bound it fails the check, never runs on unbounded.
    await expect(
      (async () => {
        const check = startChainCheck(() => undefined, {
          thread: 'worker',
          workerUrl: BUILT_WORKER,
          maxStreamHeads: 3,
        });
        try {
          const until = await auditHead(db);
          await check.submit(await readAuditBatch(db, START, until, 1_000));
          await check.drain();
        } finally {
          await check.close();
        }
      })(),
    ).rejects.toThrow(/more than 3 streams, and no database on this thread/);

    // So a pass over a store with more streams than half its bound checks on the calling thread.
    const until = await auditHead(db);
    const broken: BrokenLink[] = [];
    const pass = startAuditPass(db, {
      readUntil: until,
      projectUntil: until,
      batchEvents: 4,
      onBroken: (link) => broken.push(link),
      thread: 'worker',
      maxStreamHeads: 3,
    });
    try {
      while (await pass.next());
      await pass.finish({ heads: true });
    } finally {
      await pass.close();
    }
    expect(pass.thread).toBe('inline');
    expect(pass.spilled).toBe(true);
    expect(broken).toEqual(unbounded.broken);
  });

  it('reads the recorded heads a page at a time, and finds the same head links across the pages', async () => {
    const streams = Array.from({ length: 7 }, (_, i) => `heads-${i}-${randomUUID()}`);
    for (const id of streams) await store.append(id, [event({ id }), event({ id, n: 2 })], 'no_stream');
    const allIds = async () =>
      (await db.query<{ stream_id: string }>(`select stream_id from es_streams order by stream_id`)).rows.map(
        (r) => r.stream_id,
      );
    const pagesOf = async (rows: number) => {
      const pages: string[][] = [];
      for await (const page of streamHeadPages(db, rows)) pages.push(page.map((h) => h.streamId));
      return pages;
    };
    const ids = await allIds();
    const pagesOf2 = await pagesOf(2);
    expect(pagesOf2.flat()).toEqual(ids);
    expect(pagesOf2.slice(0, -1).every((page) => page.length === 2)).toBe(true);
    expect(pagesOf2.at(-1)!.length).toBeLessThanOrEqual(2);
    // A last page that is exactly full ends with one more read that yields nothing.
    expect(await pagesOf(ids.length)).toEqual([ids]);
    for (const rows of [0, 10_001]) await expect(pagesOf(rows)).rejects.toThrow(/1\.\.10000 rows/);

    // Three broken heads, three apart in stream id order: in three different pages of 2.
    const [cutA, , , edited, , , cutB] = streams;
    await db.query(`delete from es_events where stream_id = any($1) and stream_version = 2`, [[cutA, cutB]]);
    await db.query(`update es_streams set head_hash = sha256('x') where stream_id = $1`, [edited]);
    const inline = await verifyAll(db);
    // The edited head first, then the cut tails (told apart from streams still being written by settleHeadCheck).
    expect(inline.broken.filter((l) => streams.includes(l.streamId)).map((l) => [l.streamId, l.reason])).toEqual([
      [edited, 'head_mismatch'],
      [cutA, 'head_mismatch'],
      [cutB, 'head_mismatch'],
    ]);
    for (const headRows of [1, 2, 3]) {
      const onWorker = await checkOnWorker(db, 50, BUILT_WORKER, headRows);
      expect(onWorker.broken).toEqual(inline.broken);
      const check = new BoundedChainCheck(1_000, spillOpenerFor(db));
      const broken: BrokenLink[] = [];
      const until = await auditHead(db);
      for (let after = START; ;) {
        const page = await readAuditBatch(db, after, until, 50);
        if (page.length === 0) break;
        after = page[page.length - 1]!.position;
        await check.checkPage(page, (link) => broken.push(link));
      }
      broken.push(...(await settleHeadCheck(db, await check.checkHeads(() => streamHeadPages(db, headRows)))));
      expect(check.spilled).toBe(false);
      expect(broken).toEqual(inline.broken);
    }
  });

  it('fails the pass, never passes it, when the worker dies', async () => {
    const dying = new URL('data:text/javascript,process.exit(7)');
    await expect(checkOnWorker(db, 2, dying)).rejects.toThrow(/worker exited \(code 7\)/);
    const throwing = new URL(`data:text/javascript,${encodeURIComponent("throw new Error('broken worker')")}`);
    await expect(checkOnWorker(db, 2, throwing)).rejects.toThrow(/broken worker/);
  });
});
