import { DomainError, STREAMS, type ActorRef, type TransactionView } from '@transfergate/contracts';
import { WrongExpectedVersionError } from '@transfergate/event-store';
import { evolveWithAppended, type TransactionAggregate } from '../domain/transaction.js';
import { isRefusal, type Decided } from '../decisions/decision.js';
import { MAX_CONFLICT_RETRIES } from '../ledger.settings.js';
import type { LedgerRepository, PendingWrite } from '../persistence/ledger-repository.js';

/**
 * Runs one move on a transaction: load the transaction, load what its decision needs (`load`),
 * decide (pure, `decide`), append with the versions read; on a lost race, load again and decide
 * again (bounded). A second approve of the same transaction therefore sees the final state and is
 * refused with `transaction_final`: it never posts twice. A decision with no writes answers the
 * transaction as it is.
 */
export async function runTransition<C>(
  repository: LedgerRepository,
  transactionId: string,
  actor: ActorRef,
  load: (current: TransactionAggregate) => C | Promise<C>,
  decide: (current: TransactionAggregate, context: C) => Decided<PendingWrite[]>,
): Promise<TransactionView> {
  for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
    const current = await repository.loadTransaction(transactionId);
    if (!current) throw new DomainError('transaction_not_found', 'no such transaction');
    const writes = decide(current, await load(current));
    if (isRefusal(writes)) throw writes;
    if (writes.length === 0) return current.view;
    try {
      await repository.append(writes, actor);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) continue;
      throw error;
    }
    const txnStream = STREAMS.transaction(transactionId);
    const next = evolveWithAppended(current, txnStream, writes.find((w) => w.streamId === txnStream)!.events);
    return next.view;
  }
  throw new DomainError('concurrency_conflict', 'transaction is changing too fast; retry');
}

/** For a decision that needs nothing beyond the transaction. */
export const nothingMore = (): undefined => undefined;
