import {
  DomainError,
  domainEvent,
  type ApproveTransactionCommand,
  type TransactionView,
} from '@transfergate/contracts';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { by, formatKurus, transactionWrite, type Decided } from './decision.js';
import { decideSettlement, type SettlementContext } from './settle-transaction.decide.js';

/**
 * Approving a transaction: from an open state (an expired deposit too when the approver may), at
 * the amount it holds (a paid amount that differs is refused and left for an operator), with its
 * settlement on the merchant's ledger in the same append.
 */
export function decideApprove(
  command: ApproveTransactionCommand['input'],
  state: TransactionAggregate,
  context: SettlementContext,
): Decided<PendingWrite[]> {
  const view: TransactionView = state.view;
  const refusal = moveRefusal(view, view.type === 'deposit' && command.allowExpired ? 'approve-expired' : 'approve');
  if (refusal) return refusal;
  if (command.paidAmountKurus !== undefined && BigInt(command.paidAmountKurus) !== BigInt(view.amountKurus)) {
    return new DomainError(
      'amount_mismatch',
      `paid amount ${formatKurus(command.paidAmountKurus)} differs from the transaction's ${formatKurus(view.amountKurus)}: not approved, held for an operator`,
      { amountKurus: view.amountKurus, paidAmountKurus: command.paidAmountKurus },
    );
  }
  const approved = domainEvent('TransactionApproved', {
    transactionId: view.transactionId,
    amountKurus: view.amountKurus,
    fromState: view.state,
    by: by(command.actor),
  });
  return [
    transactionWrite(view.transactionId, state.version, [approved]),
    decideSettlement('approved', view, context)!,
  ];
}
