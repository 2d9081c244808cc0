import { openPglite, type SqlDatabase } from '../src/index.js';

/**
 * PGlite answers every statement as a microtask: without EventLoopTurns a loop of statements kept
 * timers (and HTTP requests) waiting for its whole duration. A 5 ms heartbeat must keep ticking
 * while statements run back to back, outside and inside a transaction.
 */
const RUN_MS = 300;
/** The run also lasts until this many statements went by (a loaded machine runs fewer per ms). */
const MIN_STATEMENTS = 50;
const HEARTBEAT_MS = 5;
/** Far above the 10 ms budget plus a statement, well below the run: a stalled loop shows one gap of RUN_MS or more. */
const MAX_GAP_MS = 150;

async function heartbeatDuring(work: () => Promise<void>): Promise<{ ticks: number; maxGapMs: number }> {
  const tickAtMs: number[] = [];
  const started = performance.now();
  const timer = setInterval(() => tickAtMs.push(performance.now()), HEARTBEAT_MS);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const ended = performance.now();
  const points = [started, ...tickAtMs, ended];
  let maxGapMs = 0;
  for (let i = 1; i < points.length; i++) maxGapMs = Math.max(maxGapMs, points[i]! - points[i - 1]!);
  return { ticks: tickAtMs.length, maxGapMs };
}

describe('PGlite hands the event loop a turn during a run of statements', () => {
  let db: SqlDatabase;
  beforeAll(async () => {
    db = await openPglite();
    // The first statements of a fresh PGlite are slow (WASM warm-up): not part of what is measured.
    for (let n = 0; n < 20; n++) await db.query('select $1::int as n', [n]);
  });
  afterAll(async () => {
    await db.close();
  });

  it('outside a transaction', async () => {
    let statements = 0;
    const seen = await heartbeatDuring(async () => {
      const until = performance.now() + RUN_MS;
      while (performance.now() < until || statements < MIN_STATEMENTS) {
        await db.query('select $1::int as n', [statements]);
        statements += 1;
      }
    });
    expect(statements).toBeGreaterThanOrEqual(MIN_STATEMENTS);
    expect(seen.ticks).toBeGreaterThanOrEqual(3);
    expect(seen.maxGapMs).toBeLessThan(MAX_GAP_MS);
  });

  it('inside a transaction', async () => {
    const seen = await heartbeatDuring(() =>
      db.transaction(async (tx) => {
        const until = performance.now() + RUN_MS;
        for (let n = 0; performance.now() < until || n < MIN_STATEMENTS; n++) {
          await tx.query('select $1::int as n', [n]);
        }
      }),
    );
    expect(seen.ticks).toBeGreaterThanOrEqual(3);
    expect(seen.maxGapMs).toBeLessThan(MAX_GAP_MS);
  });
});
