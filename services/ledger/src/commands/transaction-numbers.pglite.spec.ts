import { openPglite, type SqlDatabase, type SqlExecutor } from '@transfergate/event-store';
import { NUMBER_BLOCK_SIZE, NUMBER_REFILL_BELOW, TransactionNumbers } from './transaction-numbers.js';

/**
 * Transaction numbers come a block at a time from the real sequence; the next block is fetched
 * while the last numbers of the current one are handed out, so that (after the very first) no
 * number waits for a round trip, which on PGlite queues behind whatever holds the connection.
 */
describe('TransactionNumbers', () => {
  let db: SqlDatabase;
  /** The database with every statement held back ROUND_TRIP_MS, like a busy connection. */
  let slow: SqlExecutor;
  /** Statements of `slow` answered so far (counted before the caller sees the answer). */
  let slowAnswered = 0;
  const ROUND_TRIP_MS = 40;
  /**
   * One deposit per this many ms: the refill starts with NUMBER_REFILL_BELOW - 1 numbers left, which
   * then last 31 x 4 = 124 ms against a 40 ms round trip. (At one per ms they lasted 31-60 ms against
   * 60, so a run on a loaded machine saw a deposit wait: the test measured its own timers.)
   */
  const DEPOSIT_EVERY_MS = 4;
  beforeAll(async () => {
    db = await openPglite();
    await db.exec('create sequence txn_number_seq');
    slow = {
      query: async (sql, params) => {
        await new Promise((resolve) => setTimeout(resolve, ROUND_TRIP_MS));
        try {
          return await db.query(sql, params);
        } finally {
          slowAnswered++;
        }
      },
    };
  });
  afterAll(async () => {
    await db.close();
  });

  it('hands out unique ascending numbers to concurrent callers', async () => {
    const numbers = new TransactionNumbers(db);
    const got = await Promise.all(Array.from({ length: 5 * NUMBER_BLOCK_SIZE }, () => numbers.next()));
    expect(new Set(got).size).toBe(got.length);
    expect(got).toEqual([...got].sort((a, b) => a - b));
  });

  it('only the first number waits for a round trip: later blocks arrive ahead of need', async () => {
    const numbers = new TransactionNumbers(slow);
    const waitedMs: number[] = [];
    // Whether a statement was answered while this caller waited. A number already in hand resolves
    // within the microtask queue, where no timer and no database answer can run, so this says
    // "waited for a round trip" whatever the machine's load (a wall-clock bound flaked in CI when
    // the process was stalled for 38 ms).
    const waitedForAnswer: boolean[] = [];
    const got: number[] = [];
    for (let i = 0; i < 4 * NUMBER_BLOCK_SIZE; i++) {
      const started = performance.now();
      const answeredBefore = slowAnswered;
      got.push(await numbers.next());
      waitedMs.push(performance.now() - started);
      waitedForAnswer.push(slowAnswered !== answeredBefore);
      // Deposits keep coming while a block is on its way.
      await new Promise((resolve) => setTimeout(resolve, DEPOSIT_EVERY_MS));
    }
    expect((NUMBER_REFILL_BELOW - 1) * DEPOSIT_EVERY_MS).toBeGreaterThanOrEqual(3 * ROUND_TRIP_MS);
    expect(waitedMs[0]).toBeGreaterThanOrEqual(ROUND_TRIP_MS - 5);
    expect(waitedForAnswer[0]).toBe(true);
    const waiters = waitedForAnswer.flatMap((waited, i) => (i > 0 && waited ? [i] : []));
    expect(waiters).toEqual([]);
    // The blocks after the first were fetched: 4 blocks, so at least 3 more answers.
    expect(slowAnswered).toBeGreaterThanOrEqual(4);
    expect(new Set(got).size).toBe(got.length);
    expect(got).toEqual([...got].sort((a, b) => a - b));
  });

  it('refuses block settings that cannot work', () => {
    expect(() => new TransactionNumbers(db, 0)).toThrow(RangeError);
    expect(() => new TransactionNumbers(db, 8, 8)).toThrow(RangeError);
  });
});
