import { domainEvent, type RecordWebhookAmountMismatchCommand } from '@transfergate/contracts';
import type { TransactionAggregate } from '../domain/transaction.js';
import type { PendingWrite } from '../persistence/ledger-repository.js';
import { by, transactionWrite } from './decision.js';

/** What the handler loads for this decision. */
export interface WebhookMismatchContext {
  /** Whether the transaction's history has a mismatch for this very paid amount already. */
  recordedAlready: boolean;
}

/** States past which a webhook's differing amount is not recorded (an expired deposit included). */
const SETTLED_STATES: ReadonlySet<string> = new Set(['approved', 'rejected', 'expired']);

/**
 * An upstream webhook said a different amount was paid: recorded once per differing amount while
 * the transaction is open (not approved, rejected or expired), so an upstream's retries add nothing; nothing (no writes) otherwise.
 * Never refused: the webhook's answer does not depend on it.
 */
export function decideRecordWebhookAmountMismatch(
  command: RecordWebhookAmountMismatchCommand['input'],
  state: TransactionAggregate,
  context: WebhookMismatchContext,
): PendingWrite[] {
  const view = state.view;
  if (SETTLED_STATES.has(view.state) || context.recordedAlready) return [];
  return [
    transactionWrite(command.transactionId, state.version, [
      domainEvent('WebhookAmountMismatched', {
        transactionId: command.transactionId,
        amountKurus: view.amountKurus,
        paidAmountKurus: command.paidAmountKurus,
        by: by(command.actor),
      }),
    ]),
  ];
}
