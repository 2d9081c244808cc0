import type { SqlExecutor } from '@transfergate/event-store';

/** Numbers taken from the sequence per round trip. */
export const NUMBER_BLOCK_SIZE = 64;
/**
 * The next block is fetched once fewer than this many numbers are left, while those are handed
 * out: no deposit waits for it (on PGlite that wait sat behind the group append and the projection
 * batch in flight, one deposit in every block paying a whole extra turn of the queue).
 */
export const NUMBER_REFILL_BELOW = 32;

/**
 * The contract's integer transaction ids, drawn from `txn_number_seq` a block at a time so that a
 * deposit does not pay a round trip for its number. Numbers stay unique and never reused; as with
 * any sequence, gaps are possible (up to two blocks left unused when the process stops), and with
 * several ledger processes numbers are not in creation order across processes.
 */
export class TransactionNumbers {
  private block: number[] = [];
  private refill?: Promise<void>;

  constructor(
    private readonly db: SqlExecutor,
    private readonly blockSize = NUMBER_BLOCK_SIZE,
    private readonly refillBelow = NUMBER_REFILL_BELOW,
  ) {
    if (!Number.isInteger(blockSize) || blockSize < 1 || blockSize > 10_000) throw new RangeError('blockSize 1..10000');
    if (!Number.isInteger(refillBelow) || refillBelow < 0 || refillBelow >= blockSize)
      throw new RangeError('refillBelow 0..blockSize-1');
  }

  async next(): Promise<number> {
    for (;;) {
      const value = this.block.shift();
      if (value !== undefined) {
        // A failed refill ahead is retried by whoever finds the block empty (and sees its error).
        if (this.block.length < this.refillBelow) this.startRefill().catch(() => undefined);
        return value;
      }
      await this.startRefill();
    }
  }

  /** Fetches the next block unless one is on its way; answers when it has arrived. */
  private startRefill(): Promise<void> {
    this.refill ??= this.fetch().finally(() => {
      this.refill = undefined;
    });
    return this.refill;
  }

  private async fetch(): Promise<void> {
    const { rows } = await this.db.query<{ n: string }>(
      // Sorted here, as numbers (an `order by` of the text would put "1000" before "999").
      `select nextval('txn_number_seq')::text as n from generate_series(1, $1::int)`,
      [this.blockSize],
    );
    // Blocks arrive one at a time (startRefill), each above the last: the numbers stay ascending.
    this.block.push(...rows.map((row) => Number(row.n)).sort((a, b) => a - b));
  }
}
