import { DomainError, domainEvent, type ExpireTransactionCommand } from '@transfergate/contracts';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { transactionWrite, type Decided } from './decision.js';

/**
 * An open deposit past its expiry time expires. The clock is the command's `now` (the sweeper's),
 * so a deposit approved or not yet due when the command runs is left alone.
 */
export function decideExpire(
  command: ExpireTransactionCommand['input'],
  state: TransactionAggregate,
): Decided<PendingWrite[]> {
  const refusal = moveRefusal(state.view, 'expire');
  if (refusal) return refusal;
  if (!state.view.expiresAt || new Date(state.view.expiresAt) > command.now) {
    return new DomainError('invalid_state_transition', 'deposit has not reached its expiry time');
  }
  const { transactionId } = state.view;
  return [transactionWrite(transactionId, state.version, [domainEvent('TransactionExpired', { transactionId })])];
}
