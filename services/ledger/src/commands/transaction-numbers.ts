import type { SqlExecutor } from '@transfergate/event-store';

/** Numbers taken from the sequence per round trip. */
export const NUMBER_BLOCK_SIZE = 32;

/**
 * The contract's integer transaction ids, drawn from `txn_number_seq` a block at a time so that a
 * deposit does not pay a round trip for its number. Numbers stay unique and never reused; as with
 * any sequence, gaps are possible (a block left unused when the process stops), and with several
 * ledger processes numbers are not in creation order across processes.
 */
export class TransactionNumbers {
  private block: number[] = [];
  private refill?: Promise<void>;

  constructor(private readonly db: SqlExecutor) {}

  async next(): Promise<number> {
    for (;;) {
      const value = this.block.shift();
      if (value !== undefined) return value;
      this.refill ??= this.fetch().finally(() => {
        this.refill = undefined;
      });
      await this.refill;
    }
  }

  private async fetch(): Promise<void> {
    const { rows } = await this.db.query<{ n: string }>(
      // Sorted here, as numbers (an `order by` of the text would put "1000" before "999").
      `select nextval('txn_number_seq')::text as n from generate_series(1, $1::int)`,
      [NUMBER_BLOCK_SIZE],
    );
    this.block.push(...rows.map((row) => Number(row.n)).sort((a, b) => a - b));
  }
}
