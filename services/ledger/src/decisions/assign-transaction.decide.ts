import { domainEvent, type AssignTransactionCommand } from '@transfergate/contracts';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { by, transactionWrite, type Decided } from './decision.js';

/** An open transaction taken by an operator (a pending withdrawal moves to processing). */
export function decideAssign(
  command: AssignTransactionCommand['input'],
  state: TransactionAggregate,
): Decided<PendingWrite[]> {
  const refusal = moveRefusal(state.view, 'assign');
  if (refusal) return refusal;
  const { transactionId } = state.view;
  return [
    transactionWrite(transactionId, state.version, [
      domainEvent('TransactionAssigned', { transactionId, assignee: command.assignee, by: by(command.actor) }),
    ]),
  ];
}
