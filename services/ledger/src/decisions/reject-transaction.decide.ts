import { DomainError, domainEvent, type RejectTransactionCommand } from '@transfergate/contracts';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { by, transactionWrite, type Decided } from './decision.js';
import { decideSettlement } from './settle-transaction.decide.js';

/** The longest reject reason kept. */
export const MAX_REJECT_REASON_CHARS = 500;

/**
 * The reason as recorded (trimmed), or the refusal of a missing or too long one. Checked by the
 * handler before anything is loaded, and again by the decision.
 */
export function rejectReasonOf(command: RejectTransactionCommand['input']): Decided<string> {
  const reason = command.reason.trim();
  if (!reason || reason.length > MAX_REJECT_REASON_CHARS) {
    return new DomainError('validation_failed', 'a reject reason of 1..500 characters is required');
  }
  return reason;
}

/**
 * Rejecting a transaction from an open state (an expired deposit too), with a reason; a rejected
 * withdrawal's reservation is voided in the same append, a deposit posts nothing.
 */
export function decideReject(
  command: RejectTransactionCommand['input'],
  state: TransactionAggregate,
): Decided<PendingWrite[]> {
  const reason = rejectReasonOf(command);
  if (reason instanceof DomainError) return reason;
  const view = state.view;
  const refusal = moveRefusal(view, 'reject');
  if (refusal) return refusal;
  const rejected = domainEvent('TransactionRejected', {
    transactionId: view.transactionId,
    reason,
    fromState: view.state,
    by: by(command.actor),
  });
  const settlement = decideSettlement('rejected', view, { merchant: undefined, reservation: undefined });
  const writes = [transactionWrite(view.transactionId, state.version, [rejected])];
  if (settlement) writes.push(settlement);
  return writes;
}
