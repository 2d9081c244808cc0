import { domainEvent, type ReleaseRiskHoldCommand } from '@transfergate/contracts';
import { moveRefusal, type TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { by, transactionWrite, type Decided } from './decision.js';

/**
 * Releasing a transaction a risk rule holds: it goes on from where it started (a deposit awaits its
 * payment, a withdrawal is pending; its reservation was kept). Only from `held`; rejecting a held
 * transaction is the ordinary reject.
 */
export function decideReleaseRiskHold(
  command: ReleaseRiskHoldCommand['input'],
  state: TransactionAggregate,
): Decided<PendingWrite[]> {
  const refusal = moveRefusal(state.view, 'release');
  if (refusal) return refusal;
  return [
    transactionWrite(state.view.transactionId, state.version, [
      domainEvent('RiskHoldReleased', { transactionId: state.view.transactionId, by: by(command.actor) }),
    ]),
  ];
}
