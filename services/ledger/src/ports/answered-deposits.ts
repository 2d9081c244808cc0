import type { GlobalPosition, RowsAlongside } from '@transfergate/event-store';
import type { TransactionAggregate } from '../domain/transaction.js';

/**
 * The deposit's hot path: the one place the write side steps into the read side, and why.
 *
 * Every other command answers once the projection has applied its events (read-your-writes: the
 * caller can read its answer through every read model at once). A new deposit is the busiest
 * command and its answer is decided from the read models themselves (the receiving account and its
 * day's volume), so waiting for the projection on each one would cost a round of the projection per
 * deposit. Instead:
 *
 * 1. the write side writes the deposit's read row alongside its request event, in the event's own
 *    transaction (`rowAlongside`): every reader in every process finds the deposit the moment it is
 *    answered;
 * 2. it notes the answered deposit with the read side (`noteAnswered`): the deposit-context cache
 *    counts its amount in its receiving account's day at once, ahead of the projection;
 * 3. the next deposit is decided from that cache (DepositContexts), which therefore already counts
 *    this one;
 * 4. the projection, when it applies the request event, finds the row there and leaves it (its
 *    insert does nothing); its later events move the row on as usual.
 *
 * Where the read side cannot keep step 2 (another process runs the projection, the cache is
 * reloading, too many deposits are ahead) `noteAnswered` says false, and the write side waits for
 * the projection as every other command does. The write side calls this port; the read side
 * (LedgerProjectionRunner) implements it; neither imports the other.
 */
export interface AnsweredDeposits {
  /**
   * The new transaction's read row, for its append to write alongside its request event: exactly
   * the row the projection would insert for that event (times stamped by the store at commit).
   */
  rowAlongside(streamId: string, opened: TransactionAggregate): RowsAlongside;
  /**
   * A deposit was answered before the projection applied it. True when the read side counts it from
   * now on in its account's day (`day`, the day it was decided on) until the projection passes
   * `position`; false when the caller must wait for the projection instead.
   */
  noteAnswered(deposit: AnsweredDeposit): boolean;
}

export interface AnsweredDeposit {
  transactionId: string;
  bankAccountId: string;
  /** The Turkish business day the deposit was decided on (its account's volume was read for). */
  day: string;
  amountKurus: bigint;
  /** The request event's position in the store. */
  position: GlobalPosition;
}

export const ANSWERED_DEPOSITS = Symbol('AnsweredDeposits');
